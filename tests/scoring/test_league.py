"""League options (minimum evenings, best N evenings, decay) and the season table with movement."""

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings

from scoring.ranking import LeagueOptions, RankedRow, rank, season_table
from scoring.records import Penalty, ScoringError, SessionResult
from tests.scoring.tables import competitions, sessions_of, table


def by_player(rows: list[RankedRow]) -> dict[int, RankedRow]:
    return {row.player_id: row for row in rows}


# minimum evenings


def test_players_with_too_few_evenings_are_listed_after_the_ranked_ones_without_a_rank() -> None:
    records = sessions_of(
        table(1, 1, [(1, 10), (2, -10)]),
        table(2, 1, [(5, 40), (4, -40)]),
        table(3, 2, [(1, 5), (2, 5)]),
        table(4, 2, [(4, 1), (3, -1)]),
    )
    rows = rank([], records, [], "total_points", options=LeagueOptions(min_evenings=2))
    assert [(r.rank, r.player_id, r.value) for r in rows] == [
        (1, 1, 15),
        (2, 2, -5),
        (3, 4, -39),
        (0, 5, 40),
        (0, 3, -1),
    ]
    assert rows[3].explanation == "not ranked: played 1 evening, 2 needed; 40 points"
    assert rows[3].tiebreak_values == () and not rows[3].shared


def test_two_sessions_on_one_evening_count_as_one_evening() -> None:
    records = sessions_of(table(1, 1, [(1, 3), (2, -3)]), table(2, 1, [(1, 3), (2, -3)]))
    rows = rank([], records, [], "total_points", options=LeagueOptions(min_evenings=2))
    assert {r.rank for r in rows} == {0}


# best N evenings

BEST_N = sessions_of(
    table(1, 1, [(1, 6), (9, -6)]),
    table(2, 1, [(1, 4), (9, -4)]),  # evening 1 is worth 6 + 4 = 10
    table(3, 2, [(1, -5), (2, 1), (9, 4)]),
    table(4, 3, [(1, 3), (2, 1), (9, -4)]),
    table(5, 1, [(2, 1), (8, -1)]),
)


def test_best_n_keeps_each_players_best_evenings_by_session_points() -> None:
    rows = by_player(rank([], BEST_N, [], "total_points", options=LeagueOptions(best_n=2)))
    assert rows[1].value == 10 + 3
    assert rows[2].value == 1 + 1


def test_a_penalty_counts_in_full_even_when_its_evening_is_dropped() -> None:
    options = LeagueOptions(best_n=2)
    rows = by_player(rank([], BEST_N, [Penalty(1, 2, evening=2)], "total_points", options=options))
    assert rows[1].value == 10 + 3 - 2


def test_best_n_limits_the_sessions_that_placement_and_tiebreaks_see() -> None:
    rows = by_player(rank([], BEST_N, [], "placement", ["sessions_won"], options=LeagueOptions(best_n=1)))
    assert rows[1].value == 4 + 4  # both sessions of evening 1, not the lost one of evening 2
    assert rows[1].tiebreak_values == (2,)


def test_between_equal_evenings_best_n_keeps_the_later_one() -> None:
    records = sessions_of(
        table(1, 1, [(1, 5), (9, -5)]),
        table(2, 2, [(1, 5), (9, -5)]),
        table(3, 3, [(1, -1), (9, 1)]),
    )
    rows = by_player(rank([], records, [], "total_points", options=LeagueOptions(best_n=1, decay=0.5)))
    assert rows[1].value == Fraction(5, 2)  # evening 2 at weight 1/2, not evening 1 at 1/4


# decay


def test_decay_lets_the_same_points_count_less_the_older_they_are() -> None:
    records = sessions_of(table(1, 1, [(1, 8), (2, 0)]), table(2, 2, [(1, 0), (2, 8)]))
    assert rank([], records, [], "total_points")[0].shared
    rows = rank([], records, [], "total_points", options=LeagueOptions(decay=0.5))
    assert [(r.rank, r.player_id, r.value) for r in rows] == [(1, 2, 8), (2, 1, 4)]


def test_decay_is_exact_and_counts_age_from_the_latest_evening_of_the_league() -> None:
    records = sessions_of(
        table(1, 1, [(1, 10), (2, 10)]),
        table(2, 2, [(2, 10), (3, 0)]),
        table(3, 3, [(1, 10), (3, 0)]),
    )
    rows = by_player(rank([], records, [], "total_points", options=LeagueOptions(decay=0.9)))
    assert rows[1].value == Fraction(181, 10)  # 10 * 0.81 + 10
    assert rows[2].value == Fraction(171, 10)  # 10 * 0.81 + 10 * 0.9: missing the last evening does not stop time
    assert rows[1].explanation == "18.1 points"


def test_decay_leaves_penalties_in_full() -> None:
    records = sessions_of(table(1, 1, [(1, 10), (9, -10)]), table(2, 2, [(9, 0)]))
    rows = by_player(rank([], records, [Penalty(1, 2, evening=1)], "total_points", options=LeagueOptions(decay=0.5)))
    assert rows[1].value == 3


def test_no_decay_keeps_whole_numbers() -> None:
    records = table(1, 1, [(1, 10), (9, -10)])
    assert type(rank([], records, [], "total_points", options=LeagueOptions(decay=1.0))[0].value) is int


@pytest.mark.parametrize(
    "options",
    [
        {"min_evenings": -1},
        {"best_n": 0},
        {"decay": 0.0},
        {"decay": 1.5},
        {"decay": math.nan},
    ],
)
def test_impossible_league_options_are_rejected(options: dict[str, float]) -> None:
    with pytest.raises(ScoringError):
        LeagueOptions(**options)  # type: ignore[arg-type]


@given(competitions())
@settings(max_examples=100, deadline=None)
def test_best_n_of_at_least_every_evening_changes_nothing(
    competition: tuple[list[int], list[SessionResult], list[Penalty]],
) -> None:
    players, records, penalties = competition
    evenings = len({r.evening for r in records}) or 1
    plain = rank(players, records, penalties, "combined", ["head_to_head", "best_session"])
    options = LeagueOptions(best_n=evenings)
    assert rank(players, records, penalties, "combined", ["head_to_head", "best_session"], options=options) == plain


# season table

SEASON = sessions_of(
    table(1, 1, [(1, 10), (2, 5), (3, 0)]),
    table(2, 2, [(1, -10), (2, 3), (3, 9), (4, 20)]),
)


def test_the_season_table_shows_points_per_evening_the_total_and_the_movement_since_last_evening() -> None:
    rows = season_table(SEASON, [])
    assert [(r.player_id, r.per_evening, r.total, r.rank, r.movement) for r in rows] == [
        (4, {2: 20}, 20, 1, None),  # new this evening
        (3, {1: 0, 2: 9}, 9, 2, 1),  # third after evening 1, second now: up one
        (2, {1: 5, 2: 3}, 8, 3, -1),
        (1, {1: 10, 2: -10}, 0, 4, -3),
    ]


def test_a_dated_penalty_counts_from_its_evening_and_an_undated_one_in_every_table() -> None:
    dated = {r.player_id: r for r in season_table(SEASON, [Penalty(1, 8, evening=2)])}
    assert (dated[1].total, dated[1].rank, dated[1].movement, dated[1].penalty_points) == (-8, 4, -3, 8)
    assert dated[1].per_evening == {1: 10, 2: -10}  # penalties are not mixed into the evenings
    undated = {r.player_id: r for r in season_table(SEASON, [Penalty(1, 8)])}
    assert (undated[1].rank, undated[1].movement) == (4, 2 - 4)  # after evening 1: 2 on 5, 1 on 10 - 8
    assert undated[2].movement == 1 - 3


def test_movement_is_none_for_players_not_ranked_before_or_now() -> None:
    records = sessions_of(
        table(1, 1, [(1, 5), (2, 0)]),
        table(2, 2, [(1, 1), (2, 3), (3, -20)]),
        table(3, 3, [(1, 0), (2, 4), (3, 30), (4, 1)]),
    )
    rows = season_table(records, [], options=LeagueOptions(min_evenings=2))
    assert [(r.player_id, r.rank, r.movement) for r in rows] == [(3, 1, None), (2, 2, 0), (1, 3, -2), (4, 0, None)]


def test_a_registered_player_who_first_plays_on_the_latest_evening_is_new() -> None:
    rows = season_table(SEASON, [], players=[4, 6])
    assert [(r.player_id, r.rank, r.movement) for r in rows] == [
        (4, 1, None),
        (3, 2, 1),
        (2, 3, -1),
        (1, 4, -3),
        (6, 4, None),
    ]


def test_after_the_first_evening_nobody_has_moved() -> None:
    rows = season_table(table(1, 1, [(1, 3), (2, -3)]), [], players=[7])
    assert [(r.player_id, r.rank, r.movement) for r in rows] == [(1, 1, None), (7, 2, None), (2, 3, None)]


def test_the_season_table_marks_the_evenings_that_count_under_best_n() -> None:
    rows = {r.player_id: r for r in season_table(BEST_N, [], options=LeagueOptions(best_n=2))}
    assert rows[1].counted_evenings == (1, 3)
    assert rows[1].per_evening == {1: 10, 2: -5, 3: 3}
    assert rows[1].total == 13
