"""Thin Celery tasks: fetch by id, call a service.

The job graph: standings (queue ``celery``, fast) then ratings and
statistics (queue ``analytics``, slow), each coalesced and claimed once, so a
burst of entries never queues a burst of slow jobs in front of standings.

A task that meets a database that is restarting (``OperationalError``,
``InterfaceError``) is retried with backoff rather than dropped: a request
whose claim failed would otherwise stay marked queued with no message left to
run it. Other errors are bugs and fail the task. Tasks acknowledge late, so a
worker killed mid-job leaves its message to be redelivered (Redis: after the
visibility timeout); a retried or redelivered standings run computes even if
the dead run had taken the claim. The reconcile job covers whatever is left.
"""

from typing import Any

from celery import Task, shared_task
from django.db import InterfaceError, OperationalError

from scoring import services

# the database went away (restart, failover): try again in 1, 2, 4 ... 30 s
RETRY_ON_DATABASE_LOSS: dict[str, Any] = {
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": 1,
    "retry_backoff_max": 30,
    "retry_jitter": False,
    "max_retries": 8,
}


@shared_task(
    bind=True, name="scoring.tasks.recompute_standings", acks_late=True, ignore_result=True, **RETRY_ON_DATABASE_LOSS
)
def recompute_standings(self: Task, competition_id: int) -> bool:
    # a retry, or a message redelivered because its worker died unacknowledged, may follow a run that took the claim
    resumed = bool(self.request.retries or (self.request.delivery_info or {}).get("redelivered"))
    computed = services.recompute_standings(competition_id, resumed=resumed)
    if computed:
        services.request_job("ratings", recompute_ratings)
        services.request_job(f"statistics:{competition_id}", recompute_statistics, competition_id)
    return computed


@shared_task(name="scoring.tasks.recompute_ratings", acks_late=True, ignore_result=True, **RETRY_ON_DATABASE_LOSS)
def recompute_ratings() -> int:
    if not services.claim_job("ratings"):
        return 0
    rated = services.recompute_ratings()
    services.finish_job("ratings")
    return rated


@shared_task(name="scoring.tasks.recompute_statistics", acks_late=True, ignore_result=True, **RETRY_ON_DATABASE_LOSS)
def recompute_statistics(competition_id: int) -> int:
    key = f"statistics:{competition_id}"
    if not services.claim_job(key):
        return 0
    players = services.recompute_statistics(competition_id)
    services.finish_job(key)
    return players


@shared_task(name="scoring.tasks.full_ratings_check", acks_late=True, ignore_result=True, **RETRY_ON_DATABASE_LOSS)
def full_ratings_check() -> int:
    """Periodic (beat, ``RATINGS_FULL_CHECK_SECONDS``): recompute every rating from scratch, log any difference from
    the incremental ratings, store the full result. Returns how many players differed."""
    return len(services.full_ratings_check().differences)


def request_ratings() -> bool:
    """Queue the ratings once (coalesced): after a round is finalised or reopened."""
    return services.request_job("ratings", recompute_ratings)


@shared_task(name="scoring.tasks.reconcile_standings", ignore_result=True)  # periodic: beat runs it again
def reconcile_standings() -> list[int]:
    if services.ratings_stale():  # the rounds the ratings count changed (results made public or hidden...)
        request_ratings()
    return services.reconcile_standings()
