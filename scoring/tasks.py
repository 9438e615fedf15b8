"""Thin Celery tasks: fetch by id, call a service."""

from celery import shared_task

from scoring import services


@shared_task(name="scoring.tasks.recompute_standings", acks_late=True, ignore_result=True)
def recompute_standings(competition_id: int) -> bool:
    computed = services.recompute_standings(competition_id)
    if computed:  # the job graph: standings, then ratings and statistics
        recompute_ratings.delay()
        recompute_statistics.delay(competition_id)
    return computed


@shared_task(name="scoring.tasks.recompute_ratings", acks_late=True, ignore_result=True)
def recompute_ratings() -> int:
    return services.recompute_ratings()


@shared_task(name="scoring.tasks.reconcile_standings", ignore_result=True)
def reconcile_standings() -> list[int]:
    return services.reconcile_standings()


@shared_task(name="scoring.tasks.recompute_statistics", acks_late=True, ignore_result=True)
def recompute_statistics(competition_id: int) -> int:
    return services.recompute_statistics(competition_id)
