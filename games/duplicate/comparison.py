"""Scoring by comparison: a player's score on a board against those who held the same hand elsewhere.

Every function takes, for one board and one position, the deal points (positive
is good) of each table where that hand was played, in any order, and returns one
value per table in the same order. Only scores on the same hand are compared,
so the cards' luck cancels out. ``matchpoints_against`` and ``imps_against``
give one table's value alone (its score against the others'), in integers, for
standings that take each player's boards one by one.

- Matchpoints, as in bridge: 2 for each other table beaten, 1 for each tie
  (half-tops, so that every value is an integer). A board's matchpoints always
  sum to ``n * (n - 1)``; as a percentage of the top, boards played at different
  numbers of tables weigh the same.
- Cross-IMPs: each difference with another table turned into IMPs by
  ``IMP_SCALE`` and averaged over the other tables. Unlike matchpoints, the size
  of a swing counts, but with diminishing steps, so that one big contract does
  not outweigh an evening of small ones.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence

IMP_SCALE: tuple[int, ...] = (2, 4, 6, 9, 12, 16, 21, 27, 34, 43, 54, 68)
"""The smallest point difference worth 1, 2, ... 12 IMPs (a difference of 0 or 1 is worth 0).

Built like bridge's scale for Wiezen's smaller numbers: under RULES.md §3 a
player's deal scores from 1 or 2 points (a vraag) to about 60 (a solo), and
differences between tables of a point or so are an overtrick, which is noise.
The steps then widen by about a quarter each, so IMPs grow roughly with the
logarithm of the swing. Landmarks under the ``iwwa`` preset: a vraag made
against one down (+2 against −6, 8 points) is 3 IMPs; an alleen made against
one down (+6 against −12) 6; a miserie made against failed (+21 against −21)
9; 68 points or more, a solo's or open miserie's swing, the top of 12.
"""


def matchpoints(scores: Sequence[int]) -> list[int]:
    """2 for each other score beaten, 1 for each tie; the board's total is ``n * (n - 1)``."""
    return [sum(2 if score > other else 1 if score == other else 0 for other in scores) - 1 for score in scores]


def matchpoints_against(score: int, others: Sequence[int]) -> int:
    """One table's matchpoints: 2 for each of the ``others`` beaten, 1 for each tie (``matchpoints`` for one).

    Counted by distinct score: a board's scores take few values, so a championship's hundred tables cost little.
    """
    return sum(n * (2 if score > other else 1 if score == other else 0) for other, n in Counter(others).items())


def percentages(scores: Sequence[int]) -> list[float]:
    """Matchpoints as a percentage of the top, ``2 * (n - 1)``; a board played once gives its table 50."""
    if len(scores) == 1:
        return [50.0]
    top = 2 * (len(scores) - 1)
    return [points / top * 100 for points in matchpoints(scores)]


def imps(difference: int, scale: Sequence[int] = IMP_SCALE) -> int:
    """A point difference in IMPs, sign kept: ``imps(-d) == -imps(d)``; ``scale`` is ascending lower bounds."""
    value = bisect_right(scale, abs(difference))
    return value if difference >= 0 else -value


def imps_against(score: int, others: Sequence[int], scale: Sequence[int] = IMP_SCALE) -> int:
    """One table's IMPs against each of the ``others``, summed (not averaged: ``cross_imps`` divides by their count)."""
    return sum(n * imps(score - other, scale) for other, n in Counter(others).items())


def cross_imps(scores: Sequence[int], scale: Sequence[int] = IMP_SCALE) -> list[float]:
    """For each score, the average IMPs against every other score; a board's values sum to 0."""
    if len(scores) == 1:
        return [0.0]
    others = len(scores) - 1
    return [sum(imps(score - other, scale) for other in scores) / others for score in scores]
