"""A deliberately simple standings calculator: the oracle the ranking module is checked against (total points).

A player's total is the sum of the deal points of every current line at
every table they sat at, minus penalties. Equal totals share a rank
(1, 2, 2, 4); the order among them is by fewer deals played, then player id,
so the table is stable.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SeatResult:
    """What one seat of one sheet scored: the sum of its deal points, and how many deals it played."""

    player_id: int
    points: int
    deals: int


@dataclass(frozen=True, slots=True)
class PenaltyRecord:
    player_id: int
    points: int  # deducted


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int
    player_id: int
    points: int
    deals: int
    sessions: int
    penalty_points: int


def compute_standings(
    results: Iterable[SeatResult], penalties: Iterable[PenaltyRecord] = (), players: Iterable[int] = ()
) -> list[StandingRow]:
    """Rank every player who played, was penalised or is listed in ``players`` (registered, 0 points)."""
    points: dict[int, int] = dict.fromkeys(players, 0)
    deals: dict[int, int] = dict.fromkeys(points, 0)
    sessions: dict[int, int] = dict.fromkeys(points, 0)
    deducted: dict[int, int] = dict.fromkeys(points, 0)
    for r in results:
        points[r.player_id] = points.get(r.player_id, 0) + r.points
        deals[r.player_id] = deals.get(r.player_id, 0) + r.deals
        sessions[r.player_id] = sessions.get(r.player_id, 0) + (1 if r.deals else 0)
    for p in penalties:
        deducted[p.player_id] = deducted.get(p.player_id, 0) + p.points
    everyone = set(points) | set(deducted)
    totals = {pid: points.get(pid, 0) - deducted.get(pid, 0) for pid in everyone}
    order = sorted(everyone, key=lambda pid: (-totals[pid], deals.get(pid, 0), pid))
    rows: list[StandingRow] = []
    for index, pid in enumerate(order):
        rank = rows[-1].rank if rows and rows[-1].points == totals[pid] else index + 1
        rows.append(StandingRow(rank, pid, totals[pid], deals.get(pid, 0), sessions.get(pid, 0), deducted.get(pid, 0)))
    return rows
