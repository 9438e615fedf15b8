"""Standings: queue a recomputation after entries, compute it, repair what was missed.

The flow (DESIGN.md step 4): an entry's transaction bumps its competition's
``entries_version``; on commit, ``request_standings`` queues one task unless one
is already queued (a conditional update on ``StandingsState.queued``), with a
short countdown so a burst of entries is computed once. The task claims the
request with the reverse update, so a duplicate delivery does nothing. A
periodic ``reconcile_standings`` requeues every competition whose standings are
older than its entries: the broker was down, a worker died.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, OuterRef, Q, Subquery
from django.utils import timezone

from scoring.models import Rating, Standing, StandingsState, Statistics
from scoring.ratings import compute_ratings
from scoring.selectors import (
    all_deal_results,
    competition_deal_records,
    competition_penalties,
    competition_seat_results,
)
from scoring.standings import compute_standings
from scoring.statistics import compute_statistics
from tournaments.models import Competition

log = logging.getLogger(__name__)

_PUBLISH_RETRY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}


def request_standings(competition_id: int) -> bool:
    """Queue a recomputation unless one is queued already. Returns whether this call queued it."""
    from scoring.tasks import recompute_standings as task

    StandingsState.objects.get_or_create(competition_id=competition_id)
    claimed = StandingsState.objects.filter(competition_id=competition_id, queued=False).update(
        queued=True, queued_at=timezone.now()
    )
    if not claimed:
        return False
    try:
        task.apply_async((competition_id,), countdown=settings.STANDINGS_COALESCE_SECONDS, retry_policy=_PUBLISH_RETRY)
    except Exception:  # the broker is down: entry must not fail; reconcile will requeue
        log.exception("could not queue standings of competition %s; the reconcile job will", competition_id)
        StandingsState.objects.filter(competition_id=competition_id).update(queued=False, queued_at=None)
        return False
    return True


def recompute_standings(competition_id: int, *, claim: bool = True) -> bool:
    """Compute and store one competition's standings. With ``claim``, only if a request is queued."""
    if claim:
        claimed = StandingsState.objects.filter(competition_id=competition_id, queued=True).update(
            queued=False, queued_at=None
        )
        if not claimed:
            return False  # already done by another worker, or a duplicate delivery
    version = Competition.objects.filter(pk=competition_id).values_list("entries_version", flat=True).first()
    if version is None:
        return False
    rows = compute_standings(
        competition_seat_results(competition_id),
        competition_penalties(competition_id),
        players=Competition.players.through.objects.filter(competition_id=competition_id).values_list(
            "player_id", flat=True
        ),
    )
    now = timezone.now()
    with transaction.atomic():
        state, _ = StandingsState.objects.select_for_update().get_or_create(competition_id=competition_id)
        if state.computed_version > version:
            return False  # a newer computation already landed
        Standing.objects.filter(competition_id=competition_id).delete()
        Standing.objects.bulk_create(
            Standing(
                competition_id=competition_id,
                player_id=row.player_id,
                rank=row.rank,
                points=row.points,
                deals_played=row.deals,
                sessions_played=row.sessions,
                penalty_points=row.penalty_points,
                computed_at=now,
            )
            for row in rows
        )
        StandingsState.objects.filter(pk=state.pk).update(
            computed_version=version, computed_at=now, computations=F("computations") + 1
        )
    return True


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


def recompute_ratings() -> int:
    """Recompute every player's rating from every current deal, oldest first. Returns how many were rated."""
    rows = compute_ratings(all_deal_results())
    now = timezone.now()
    with transaction.atomic():
        Rating.objects.all().delete()
        Rating.objects.bulk_create(
            Rating(
                player_id=r.player_id,
                mu=r.mu,
                sigma=r.sigma,
                ordinal=r.ordinal,
                deals_rated=r.deals,
                computed_at=now,
            )
            for r in rows
        )
    return len(rows)


def recompute_statistics(competition_id: int) -> int:
    """Store the competition's statistics and each player's in it. Returns how many players."""
    per_player, summary = compute_statistics(competition_deal_records(competition_id))
    now = timezone.now()
    with transaction.atomic():
        Statistics.objects.filter(competition_id=competition_id).delete()
        Statistics.objects.bulk_create(
            [
                Statistics(competition_id=competition_id, player=None, data=summary, computed_at=now),
                *(
                    Statistics(competition_id=competition_id, player_id=pid, data=stats.as_json(), computed_at=now)
                    for pid, stats in per_player.items()
                ),
            ]
        )
    return len(per_player)
