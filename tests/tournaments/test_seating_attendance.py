"""Re-seating a round after withdrawals and late arrivals (pure, no database)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tournaments.seating import SeatingError, SeatingRequest, find, seating_problems
from tournaments.seating.attendance import reseat, seatable

Round = list[list[int]]


def fills_tables(count: int) -> bool:
    """Brute force: ``count`` players fill tables of 4 and 5 exactly."""
    return any(4 * fours + 5 * fives == count for fours in range(count // 4 + 1) for fives in range(count // 5 + 1))


def seats_for(count: int) -> int:
    """Brute force: the most of ``count`` players that tables of 4 and 5 can seat."""
    return max(s for s in range(count + 1) if fills_tables(s))


def assert_everyone_seated_once(out: Sequence[Sequence[int]], present: Sequence[int]) -> None:
    assert all(len(table) in (4, 5) for table in out), out
    assert sorted(p for table in out for p in table) == sorted(present), out


def numbered(*sizes: int) -> Round:
    """Tables of the given sizes seating players 1, 2, 3, ... in order."""
    tables, start = [], 1
    for size in sizes:
        tables.append(list(range(start, start + size)))
        start += size
    return tables


# --- seatable -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", range(61))
def test_seatable_matches_brute_force(count: int) -> None:
    assert seatable(count) == (count >= 4 and fills_tables(count))


def test_only_6_7_and_11_leave_byes_above_three() -> None:
    assert [c for c in range(4, 200) if not seatable(c)] == [6, 7, 11]


# --- exact outcomes on hand-made rounds -----------------------------------------------------------------------


def test_one_withdrawal_from_a_table_of_five_changes_nothing_else() -> None:
    tables = [[3, 1, 4, 15, 9], [2, 6, 5, 35, 8], [97, 93, 23, 84]]
    present = [p for t in tables for p in t if p != 35]
    out = reseat(tables, SeatingRequest(present, seed=1))
    assert out == [[3, 1, 4, 15, 9], [2, 6, 5, 8], [97, 93, 23, 84]]


def test_one_withdrawal_from_each_table_of_five_keeps_every_table_in_place() -> None:
    tables = numbered(5, 4, 5, 5, 4)
    leaving = {1, 13, 19}  # one from tables 1, 3 and 4
    present = [p for t in tables for p in t if p not in leaving]
    out = reseat(tables, SeatingRequest(present, seed=2))
    assert out == [[p for p in t if p not in leaving] for t in tables]


@pytest.mark.parametrize("arriving", [4, 5, 8, 9, 10, 12, 13])
def test_a_seatable_group_of_arrivals_gets_new_tables_and_nobody_moves(arriving: int) -> None:
    tables = numbered(4, 5, 4, 4)
    newcomers = list(range(100, 100 + arriving))
    present = [p for t in tables for p in t] + newcomers
    out = reseat(tables, SeatingRequest(present, seed=3))
    assert out[: len(tables)] == tables
    assert sorted(p for t in out[len(tables) :] for p in t) == newcomers
    assert_everyone_seated_once(out, present)


def test_a_table_left_with_three_takes_in_an_arrival_and_the_rest_stay_in_order() -> None:
    tables = numbered(4, 4, 5, 4)
    present = [p for t in tables for p in t if p != 6] + [50]  # table 2 keeps 5, 7, 8
    out = reseat(tables, SeatingRequest(present, seed=4))
    assert [out[0], *out[2:]] == [tables[0], tables[2], tables[3]]  # the others keep their places
    assert sorted(out[1]) == [5, 7, 8, 50]  # the new table takes the broken one's place
    assert len(out) == 4


def test_three_arrivals_and_one_player_from_a_table_of_five_make_a_new_table() -> None:
    tables = numbered(4, 4, 4, 5)
    newcomers = [100, 101, 102]
    out = reseat(tables, SeatingRequest([p for t in tables for p in t] + newcomers, seed=5))
    assert out[:3] == tables[:3]  # one table disturbed instead of three
    assert len(out[3]) == 4 and set(out[3]) < set(tables[3])
    (moved,) = set(out[4]) - set(newcomers)
    assert set(out[3]) | {moved} == set(tables[3])


@pytest.mark.parametrize("arriving", [1, 2])
def test_a_few_arrivals_join_different_tables_of_four(arriving: int) -> None:
    tables = numbered(4, 4, 4, 5)
    newcomers = list(range(100, 100 + arriving))
    present = [p for t in tables for p in t] + newcomers
    out = reseat(tables, SeatingRequest(present, seed=5))
    assert_everyone_seated_once(out, present)
    assert len(out) == len(tables)
    joined = 0
    for before, after in zip(tables, out, strict=True):
        assert after[: len(before)] == before  # the table is still there, seat order kept
        extra = after[len(before) :]
        assert len(extra) <= 1 and set(extra) <= set(newcomers)
        joined += len(extra)
    assert joined == arriving


def test_an_arrival_with_only_tables_of_five_takes_one_player_from_three_of_them() -> None:
    tables = numbered(5, 5, 5)
    present = [*range(1, 16), 16]
    out = reseat(tables, SeatingRequest(present, seed=6))
    assert_everyone_seated_once(out, present)
    assert sorted(len(t) for t in out) == [4, 4, 4, 4]
    for before, after in zip(tables, out[:3], strict=True):  # each table gave up one player, order kept
        assert len(after) == 4 and set(after) < set(before)
        assert after == [p for p in before if p in after]
    assert 16 in out[3]


@pytest.mark.parametrize(("n", "leaving", "arriving"), [(8, 2, 0), (12, 5, 0), (8, 1, 0), (10, 0, 1), (5, 0, 2)])
def test_six_seven_or_eleven_players_are_seated_afresh_with_byes(n: int, leaving: int, arriving: int) -> None:
    tables = find("mixer").next_round(SeatingRequest(list(range(1, n + 1)), seed=n))
    present = list(range(leaving + 1, n + 1)) + list(range(100, 100 + arriving))
    assert len(present) in (6, 7, 11)
    out = reseat(tables, SeatingRequest(present, seed=7))
    seated = [p for t in out for p in t]
    assert all(len(t) in (4, 5) for t in out)
    assert len(seated) == len(set(seated)) == seats_for(len(present))
    assert set(seated) <= set(present)
    assert seating_problems(out, SeatingRequest(present)) == []


def test_byes_go_to_those_with_fewest_byes_so_far() -> None:
    tables = numbered(4, 4)
    present = [1, 2, 3, 4, 5, 6, 7]  # 8 withdraws: 7 players, 2 byes
    byes = {1: 1, 2: 1, 3: 1, 4: 1, 5: 1}
    out = reseat(tables, SeatingRequest(present, byes=byes, seed=8))
    assert {p for t in out for p in t} == {1, 2, 3, 4, 5}


def test_too_few_players_are_refused() -> None:
    with pytest.raises(SeatingError, match="at least 4"):
        reseat(numbered(4, 4), SeatingRequest([1, 2, 3], seed=1))


def test_new_tables_respect_wishes_among_the_pooled_players() -> None:
    tables = numbered(4, 4)
    present = list(range(1, 17))  # 9..16 arrive: two new tables
    request = SeatingRequest(present, seed=9, together=[(9, 16), (10, 15)], apart=[(9, 10), (15, 16)])
    out = reseat(tables, request)
    assert out[:2] == tables
    assert seating_problems(out, request) == []


def test_reseat_keeps_wishes_or_refuses() -> None:
    tables = numbered(4, 4)
    for request in (
        SeatingRequest(list(range(1, 10)), seed=1, apart=[(9, 1), (9, 5)]),  # e.g. [[9,2,3,4,6],[1,5,7,8]]
        SeatingRequest(list(range(1, 13)), seed=1, together=[(1, 9)]),  # e.g. [[1,9,2,3],[4,10,11,12],[5..8]]
    ):
        try:
            out = reseat(tables, request)
        except SeatingError:
            continue
        assert seating_problems(out, request) == [], out


def test_unchanged_tables_keep_their_table_number() -> None:
    # services.rounds.reseat_round counts kept tables position by position, and table numbers are positions
    tables = numbered(4, 4, 4)
    present = [*range(2, 13), 13]  # 1 withdraws, 13 arrives: table 1 becomes 2, 3, 4, 13
    out = reseat(tables, SeatingRequest(present, seed=1))
    assert out[1:] == tables[1:], out


# --- random rounds ---------------------------------------------------------------------------------------------


def scenario(n: int, seed: int, leaving: int, arriving: int) -> tuple[Round, list[int], list[int], list[int]]:
    """A mixer round for 1..n, ``leaving`` random seated players withdrawn, ``arriving`` newcomers."""
    tables = find("mixer").next_round(SeatingRequest(list(range(1, n + 1)), seed=seed))
    withdrawn = random.Random(seed).sample([p for t in tables for p in t], leaving)
    newcomers = list(range(n + 1, n + 1 + arriving))
    present = [p for p in range(1, n + 1) if p not in withdrawn] + newcomers
    return tables, withdrawn, newcomers, present


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(8, 120),
    seed=st.integers(0, 2**16),
    leaving=st.integers(0, 5),
    arriving=st.integers(0, 5),
)
def test_reseat_is_valid_and_keeps_what_it_can(n: int, seed: int, leaving: int, arriving: int) -> None:
    tables, withdrawn, _, present = scenario(n, seed, leaving, arriving)
    request = SeatingRequest(present, seed=seed)
    if len(present) < 4:
        with pytest.raises(SeatingError):
            reseat(tables, request)
        return
    out = reseat(tables, request)
    assert seating_problems(out, request) == []
    if not seatable(len(present)):
        seated = [p for t in out for p in t]
        assert len(seated) == len(set(seated)) == seats_for(len(present))
        return
    assert_everyone_seated_once(out, present)
    # what the docstring promises, computed here: tables left with 4 or more stay (minus who left, seat order
    # kept) and in order, and when the displaced players fill new tables by themselves nothing else moves
    gone = set(withdrawn)
    left = [[p for p in t if p not in gone] for t in tables]
    staying = [t for t in left if len(t) >= 4]
    pool = [p for p in present if p not in {q for t in tables for q in t}] + [p for t in left if len(t) < 4 for p in t]
    unchanged = [t for t in staying if t in out]
    assert [t for t in out if t in staying] == unchanged  # relative order kept
    if not pool or seatable(len(pool)):
        assert [t for t in out if t in staying] == staying
        assert sorted(p for t in out if t not in staying for p in t) == sorted(pool)


@settings(max_examples=60, deadline=None)
@example(n=28, seed=0, leaving=1, arriving=3)  # 7 tables of 4; 3 left + 3 new = 6 join 6 untouched tables
@given(
    n=st.integers(8, 120),
    seed=st.integers(0, 2**16),
    leaving=st.integers(0, 5),
    arriving=st.integers(0, 5),
)
def test_reseat_changes_few_tables_beyond_those_that_lost_someone(
    n: int, seed: int, leaving: int, arriving: int
) -> None:
    tables, withdrawn, _, present = scenario(n, seed, leaving, arriving)
    if not seatable(len(present)):
        return
    out = reseat(tables, SeatingRequest(present, seed=seed))
    lost_someone = sum(1 for t in tables if set(t) & set(withdrawn))
    kept = sum(1 for t in tables if t in out)
    assert kept >= len(tables) - lost_someone - 3, (kept, len(tables), lost_someone, out)


def test_a_pool_of_seven_does_not_disturb_seven_tables() -> None:
    tables = numbered(*[4] * 8)  # 32 players at 8 tables of 4
    present = [*range(2, 33), 33, 34, 35, 36]  # 1 withdraws, 4 arrive: 2, 3, 4 and 33..36 need seats
    out = reseat(tables, SeatingRequest(present, seed=1))
    assert_everyone_seated_once(out, present)
    # e.g. one new table of 4 and three players joining tables of 4, or one more table broken up: 15 = 5+5+5
    assert sum(1 for t in tables[1:] if t in out) >= 7 - 3, out
