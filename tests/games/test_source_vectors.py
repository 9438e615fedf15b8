"""The source texts' worked examples and tariffs, as reference vectors (vectors.json).

Each vector quotes its source (a file of ``rules/seeds/`` or RULES.md) and gives
the points every seat must get, derived by hand from that quote (its ``why``).
The sheet plays the vector's ``before`` lines, then its line, and must settle it
exactly so.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games import InvalidLine, Sheet, find, names

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
_ALL = json.loads((HERE / "vectors.json").read_text(encoding="utf-8"))
VECTORS: list[dict[str, Any]] = _ALL["vectors"]
REFUSALS: list[dict[str, Any]] = _ALL["refusals"]

# Copies of shared/rules/seeds and shared/RULES.md, kept with the tests so the quotes are always checked.
_SOURCE_DIRS = (Path(__file__).parent / "sources",)
_SPEC_FILES = (Path(__file__).parent / "sources" / "RULES.md",)


def _ids(vectors: list[dict[str, Any]]) -> list[str]:
    return [v["id"] for v in vectors]


def _source_text(source: str) -> str | None:
    candidates = _SPEC_FILES if source == "RULES.md" else tuple(d / source for d in _SOURCE_DIRS)
    for path in candidates:
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return None


def _normalised(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("vector", VECTORS, ids=_ids(VECTORS))
def test_the_sheet_settles_the_source_example_as_the_source_says(vector: dict[str, Any]) -> None:
    sheet = Sheet(find(vector["rules"]), players=vector["players"], deals=None)
    for line in vector.get("before", []):
        sheet.add(line)

    settled = sheet.add(vector["line"])

    assert list(settled.points) == vector["points"], vector["why"]
    assert settled.multiplier == vector["multiplier"], vector["why"]
    if "next_dealer" in vector:
        assert sheet.expected_dealer == vector["next_dealer"], vector["why"]


@pytest.mark.parametrize("refusal", REFUSALS, ids=_ids(REFUSALS))
def test_the_sheet_refuses_what_the_source_forbids(refusal: dict[str, Any]) -> None:
    sheet = Sheet(find(refusal["rules"]), players=refusal["players"], deals=None)
    for line in refusal.get("before", []):
        sheet.add(line)
    with pytest.raises(InvalidLine) as refused:
        sheet.add(refusal["line"])
    assert [(e.code, e.field) for e in refused.value.errors] == [(refusal["code"], refusal["field"])], refusal["why"]
    assert sheet.lines == refusal.get("before", [])  # nothing stored


@pytest.mark.parametrize("vector", VECTORS + REFUSALS, ids=_ids(VECTORS + REFUSALS))
def test_the_vector_quotes_its_source_verbatim(vector: dict[str, Any]) -> None:
    text = _source_text(vector["source"])
    assert text is not None, f"source text {vector['source']} is missing from tests/games/sources"
    for quote in vector["quote"]:
        assert _normalised(quote) in _normalised(text), f"{quote!r} is not in {vector['source']}"


@pytest.mark.parametrize("vector", VECTORS, ids=_ids(VECTORS))
def test_the_vector_is_well_formed(vector: dict[str, Any]) -> None:
    prefix = "rules" if vector["source"] == "RULES.md" else vector["source"][:3]
    assert vector["id"].startswith(prefix + "-"), "the id names the source"
    assert vector["quote"] and vector["why"]
    assert len(vector["points"]) == vector["players"]
    assert sum(vector["points"]) == 0, "the expected points must sum to zero (RULES.md 3)"
    assert vector["rules"] in names()


def test_the_vectors_cover_every_preset_and_every_source() -> None:
    assert {v["rules"] for v in VECTORS} == {"iwwa", "flemish", "belgian", "solo_whist"}
    assert {v["source"] for v in VECTORS} == {
        "000_6ee27c1929e22e14.txt",
        "002_6f0540b02357d09b.txt",
        "003_4eb1cc002262a4a7.txt",
        "RULES.md",
    }
    assert len(set(_ids(VECTORS))) == len(VECTORS), "vector ids are unique"


def test_every_enabled_contract_of_a_preset_has_a_vector() -> None:
    # piccolo's amount in `belgian` is picked (000 gives none), so no source vector can fix it.
    unsourced = {("belgian", "piccolo")}
    covered = {(v["rules"], v["line"]["contract"]) for v in VECTORS}
    for name in ("iwwa", "flemish", "belgian", "solo_whist"):
        for contract in find(name).ladder:
            if (name, contract) not in unsourced:
                assert (name, contract) in covered, f"{name}: no vector for {contract}"
