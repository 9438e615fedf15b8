"""A rule set's worked examples (issue 17: what the rule set editor shows beside its form) are the engine's own
settlement, and the command line prints exactly them."""

from __future__ import annotations

import io
import json
from itertools import combinations

import pytest

from games import apply_overrides, find, names
from games.cli import main
from games.examples import worked_examples
from games.presets import VARIANTS
from games.rulesets import Game

TRICK_TAKING = [name for name in names() if find(name).zwicken is None]
# every Wiezen preset with every set of variants: kleurenwiezen's vraag once had no trump and broke the editor
WITH_VARIANTS = [
    "+".join((name, *chosen))
    for name in names()
    if find(name).game is Game.WIEZEN
    for size in range(1, len(VARIANTS) + 1)
    for chosen in combinations(VARIANTS, size)
]
HOUSE = {"preset": "iwwa", "miserie_settlement": "pooled", "troel_target": 9, "tariffs": {"vraag": {"over_until": 9}}}


@pytest.mark.parametrize("name", TRICK_TAKING + WITH_VARIANTS)
def test_the_command_line_prints_the_examples_the_engine_settles(name: str) -> None:
    out = io.StringIO()
    assert main(["examples", "--rules", name], out=out) == 0
    printed = [json.loads(line) for line in out.getvalue().splitlines()]
    assert printed == [example.to_json() for example in worked_examples(find(name))]
    assert all(sum(example["points"]) == 0 for example in printed)


def test_a_house_rule_set_from_a_file_gives_its_own_figures(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "house.json"
    path.write_text(json.dumps(HOUSE), encoding="utf-8")
    out = io.StringIO()
    assert main(["examples", "--rules", str(path)], out=out) == 0
    printed = {e["key"]: e for e in map(json.loads, out.getvalue().splitlines())}
    # vraag's overtricks counted up to 9 tricks: 10 tricks pays 2 + 1, not 2 + 2
    assert printed["vraag_two_overtricks"]["points"] == [-3, 3, -3, 3]
    # pooled: the one who failed pays the one who made it, 7
    assert printed["two_miseries_one_fails"]["points"] == [0, 7, 0, -7]
    # troel for nine, made with nine
    assert printed["pass_then_troel"]["lines"][-1]["tricks"] == 9 and printed["pass_then_troel"]["made"] == [True]


def test_flemish_examples_are_the_sources_figures() -> None:
    # 002: "10 slagen gehaald ... de winnaars krijgen 2+2=4 punten"; alone with 4 tricks: -9 for the player, +3 each
    examples = {e.key: e for e in worked_examples(find("flemish"))}
    assert examples["vraag_two_overtricks"].points == (-4, 4, -4, 4)
    assert examples["alleen_one_down"].points == (3, 3, -9, 3)
    # troel after an all-pass round: doubled by the pass and by troel itself
    assert examples["pass_then_troel"].multiplier == 4


def test_only_the_contracts_a_rule_set_plays_have_examples() -> None:
    one_v_three = find("iwwa+1v3")  # no vraag, no troel
    keys = [e.key for e in worked_examples(one_v_three)]
    assert "vraag_two_overtricks" not in keys and keys[-1] == "pass_then_troel"
    assert worked_examples(one_v_three)[-1].lines[-1]["contract"] == one_v_three.ladder[0]
    single = apply_overrides(find("iwwa"), {"multiple_miserie": False})
    assert "miserie_fails" in [e.key for e in worked_examples(single)]


def test_an_unknown_rule_set_is_refused_in_words() -> None:
    err = io.StringIO()
    assert main(["examples", "--rules", "nope"], out=io.StringIO(), err=err) == 2
    assert "nope" in err.getvalue()
