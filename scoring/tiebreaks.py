"""Tie-breaks: what separates players whose standings values are equal.

Each tie-break is a small class with a stable ``key`` and a ``name``; the
organiser lists them in order of precedence and ``ranking.rank`` applies them
one after another, each only within the group still tied. A tie-break's value
is a function of the player, the sessions and the penalties (it picks the
player's own records out of them) and, for ``head_to_head``, of the tied group;
higher is always better, so "fewer penalties" is the negated penalty total.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Collection, Sequence
from fractions import Fraction
from typing import ClassVar

from scoring.methods import format_number, plural
from scoring.records import Penalty, SessionResult, UnknownTieBreak

TieBreakValue = int | float | Fraction


class TieBreak(ABC):
    key: ClassVar[str]
    name: ClassVar[str]

    @abstractmethod
    def value(
        self,
        player_id: int,
        sessions: Sequence[SessionResult],
        penalties: Sequence[Penalty],
        tied: Collection[int] = (),
    ) -> TieBreakValue:
        """The player's value; ``tied`` is the group still level with them (the player included)."""

    def describe(self, value: TieBreakValue) -> str:
        return format_number(value)


def _own(player_id: int, sessions: Sequence[SessionResult]) -> list[SessionResult]:
    return [s for s in sessions if s.player_id == player_id]


class Points(TieBreak):
    """Total points net of penalties, for methods (placement, per deal) that rank by something else."""

    key = "points"
    name = "Points"

    def value(
        self,
        player_id: int,
        sessions: Sequence[SessionResult],
        penalties: Sequence[Penalty],
        tied: Collection[int] = (),
    ) -> int:
        return sum(s.points for s in _own(player_id, sessions)) - sum(
            p.points for p in penalties if p.player_id == player_id
        )


class SessionsWon(TieBreak):
    """Sessions where the player scored the table's highest points; a shared highest counts as won for each sharer."""

    key = "sessions_won"
    name = "Sessions won"

    def value(
        self,
        player_id: int,
        sessions: Sequence[SessionResult],
        penalties: Sequence[Penalty],
        tied: Collection[int] = (),
    ) -> int:
        return sum(1 for s in _own(player_id, sessions) if s.points == max(s.table_points))


class BestSession(TieBreak):
    """The player's highest single-session score; a player with no session has none (below any score)."""

    key = "best_session"
    name = "Best session"

    def value(
        self,
        player_id: int,
        sessions: Sequence[SessionResult],
        penalties: Sequence[Penalty],
        tied: Collection[int] = (),
    ) -> float:
        return max((s.points for s in _own(player_id, sessions)), default=-math.inf)


class HeadToHead(TieBreak):
    """Points the player scored in sessions where they sat with at least one other player of the tied group.

    Like Tabbycat's who-beat-whom it is computed over the group still tied when
    it is applied, not over the whole field: with three players level, a session
    against only one of the other two counts, a session against neither does not.
    Outside a tie (a group of one) it is 0.
    """

    key = "head_to_head"
    name = "Head-to-head"

    def value(
        self,
        player_id: int,
        sessions: Sequence[SessionResult],
        penalties: Sequence[Penalty],
        tied: Collection[int] = (),
    ) -> int:
        others = set(tied) - {player_id}
        return sum(s.points for s in _own(player_id, sessions) if others.intersection(s.table_players))


class ContractsMadeRatio(TieBreak):
    """Contracts made over contracts bid, rewarding sound bidding; 0 when the player bid nothing."""

    key = "contracts_made_ratio"
    name = "Contracts made ratio"

    def value(
        self,
        player_id: int,
        sessions: Sequence[SessionResult],
        penalties: Sequence[Penalty],
        tied: Collection[int] = (),
    ) -> Fraction:
        own = _own(player_id, sessions)
        bid = sum(s.contracts_bid for s in own)
        return Fraction(sum(s.contracts_made for s in own), bid) if bid else Fraction(0)


class FewerPenalties(TieBreak):
    """The player's penalty points negated, so the player penalised less ranks higher."""

    key = "fewer_penalties"
    name = "Fewer penalties"

    def value(
        self,
        player_id: int,
        sessions: Sequence[SessionResult],
        penalties: Sequence[Penalty],
        tied: Collection[int] = (),
    ) -> int:
        return -sum(p.points for p in penalties if p.player_id == player_id)

    def describe(self, value: TieBreakValue) -> str:
        return plural(-value, "penalty point")


TIEBREAKS: dict[str, TieBreak] = {
    t.key: t for t in (Points(), SessionsWon(), BestSession(), HeadToHead(), ContractsMadeRatio(), FewerPenalties())
}


def find_tiebreak(key: str) -> TieBreak:
    try:
        return TIEBREAKS[key]
    except (KeyError, TypeError):
        raise UnknownTieBreak(f"unknown tie-break {key!r}: expected one of {', '.join(TIEBREAKS)}") from None
