"""The README's duplicate section says what the code does: its IMP table is ``IMP_SCALE``, and its PBN tags are
the ones the writer writes."""

from __future__ import annotations

import re
from pathlib import Path

from games.duplicate import deal_board, imps, to_pbn

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def _row(label: str) -> list[str]:
    line = next(line for line in README.splitlines() if line.startswith(f"| {label} |"))
    return [cell.strip() for cell in line.strip("|").split("|")][1:]


def test_the_readme_imp_table_is_the_scale_the_code_uses() -> None:
    spans, values = _row("points difference"), _row("IMPs")
    assert len(spans) == len(values) == 13
    for span, value in zip(spans, values, strict=True):
        low, _, high = span.partition("–")
        low = low.rstrip("+")
        ends = [int(low)] + ([int(high)] if high else [int(low) + 100])
        assert all(imps(difference) == int(value) for difference in ends), span


def test_every_pbn_tag_the_readme_names_is_one_the_writer_writes() -> None:
    section = README[README.index("**PBN files**") : README.index("**The solver**")]
    named = set(re.findall(r"`\[(\w+) ", section))
    written = set(re.findall(r"^\[(\w+) ", to_pbn([deal_board(1, 7)]), re.M))
    assert named == {"Board", "Dealer", "Vulnerable", "Deal", "TurnedCard"}
    assert named <= written
