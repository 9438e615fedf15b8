"""Par from a board's analysis: each contract settled by the engine's own settlement, each position's best
contract (or passing), the board's par contract, and bounds taken at the end the declarers can count on."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.duplicate.par import Row, par, row_from_json, safe_tricks
from games.registry import find
from games.rulesets import RuleSet
from games.settlement import Play, settle

IWWA = find("iwwa")


def row(contract: str, declarers: tuple[int, ...], low: int, high: int | None = None, trump: str | None = "H") -> Row:
    return Row(contract, declarers, None if contract == "miserie" else trump, 1, low, low if high is None else high)


def test_a_made_vraag_pays_its_pair_what_the_settlement_pays() -> None:
    result = par([row("vraag", (0, 2), 9)], IWWA)
    expected = settle(IWWA, Play(1, 0, "vraag", (0, 2), (9,)), 4).points
    assert result.outcomes[0].points == expected
    assert result.points == (expected[0], 0, expected[2], 0)  # the defenders had better pass
    assert result.best[1] is None and result.best[0] is not None and result.best[0].contract == "vraag"
    assert result.line is not None and result.line.declarers == (0, 2)


def test_abondance_is_settled_at_its_best_level() -> None:
    (outcome,) = par([row("abondance", (1,), 11, trump="S")], IWWA).outcomes
    assert outcome.level == 11 and outcome.made
    assert outcome.points == settle(IWWA, Play(1, 0, "abondance", (1,), (11,), level=11), 4).points


def test_a_miserie_counts_for_open_miserie_too_and_the_better_pays() -> None:
    result = par([row("miserie", (3,), 0)], IWWA)
    assert [o.contract for o in result.outcomes] == ["miserie", "open_miserie"]
    assert result.best[3] is not None and result.best[3].contract == "open_miserie"
    assert result.points[3] == 3 * IWWA.tariffs["open_miserie"].base


def test_an_abondance_in_the_turned_suit_is_abondance_in_troef_where_the_rule_set_plays_it() -> None:
    rules = IWWA.with_(
        ladder=(*IWWA.ladder, "abondance_troef"), tariffs={**IWWA.tariffs, "abondance_troef": IWWA.tariffs["solo"]}
    )
    rows = [row("abondance", (0,), 9, trump="H"), row("abondance", (0,), 9, trump="S")]
    result = par(rows, rules, turned="H", trumps=[r.trump for r in rows])
    assert [o.contract for o in result.outcomes] == ["abondance", "abondance_troef", "abondance"]
    assert [o.contract for o in par(rows, rules).outcomes] == ["abondance", "abondance"]  # no turned suit given


def test_contracts_the_rule_set_does_not_play_are_left_out() -> None:
    rules = IWWA.with_(ladder=("vraag", "alleen"))
    result = par([row("vraag", (0, 1), 8), row("solo_slim", (2,), 13), row("miserie", (3,), 0)], rules)
    assert [o.contract for o in result.outcomes] == ["vraag"]


def test_a_position_whose_contracts_all_fail_passes_at_par() -> None:
    result = par([row("alleen", (2,), 3), row("vraag", (1, 3), 5)], IWWA)
    assert result.points == (0, 0, 0, 0)
    assert result.best == (None, None, None, None) and result.line is None
    assert result.result == (0, 0, 0, 0)  # everyone passes at par


def test_at_par_every_position_scores_what_the_par_contract_pays_it() -> None:
    result = par([row("vraag", (0, 2), 9), row("miserie", (3,), 0)], IWWA)
    assert result.line is not None and result.line.contract == "open_miserie"
    assert result.result == settle(IWWA, Play(1, 0, "open_miserie", (3,), (0,)), 4).points
    # each position's own best is another contract for each: together more than any table scores
    assert sum(result.points) > 0 == sum(result.result)


def test_a_troel_pair_cannot_pass() -> None:
    result = par([row("troel", (0, 2), 6)], IWWA)
    assert result.points[0] < 0 and result.points[0] == result.outcomes[0].points[0]
    assert result.line is not None and result.line.contract == "troel"


def test_a_failing_troel_is_the_par_contract_even_when_a_failing_vraag_loses_less() -> None:
    result = par([row("troel", (0, 2), 6), row("vraag", (1, 3), 7)], IWWA)
    assert result.line is not None and result.line.contract == "troel"  # three aces must be announced
    assert result.points[1] == result.points[3] == 0  # the others pass


def test_the_par_contract_gives_its_declarers_the_most_each() -> None:
    rows = [row("vraag", (0, 2), 10), row("alleen", (0,), 7), row("miserie", (1,), 0)]
    result = par(rows, IWWA)
    assert result.line is not None and result.line.contract == "open_miserie" and result.line.declarers == (1,)
    assert result.points[0] == max(o.points[0] for o in result.outcomes if 0 in o.declarers)


def test_bounds_are_taken_at_the_end_the_declarers_can_count_on_and_marked() -> None:
    assert safe_tricks("alleen", 5, 8) == 5
    assert safe_tricks("miserie", 0, 2) == 2  # held to at most 2: a miserie that may fail
    result = par([row("alleen", (0,), 5, 8), row("miserie", (1,), 0, 2)], IWWA)
    assert [(o.tricks, o.bound) for o in result.outcomes[:2]] == [(5, True), (2, True)]
    assert result.bound
    assert not par([row("alleen", (0,), 6)], IWWA).bound


@pytest.mark.parametrize("rules", ["iwwa", "flemish", "belgian"])
def test_a_range_whose_ends_pay_alike_is_no_bound(rules: str) -> None:
    # what the solver leaves open by default: a miserie that fails (1 trick or 13), an abondance below 9
    ruleset = find(rules)
    failed_miserie = par([row("miserie", (1,), 1, 13)], ruleset)
    assert [(o.tricks, o.bound, o.made) for o in failed_miserie.outcomes] == [(13, False, False)] * len(
        failed_miserie.outcomes
    )
    assert failed_miserie.outcomes[0].points == par([row("miserie", (1,), 1)], ruleset).outcomes[0].points
    short_abondance = par([row("abondance", (2,), 3, 8)], ruleset)
    assert [(o.tricks, o.bound, o.made) for o in short_abondance.outcomes] == [(3, False, False)]
    assert short_abondance.points == par([row("abondance", (2,), 8)], ruleset).points
    assert not failed_miserie.bound and not short_abondance.bound
    # a range that straddles what pays differently stays a bound
    assert [o.bound for o in par([row("abondance", (2,), 8, 9)], ruleset).outcomes] == [True]
    assert {o.bound for o in par([row("miserie", (1,), 0, 1)], ruleset).outcomes} == {True}


def test_a_stored_row_reads_back_and_a_wrong_one_is_refused() -> None:
    data = {"contract": "vraag", "declarers": [0, 2], "trump": "H", "leader": 1, "low": 7, "high": 9}
    read = row_from_json(data)
    assert read == Row("vraag", (0, 2), "H", 1, 7, 9) and not read.exact and read.tricks is None
    for wrong in (
        [],
        {**data, "contract": "bridge"},
        {**data, "low": 10},
        {**data, "declarers": [4]},
        {**data, "trump": "X"},
        {**data, "leader": True},
        {k: v for k, v in data.items() if k != "high"},
    ):
        with pytest.raises(ValueError):
            row_from_json(wrong)


CONTRACT_ROWS = st.sampled_from(
    [
        ("vraag", (0, 2)),
        ("vraag", (1, 2)),
        ("alleen", (3,)),
        ("abondance", (1,)),
        ("solo_slim", (0,)),
        ("miserie", (2,)),
    ]
)


@given(st.lists(st.tuples(CONTRACT_ROWS, st.integers(0, 13), st.integers(0, 13)), max_size=8))
def test_every_outcome_is_the_engines_settlement_and_a_par_is_never_below_passing(
    rows: list[tuple[tuple[str, tuple[int, ...]], int, int]],
) -> None:
    analysed = [row(c, d, min(a, b), max(a, b)) for (c, d), a, b in rows]
    rules: RuleSet = IWWA
    result = par(analysed, rules)
    for outcome in result.outcomes:
        tricks = (outcome.tricks,)
        play = Play(1, 0, outcome.contract, outcome.declarers, tricks, level=outcome.level)
        assert outcome.points == settle(rules, play, 4).points
        assert sum(outcome.points) == 0
    assert all(points >= 0 for points in result.points)  # no troel here: anyone may pass
    assert result.result == (result.line.points if result.line else (0, 0, 0, 0)) and sum(result.result) == 0
