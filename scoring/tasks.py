"""Thin Celery tasks: fetch by id, call a service.

The job graph: standings (queue ``celery``, fast) then ratings and
statistics (queue ``analytics``, slow), each coalesced and claimed once, so a
burst of entries never queues a burst of slow jobs in front of standings.
"""

from celery import shared_task

from scoring import services


@shared_task(name="scoring.tasks.recompute_standings", acks_late=True, ignore_result=True)
def recompute_standings(competition_id: int) -> bool:
    computed = services.recompute_standings(competition_id)
    if computed:
        services.request_job("ratings", recompute_ratings)
        services.request_job(f"statistics:{competition_id}", recompute_statistics, competition_id)
    return computed


@shared_task(name="scoring.tasks.recompute_ratings", acks_late=True, ignore_result=True)
def recompute_ratings() -> int:
    if not services.claim_job("ratings"):
        return 0
    rated = services.recompute_ratings()
    services.finish_job("ratings")
    return rated


@shared_task(name="scoring.tasks.recompute_statistics", acks_late=True, ignore_result=True)
def recompute_statistics(competition_id: int) -> int:
    key = f"statistics:{competition_id}"
    if not services.claim_job(key):
        return 0
    players = services.recompute_statistics(competition_id)
    services.finish_job(key)
    return players


@shared_task(name="scoring.tasks.reconcile_standings", ignore_result=True)
def reconcile_standings() -> list[int]:
    return services.reconcile_standings()
