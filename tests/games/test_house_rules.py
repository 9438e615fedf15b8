"""House rules beyond the presets (issue 17): each option as JSON, validated, and settled as its words say.

The properties of ``test_properties.py`` (zero sum, the fifth seat, relabelling, whole sessions) run on rule sets
that use these options too; here, the figures of each option worked out by hand.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import RuleSet, RuleSetError, Sheet, apply_overrides, find
from games.cli import main
from games.generate import random_line

IWWA_POOLED = apply_overrides(find("iwwa"), {"miserie_settlement": "pooled"})  # miserie 7 per opponent


def settled(rules: RuleSet, line: dict[str, Any], players: int = 4) -> tuple[int, ...]:
    return Sheet(rules, players, deals=None).add({"deal": 1, "dealer": 0, **line}).points


def miserie(declarers: list[int], tricks: list[int]) -> dict[str, Any]:
    return {"contract": "miserie", "declarers": declarers, "tricks": tricks}


# -- pooled miserie -------------------------------------------------------------------------------------------------


def test_pooled_the_one_who_made_it_collects_from_the_one_who_failed() -> None:
    # seat 1 made it (0 tricks), seat 2 failed (1 trick): 2 pays 1 the 7; the two others neither pay nor collect
    assert settled(IWWA_POOLED, miserie([1, 2], [0, 1])) == (0, 7, -7, 0)
    # settled each alone instead: 1 gets 7 from each of three (2 included), 2 pays 7 to each of three (1 included)
    assert settled(find("iwwa"), miserie([1, 2], [0, 1])) == (0, 21 + 7, -21 - 7, 0)


def test_pooled_when_nobody_fails_the_other_players_pay_and_when_all_fail_they_collect() -> None:
    assert settled(IWWA_POOLED, miserie([1, 2], [0, 0])) == (-14, 14, 14, -14)
    assert settled(IWWA_POOLED, miserie([1, 2], [2, 1])) == (14, -14, -14, 14)
    # two made and one failed: the failed one pays each of them
    assert settled(IWWA_POOLED, miserie([0, 1, 3], [0, 3, 0])) == (7, -14, 0, 7)


def test_pooled_at_a_table_of_five_the_dealer_sitting_out_gets_nothing() -> None:
    # dealer 0 sits out; 1 and 2 made it: the other players, 3 and 4, pay each of them
    assert settled(IWWA_POOLED, miserie([1, 2], [0, 0]), players=5) == (0, 14, 14, -14, -14)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([4, 5]))
def test_pooled_and_independent_agree_unless_some_made_it_and_some_failed(seed: int, players: int) -> None:
    rng = random.Random(seed)
    independent = find("belgian")
    pooled = apply_overrides(independent, {"miserie_settlement": "pooled"})
    line = random_line(independent, rng, 1, rng.randrange(players), players, pass_rate=0.0)
    a, b = Sheet(independent, players, None).add(line), Sheet(pooled, players, None).add(line)
    assert sum(b.points) == 0 and b.made == a.made
    if len(set(a.made)) <= 1:  # all made, all failed, or not a miserie: the same points
        assert b.points == a.points
    else:
        assert b.points != a.points


def test_miserie_settlement_is_json_and_refused_in_words_when_unknown() -> None:
    assert RuleSet.from_json(IWWA_POOLED.to_json()) == IWWA_POOLED
    assert IWWA_POOLED.to_json()["miserie_settlement"] == "pooled"
    assert find("iwwa").to_json()["miserie_settlement"] == "independent"
    with pytest.raises(RuleSetError) as refused:
        apply_overrides(find("iwwa"), {"miserie_settlement": "shared"})
    assert "'independent', 'pooled'" in str(refused.value)


# -- troel's target -------------------------------------------------------------------------------------------------


def test_troel_for_nine_fails_with_eight_and_is_made_with_nine() -> None:
    # flemish troel: as vraag (2, +1 per overtrick; failed 3, +1 further), doubled; 8 v 9 tricks to make it
    nine = apply_overrides(find("flemish"), {"troel_target": 9})
    troel = {"contract": "troel", "declarers": [1, 3]}
    assert settled(find("flemish"), {**troel, "tricks": 8}) == (-4, 4, -4, 4)
    assert settled(nine, {**troel, "tricks": 8}) == (6, -6, 6, -6)  # one short: 3, doubled
    assert settled(nine, {**troel, "tricks": 9}) == (-4, 4, -4, 4)
    assert settled(nine, {**troel, "tricks": 11}) == (-8, 8, -8, 8)  # 2 overtricks: 4, doubled


@pytest.mark.parametrize("target", [7, 13, "9", True])
def test_troel_target_outside_8_to_12_is_refused_in_words(target: object) -> None:
    with pytest.raises(RuleSetError) as refused:
        apply_overrides(find("iwwa"), {"troel_target": target})
    assert "troel_target" in str(refused.value)


def test_a_rule_set_stored_before_the_options_reads_with_their_defaults() -> None:
    stored = find("iwwa").to_json()
    del stored["miserie_settlement"], stored["troel_target"]
    assert RuleSet.from_json(stored) == find("iwwa")


def test_the_command_line_lists_the_house_rules_with_their_defaults() -> None:
    import io

    out = io.StringIO()
    assert main(["presets"], out=out) == 0
    listed = {line.split()[0]: line.split()[1] for line in out.getvalue().split("house rules")[1].splitlines()[1:]}
    assert listed["miserie_settlement"] == json.dumps("independent")
    assert listed["troel_target"] == "8" and listed["early_end"] == "false" and listed["multiple_miserie"] == "true"
