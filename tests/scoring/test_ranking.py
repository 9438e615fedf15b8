"""Ranking: method value, then the organiser's tie-breaks in order, then shared ranks, each row explained."""

import random
import subprocess
import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.methods import METHODS
from scoring.ranking import RankedRow, rank
from scoring.records import Penalty, ScoringError, SessionResult, UnknownMethod, UnknownTieBreak
from scoring.tiebreaks import TIEBREAKS
from tests.scoring.simple_standings import PenaltyRecord, SeatResult, compute_standings
from tests.scoring.tables import competitions, sessions_of, table

ROOT = Path(__file__).resolve().parents[2]


def by_player(rows: list[RankedRow]) -> dict[int, RankedRow]:
    return {row.player_id: row for row in rows}


# Players 3 and 7 both score 12: 3 wins all three sessions (best 5), 7 wins two of three (best 6).
TWO_WAY = sessions_of(
    table(1, 1, [(3, 5), (101, 0), (102, -2), (103, -3)]),
    table(2, 1, [(104, -4), (3, 4)]),
    table(3, 2, [(3, 3), (105, 1)]),
    table(4, 1, [(7, 6), (106, 0)]),
    table(5, 2, [(107, -1), (7, 6)]),
    table(6, 2, [(7, 0), (108, 5)]),
)

# Players 1, 2 and 3 all score 10; over the three of them head-to-head is 1: 7, 2: 2, 3: 6.
THREE_WAY = sessions_of(
    table(1, 1, [(1, 6), (2, -2), (90, 0), (91, -4)]),
    table(2, 1, [(2, 4), (3, 1), (92, 0), (93, -5)]),
    table(3, 2, [(1, 1), (3, 5), (94, 0), (95, -6)]),
    table(4, 2, [(1, 3), (96, -3)]),
    table(5, 3, [(2, 8), (97, -8)]),
    table(6, 3, [(3, 4), (98, -4)]),
)


def test_equal_values_share_a_rank_the_next_rank_is_skipped_and_sharers_are_listed_by_id() -> None:
    rows = rank([], table(1, 1, [(8, 5), (1, 10), (4, -20), (2, 5)]), [], "total_points")
    assert [(r.rank, r.player_id, r.value, r.shared) for r in rows] == [
        (1, 1, 10, False),
        (2, 2, 5, True),
        (2, 8, 5, True),
        (4, 4, -20, False),
    ]


def test_a_player_alone_on_their_value_is_explained_by_the_value_only() -> None:
    rows = rank([], table(1, 1, [(1, 10), (2, 5)]), [], "total_points", ["sessions_won"])
    assert [r.explanation for r in rows] == ["10 points", "5 points"]


def test_a_tiebreak_separates_players_level_on_the_method_and_says_how() -> None:
    rows = by_player(rank([], TWO_WAY, [], "total_points", ["sessions_won"]))
    assert (rows[3].rank, rows[7].rank) == (1, 2)
    assert not rows[3].shared and not rows[7].shared
    assert rows[3].explanation == "12 points; tied on total points with #7; separated by sessions won (3 vs 2)"
    assert rows[7].explanation == "12 points; tied on total points with #3; separated by sessions won (2 vs 3)"


def test_tiebreaks_apply_in_the_organisers_order() -> None:
    rows = by_player(rank([], TWO_WAY, [], "total_points", ["best_session", "sessions_won"]))
    assert (rows[7].rank, rows[3].rank) == (1, 2)
    assert rows[7].tiebreak_values == (6, 2)
    assert rows[7].explanation == "12 points; tied on total points with #3; separated by best session (6 vs 5)"


def test_head_to_head_orders_a_three_way_tie_by_points_against_the_other_two() -> None:
    rows = rank([], THREE_WAY, [], "total_points", ["sessions_won", "head_to_head"])
    top = [(r.rank, r.player_id, r.tiebreak_values) for r in rows[:3]]
    assert top == [(1, 1, (2, 7)), (2, 3, (2, 6)), (3, 2, (2, 2))]
    assert rows[0].explanation == (
        "10 points; tied on total points with #2 and #3; level on sessions won (2); "
        "separated from #2 and #3 by head-to-head (7 vs 2 for #2, 6 for #3)"
    )


def test_head_to_head_is_recomputed_within_the_group_still_tied_after_earlier_tiebreaks() -> None:
    records = sessions_of(
        table(1, 1, [(2, 3), (3, -3), (90, 0)]),  # 2 beat 3
        table(2, 1, [(3, 8), (1, -8), (91, 0)]),  # 3 beat 1, which stops counting once 1 is separated
        table(3, 2, [(1, 9), (92, -9)]),
        table(4, 2, [(1, 9), (93, -9)]),
        table(5, 2, [(2, 8), (94, -8)]),
        table(6, 2, [(3, 6), (95, -6)]),
    )
    penalties = [Penalty(2, 1), Penalty(3, 1)]  # everyone on 10; 1 is the only one without a penalty
    rows = rank([], records, penalties, "total_points", ["fewer_penalties", "head_to_head"])
    assert [(r.rank, r.player_id, r.tiebreak_values) for r in rows[:3]] == [
        (1, 1, (0, 0)),
        (2, 2, (-1, 3)),
        (3, 3, (-1, -3)),
    ]
    over_all_three = rank([], records, penalties, "total_points", ["head_to_head"])
    assert [r.player_id for r in over_all_three[:3]] == [3, 2, 1]


def test_players_level_on_every_tiebreak_share_the_rank_and_are_told_so() -> None:
    records = table(1, 1, [(5, 4), (3, 4), (8, -8)])
    rows = rank([], records, [], "total_points", ["sessions_won"])
    assert [(r.rank, r.player_id, r.shared) for r in rows] == [(1, 3, True), (1, 5, True), (3, 8, False)]
    assert rows[0].explanation == (
        "4 points; tied on total points with #5; level on sessions won (1); "
        "level on every tie-break, so the rank is shared with #5"
    )
    untied = rank([], records, [], "total_points")
    assert (
        untied[1].explanation
        == "4 points; tied on total points with #3; no tie-break set, so the rank is shared with #3"
    )


def test_placement_ranks_by_placement_points_with_points_as_a_tiebreak() -> None:
    records = sessions_of(
        table(1, 1, [(1, 30), (2, 1), (3, -1), (4, -30)]),
        table(2, 2, [(1, -20), (2, 2), (3, 5), (4, 13)]),
    )
    rows = rank([], records, [], "placement", ["points"])
    # placement: 1: 4 + 0, 2: 2 + 1, 3: 1 + 2, 4: 0 + 4; points break 1 (10) and 4 (-17), 2 (3) and 3 (4)
    assert [(r.rank, r.player_id, r.value) for r in rows] == [(1, 1, 4), (2, 4, 4), (3, 3, 3), (4, 2, 3)]


def test_points_per_deal_lets_a_player_who_sat_out_deals_rank_on_their_rate() -> None:
    five = table(1, 1, [(1, 10), (2, 8), (3, -4), (4, -6), (5, -8)], deals=[16, 12, 16, 16, 20])
    rows = rank([], five, [], "points_per_deal")
    assert [(r.player_id, r.value) for r in rows[:2]] == [(2, Fraction(2, 3)), (1, Fraction(5, 8))]
    assert rows[0].explanation == "0.667 points per deal"


def test_registered_players_without_results_are_ranked_on_zero() -> None:
    rows = rank([9, 1], table(1, 1, [(1, -2), (2, 2)]), [], "total_points")
    assert [(r.rank, r.player_id, r.value) for r in rows] == [(1, 2, 2), (2, 9, 0), (3, 1, -2)]


def test_penalties_lower_the_total_and_can_reorder_players() -> None:
    rows = rank([], table(1, 1, [(1, 5), (2, 3)]), [Penalty(1, 4)], "total_points")
    assert [(r.player_id, r.value) for r in rows] == [(2, 3), (1, 1)]


def test_unknown_keys_and_a_repeated_tiebreak_are_user_errors() -> None:
    records = table(1, 1, [(1, 5)])
    with pytest.raises(UnknownMethod):
        rank([], records, [], "goals")
    with pytest.raises(UnknownTieBreak):
        rank([], records, [], "total_points", ["coin_toss"])
    with pytest.raises(ScoringError, match="listed twice"):
        rank([], records, [], "total_points", ["points", "points"])
    with pytest.raises(ScoringError, match="list of keys"):
        rank([], records, [], "total_points", "points")


def test_nobody_to_rank_gives_an_empty_table() -> None:
    assert rank([], [], [], "combined", list(TIEBREAKS)) == []


def test_the_calculators_import_no_django() -> None:
    code = (
        "import sys, scoring.records, scoring.methods, scoring.tiebreaks, scoring.ranking\n"
        "print(','.join(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


# properties

methods = st.sampled_from(list(METHODS))
tiebreak_lists = st.lists(st.sampled_from(list(TIEBREAKS)), unique=True, max_size=4)


@given(competitions(), methods, tiebreak_lists)
@settings(max_examples=200, deadline=None)
def test_ranks_start_at_one_never_decrease_and_skip_after_a_shared_rank(
    competition: tuple[list[int], list[SessionResult], list[Penalty]], method: str, tiebreaks: list[str]
) -> None:
    players, records, penalties = competition
    rows = rank(players, records, penalties, method, tiebreaks)
    everyone = set(players) | {r.player_id for r in records} | {p.player_id for p in penalties}
    assert sorted(r.player_id for r in rows) == sorted(everyone)
    for position, row in enumerate(rows):
        previous = rows[position - 1] if position else None
        if previous is not None and previous.rank == row.rank:
            assert previous.shared and row.shared and previous.player_id < row.player_id
            assert (previous.value, previous.tiebreak_values) == (row.value, row.tiebreak_values)
        else:
            assert row.rank == position + 1
            assert previous is None or [previous.value, row.value] == sorted([previous.value, row.value], reverse=True)
        assert row.shared == (sum(1 for other in rows if other.rank == row.rank) > 1)


@given(competitions(), methods, tiebreak_lists, st.randoms(use_true_random=False))
@settings(max_examples=200, deadline=None)
def test_the_order_of_the_input_does_not_change_the_table(
    competition: tuple[list[int], list[SessionResult], list[Penalty]],
    method: str,
    tiebreaks: list[str],
    shuffler: random.Random,
) -> None:
    players, records, penalties = competition
    expected = rank(players, records, penalties, method, tiebreaks)
    for items in (players, records, penalties):
        shuffler.shuffle(items)
    assert rank(players, records, penalties, method, tiebreaks) == expected


@given(competitions(), tiebreak_lists, st.data())
@settings(max_examples=200, deadline=None)
def test_adding_points_to_a_player_never_lowers_their_rank_under_total_points(
    competition: tuple[list[int], list[SessionResult], list[Penalty]], tiebreaks: list[str], data: st.DataObject
) -> None:
    players, records, penalties = competition
    everyone = sorted(set(players) | {r.player_id for r in records} | {p.player_id for p in penalties})
    if not everyone:
        return
    lucky = data.draw(st.sampled_from(everyone))
    bonus = data.draw(st.integers(1, 10))
    theirs = sorted({r.session_id for r in records if r.player_id == lucky})
    if theirs:  # raise their score at one table, in every seat's record of it
        session = data.draw(st.sampled_from(theirs))
        improved = [r for r in records if r.session_id != session]
        for r in records:
            if r.session_id == session:
                seat = r.table_players.index(lucky)
                points = (*r.table_points[:seat], r.table_points[seat] + bonus, *r.table_points[seat + 1 :])
                improved.append(replace(r, table_points=points, points=points[r.table_players.index(r.player_id)]))
    else:  # or give them a session of their own
        improved = [*records, *table(10_000, 1, [(lucky, bonus)])]
    before = by_player(rank(players, records, penalties, "total_points", tiebreaks))[lucky]
    after = by_player(rank(players, improved, penalties, "total_points", tiebreaks))[lucky]
    assert isinstance(before.value, int) and after.value == before.value + bonus
    assert after.rank <= before.rank


@given(competitions())
@settings(max_examples=200, deadline=None)
def test_total_points_without_tiebreaks_ranks_as_the_simple_calculator_does(
    competition: tuple[list[int], list[SessionResult], list[Penalty]],
) -> None:
    players, records, penalties = competition
    simple = compute_standings(
        [SeatResult(r.player_id, r.points, r.deals) for r in records],
        [PenaltyRecord(p.player_id, p.points) for p in penalties],
        players,
    )
    rows = rank(players, records, penalties, "total_points")
    assert {r.player_id: (r.rank, r.value) for r in rows} == {s.player_id: (s.rank, s.points) for s in simple}
