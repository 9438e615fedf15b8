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

from games import InvalidLine, RuleSet, RuleSetError, Sheet, apply_overrides, find
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
    assert listed["tariffs.*.over_until"] == "null" and listed["tariffs.*.fail_factor"] == "1"
    assert listed["tariffs.*.fail_per_from_first"] == "false" and listed["tariffs.*.all_tricks"] == "null"
    assert listed["tariffs.*.levels"] == "{}" and listed["tariffs.*.declarer_made"] == "null"


# -- tariffs: capped overtricks, failures that cost a multiple, every trick off counted, a fixed all-tricks amount


def test_overtricks_count_up_to_the_cap() -> None:
    # iwwa alleen: 2 per opponent, +1 per overtrick; counted up to 8 tricks: 10 tricks pays as 8, 2 + 3 = 5
    capped = apply_overrides(find("iwwa"), {"tariffs": {"alleen": {"over_until": 8}}})
    alleen = {"contract": "alleen", "declarers": [2]}
    assert settled(capped, {**alleen, "tricks": 10}) == (-5, -5, 15, -5)
    assert settled(find("iwwa"), {**alleen, "tricks": 10}) == (-7, -7, 21, -7)
    assert settled(capped, {**alleen, "tricks": 7}) == settled(find("iwwa"), {**alleen, "tricks": 7})


def test_a_failure_can_cost_a_multiple() -> None:
    # iwwa vraag failed by one: 6 each; twice that with fail_factor 2
    double = apply_overrides(find("iwwa"), {"tariffs": {"vraag": {"fail_factor": 2}}})
    vraag = {"contract": "vraag", "declarers": [1, 3], "tricks": 7}
    assert settled(find("iwwa"), vraag) == (6, -6, 6, -6)
    assert settled(double, vraag) == (12, -12, 12, -12)


def test_abondance_paid_by_tricks_counts_every_trick_off_when_asked() -> None:
    # "5 + 1 per trick": abondance 9 pays 5 and 1 per overtrick; failed, 5 and 1 per trick off, the first too
    by_tricks = apply_overrides(
        find("iwwa"),
        {"tariffs": {"abondance": {"levels": {"9": 5}, "over": 1, "fail_per": 1, "fail_per_from_first": True}}},
    )
    abondance = {"contract": "abondance", "level": 9, "trump": "S", "declarers": [0]}
    assert settled(by_tricks, {**abondance, "tricks": 11}) == (21, -7, -7, -7)  # 5 + 2
    assert settled(by_tricks, {**abondance, "tricks": 7}) == (-21, 7, 7, 7)  # 5 + 2 tricks off
    counted_after_first = apply_overrides(by_tricks, {"tariffs": {"abondance": {"fail_per_from_first": False}}})
    assert settled(counted_after_first, {**abondance, "tricks": 7}) == (-18, 6, 6, 6)  # 5 + 1 (the second)


def test_all_tricks_can_pay_a_fixed_amount() -> None:
    # belgian vraag (1, +1 per overtrick, per pair): 13 tricks pays 20 a pair instead of 1 + 5
    fixed_bonus = apply_overrides(find("belgian"), {"tariffs": {"vraag": {"all_tricks": 20}}})
    vraag = {"contract": "vraag", "declarers": [0, 2]}
    assert settled(fixed_bonus, {**vraag, "tricks": 13}) == (40, -40, 40, -40)
    assert settled(find("belgian"), {**vraag, "tricks": 13}) == (12, -12, 12, -12)
    assert settled(fixed_bonus, {**vraag, "tricks": 12}) == settled(find("belgian"), {**vraag, "tricks": 12})


def test_tariff_options_a_contract_cannot_use_are_all_refused_at_once_in_words() -> None:
    with pytest.raises(RuleSetError) as refused:
        apply_overrides(
            find("flemish"),
            {
                "tariffs": {
                    "miserie": {"over_until": 3, "all_tricks": 9},
                    "vraag": {"over_until": 5, "all_tricks": 9},  # flemish doubles vraag with all tricks already
                }
            },
        )
    said = str(refused.value)
    assert "tariffs.miserie.over_until: miserie has no overtricks" in said
    assert "tariffs.miserie.all_tricks: miserie asks for every trick or none" in said
    assert "tariffs.vraag.over_until: 5 tricks is not between the contract's 8 and 12" in said
    assert "tariffs.vraag.all_tricks: a fixed amount or all_tricks_double, not both" in said
    with pytest.raises(RuleSetError, match="fail_factor: a failure costs 1 to 10 times"):
        apply_overrides(find("iwwa"), {"tariffs": {"vraag": {"fail_factor": 0}}})
    with pytest.raises(RuleSetError, match="fail_per_from_first: expected true or false"):
        apply_overrides(find("iwwa"), {"tariffs": {"vraag": {"fail_per_from_first": 1}}})


def test_tariff_options_are_json_with_their_defaults() -> None:
    rules = apply_overrides(find("iwwa"), {"tariffs": {"alleen": {"over_until": 8, "fail_factor": 3}}})
    assert RuleSet.from_json(json.loads(json.dumps(rules.to_json()))) == rules
    plain = find("iwwa").to_json()["tariffs"]["vraag"]
    assert {k: plain[k] for k in ("over_until", "fail_factor", "fail_per_from_first", "all_tricks")} == {
        "over_until": None,
        "fail_factor": 1,
        "fail_per_from_first": False,
        "all_tricks": None,
    }


# -- tariffs set seat by seat, which need not sum to zero -------------------------------------------------------------

# one home scorer: a made grote miserie (open_miserie) pays +36 to the declarer and 0 to the others; a failed kleine
# miserie costs the declarer 18 and pays each other player 12
HOME = apply_overrides(
    find("belgian"),
    {
        "tariffs": {
            "open_miserie": {"declarer_made": 36, "others_made": 0, "declarer_failed": 36, "others_failed": 0},
            "kleine_miserie": {"declarer_made": 12, "others_made": 4, "declarer_failed": 18, "others_failed": 12},
        }
    },
)


def test_a_tariff_set_seat_by_seat_pays_each_seat_its_own_amount() -> None:
    assert not HOME.zero_sum and find("belgian").zero_sum
    assert settled(HOME, {"contract": "open_miserie", "declarers": [2], "tricks": [0]}) == (0, 0, 36, 0)
    assert settled(HOME, {"contract": "kleine_miserie", "declarers": [1], "tricks": [1]}) == (12, -18, 12, 12)
    assert settled(HOME, {"contract": "kleine_miserie", "declarers": [1], "tricks": [0]}) == (-4, 12, -4, -4)
    # two players each settle alone: 3 made it, 1 failed
    assert settled(HOME, {"contract": "kleine_miserie", "declarers": [1, 3], "tricks": [2, 0]}) == (8, -22, 8, 24)
    # at a table of five the dealer, sitting out, gets nothing
    assert settled(HOME, {"contract": "open_miserie", "declarers": [2], "tricks": [0]}, players=5) == (0, 0, 36, 0, 0)


def test_a_seat_by_seat_tariff_doubles_after_an_all_pass_round() -> None:
    doubled = apply_overrides(HOME, {"doubling": "next_deal", "after_pass": "next_dealer"})
    sheet = Sheet(doubled, 4, None)
    sheet.add({"deal": 1, "dealer": 0, "contract": "pass"})
    line = {"deal": 2, "dealer": 1, "contract": "open_miserie", "declarers": [2], "tricks": [0]}
    assert sheet.add(line).points == (0, 0, 72, 0)


def test_points_typed_by_hand_need_not_sum_to_zero_where_the_tariff_does_not() -> None:
    line = {"contract": "open_miserie", "declarers": [2], "tricks": [0], "points": [0, 0, 36, 0]}
    assert settled(HOME, line) == (0, 0, 36, 0)
    with pytest.raises(InvalidLine) as refused:
        settled(HOME, {**line, "points": [0, 0, 35, 0]})
    assert [e.code for e in refused.value.errors] == ["points_mismatch"]
    with pytest.raises(InvalidLine) as refused:
        settled(find("belgian"), {**line, "points": [0, 0, 36, 0]})
    assert "points_not_zero_sum" in [e.code for e in refused.value.errors]


def test_a_seat_by_seat_tariff_is_all_four_amounts_and_nothing_it_replaces() -> None:
    with pytest.raises(RuleSetError) as refused:
        apply_overrides(
            find("flemish"),
            {
                "tariffs": {
                    "miserie": {"declarer_made": 10, "others_made": 0},
                    "abondance": {"declarer_made": 1, "others_made": 1, "declarer_failed": 1, "others_failed": 1},
                }
            },
        )
    said = str(refused.value)
    assert "tariffs.miserie: give all four of declarer_made, others_made, declarer_failed, others_failed" in said
    assert "tariffs.abondance: amounts set seat by seat replace levels and all-tricks amounts" in said
    with pytest.raises(RuleSetError, match="amounts cannot be negative"):
        apply_overrides(find("iwwa"), {"tariffs": {"miserie": {"declarer_made": -3}}})
    assert RuleSet.from_json(json.loads(json.dumps(HOME.to_json()))) == HOME


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([4, 5]))
def test_a_rule_set_without_seat_by_seat_tariffs_still_sums_to_zero_beside_one_with(seed: int, players: int) -> None:
    rng = random.Random(seed)
    line = random_line(HOME, rng, 1, rng.randrange(players), players, pass_rate=0.1)
    home, plain = Sheet(HOME, players, None).add(line), Sheet(find("belgian"), players, None).add(line)
    assert sum(plain.points) == 0 and home.made == plain.made
    if line["contract"] not in ("open_miserie", "kleine_miserie"):
        assert home.points == plain.points


# -- vraag and alleen bid for more tricks -------------------------------------------------------------------------

# "vragen en meegaan" for 9 and 10 tricks, "alleen" for 6: each level its own tariff, +1 per overtrick, failed:
# the level's amount and 1 per further trick off
RAISED = apply_overrides(
    find("iwwa"),
    {"tariffs": {"vraag": {"levels": {"9": 3, "10": 5}}, "alleen": {"levels": {"6": 4}}}},
)


def test_a_higher_vraag_names_its_level_and_pays_its_own_tariff() -> None:
    vraag = {"contract": "vraag", "declarers": [1, 3]}
    assert settled(RAISED, {**vraag, "level": 10, "tricks": 11}) == (-6, 6, -6, 6)  # 5 + 1 overtrick
    assert settled(RAISED, {**vraag, "level": 10, "tricks": 9}) == (5, -5, 5, -5)  # one short of ten: 5
    assert settled(RAISED, {**vraag, "level": 10, "tricks": 8}) == (7, -7, 7, -7)  # two short: 5 + 2
    # without a level, the ordinary vraag for 8, as the preset pays it
    assert settled(RAISED, {**vraag, "tricks": 9}) == settled(find("iwwa"), {**vraag, "tricks": 9})
    alleen = {"contract": "alleen", "declarers": [0], "level": 6}
    assert settled(RAISED, {**alleen, "tricks": 6}) == (12, -4, -4, -4)
    assert settled(RAISED, {**alleen, "tricks": 5}) == (-12, 4, 4, 4)  # an alleen for six with five fails


def test_a_level_the_contract_or_the_rule_set_does_not_play_is_refused_in_words() -> None:
    def codes(rules: RuleSet, line: dict[str, Any]) -> list[str]:
        with pytest.raises(InvalidLine) as refused:
            settled(rules, line)
        return [e.code for e in refused.value.errors]

    vraag = {"contract": "vraag", "declarers": [1, 3], "tricks": 11}
    assert codes(RAISED, {**vraag, "level": 14}) == ["level_out_of_range"]
    assert codes(RAISED, {**vraag, "level": 11}) == ["level_not_enabled"]
    assert codes(find("iwwa"), {**vraag, "level": 10}) == ["unexpected_field"]  # the preset plays vraag for 8 only
    with pytest.raises(RuleSetError, match=r"tariffs.alleen.levels: level 9 is outside 6..8"):
        apply_overrides(find("iwwa"), {"tariffs": {"alleen": {"levels": {"9": 4}}}})
    with pytest.raises(RuleSetError, match=r"tariffs.miserie.levels: this contract is bid at one level only"):
        apply_overrides(find("iwwa"), {"tariffs": {"miserie": {"levels": {"9": 4}}}})
