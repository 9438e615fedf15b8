"""Thin Celery tasks of the tournaments app: each calls a service."""

from celery import shared_task

from tournaments.services import idempotency


@shared_task(name="tournaments.tasks.purge_idempotency_keys", ignore_result=True)
def purge_idempotency_keys() -> int:
    """Delete ``Idempotency-Key`` claims older than ``IDEMPOTENCY_TTL_HOURS`` (scheduled in CELERY_BEAT_SCHEDULE)."""
    return idempotency.purge_expired()
