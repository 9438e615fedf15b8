"""Ratings kept up to date incrementally, over a ledger of rated rounds, and checked against a full recomputation.

The ledger (``RatedRound``) lists the rounds rated so far, in rating order, each with a fingerprint; every player
rated in a round has their state after it (``RatingStep``). ``update_ratings`` compares the ledger with the rounds
to rate now (``scoring.selectors.rated_rounds_in_order``):

- nothing differs: nothing to do (a few small queries);
- rounds were added at the end (a new session finalised): they are rated from the players' current ``Rating``,
  so the cost follows the new deals, not the history;
- a round differs from some position on (finalised again after a correction, reopened, hidden, a competition
  inserted earlier in the order, a round deleted): the rounds from there on are replayed from each player's
  state just before it.

Both continue the same fold as a full computation from the same floats, so they give the same numbers;
``full_recompute`` (nightly beat job, ``manage.py recompute_ratings``) computes everything from scratch, reports
any difference from what the increments stored, and stores its own result.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.db import connection, transaction
from django.db.models import Max, OuterRef, Subquery
from django.utils import timezone

from scoring.models import JobState, RatedRound, Rating, RatingStep
from scoring.ratings import PlayerState, Replay, RoundDeals, replay
from scoring.selectors import RatedRoundRow, rated_rounds_in_order, round_deal_results

log = logging.getLogger(__name__)

LEDGER_LOCK = "ratings-ledger"  # a JobState row held FOR UPDATE while the ledger and the ratings are written
TOLERANCE = 1e-9  # mu, sigma: a full recomputation and the increments agree to this


@dataclass(frozen=True)
class LedgerRun:
    """What one update did: rounds rated from ``start`` (their position), players whose rating changed."""

    start: int
    rounds: int
    players: int
    seconds: dict[str, float] = field(default_factory=dict)  # by phase: detect, read, rate and write

    @property
    def appended(self) -> bool:
        return self.rounds > 0


@dataclass
class FullReport:
    """A full recomputation: how many players and rounds, and where it differs from the stored ratings."""

    players: int = 0
    rounds: int = 0
    deals: int = 0
    compared: bool = True  # False: the ledger moved on while computing, so there was nothing like to compare
    differences: list[str] = field(default_factory=list)


def _first_difference(stored: Sequence[tuple[int, int, str]], desired: Sequence[RatedRoundRow]) -> int:
    """The first position where the ledger and the rounds to rate differ (a gap counts as a difference)."""
    for position, ((at, round_id, fingerprint), row) in enumerate(zip(stored, desired, strict=False)):
        if at != position or round_id != row.round_id or fingerprint != row.fingerprint:
            return position
    return min(len(stored), len(desired))


def _lock() -> None:
    JobState.objects.get_or_create(key=LEDGER_LOCK)
    JobState.objects.select_for_update().get(key=LEDGER_LOCK)


def update_ratings() -> LedgerRun:
    """Bring the ratings up to date with the rounds they count, by appending or replaying from a changed round."""
    clock = _Clock()
    desired = rated_rounds_in_order()
    with transaction.atomic():
        _lock()
        stored = list(RatedRound.objects.order_by("position").values_list("position", "round_id", "fingerprint"))
        first = _first_difference(stored, desired)
        clock.lap("detect")
        if first == len(stored) == len(desired):
            return LedgerRun(first, 0, 0, clock.laps)
        todo = desired[first:]
        deals = round_deal_results([row.round_id for row in todo])
        rounds = [RoundDeals(row.round_id, row.label, tuple(deals[row.round_id])) for row in todo]
        clock.lap("read")
        update = _append if first == len(stored) else _replay_from
        players = update(first, todo, rounds, timezone.now(), clock)
    clock.lap("write")
    return LedgerRun(first, len(rounds), players, clock.laps)


class _Clock:
    def __init__(self) -> None:
        self.laps: dict[str, float] = {}
        self.at = time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.laps[name] = self.laps.get(name, 0.0) + now - self.at
        self.at = now


def _append(first: int, rows: Sequence[RatedRoundRow], rounds: list[RoundDeals], now: datetime, clock: _Clock) -> int:
    """Rate rounds added at the end from the players' current ratings; their steps are the new history points."""
    seen = {pid for r in rounds for deal in r.deals for pid in deal.players}
    start = {
        pid: PlayerState(mu, sigma, deals)
        for pid, mu, sigma, deals in Rating.objects.filter(player_id__in=seen).values_list(
            "player_id", "mu", "sigma", "deals_rated"
        )
    }
    clock.lap("read")
    result = replay(rounds, start)
    clock.lap("rate")
    _store_steps(first, rows, result)
    moved = {pid: result.states[pid] for step in result.steps for pid in step.states}
    _update_ratings({pid: state for pid, state in moved.items() if pid in start}, now)
    Rating.objects.bulk_create(_rating(pid, moved[pid], now) for pid in sorted(moved) if pid not in start)
    return len(moved)


def _replay_from(
    first: int, rows: Sequence[RatedRoundRow], rounds: list[RoundDeals], now: datetime, clock: _Clock
) -> int:
    """Replay the rounds from position ``first`` on, from each player's state just before it."""
    later = set(RatingStep.objects.filter(position__gte=first).values_list("player_id", flat=True).distinct())
    seen = {pid for r in rounds for deal in r.deals for pid in deal.players}
    affected = later | seen
    start: dict[int, PlayerState] = {}
    if first > 0 and affected:
        before = RatingStep.objects.filter(player=OuterRef("player"), position__lt=first).order_by("-position")
        latest = RatingStep.objects.filter(
            player_id__in=affected, position=Subquery(before.values("position")[:1])
        ).values_list("player_id", "mu", "sigma", "deals")
        start = {pid: PlayerState(mu, sigma, deals) for pid, mu, sigma, deals in latest}
    RatingStep.objects.filter(position__gte=first).delete()
    RatedRound.objects.filter(position__gte=first).delete()
    clock.lap("read")
    result = replay(rounds, start)
    clock.lap("rate")
    _store_steps(first, rows, result)
    Rating.objects.filter(player_id__in=affected).delete()
    Rating.objects.bulk_create(
        _rating(pid, result.states[pid], now) for pid in sorted(affected) if pid in result.states
    )
    return len(affected)


def _store_steps(first: int, rows: Sequence[RatedRoundRow], result: Replay) -> None:
    """The ledger rows of the rounds rated from position ``first``, and every rated player's state after each."""
    RatedRound.objects.bulk_create(
        RatedRound(position=first + k, round_id=row.round_id, fingerprint=row.fingerprint, label=row.label)
        for k, row in enumerate(rows)
    )
    steps = [
        (first + k, pid, s.mu, s.sigma, s.deals)
        for k, step in enumerate(result.steps)
        for pid, s in step.states.items()
    ]
    if connection.vendor == "postgresql":  # one statement of five arrays: no per-row parameters to parse
        with connection.cursor() as cursor:
            for chunk in range(0, len(steps), 50_000):
                part = steps[chunk : chunk + 50_000]
                cursor.execute(
                    f"INSERT INTO {RatingStep._meta.db_table} (position, player_id, mu, sigma, deals) "
                    "SELECT * FROM unnest(%s::int[], %s::bigint[], %s::float8[], %s::float8[], %s::int[])",
                    [list(column) for column in zip(*part, strict=True)] if part else [[], [], [], [], []],
                )
        return
    RatingStep.objects.bulk_create(
        (RatingStep(position=p, player_id=pid, mu=mu, sigma=sigma, deals=d) for p, pid, mu, sigma, d in steps),
        batch_size=5000,
    )


def _rating(pid: int, state: PlayerState, now: datetime) -> Rating:
    return Rating(
        player_id=pid, mu=state.mu, sigma=state.sigma, ordinal=state.ordinal, deals_rated=state.deals, computed_at=now
    )


def _update_ratings(states: dict[int, PlayerState], now: datetime) -> None:
    """The players' new states, in one statement: a row of fixed-size columns each, whatever their history."""
    if not states:
        return
    if connection.vendor == "postgresql":  # one statement of arrays: no per-row parameters to parse
        rows = [(pid, s.mu, s.sigma, s.ordinal, s.deals) for pid, s in sorted(states.items())]
        columns = [list(column) for column in zip(*rows, strict=True)]
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {Rating._meta.db_table} AS r SET mu = v.mu, sigma = v.sigma, ordinal = v.ordinal, "
                "deals_rated = v.deals, computed_at = %s "
                "FROM unnest(%s::bigint[], %s::float8[], %s::float8[], %s::float8[], %s::int[]) "
                "AS v(player_id, mu, sigma, ordinal, deals) WHERE r.player_id = v.player_id",
                [now, *columns],
            )
        return
    ratings = list(Rating.objects.filter(player_id__in=states))
    for rating in ratings:
        state = states[rating.player_id]
        rating.mu, rating.sigma, rating.ordinal, rating.deals_rated = state.mu, state.sigma, state.ordinal, state.deals
        rating.computed_at = now
    Rating.objects.bulk_update(ratings, ["mu", "sigma", "ordinal", "deals_rated", "computed_at"])


def last_updated() -> datetime | None:
    """When the ratings last changed (the newest ``Rating.computed_at``)."""
    return Rating.objects.aggregate(at=Max("computed_at"))["at"]


def ledger_stale() -> bool:
    """Whether the rounds to rate differ from the ledger (the reconcile job then requests an update)."""
    desired = rated_rounds_in_order()
    stored = list(RatedRound.objects.order_by("position").values_list("position", "round_id", "fingerprint"))
    return not (_first_difference(stored, desired) == len(stored) == len(desired))


# -- the full recomputation ---------------------------------------------------------------------------------------


def full_recompute() -> FullReport:
    """Recompute every rating from scratch, report how it differs from the stored (incremental) ratings, store it."""
    desired = rated_rounds_in_order()
    deals = round_deal_results([row.round_id for row in desired])
    rounds = [RoundDeals(row.round_id, row.label, tuple(deals[row.round_id])) for row in desired]
    result = replay(rounds)
    report = FullReport(len(result.states), len(rounds), sum(len(r.deals) for r in rounds))
    now = timezone.now()
    with transaction.atomic():
        _lock()
        stored = list(RatedRound.objects.order_by("position").values_list("position", "round_id", "fingerprint"))
        report.compared = _first_difference(stored, desired) == len(stored) == len(desired)
        if report.compared:
            report.differences = _differences(result)
        RatingStep.objects.all().delete()
        RatedRound.objects.all().delete()
        Rating.objects.all().delete()
        _store_steps(0, desired, result)
        Rating.objects.bulk_create((_rating(pid, s, now) for pid, s in sorted(result.states.items())), batch_size=2000)
    if report.differences:
        log.warning(
            "ratings: the full recomputation differs from the incremental ratings for %s player(s): %s",
            len(report.differences),
            "; ".join(report.differences[:20]),
        )
    return report


def _differences(result: Replay) -> list[str]:
    """Where the stored ratings and their steps (the history) differ from ``result``, a full computation."""
    states = result.states
    stored = {
        pid: (mu, sigma, deals)
        for pid, mu, sigma, deals in Rating.objects.values_list("player_id", "mu", "sigma", "deals_rated")
    }
    found: dict[int, str] = {}
    for pid in sorted(set(stored) | set(states)):
        if pid not in stored:
            found[pid] = f"missing (full: ordinal {states[pid].ordinal:.6f})"
        elif pid not in states:
            found[pid] = f"rated incrementally ({stored[pid][0]:.6f}) but not in the full computation"
        else:
            (mu, sigma, deals), full = stored[pid], states[pid]
            if not (_close(mu, full.mu) and _close(sigma, full.sigma)):
                found[pid] = f"mu {mu!r} / sigma {sigma!r}, full {full.mu!r} / {full.sigma!r}"
            elif deals != full.deals:
                found[pid] = f"{deals} deals rated, full {full.deals}"
    for pid, position in _first_step_differences(result).items():
        found.setdefault(pid, f"history differs from round {position + 1} of the ledger on")
    return [f"player {pid}: {what}" for pid, what in sorted(found.items())]


def _first_step_differences(result: Replay) -> dict[int, int]:
    """For each player whose stored steps (their history) differ from the full computation's, the first ledger
    position that does."""
    full = {(position, pid): state for position, step in enumerate(result.steps) for pid, state in step.states.items()}
    stored = {
        (position, pid): PlayerState(mu, sigma, deals)
        for position, pid, mu, sigma, deals in RatingStep.objects.values_list(
            "position", "player_id", "mu", "sigma", "deals"
        ).iterator(chunk_size=20_000)
    }
    different = stored.keys() ^ full.keys()
    for key in stored.keys() & full.keys():
        a, b = stored[key], full[key]
        if not (_close(a.mu, b.mu) and _close(a.sigma, b.sigma) and a.deals == b.deals):
            different.add(key)
    first: dict[int, int] = {}
    for position, pid in different:
        first[pid] = min(first.get(pid, position), position)
    return first


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, abs_tol=TOLERANCE)
