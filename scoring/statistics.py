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
            "partners": [{"player": p, "deals": n} for p, n in sorted(self.partners.items(), key=_most_first)[:5]],
        }

    def raw(self) -> dict[str, Any]:
        """The counts themselves (JSON keys are strings), to add and subtract contributions later."""
        return {
            "deals": self.deals,
            "points": self.points,
            "bid": dict(self.bid),
            "made": dict(self.made),
            "partners": {str(p): n for p, n in self.partners.items()},
        }

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> PlayerStatistics:
        return cls(
            raw.get("deals", 0),
            raw.get("points", 0),
            Counter(raw.get("bid", {})),
            Counter(raw.get("made", {})),
            Counter({int(p): n for p, n in raw.get("partners", {}).items()}),
        )

    def add(self, other: PlayerStatistics, sign: int = 1) -> None:
        """Add (``sign`` 1) or take away (-1) another set of deals' counts; counts that reach zero go."""
        self.deals += sign * other.deals
        self.points += sign * other.points
        for mine, theirs in ((self.bid, other.bid), (self.made, other.made), (self.partners, other.partners)):
            _add_counts(mine, theirs, sign)


def _most_first(item: tuple[int, int]) -> tuple[int, int]:
    """Most deals first, then the lower player id: the same order however the counts were reached."""
    return (-item[1], item[0])


def _add_counts(mine: Counter[Any], theirs: Counter[Any], sign: int) -> None:
    for key, n in theirs.items():
        mine[key] += sign * n
        if mine[key] == 0:
            del mine[key]


@dataclass
class Totals:
    """Statistics of a set of deals as counts: they add up, sheet by sheet, and come off again on a correction."""

    players: dict[int, PlayerStatistics] = field(default_factory=dict)
    played: Counter[str] = field(default_factory=Counter)
    made: Counter[str] = field(default_factory=Counter)

    def add(self, other: Totals, sign: int = 1) -> set[int]:
        """Add or take away ``other``; returns the players whose counts changed."""
        _add_counts(self.played, other.played, sign)
        _add_counts(self.made, other.made, sign)
        for pid, stats in other.players.items():
            mine = self.players.setdefault(pid, PlayerStatistics())
            mine.add(stats, sign)
            if mine.deals == 0 and not (mine.bid or mine.made or mine.partners or mine.points):
                del self.players[pid]
        return set(other.players)

    def summary(self) -> dict[str, Any]:
        return {
            "deals": sum(self.played.values()),
            "contracts": {
                c: {"played": n, "made": self.made[c], "success_rate": round(self.made[c] / n, 3)}
                for c, n in sorted(self.played.items())
            },
        }

    def raw(self) -> dict[str, Any]:
        return {
            "players": {str(pid): stats.raw() for pid, stats in self.players.items()},
            "played": dict(self.played),
            "made": dict(self.made),
        }

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> Totals:
        return cls(
            {int(pid): PlayerStatistics.from_raw(stats) for pid, stats in raw.get("players", {}).items()},
            Counter(raw.get("played", {})),
            Counter(raw.get("made", {})),
        )


def count_deals(deals: Iterable[DealRecord]) -> Totals:
    """The counts of ``deals``: per player and per contract."""
    players, played, made_count = _count(deals)
    return Totals(players, played, made_count)


def compute_statistics(deals: Iterable[DealRecord]) -> tuple[dict[int, PlayerStatistics], dict[str, Any]]:
    """Statistics per player and for the whole set of deals."""
    totals = count_deals(deals)
    return totals.players, totals.summary()


def _count(deals: Iterable[DealRecord]) -> tuple[dict[int, PlayerStatistics], Counter[str], Counter[str]]:
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
    return players, played, made_count
