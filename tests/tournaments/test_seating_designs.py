"""Pure tests for the design constructions behind repeat-free seating (no database)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, product

import pytest

from tournaments.seating.designs import (
    Z2_Z6_DIFFERENCE_MATRIX,
    affine_rounds,
    develop,
    field_td,
    product_td,
    projective_packing_rounds,
    resolvable_design,
    resolvable_rounds,
    transversal_design,
    wilson_td,
    z2_z6_add,
)

Round = Sequence[Sequence[int]]


def pairs_of(rounds: Sequence[Round], n: int) -> set[tuple[int, int]]:
    """Check every round seats players 1..n once at tables of 4 and no pair meets twice; return the pairs."""
    seen: set[tuple[int, int]] = set()
    for index, rnd in enumerate(rounds):
        assert sorted(p for table in rnd for p in table) == list(range(1, n + 1)), f"round {index}"
        assert all(len(table) == 4 for table in rnd), f"round {index}"
        for table in rnd:
            for pair in combinations(sorted(table), 2):
                assert pair not in seen, f"{pair} meets again in round {index}"
                seen.add(pair)
    return seen


def assert_td(td: Sequence[Sequence[int]], k: int, g: int) -> None:
    """Every block has one point in each of k groups of size g; two points of different groups share one block."""
    assert len(td) == g * g
    assert all(len(block) == k and all(0 <= x < g for x in block) for block in td)
    for i, j in combinations(range(k), 2):
        assert len({(block[i], block[j]) for block in td}) == g * g, f"groups {i} and {j}"


# --- the checkers can fail ----------------------------------------------------------------------------------


def test_checkers_reject_bad_designs() -> None:
    good = resolvable_design(16)
    assert good is not None
    with pytest.raises(AssertionError):
        pairs_of([*good, good[0]], 16)  # a round twice
    with pytest.raises(AssertionError):
        pairs_of([[[1, 2, 3, 4], [1, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]], 16)  # player 1 twice
    td = field_td(5, 7)
    with pytest.raises(AssertionError):
        assert_td([*td[:-1], td[0]], 5, 7)
    with pytest.raises(AssertionError):
        assert_td(field_td(5, 7), 5, 8)


# --- resolvable designs -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "rounds"),
    [
        (4, 1),  # AG(1, 4)
        (16, 5),  # AG(2, 4)
        (20, 5),  # GF(5)
        (28, 7),
        (32, 8),
        (36, 9),
        (40, 13),  # PG(3, 3)
        (44, 11),  # GF(11)
        (48, 12),  # Z2 x Z6 difference matrix
        (64, 21),  # AG(3, 4)
        (80, 20),  # TD(5, 4) x TD(5, 5)
        (84, 21),  # Wilson, t = 5, m = 4, u = 1
        (96, 24),  # Wilson, t = 5, m = 4, u = 4
        (144, 36),  # TD(5, 4) x TD(5, 9)
        (196, 49),  # GF(49)
        (200, 50),  # Wilson, t = 7, m = 7, u = 1
        (256, 85),  # AG(4, 4)
    ],
)
def test_resolvable_design(n: int, rounds: int) -> None:
    design = resolvable_design(n)
    assert design is not None
    assert len(design) == rounds
    pairs_of(design, n)


@pytest.mark.parametrize("n", [16, 40, 64])
def test_optimal_designs_meet_every_pair_once(n: int) -> None:
    design = resolvable_design(n)
    assert design is not None
    assert len(design) == (n - 1) // 3
    assert len(pairs_of(design, n)) == n * (n - 1) // 2


@pytest.mark.parametrize("n", [0, 3, 5, 8, 12, 24, 41, 42, 56, 72, 88])
def test_no_design(n: int) -> None:
    # 8, 12, 24, 56, 72, 88 are 4g with g = 2, 3, 6, 14, 18, 22: no TD(5, g) from these constructions
    # (none exists for g = 2, 3, 6); the others do not split into tables of 4.
    assert resolvable_design(n) is None


def test_result_is_a_fresh_copy() -> None:
    first = resolvable_design(48)
    assert first is not None
    first[0][0][0] = 999
    first.pop()
    again = resolvable_design(48)
    assert again is not None
    assert len(again) == 12
    pairs_of(again, 48)


def test_resolvable_rounds_deletes_the_last_group() -> None:
    rounds = resolvable_rounds(field_td(5, 5))
    assert len(rounds) == 5
    for rnd in rounds:
        assert [table[0] for table in rnd] == [1, 2, 3, 4, 5]  # table j starts with point j of group 0
        assert all(5 * i < table[i] <= 5 * (i + 1) for table in rnd for i in range(4))
    pairs_of(rounds, 20)


def test_affine_and_projective_rounds() -> None:
    assert len(pairs_of(affine_rounds(2), 16)) == 120
    assert len(pairs_of(projective_packing_rounds(), 40)) == 780


# --- transversal designs ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("k", "g"),
    [
        *[(2, 6), (3, 10)],  # cyclic Latin square
        *[(5, 4), (5, 7), (6, 7), (8, 7), (5, 8), (5, 9)],  # finite fields
        *[(5, 12), (6, 12)],  # difference matrix
        *[(5, 20), (5, 36), (6, 35)],  # products
        *[(5, 21), (5, 24), (5, 33), (5, 50)],  # Wilson
    ],
)
def test_transversal_design(k: int, g: int) -> None:
    td = transversal_design(k, g)
    assert td is not None
    assert_td(td, k, g)


@pytest.mark.parametrize(("k", "g"), [(5, 2), (5, 3), (4, 6), (5, 6), (5, 10), (9, 7), (7, 12)])
def test_no_transversal_design(k: int, g: int) -> None:
    assert transversal_design(k, g) is None


def test_field_td_needs_k_at_most_q_plus_one() -> None:
    assert_td(field_td(6, 5), 6, 5)
    with pytest.raises(ValueError, match="TD"):
        field_td(7, 5)


def test_difference_matrix() -> None:
    # Z2 x Z6 as pairs, independent of the encoding used by z2_z6_add
    def pair(x: int) -> tuple[int, int]:
        return divmod(x, 6)

    group = set(product(range(2), range(6)))
    assert len(Z2_Z6_DIFFERENCE_MATRIX) == 6
    assert all(sorted(map(pair, row)) == sorted(group) or not any(row) for row in Z2_Z6_DIFFERENCE_MATRIX)
    for r, s in combinations(Z2_Z6_DIFFERENCE_MATRIX, 2):
        diffs = {((a[0] - b[0]) % 2, (a[1] - b[1]) % 6) for a, b in zip(map(pair, r), map(pair, s), strict=True)}
        assert diffs == group
    assert {z2_z6_add(x, y) for x in range(12) for y in range(12)} == set(range(12))
    assert all(pair(z2_z6_add(x, y)) == ((x // 6 + y // 6) % 2, (x + y) % 6) for x in range(12) for y in range(12))
    assert_td(develop(Z2_Z6_DIFFERENCE_MATRIX, z2_z6_add), 6, 12)


def test_cyclic_group_fails_as_difference_matrix() -> None:
    # the same rows over Z12 instead of Z2 x Z6 are no difference matrix: the group matters
    td = develop(Z2_Z6_DIFFERENCE_MATRIX, lambda x, y: (x + y) % 12)
    with pytest.raises(AssertionError):
        assert_td(td, 6, 12)


def test_product_td() -> None:
    assert_td(product_td(field_td(5, 4), field_td(5, 5)), 5, 20)
    assert_td(product_td(field_td(4, 3), field_td(4, 4)), 4, 12)


@pytest.mark.parametrize(
    ("t", "m", "u"),
    [(7, 7, 1), (5, 4, 4), (5, 4, 5), (7, 4, 5), (4, 3, 2)],
)
def test_wilson_td(t: int, m: int, u: int) -> None:
    k = 5 if m >= 4 else 3
    one = ((0,) * k,)
    td = wilson_td(field_td(k + 1, t), field_td(k, m), field_td(k, m + 1), one if u == 1 else field_td(k, u))
    assert_td(td, k, m * t + u)


def test_wilson_td_rejects_wrong_ingredients() -> None:
    with pytest.raises(ValueError, match="Wilson"):
        wilson_td(field_td(5, 7), field_td(5, 7), field_td(5, 8), ((0,) * 5,))  # big design needs k + 1 groups
    with pytest.raises(ValueError, match="Wilson"):
        wilson_td(field_td(6, 7), field_td(5, 7), field_td(5, 9), ((0,) * 5,))  # TD(5, 9) is not TD(5, m + 1)
    with pytest.raises(ValueError, match="Wilson"):
        wilson_td(field_td(6, 5), field_td(5, 4), field_td(5, 5), field_td(5, 7))  # u = 7 > t = 5
