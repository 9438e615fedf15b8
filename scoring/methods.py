"""Standings methods: how one player's sessions become the number they are ranked by.

Each method is a small class with a stable ``key`` (stored on the competition)
and a ``name`` (shown to people), like Tabbycat's metric annotators; the
organiser picks one method and an ordered list of tie-breaks. Values are exact
(``int`` or ``fractions.Fraction``) so equal results compare equal and share a
rank, which floating point would not guarantee.

Penalties are game points and are always deducted in full: they are not
weighted by an evening's decay, and ``placement`` (which ranks a table as it
was played) does not see them; ``combined`` does, through its second key.

Duplicate competitions may rank by comparison instead (``matchpoints``,
``cross_imps``): each board's score against the scores of the same hand at the
other tables (``records.BoardScore``, maths in ``games.duplicate.comparison``).
Those methods read only the sessions' ``boards`` and so, like ``placement``,
do not see penalties: game points are not a percentage nor IMPs. A penalty
still shows in the points column and counts for the ``fewer_penalties`` and
``points`` tie-breaks.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise
from typing import ClassVar

from games.duplicate.comparison import imps_against, matchpoints_against
from scoring.records import BoardScore, Penalty, ScoringError, SessionResult, UnknownMethod

Number = int | Fraction
MethodValue = Number | tuple[Number, ...]

DEFAULT_PLACEMENT_POINTS: tuple[int, ...] = (4, 2, 1, 0, 0)


@dataclass(frozen=True, slots=True)
class MethodOptions:
    """Organiser settings a method reads; ``placement_points[i]`` is what place i+1 earns (missing places earn 0)."""

    placement_points: tuple[int, ...] = DEFAULT_PLACEMENT_POINTS

    def __post_init__(self) -> None:
        values = self.placement_points
        if not values:
            raise ScoringError("placement points must name at least the first place")
        if any(later > earlier for earlier, later in pairwise(values)):
            raise ScoringError(f"placement points must not increase from one place to the next, got {values}")


def format_number(value: float | Fraction) -> str:
    """Print a value for people: integers as such, others rounded to at most three decimals.

    A value that rounds to a whole number prints as that number, and zero never
    carries a sign: -1/3000 prints "0", 1.0001 prints "1". Ties round to even,
    as Python's ``round`` does.
    """
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float) and not math.isfinite(value):
        return "none" if math.isinf(value) else "nan"
    thousandths = round(Fraction(value) * 1000)
    whole, decimals = divmod(abs(thousandths), 1000)
    sign = "-" if thousandths < 0 else ""
    return f"{sign}{whole}" if decimals == 0 else f"{sign}{whole}.{decimals:03d}".rstrip("0")


class Percentage(Fraction):
    """A method's value that is a percentage (``Matchpoints``): exact like any other, shown "55.3%" wherever it is
    shown (``describe``, ``scoring.explanations.shown_value``); arithmetic on it gives a plain ``Fraction``."""

    __slots__ = ()


def one_decimal(value: float | Fraction) -> str:
    """A value rounded to one decimal, which is always printed ("55.0"); ties round to even, zero has no sign."""
    tenths = round(Fraction(value) * 10)
    whole, tenth = divmod(abs(tenths), 10)
    return f"{'-' if tenths < 0 else ''}{whole}.{tenth}"


def plural(value: Number | float, unit: str) -> str:
    """``value`` with ``unit``, singular exactly when the number printed is 1 ("1 point", "0 points", "-1 points")."""
    text = format_number(value)
    return f"{text} {unit}{'' if text == '1' else 's'}"


def _weight(evening: int, weights: Mapping[int, Fraction] | None) -> Number:
    return 1 if weights is None else weights.get(evening, 1)


def _net_points(
    sessions: Sequence[SessionResult], penalties: Sequence[Penalty], weights: Mapping[int, Fraction] | None
) -> Number:
    if weights is None:  # stay in int when nothing is weighted
        return sum(s.points for s in sessions) - sum(p.points for p in penalties)
    return sum((_weight(s.evening, weights) * s.points for s in sessions), Fraction(0)) - sum(
        p.points for p in penalties
    )


def placement_points(table_points: Sequence[int], own: int, scale: Sequence[int]) -> Fraction:
    """Placement points for a seat that scored ``own`` at a table that scored ``table_points``.

    Seats with equal points share their places and split the points of those
    places evenly: two seats sharing 1st and 2nd on the scale 4, 2, 1, 0 get
    (4 + 2) / 2 = 3 each, so the table still hands out exactly 4 + 2 + 1 + 0.
    """
    first = sum(1 for p in table_points if p > own)
    shared = sum(1 for p in table_points if p == own)
    places = range(first, first + shared)
    return Fraction(sum(scale[i] if i < len(scale) else 0 for i in places), shared)


class StandingsMethod(ABC):
    """A way to turn one player's sessions and penalties into a sortable value; higher ranks first."""

    key: ClassVar[str]
    name: ClassVar[str]
    compares_boards: ClassVar[bool] = False
    """It reads the sessions' ``boards``: for duplicate competitions only, whose records carry them."""

    @abstractmethod
    def value(
        self,
        sessions: Sequence[SessionResult],
        penalties: Sequence[Penalty],
        options: MethodOptions | None = None,
        weights: Mapping[int, Fraction] | None = None,
    ) -> MethodValue:
        """The player's value over their own ``sessions`` and ``penalties``.

        ``weights`` maps an evening to the weight its sessions count with (a
        league's decay); evenings not in it, and every session when it is
        ``None``, count once.
        """

    @abstractmethod
    def describe(self, value: MethodValue) -> str:
        """The value in words, for explanations ("12 points")."""


class TotalPoints(StandingsMethod):
    key = "total_points"
    name = "Total points"

    def value(
        self,
        sessions: Sequence[SessionResult],
        penalties: Sequence[Penalty],
        options: MethodOptions | None = None,
        weights: Mapping[int, Fraction] | None = None,
    ) -> Number:
        return _net_points(sessions, penalties, weights)

    def describe(self, value: MethodValue) -> str:
        assert not isinstance(value, tuple)
        return plural(value, "point")


class PointsPerDeal(StandingsMethod):
    """Points net of penalties per deal played: fair when tables of five or byes leave players with fewer deals."""

    key = "points_per_deal"
    name = "Points per deal"

    def value(
        self,
        sessions: Sequence[SessionResult],
        penalties: Sequence[Penalty],
        options: MethodOptions | None = None,
        weights: Mapping[int, Fraction] | None = None,
    ) -> Fraction:
        deals = sum((_weight(s.evening, weights) * s.deals for s in sessions), Fraction(0))
        if deals == 0:
            return Fraction(0)
        return Fraction(_net_points(sessions, penalties, weights)) / deals

    def describe(self, value: MethodValue) -> str:
        assert not isinstance(value, tuple)
        return f"{plural(value, 'point')} per deal"


class Placement(StandingsMethod):
    """Placement points per table session, so one huge session cannot outweigh steady wins."""

    key = "placement"
    name = "Placement points"

    def value(
        self,
        sessions: Sequence[SessionResult],
        penalties: Sequence[Penalty],
        options: MethodOptions | None = None,
        weights: Mapping[int, Fraction] | None = None,
    ) -> Fraction:
        scale = (options or MethodOptions()).placement_points
        return sum(
            (_weight(s.evening, weights) * placement_points(s.table_points, s.points, scale) for s in sessions),
            Fraction(0),
        )

    def describe(self, value: MethodValue) -> str:
        assert not isinstance(value, tuple)
        return plural(value, "placement point")


class Combined(StandingsMethod):
    """Placement points first, total points as the next key; the value is the tuple of both."""

    key = "combined"
    name = "Placement points, then total points"

    def value(
        self,
        sessions: Sequence[SessionResult],
        penalties: Sequence[Penalty],
        options: MethodOptions | None = None,
        weights: Mapping[int, Fraction] | None = None,
    ) -> tuple[Number, Number]:
        return (
            Placement().value(sessions, penalties, options, weights),
            TotalPoints().value(sessions, penalties, options, weights),
        )

    def describe(self, value: MethodValue) -> str:
        assert isinstance(value, tuple)
        placement, total = value
        return f"{plural(placement, 'placement point')}, {plural(total, 'point')}"


def board_percentage(board: BoardScore) -> Fraction | None:
    """The board's matchpoints (2 for each other table beaten, 1 for each tie) as a percentage of the top.

    ``None`` for a board played at one table only: there is nobody to compare with, so it gives no matchpoints
    and does not count as a board played (not the 50 % ``games.duplicate.percentages`` gives a lone table).
    """
    if not board.others:
        return None
    return Fraction(100 * matchpoints_against(board.points, board.others), 2 * len(board.others))


def board_imps(board: BoardScore) -> Fraction | None:
    """The board's cross-IMPs: the IMPs (``games.duplicate.IMP_SCALE``) of the difference with each other table,
    averaged over them; ``None`` for a board played at one table only, as ``board_percentage``."""
    if not board.others:
        return None
    return Fraction(imps_against(board.points, board.others), len(board.others))


def _over_boards(
    sessions: Sequence[SessionResult],
    weights: Mapping[int, Fraction] | None,
    per_board: Callable[[BoardScore], Fraction | None],
) -> tuple[Fraction, Fraction]:
    """A per-board value summed over the player's compared boards, each weighted by its evening; and the weight of
    those boards (a board ``per_board`` gives nothing for is left out of both)."""
    total, played = Fraction(0), Fraction(0)
    for session in sessions:
        weight = _weight(session.evening, weights)
        for board in session.boards:
            value = per_board(board)
            if value is not None:
                total += weight * value
                played += weight
    return total, played


class Matchpoints(StandingsMethod):
    """The player's average percentage over the boards they played, each board's matchpoints over its top.

    Every board weighs the same, whether three tables or thirty played it; a board that only one table played
    compares nothing and is left out, as is a board the player sat out at a table of five (they have no score on
    it). A player with no board compared has 0. Under a league's decay a board weighs its evening's weight.
    """

    key = "matchpoints"
    name = "Matchpoints (%)"
    compares_boards = True

    def value(
        self,
        sessions: Sequence[SessionResult],
        penalties: Sequence[Penalty],
        options: MethodOptions | None = None,
        weights: Mapping[int, Fraction] | None = None,
    ) -> Percentage:
        total, played = _over_boards(sessions, weights, board_percentage)
        return Percentage(total / played if played else 0)

    def describe(self, value: MethodValue) -> str:
        assert not isinstance(value, tuple)
        return f"{one_decimal(value)}%"


class CrossImps(StandingsMethod):
    """The player's cross-IMPs summed over the boards they played (``board_imps``); boards played at one table
    only, and boards sat out, give nothing. Under a league's decay a board counts its evening's weight."""

    key = "cross_imps"
    name = "Cross-IMPs"
    compares_boards = True

    def value(
        self,
        sessions: Sequence[SessionResult],
        penalties: Sequence[Penalty],
        options: MethodOptions | None = None,
        weights: Mapping[int, Fraction] | None = None,
    ) -> Fraction:
        return _over_boards(sessions, weights, board_imps)[0]

    def describe(self, value: MethodValue) -> str:
        assert not isinstance(value, tuple)
        return plural(value, "IMP")


METHODS: dict[str, StandingsMethod] = {
    m.key: m for m in (TotalPoints(), PointsPerDeal(), Placement(), Combined(), Matchpoints(), CrossImps())
}


def find_method(key: str) -> StandingsMethod:
    try:
        return METHODS[key]
    except (KeyError, TypeError):
        raise UnknownMethod(f"unknown standings method {key!r}: expected one of {', '.join(METHODS)}") from None
