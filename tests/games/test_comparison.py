"""Scoring by comparison: matchpoints, percentages and cross-IMPs of the tables that played one hand of a board."""

from __future__ import annotations

from typing import TypeVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.duplicate import IMP_SCALE, cross_imps, imps, matchpoints, percentages
from games.duplicate.comparison import imps_against, matchpoints_against

T = TypeVar("T")
SCORES = st.lists(st.integers(min_value=-100, max_value=100), min_size=1, max_size=12)
SCORES_AND_TWO_TABLES = SCORES.filter(lambda s: len(s) >= 2).flatmap(
    lambda s: st.tuples(st.just(s), st.integers(0, len(s) - 1), st.integers(0, len(s) - 1))
)


def swapped(values: list[T], i: int, j: int) -> list[T]:
    result = list(values)
    result[i], result[j] = result[j], result[i]
    return result


# --- hand-checked examples -------------------------------------------------------------------------------------------


def test_matchpoints_give_two_for_each_score_beaten_and_one_for_each_tie() -> None:
    assert matchpoints([10, 4, 4, -2]) == [6, 3, 3, 0]
    assert matchpoints([3, 3, 3]) == [2, 2, 2]
    assert matchpoints([-6, 2]) == [0, 2]
    assert matchpoints([5]) == [0]
    assert matchpoints([]) == []


def test_percentages_are_matchpoints_over_the_top() -> None:
    assert percentages([10, 4, 4, -2]) == [100.0, 50.0, 50.0, 0.0]
    assert percentages([2, 9, 2]) == [25.0, 100.0, 25.0]
    assert percentages([7]) == [50.0]  # a board played once compares with nobody
    assert percentages([]) == []


@pytest.mark.parametrize(
    ("difference", "expected"),
    [
        (0, 0),
        (1, 0),  # an overtrick: noise
        (2, 1),
        (3, 1),
        (4, 2),
        (8, 3),  # iwwa: a vraag made (+2) against one down (-6)
        (18, 6),  # iwwa: an alleen made (+6) against one down (-12)
        (42, 9),  # iwwa: a miserie made (+21) against failed (-21)
        (67, 11),
        (68, 12),
        (180, 12),  # the top
        (-8, -3),
    ],
)
def test_the_imp_scale_turns_a_difference_into_imps(difference: int, expected: int) -> None:
    assert imps(difference) == expected


def test_the_imp_scale_is_ascending_and_tops_at_twelve() -> None:
    assert list(IMP_SCALE) == sorted(set(IMP_SCALE))
    assert IMP_SCALE[0] > 1
    assert imps(10**6) == len(IMP_SCALE) == 12


def test_a_club_may_use_its_own_scale() -> None:
    assert [imps(d, scale=(10, 20)) for d in (9, 10, 25, -25)] == [0, 1, 2, -2]
    assert cross_imps([30, 0], scale=(10, 20)) == [2.0, -2.0]


def test_cross_imps_average_the_imps_against_every_other_table() -> None:
    # 10 against 4, 4, -2: differences 6, 6, 12 -> 3, 3, 5 IMPs, average 11/3.
    # 4 against 10, 4, -2: -6, 0, 6 -> -3, 0, 3; -2 against 10, 4, 4: -12, -6, -6 -> -5, -3, -3.
    assert cross_imps([10, 4, 4, -2]) == pytest.approx([11 / 3, 0.0, 0.0, -11 / 3])
    assert cross_imps([5]) == [0.0]
    assert cross_imps([]) == []


# --- properties ------------------------------------------------------------------------------------------------------


@given(SCORES)
def test_a_boards_matchpoints_sum_to_n_times_n_minus_one(scores: list[int]) -> None:
    n = len(scores)
    assert sum(matchpoints(scores)) == n * (n - 1)
    assert all(0 <= points <= 2 * (n - 1) for points in matchpoints(scores))


@given(SCORES)
def test_percentages_average_fifty(scores: list[int]) -> None:
    values = percentages(scores)
    assert sum(values) / len(values) == pytest.approx(50.0)
    assert all(0.0 <= value <= 100.0 for value in values)


@given(SCORES_AND_TWO_TABLES)
def test_swapping_two_tables_scores_swaps_their_results(case: tuple[list[int], int, int]) -> None:
    scores, i, j = case
    assert matchpoints(swapped(scores, i, j)) == swapped(matchpoints(scores), i, j)
    assert cross_imps(swapped(scores, i, j)) == swapped(cross_imps(scores), i, j)  # sums of integers: exact


@given(SCORES)
def test_a_higher_score_never_gets_fewer_matchpoints_or_imps(scores: list[int]) -> None:
    points, crossed = matchpoints(scores), cross_imps(scores)
    for a in range(len(scores)):
        for b in range(len(scores)):
            if scores[a] > scores[b]:
                assert points[a] > points[b]
                assert crossed[a] >= crossed[b]
            elif scores[a] == scores[b]:
                assert points[a] == points[b] and crossed[a] == crossed[b]


@given(SCORES)
def test_a_boards_cross_imps_sum_to_zero(scores: list[int]) -> None:
    assert sum(cross_imps(scores)) == pytest.approx(0.0, abs=1e-9)


@given(st.integers(min_value=-1000, max_value=1000))
def test_imps_are_odd(difference: int) -> None:
    assert imps(-difference) == -imps(difference)


@given(st.integers(min_value=-1000, max_value=1000), st.integers(min_value=0, max_value=100))
def test_imps_are_monotone_and_bounded(difference: int, more: int) -> None:
    assert imps(difference) <= imps(difference + more)
    assert -12 <= imps(difference) <= 12


@given(st.integers(min_value=-1000, max_value=1000))
def test_one_more_point_gains_at_most_one_imp(difference: int) -> None:
    assert imps(difference + 1) - imps(difference) in (0, 1)


@given(SCORES)
def test_one_tables_value_against_the_others_is_its_entry_in_the_boards_list(scores: list[int]) -> None:
    for i, score in enumerate(scores):
        others = scores[:i] + scores[i + 1 :]
        assert matchpoints_against(score, others) == matchpoints(scores)[i]
        if others:
            assert imps_against(score, others) / len(others) == cross_imps(scores)[i]
