"""Plain records the standings calculators work on, and their one error family.

The calculators in ``methods``, ``tiebreaks`` and ``ranking`` take these
records and nothing else, so they run without Django, in tests, in tasks and
in a notebook alike. Records check themselves on construction: a score sheet
that contradicts itself is a bug upstream and should fail loudly here rather
than rank someone wrongly.
"""

from __future__ import annotations

from dataclasses import dataclass


class ScoringError(ValueError):
    """Bad input to a calculator: an unknown key, impossible options or a self-contradicting record.

    These are user errors (an organiser picked a method that does not exist,
    an import carried a broken sheet), shown to people; a ``ValueError`` so
    callers that only know the standard library can still catch them.
    """


class UnknownMethod(ScoringError):
    """``find_method(key)`` was asked for a standings method the registry does not hold."""


class UnknownTieBreak(ScoringError):
    """``find_tiebreak(key)`` was asked for a tie-break the registry does not hold."""


@dataclass(frozen=True, slots=True)
class BoardScore:
    """A duplicate board as one player played it: their ``points`` on it and the ``others``' points on the same hand.

    ``others`` are the points of every player who held the same hand (same board, same compass position) at the
    other tables of the round, in any order; the player's own table is not among them. A board played at one table
    only has no ``others``: the comparison methods give it nothing and do not count it as played. A player who sat
    out a board (the dealer at a table of five) has no ``BoardScore`` for it at all.
    """

    board: int
    points: int
    others: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.board < 1:
            raise ScoringError(f"board numbers start at 1, got {self.board}")


@dataclass(frozen=True, slots=True)
class SessionResult:
    """One player's result at one table's session (one score sheet).

    ``table_points`` and ``table_players`` give every seat of that table in seat
    order, the player's own seat included, so placement and head-to-head can be
    computed from the player's own record without looking up the others.
    ``deals`` is how many deals the player actually played: at a table of five
    one seat sits out each deal, and a bye is simply no session at all.
    ``boards`` (duplicate competitions, for the comparison methods) is the
    player's score on each board they played with the same hand's scores at the
    other tables; empty when nothing asked for it.
    """

    player_id: int
    session_id: int
    evening: int
    points: int
    deals: int
    table_points: tuple[int, ...]
    table_players: tuple[int, ...]
    contracts_bid: int = 0
    contracts_made: int = 0
    boards: tuple[BoardScore, ...] = ()

    def __post_init__(self) -> None:
        where = f"session {self.session_id}, player {self.player_id}"
        if len({b.board for b in self.boards}) != len(self.boards):
            raise ScoringError(f"{where}: a board is listed twice in {[b.board for b in self.boards]}")
        if len(self.table_points) != len(self.table_players):
            raise ScoringError(
                f"{where}: {len(self.table_points)} table points for {len(self.table_players)} table players"
            )
        if len(set(self.table_players)) != len(self.table_players):
            raise ScoringError(f"{where}: a player sits twice at the table {self.table_players}")
        if self.player_id not in self.table_players:
            raise ScoringError(f"{where}: the player is not among the table players {self.table_players}")
        own = self.table_points[self.table_players.index(self.player_id)]
        if own != self.points:
            raise ScoringError(f"{where}: points {self.points} differ from the player's table points {own}")
        if self.deals < 0:
            raise ScoringError(f"{where}: deals must not be negative, got {self.deals}")
        if not 0 <= self.contracts_made <= self.contracts_bid:
            raise ScoringError(
                f"{where}: contracts made {self.contracts_made} must be between 0 and the {self.contracts_bid} bid"
            )


@dataclass(frozen=True, slots=True)
class Penalty:
    """Points deducted from a player (positive ``points`` lower the total).

    ``evening`` dates the penalty for season tables; an undated penalty counts
    for the whole competition.
    """

    player_id: int
    points: int
    evening: int | None = None
