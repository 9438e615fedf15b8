"""Zwicken's worked examples from source 001, as reference vectors (zwicken_vectors.json).

Each vector quotes the French source verbatim and gives, worked out by hand
(its ``why``), the chips every seat must get and the pot after the deal; or
the code the engine must refuse it with. ``line`` vectors are played on a
``ZwickenSheet`` after their ``before`` lines; ``record`` vectors go through
``check_record``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games import find
from games.errors import InvalidLine, InvalidRecord
from games.zwicken import ZwickenSheet, check_record

HERE = Path(__file__).resolve().parent
VECTORS: list[dict[str, Any]] = json.loads((HERE / "zwicken_vectors.json").read_text(encoding="utf-8"))["vectors"]
SOURCE = HERE / "sources" / "001_d18c9f849ac710f3.txt"
IDS = [v["id"] for v in VECTORS]


def _normalised(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_the_engine_settles_the_source_example_as_worked_out_by_hand(vector: dict[str, Any]) -> None:
    rules = find(vector["rules"])
    if "record" in vector:
        if "error" in vector:
            with pytest.raises(InvalidRecord) as refused:
                check_record(vector["record"])
            assert vector["error"] in refused.value.codes, vector["why"]
            return
        result = check_record(vector["record"])
        if "tricks" in vector:
            assert result.line["tricks"] == vector["tricks"], vector["why"]
            assert result.line["duties_failed"] == vector["duties_failed"], vector["why"]
        settled = result.settled
        pot_before = vector["record"].get("pot", 0)
    else:
        sheet = ZwickenSheet(rules, vector["players"])
        for line in vector.get("before", []):
            sheet.add(line)
        pot_before = sheet.pot
        if "error" in vector:
            with pytest.raises(InvalidLine) as refused_line:
                sheet.add(vector["line"])
            assert vector["error"] in refused_line.value.codes, vector["why"]
            return
        settled = sheet.add(vector["line"])
        if "next_dealer" in vector:
            assert sheet.expected_dealer == vector["next_dealer"], vector["why"]
        assert sum(sheet.totals) + sheet.pot == 0
    assert list(settled.points) == vector["chips"], vector["why"]
    assert settled.pot == vector["pot"], vector["why"]
    assert sum(settled.points) + settled.pot - pot_before == 0


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_the_vector_quotes_source_001_verbatim(vector: dict[str, Any]) -> None:
    assert vector["source"] == SOURCE.name
    text = _normalised(SOURCE.read_text(encoding="utf-8"))
    for quote in vector["quote"]:
        assert _normalised(quote) in text, f"{quote!r} is not in {SOURCE.name}"


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_the_vector_is_well_formed(vector: dict[str, Any]) -> None:
    assert vector["id"].startswith("001-") and vector["quote"] and vector["why"]
    assert ("line" in vector) != ("record" in vector)
    if "error" in vector:
        assert "chips" not in vector
    else:
        assert len(vector["chips"]) == vector["players"]
    if "record" in vector:
        assert vector["record"]["rules"] == vector["rules"]
        assert vector["record"]["players"] == vector["players"]


def test_the_vectors_cover_every_zwicken_preset_and_the_examples_of_the_source() -> None:
    assert {v["rules"] for v in VECTORS} == {"zwicken", "dreierzwicken", "zwicken_styrian", "zwicken_4cards"}
    covered = " ".join(q for v in VECTORS for q in v["quote"])
    for example in (
        "trois jetons dans le pot",
        "la donne est annulée",
        "la donne passe au coupeur",
        "un tiers du pot par pli",
        "dans le pot suivant",
        "non entamé à la première occasion",
        "le Belli (en le jouant lorsque l'As d'atout est entamé)",
        "Durchmarsch",
        "aucun abandon n'est autorisé",
        "Sechser-Belli",
        "joue quatre plis",
    ):
        assert example in covered, example
