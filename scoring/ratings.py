"""OpenSkill (Plackett-Luce) ratings from deals, over plain records, no Django.

A deal's temporary teams come from its points, so no game is special-cased:
the seats that played are grouped by the points they scored (a 2 v 2 deal
gives two teams, a 1 v 3 deal a lone player against three, several miserie
players each their own team) and the groups are ranked by points. Deals
where everyone scored the same (all-pass) teach nothing and are skipped.

Ratings are a fold over the deals in order, so they can continue: ``replay``
rates rounds starting from given player states (the state after the last
rated round, or after the round before a corrected one) and gives the state
of every player after each round, which the caller stores to continue from
later. Rating from the same states over the same deals gives the same floats,
bit for bit, whether in one run or in several.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from openskill.models import PlackettLuce


@dataclass(frozen=True, slots=True)
class DealResult:
    """The players of one deal and their points, in seat order (sitting-out seats left out)."""

    players: tuple[int, ...]
    points: tuple[int, ...]
    when: str = ""  # a label for the rating history (competition and round): one point per label and player
    round_id: int = 0  # which round: a history point per round, even when two rounds share a label


@dataclass(frozen=True, slots=True)
class PlayerState:
    """Where a player stands after some deals: enough to continue rating them."""

    mu: float
    sigma: float
    deals: int

    @property
    def ordinal(self) -> float:
        return _ordinal(self.mu, self.sigma)


@dataclass(frozen=True, slots=True)
class PlayerRating:
    player_id: int
    mu: float
    sigma: float
    ordinal: float
    deals: int
    history: tuple[tuple[str, float], ...] = ()  # (label, ordinal) after each labelled stretch of deals


@dataclass(frozen=True, slots=True)
class RoundDeals:
    """One round's rated deals, in order (table, then deal), and the label of its history point."""

    round_id: int
    label: str
    deals: tuple[DealResult, ...]


@dataclass(frozen=True, slots=True)
class RoundStep:
    """Every player rated in a round, and their state after it (what a later run continues from)."""

    round_id: int
    label: str
    states: Mapping[int, PlayerState]


@dataclass
class Replay:
    """The outcome of rating rounds from a start: each round's step, and every player's state at the end."""

    steps: list[RoundStep] = field(default_factory=list)
    states: dict[int, PlayerState] = field(default_factory=dict)


def _ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma  # openskill's ordinal() with its defaults (z=3, alpha=1, target=0)


_MODEL = PlackettLuce()  # the defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300, kappa 0.0001): what is rated by
_BETA_SQUARED = _MODEL.beta**2
_TAU_SQUARED = _MODEL.tau * _MODEL.tau
_KAPPA = _MODEL.kappa


def plackett_luce(teams: list[list[tuple[float, float]]]) -> list[list[tuple[float, float]]]:
    """``PlackettLuce().rate(teams, ranks=[0, 1, ...])`` for teams already in finishing order, no ties, over
    (mu, sigma) pairs: the same arithmetic in the same order (openskill 6, Weng-Lin algorithm 4; the tests compare
    them), without the argument checks, deep copies and objects that cost most of its time."""
    played = [[(mu, math.sqrt(sigma * sigma + _TAU_SQUARED)) for mu, sigma in team] for team in teams]
    team_mu: list[float] = []
    team_sigma_squared: list[float] = []
    for team in played:
        mu_summed = 0.0
        sigma_squared_summed = 0.0
        for mu, sigma in sorted(team, key=lambda p: p[0] - 3.0 * p[1], reverse=True):
            mu_summed += mu * 1.0
            sigma_squared_summed += (sigma * 1.0) ** 2
        team_mu.append(mu_summed)
        team_sigma_squared.append(sigma_squared_summed)
    collective = 0.0
    for sigma_squared in team_sigma_squared:
        collective += sigma_squared + _BETA_SQUARED
    c = math.sqrt(collective)
    k = len(played)
    sum_q = [0.0] * k
    started = [False] * k
    for i in range(k):
        summed = math.exp(team_mu[i] / c)
        for q in range(i + 1):  # rank i >= rank q
            sum_q[q] = sum_q[q] + summed if started[q] else summed
            started[q] = True
    out: list[list[tuple[float, float]]] = []
    for i, team in enumerate(played):
        omega = 0.0
        delta = 0.0
        i_mu_over_c = math.exp(team_mu[i] / c)
        for q in range(i + 1):  # rank q <= rank i; each rank once (a = 1)
            share = i_mu_over_c / sum_q[q]
            delta += share * (1 - share) / 1
            if q == i:
                omega += (1 - share) / 1
            else:
                omega -= share / 1
        omega *= team_sigma_squared[i] / c
        delta *= team_sigma_squared[i] / c**2
        delta *= math.sqrt(team_sigma_squared[i]) / c  # gamma
        updated = []
        for mu, sigma in team:
            if omega >= 0:
                mu += (sigma**2 / team_sigma_squared[i]) * omega * 1.0
                sigma *= math.sqrt(max(1 - (sigma**2 / team_sigma_squared[i]) * delta * 1.0, _KAPPA))
            else:
                mu += (sigma**2 / team_sigma_squared[i]) * omega / 1.0
                sigma *= math.sqrt(max(1 - (sigma**2 / team_sigma_squared[i]) * delta / 1.0, _KAPPA))
            updated.append((mu, sigma))
        out.append(updated)
    return out


class _Rater:
    """The running fold: every player's (mu, sigma) and deals counted."""

    def __init__(self, start: Mapping[int, PlayerState]) -> None:
        self.ratings: dict[int, tuple[float, float]] = {pid: (s.mu, s.sigma) for pid, s in start.items()}
        self.counts: dict[int, int] = {pid: s.deals for pid, s in start.items()}

    def rate(self, deal: DealResult) -> tuple[int, ...]:
        """Rate one deal; return the players it moved (none for an all-pass)."""
        groups: dict[int, list[int]] = {}
        for player, points in zip(deal.players, deal.points, strict=True):
            groups.setdefault(points, []).append(player)
        if len(groups) < 2:
            return ()
        order = sorted(groups, reverse=True)
        fresh = (_MODEL.mu, _MODEL.sigma)
        teams = [[self.ratings.setdefault(p, fresh) for p in groups[pts]] for pts in order]
        moved: list[int] = []
        for pts, team in zip(order, plackett_luce(teams), strict=True):
            for player, rating in zip(groups[pts], team, strict=True):
                self.ratings[player] = rating
                self.counts[player] = self.counts.get(player, 0) + 1
                moved.append(player)
        return tuple(moved)

    def state(self, player: int) -> PlayerState:
        mu, sigma = self.ratings[player]
        return PlayerState(mu, sigma, self.counts.get(player, 0))


def replay(rounds: Iterable[RoundDeals], start: Mapping[int, PlayerState] | None = None) -> Replay:
    """Rate ``rounds`` in order, continuing from ``start`` (no entry: a new player at the default rating)."""
    rater = _Rater(start or {})
    out = Replay()
    for round_ in rounds:
        touched: set[int] = set()
        for deal in round_.deals:
            touched.update(rater.rate(deal))
        out.steps.append(RoundStep(round_.round_id, round_.label, {pid: rater.state(pid) for pid in sorted(touched)}))
    out.states = {pid: rater.state(pid) for pid in rater.ratings}
    return out


def history_point(label: str, state: PlayerState) -> tuple[str, float]:
    """A history point as stored and drawn: the label and the ordinal to 3 decimals."""
    return (label, round(state.ordinal, 3))


def compute_ratings(deals: Iterable[DealResult], start: Mapping[int, PlayerState] | None = None) -> list[PlayerRating]:
    """Rate every player over ``deals`` in the order given (oldest first), from ``start`` if given.

    Deals are grouped into rounds by consecutive (round id, label); the history has a point per round a player
    was rated in (only the rounds of ``deals``: a continuation's caller keeps the earlier points).
    """
    result = replay(_rounds(deals), start)
    history: dict[int, list[tuple[str, float]]] = {}
    for step in result.steps:
        for pid, state in step.states.items():
            history.setdefault(pid, []).append(history_point(step.label, state))
    out = [
        PlayerRating(pid, s.mu, s.sigma, s.ordinal, s.deals, tuple(history.get(pid, ())))
        for pid, s in result.states.items()
    ]
    return sorted(out, key=lambda r: (-r.ordinal, r.player_id))


def _rounds(deals: Iterable[DealResult]) -> list[RoundDeals]:
    rounds: list[RoundDeals] = []
    current: list[DealResult] = []
    key: tuple[int, str] | None = None
    for deal in deals:
        if (deal.round_id, deal.when) != key:
            if key is not None:
                rounds.append(RoundDeals(key[0], key[1], tuple(current)))
            key, current = (deal.round_id, deal.when), []
        current.append(deal)
    if key is not None:
        rounds.append(RoundDeals(key[0], key[1], tuple(current)))
    return rounds
