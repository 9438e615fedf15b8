"""OpenSkill (Plackett-Luce) ratings from deals, over plain records, no Django.

A deal's temporary teams come from its points, so no game is special-cased:
the seats that played are grouped by the points they scored (a 2 v 2 deal
gives two teams, a 1 v 3 deal a lone player against three, several miserie
players each their own team) and the groups are ranked by points. Deals
where everyone scored the same (all-pass) teach nothing and are skipped.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from openskill.models import PlackettLuce


@dataclass(frozen=True, slots=True)
class DealResult:
    """The players of one deal and their points, in seat order (sitting-out seats left out)."""

    players: tuple[int, ...]
    points: tuple[int, ...]
    when: str = ""  # a label for the rating history (competition and round): one point per label and player


@dataclass(frozen=True, slots=True)
class PlayerRating:
    player_id: int
    mu: float
    sigma: float
    ordinal: float
    deals: int
    history: tuple[tuple[str, float], ...] = ()  # (label, ordinal) after each labelled stretch of deals


def compute_ratings(deals: Iterable[DealResult]) -> list[PlayerRating]:
    """Rate every player over ``deals`` in the order given (oldest first)."""
    model = PlackettLuce()
    ratings: dict[int, object] = {}
    counts: dict[int, int] = {}
    history: dict[int, list[tuple[str, float]]] = {}
    touched: set[int] = set()
    label = None
    for deal in deals:
        if deal.when != label:
            _snapshot(ratings, touched, history, label)
            label = deal.when
        groups: dict[int, list[int]] = {}
        for player, points in zip(deal.players, deal.points, strict=True):
            groups.setdefault(points, []).append(player)
        if len(groups) < 2:
            continue
        order = sorted(groups, reverse=True)
        teams = [[ratings.setdefault(p, model.rating()) for p in groups[pts]] for pts in order]
        updated = model.rate(teams, ranks=[float(i) for i in range(len(order))])
        for pts, team in zip(order, updated, strict=True):
            for player, rating in zip(groups[pts], team, strict=True):
                ratings[player] = rating
                counts[player] = counts.get(player, 0) + 1
                touched.add(player)
    _snapshot(ratings, touched, history, label)
    out = [
        PlayerRating(
            pid,
            r.mu,
            r.sigma,
            r.ordinal(),
            counts.get(pid, 0),
            tuple(history.get(pid, ())),  # type: ignore[attr-defined]
        )
        for pid, r in ratings.items()
    ]
    return sorted(out, key=lambda r: (-r.ordinal, r.player_id))


def _snapshot(
    ratings: dict[int, object], touched: set[int], history: dict[int, list[tuple[str, float]]], label: str | None
) -> None:
    """Record the ordinal of every player rated since the last label."""
    if label is None:
        return
    for player in touched:
        history.setdefault(player, []).append((label, round(ratings[player].ordinal(), 3)))  # type: ignore[attr-defined]
    touched.clear()
