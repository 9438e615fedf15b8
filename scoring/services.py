"""Standings: queue a recomputation after entries, compute it, repair what was missed.

The flow (DESIGN.md step 4): an entry's transaction bumps its competition's
``entries_version``; on commit, ``request_standings`` queues one task unless one
is already queued (a conditional update on ``StandingsState.queued``), with a
short countdown so a burst of entries is computed once. The task claims the
request with the reverse update, so a duplicate delivery does nothing. A
periodic ``reconcile_standings`` requeues every competition whose standings are
older than its entries: the broker was down, a worker died.

Faults (tests/e2e/test_faults.py): an entry never fails because of the
standings (the request runs after the entry committed and only logs what went
wrong); the rows are replaced in one transaction, so a worker killed while
writing leaves the previous standings whole; a retried or redelivered run,
whose predecessor may have died after taking the claim, computes while the
standings are stale; computing the same version twice stores the same rows.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from config.env import env_int
from scoring import rating_ledger, statistics_delta
from scoring.methods import MethodOptions, find_method
from scoring.models import JobState, Rating, Standing, StandingsState
from scoring.ranking import LeagueOptions, rank
from scoring.records import Penalty as DatedPenalty
from scoring.records import SessionResult as Session
from scoring.selectors import (
    competition_penalty_records,
    competition_sessions,
)
from tournaments import live, standings_table
from tournaments.models import Competition

log = logging.getLogger(__name__)

_PUBLISH_RETRY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}


def request_standings(competition_id: int) -> bool:
    """Queue a recomputation unless one is queued already. Returns whether this call queued it.

    Never raises outside a transaction: it runs after an entry committed, so a
    database or broker failure here must not report the saved entry as failed.
    The standings then stay stale (the page shows their age) until the
    reconcile job requeues them.
    """
    from scoring.tasks import recompute_standings as task

    try:
        claimed = _claim_standings_request(competition_id)
    except DatabaseError:
        if transaction.get_connection().in_atomic_block:
            raise  # the caller's transaction is broken: it must know
        log.exception("could not request standings of competition %s; the reconcile job will", competition_id)
        return False
    if not claimed:
        return False
    try:
        task.apply_async((competition_id,), countdown=settings.STANDINGS_COALESCE_SECONDS, retry_policy=_PUBLISH_RETRY)
    except Exception:  # the broker is down: entry must not fail; reconcile will requeue
        log.exception("could not queue standings of competition %s; the reconcile job will", competition_id)
        try:
            StandingsState.objects.filter(competition_id=competition_id).update(queued=False, queued_at=None)
        except DatabaseError:  # still marked queued: reconcile releases it after STANDINGS_STALE_QUEUE_SECONDS
            if transaction.get_connection().in_atomic_block:
                raise
            log.exception("could not release the standings request of competition %s", competition_id)
        return False
    return True


def _claim_standings_request(competition_id: int) -> bool:
    """Mark the standings queued unless they are already: one statement, as every entry of a burst asks.

    The row is created on the first request (PostgreSQL and SQLite 3.35+ both take this upsert).
    """
    table = connection.ops.quote_name(StandingsState._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (competition_id, queued, queued_at, computed_version, computations) "
            "VALUES (%s, %s, %s, 0, 0) ON CONFLICT (competition_id) DO UPDATE "
            f"SET queued = excluded.queued, queued_at = excluded.queued_at WHERE NOT {table}.queued "
            "RETURNING competition_id",
            [competition_id, True, connection.ops.adapt_datetimefield_value(timezone.now())],
        )
        return cursor.fetchone() is not None


def recompute_standings(competition_id: int, *, claim: bool = True, resumed: bool = False) -> bool:
    """Compute and store one competition's standings. With ``claim``, only if a request is queued.

    The claim is released before computing, so an entry made meanwhile queues
    another run. ``resumed`` is a retry or a redelivery of a run that may have
    taken the claim and then died (database lost, worker killed): it computes
    without a claim as long as the standings are stale. Computing twice is
    harmless: the rows are replaced in one transaction, never by an older
    version.
    """
    if claim:
        claimed = StandingsState.objects.filter(competition_id=competition_id, queued=True).update(
            queued=False, queued_at=None
        )
        if not claimed:
            if not (resumed and _standings_stale(competition_id)):
                return False  # already done by another worker, or a duplicate delivery
            log.warning("standings of competition %s: resuming a run that did not finish", competition_id)
    competition = Competition.objects.filter(pk=competition_id).first()
    if competition is None:
        return False
    version = competition.entries_version  # read first: the rows below are at least this recent
    rows = standings_rows(competition)
    now = timezone.now()
    with transaction.atomic():
        state, _ = StandingsState.objects.select_for_update().get_or_create(competition_id=competition_id)
        if state.computed_version > version:
            return False  # a newer computation already landed
        Standing.objects.filter(competition_id=competition_id).delete()
        _hold_for_fault_tests(competition_id)
        Standing.objects.bulk_create(rows)
        StandingsState.objects.filter(pk=state.pk).update(
            computed_version=version, computed_at=now, computations=F("computations") + 1
        )
    live.forget(competition_id, competition.slug)  # the polls show the new standings now, not a second later
    standings_table.prepare(competition_id)  # built here once, not by every web server at the first poll
    return True


def _standings_stale(competition_id: int) -> bool:
    computed = StandingsState.objects.filter(competition_id=competition_id).values("computed_version")
    return Competition.objects.filter(pk=competition_id, entries_version__gt=Coalesce(Subquery(computed), 0)).exists()


def standings_rows(competition: Competition) -> list[Standing]:
    """The competition's standing rows from its current entries and penalties, unsaved."""
    registered = Competition.players.through.objects.filter(competition_id=competition.pk)
    return rank_competition(
        competition,
        competition_sessions(competition.pk, settled_only=True),
        competition_penalty_records(competition.pk, settled_only=True),
        registered.values_list("player_id", flat=True),
    )


def _hold_for_fault_tests(competition_id: int) -> None:
    """Tests only: keep the write transaction open, the old rows deleted, so a test can kill the worker in it.

    ``STANDINGS_TEST_DELAY_SECONDS`` (a whole number, default 0) is set by
    tests/e2e/test_faults.py in a worker's environment, never in production.
    """
    seconds = env_int("STANDINGS_TEST_DELAY_SECONDS", default=0)
    if seconds:
        log.warning(
            "standings of competition %s: holding the write transaction for %s s (STANDINGS_TEST_DELAY_SECONDS)",
            competition_id,
            seconds,
        )
        time.sleep(seconds)


def rank_competition(
    competition: Competition, sessions: list[Session], penalties: list[DatedPenalty], registered: Iterable[int]
) -> list[Standing]:
    """Standing rows by the competition's method, tie-breaks and league options (explained row by row)."""
    league = LeagueOptions(competition.min_evenings, competition.best_evenings, competition.evening_decay)
    method_options = MethodOptions(tuple(competition.placement_points)) if competition.placement_points else None
    ranked = rank(
        registered,
        sessions,
        penalties,
        competition.standings_method,
        competition.tie_breaks or (),
        league,
        method_options,
    )
    points: dict[int, int] = defaultdict(int)
    deals: dict[int, int] = defaultdict(int)
    played: dict[int, int] = defaultdict(int)
    deducted: dict[int, int] = defaultdict(int)
    for session in sessions:
        points[session.player_id] += session.points
        deals[session.player_id] += session.deals
        played[session.player_id] += 1
    for penalty in penalties:
        deducted[penalty.player_id] += penalty.points
    method = find_method(competition.standings_method)
    now = timezone.now()
    return [
        Standing(
            competition_id=competition.pk,
            player_id=row.player_id,
            rank=row.rank,
            points=points[row.player_id] - deducted[row.player_id],
            deals_played=deals[row.player_id],
            sessions_played=played[row.player_id],
            penalty_points=deducted[row.player_id],
            value=method.describe(row.value)[:80],
            shared=row.shared,
            explanation=row.explanation,
            computed_at=now,
        )
        for row in ranked
    ]


def reconcile_standings() -> list[int]:
    """Requeue every competition whose standings are older than its latest entry. Returns their ids."""
    stale_before = timezone.now() - timedelta(seconds=settings.STANDINGS_STALE_QUEUE_SECONDS)
    computed = StandingsState.objects.filter(competition_id=OuterRef("pk")).values("computed_version")
    stale = (
        Competition.objects.annotate(computed=Subquery(computed))
        .filter(entries_version__gt=0)
        .filter(Q(computed__isnull=True) | Q(computed__lt=F("entries_version")))
        .values_list("pk", flat=True)
    )
    requeued: list[int] = []
    for competition_id in stale:
        # A request queued long ago was lost (worker restarted mid-task): release it.
        StandingsState.objects.filter(competition_id=competition_id, queued=True, queued_at__lt=stale_before).update(
            queued=False, queued_at=None
        )
        if request_standings(competition_id):
            requeued.append(competition_id)
    return requeued


def request_job(key: str, task: Any, *args: Any) -> bool:
    """Queue ``task`` unless the job ``key`` is queued already; a burst of requests runs it once.

    A request queued longer than ``STANDINGS_STALE_QUEUE_SECONDS`` ago is
    presumed lost (Redis restarted without its data, a worker died before the
    claim) and released, so the job cannot stay blocked for good.
    """
    JobState.objects.get_or_create(key=key)
    stale_before = timezone.now() - timedelta(seconds=settings.STANDINGS_STALE_QUEUE_SECONDS)
    JobState.objects.filter(key=key, queued=True, queued_at__lt=stale_before).update(queued=False, queued_at=None)
    if not JobState.objects.filter(key=key, queued=False).update(queued=True, queued_at=timezone.now()):
        return False
    try:
        task.apply_async(args, countdown=settings.ANALYTICS_COALESCE_SECONDS, retry_policy=_PUBLISH_RETRY)
    except Exception:  # broker down: the next request or the reconcile job will queue it again
        log.exception("could not queue job %s", key)
        JobState.objects.filter(key=key).update(queued=False, queued_at=None)
        return False
    return True


def claim_job(key: str) -> bool:
    """Take the queued job ``key``; False if another worker took it or it was never queued."""
    return bool(JobState.objects.filter(key=key, queued=True).update(queued=False, queued_at=None))


def finish_job(key: str) -> None:
    JobState.objects.filter(key=key).update(finished_at=timezone.now(), runs=F("runs") + 1)


def ratings_stale() -> bool:
    """Whether the rounds the ratings count changed since they were rated, by whatever path: a round finalised
    or reopened, a competition's results made public or hidden (the organisers' pages, the admin, the API, an
    import). The periodic reconcile job asks it: the ledger of rated rounds against the rounds to rate now."""
    return rating_ledger.ledger_stale()


def recompute_ratings() -> int:
    """Bring the ratings up to date (``scoring.rating_ledger.update_ratings``): new rounds are rated from the
    players' current state, a changed round is replayed from there on. Returns how many players are rated."""
    rating_ledger.update_ratings()
    return Rating.objects.count()


def full_ratings_check() -> rating_ledger.FullReport:
    """Recompute every rating from scratch, report any difference from the incremental ratings, store it."""
    return rating_ledger.full_recompute()


def recompute_statistics(competition_id: int, *, full: bool = False) -> int:
    """Update the competition's statistics and each player's in it by delta: only the sheets that changed are read
    (``scoring.statistics_delta``); ``full`` counts every sheet again. Returns how many players."""
    return statistics_delta.update_statistics(competition_id, full=full)
