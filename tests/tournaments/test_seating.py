"""Pure tests for the seating package (no database)."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.seating import GENERATORS, find, repeat_free_rounds, repeated_pairs, table_sizes
from tournaments.seating.fields import SUPPORTED_ORDERS, field, prime_power
from tournaments.seating.generators import (
    GreedySeating,
    RandomSeating,
    ScheduleSeating,
    affine_plane_4,
    affine_space_4,
    construction,
    transversal_design,
)

Round = list[list[int]]


def assert_valid(rounds: list[Round], n: int) -> None:
    sizes = sorted(table_sizes(n))
    for rnd in rounds:
        seated = [p for table in rnd for p in table]
        assert len(seated) == len(set(seated)), rnd
        assert all(1 <= p <= n for p in seated)
        assert all(len(table) in (4, 5) for table in rnd)
        assert sorted(len(table) for table in rnd) == sizes


# --- fields -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("q", SUPPORTED_ORDERS)
def test_field_axioms(q: int) -> None:
    f = field(q)
    els = list(f.elements)
    for a in els:
        assert f.add(a, 0) == a and f.mul(a, 1) == a and f.mul(a, 0) == 0
        assert f.add(a, f.neg(a)) == 0
        if a:
            assert f.mul(a, f.inv(a)) == 1
        for b in els:
            assert f.add(a, b) == f.add(b, a)
            assert f.mul(a, b) == f.mul(b, a)
            assert f.sub(f.add(a, b), b) == a
            if a and b:
                assert f.mul(a, b) != 0
    # each row of the tables is a permutation (Latin squares)
    for a in els:
        assert sorted(f.add_table[a]) == els
        if a:
            assert sorted(f.mul_table[a]) == els


@pytest.mark.parametrize("q", [4, 5, 7, 8, 9])
def test_field_associativity_and_distributivity(q: int) -> None:
    f = field(q)
    els = list(f.elements)
    for a in els:
        for b in els:
            for c in els:
                assert f.add(f.add(a, b), c) == f.add(a, f.add(b, c))
                assert f.mul(f.mul(a, b), c) == f.mul(a, f.mul(b, c))
                assert f.mul(a, f.add(b, c)) == f.add(f.mul(a, b), f.mul(a, c))


def test_prime_power_and_errors() -> None:
    assert prime_power(49) == (7, 2)
    assert prime_power(32) == (2, 5)
    assert prime_power(12) is None
    with pytest.raises(ValueError):
        field(6)
    with pytest.raises(ZeroDivisionError):
        field(4).inv(0)


# --- table sizes and metrics --------------------------------------------------------------------------------


def test_table_sizes() -> None:
    assert table_sizes(4) == [4]
    assert table_sizes(5) == [5]
    assert table_sizes(6) == [5]  # one bye
    assert table_sizes(7) == [5]  # two byes
    assert table_sizes(11) == [5, 5]  # one bye
    assert table_sizes(13) == [4, 4, 5]
    assert table_sizes(19) == [4, 5, 5, 5]
    for n in range(12, 200):
        sizes = table_sizes(n)
        assert sum(sizes) == n and sizes.count(5) == n % 4
    with pytest.raises(ValueError):
        table_sizes(3)


def test_repeat_free_rounds_counts_leading_rounds() -> None:
    r1 = [[1, 2, 3, 4], [5, 6, 7, 8]]
    r2 = [[1, 5, 2, 6], [3, 7, 4, 8]]  # 1-2 meet again
    r3 = [[1, 5, 9, 10], [2, 6, 11, 12]]
    assert repeat_free_rounds([]) == 0
    assert repeat_free_rounds([r1]) == 1
    assert repeat_free_rounds([r1, r3]) == 2
    assert repeat_free_rounds([r1, r2, r3]) == 1
    assert repeated_pairs([r1, r1]) == 12


# --- generators ---------------------------------------------------------------------------------------------


def test_registry() -> None:
    assert set(GENERATORS) == {"random", "greedy", "schedule"}
    assert isinstance(find("random"), RandomSeating)
    assert isinstance(find("greedy"), GreedySeating)
    assert isinstance(find("schedule"), ScheduleSeating)
    for key, gen in GENERATORS.items():
        assert gen.key == key and gen.name
    with pytest.raises(KeyError):
        find("nope")


@pytest.mark.parametrize("key", ["random", "greedy"])
def test_random_and_greedy_valid_for_4_to_60(key: str) -> None:
    gen = GreedySeating(restarts=5) if key == "greedy" else find(key)
    for n in range(4, 61):
        assert_valid(gen.rounds(n, 3, seed=n), n)


def test_schedule_valid_small_and_odd() -> None:
    for n in (4, 5, 6, 7, 9, 11, 13, 17, 24, 30):
        assert_valid(find("schedule").rounds(n, 4, seed=1), n)


@pytest.mark.parametrize("n", [6, 7, 11])
def test_byes_rotate(n: int) -> None:
    rounds = find("greedy").rounds(n, 2 * n, seed=3)
    seated = sum(table_sizes(n))
    byes = {p: sum(1 for rnd in rounds if p not in {x for t in rnd for x in t}) for p in range(1, n + 1)}
    assert sum(byes.values()) == 2 * n * (n - seated)
    assert max(byes.values()) - min(byes.values()) <= 1


@pytest.mark.parametrize("key", ["random", "greedy", "schedule"])
def test_seeded_reproducible(key: str) -> None:
    gen = find(key)
    for n in (13, 20, 24):
        assert gen.rounds(n, 4, seed=7) == gen.rounds(n, 4, seed=7)
    assert find("random").rounds(24, 3, seed=1) != find("random").rounds(24, 3, seed=2)


def test_history_is_respected() -> None:
    gen = find("greedy")
    first = gen.rounds(24, 2, seed=1)
    more = gen.rounds(24, 2, seed=2, history=first)
    assert repeat_free_rounds(first + more) == 4


# --- constructions ------------------------------------------------------------------------------------------


def assert_resolvable_design(rounds: list[Round], n: int, expected: int) -> None:
    assert len(rounds) == expected
    assert_valid(rounds, n)
    for rnd in rounds:
        assert sorted(p for t in rnd for p in t) == list(range(1, n + 1))
    pairs = [pair for rnd in rounds for t in rnd for pair in combinations(sorted(t), 2)]
    assert len(pairs) == len(set(pairs))
    assert repeat_free_rounds(rounds) == expected


def test_affine_plane_and_space() -> None:
    assert_resolvable_design(affine_plane_4(), 16, 5)
    plane = affine_plane_4()
    # AG(2,4) is a 2-design: every pair meets exactly once
    assert len({pair for rnd in plane for t in rnd for pair in combinations(sorted(t), 2)}) == 16 * 15 // 2
    assert_resolvable_design(affine_space_4(), 64, 21)


@pytest.mark.parametrize("q", [4, 5, 7, 8, 9, 16, 25])
def test_transversal_design(q: int) -> None:
    assert_resolvable_design(transversal_design(q), 4 * q, q)


@pytest.mark.parametrize(("n", "expected"), [(16, 5), (20, 5), (28, 7), (32, 8), (36, 9), (64, 21), (100, 25)])
def test_schedule_uses_constructions(n: int, expected: int) -> None:
    built = construction(n)
    assert built is not None and len(built) == expected
    rounds = find("schedule").rounds(n, expected, seed=5)
    assert_resolvable_design(rounds, n, expected)


def test_schedule_continues_past_construction() -> None:
    rounds = find("schedule").rounds(20, 8, seed=1)
    assert len(rounds) == 8
    assert_valid(rounds, 20)
    assert repeat_free_rounds(rounds) >= 5


def test_greedy_quality_n40() -> None:
    n = 40
    target = ((n - 1) // 3) // 2
    assert repeat_free_rounds(find("greedy").rounds(n, target + 2, seed=1)) >= target


def test_schedule_beats_or_matches_greedy_without_construction() -> None:
    for n in (24, 40, 48):
        assert construction(n) is None
        sched = repeat_free_rounds(find("schedule").rounds(n, 12, seed=1))
        assert sched >= ((n - 1) // 3) // 2


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(4, 120),
    count=st.integers(1, 3),
    seed=st.integers(0, 2**16),
    key=st.sampled_from(sorted(GENERATORS)),
)
def test_valid_property(n: int, count: int, seed: int, key: str) -> None:
    gen = GreedySeating(restarts=3) if key == "greedy" else find(key)
    rounds = gen.rounds(n, count, seed)
    assert len(rounds) == count
    assert_valid(rounds, n)
    assert sum(len(t) for t in rounds[0]) == sum(table_sizes(n))
