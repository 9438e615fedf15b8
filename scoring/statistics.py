"""Statistics over deals, from plain records, no Django.

Per player: deals played, points per deal, contracts bid and made by type,
the partners most played with. Per competition: how often each contract is
played and how often it is made. Whatever the game: a deal's declarers and
whether each made it come from the engine's settlement.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class DealRecord:
    players: tuple[int | None, ...]  # player by seat; None for a seat that sits the deal out
    points: tuple[int, ...]
    contract: str
    declarers: tuple[int, ...] = ()  # seats
    made: tuple[bool, ...] = ()  # one per declarer


@dataclass
class PlayerStatistics:
    deals: int = 0
    points: int = 0
    bid: Counter[str] = field(default_factory=Counter)
    made: Counter[str] = field(default_factory=Counter)
    partners: Counter[int] = field(default_factory=Counter)

    def as_json(self) -> dict[str, Any]:
        return {
            "deals": self.deals,
            "points": self.points,
            "points_per_deal": round(self.points / self.deals, 3) if self.deals else 0.0,
            "contracts": {c: {"bid": n, "made": self.made[c]} for c, n in sorted(self.bid.items())},
            "partners": [{"player": p, "deals": n} for p, n in self.partners.most_common(5)],
        }


def compute_statistics(deals: Iterable[DealRecord]) -> tuple[dict[int, PlayerStatistics], dict[str, Any]]:
    """Statistics per player and for the whole set of deals."""
    players: dict[int, PlayerStatistics] = {}
    played: Counter[str] = Counter()
    made_count: Counter[str] = Counter()
    for deal in deals:
        played[deal.contract] += 1
        if deal.made and all(deal.made):
            made_count[deal.contract] += 1
        for seat, player in enumerate(deal.players):
            if player is None:
                continue
            stats = players.setdefault(player, PlayerStatistics())
            stats.deals += 1
            stats.points += deal.points[seat]
        for k, seat in enumerate(deal.declarers):
            player = deal.players[seat] if seat < len(deal.players) else None
            if player is None:
                continue
            stats = players[player]
            stats.bid[deal.contract] += 1
            if k < len(deal.made) and deal.made[k]:
                stats.made[deal.contract] += 1
            if len(deal.declarers) == 2:
                other = deal.players[deal.declarers[1 - k]]
                if other is not None:
                    stats.partners[other] += 1
    summary = {
        "deals": sum(played.values()),
        "contracts": {
            c: {"played": n, "made": made_count[c], "success_rate": round(made_count[c] / n, 3)}
            for c, n in sorted(played.items())
        },
    }
    return players, summary
