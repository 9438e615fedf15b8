"""Thin Celery tasks of duplicate rounds: each board's analysis by the double-dummy solver, its second pass, and
their reconciliation.

``analyse_board`` fetches by id and calls ``tournaments.duplicate.analysis.run``, which claims the row with a
conditional update (two workers never analyse one board twice); it goes to the ``analytics`` queue
(``CELERY_TASK_ROUTES``), so standings never wait behind the solver. ``deepen_board`` (``analysis.deepen``), queued
by a first pass that left ranges, searches them further for minutes a board; it goes to the ``deep`` queue, so
first passes never wait behind it. Found by the Celery app through
``config.celery`` (this package is not an app of its own). A database that went away is retried, as the scoring
tasks are; any other failure is stored on the analysis by the service, never raised at the request that dealt the
boards (eager Celery runs these at its commit).
"""

from celery import shared_task

from scoring.tasks import RETRY_ON_DATABASE_LOSS
from tournaments.duplicate import analysis


@shared_task(
    name="tournaments.duplicate.tasks.analyse_board", acks_late=True, ignore_result=True, **RETRY_ON_DATABASE_LOSS
)
def analyse_board(analysis_id: int) -> bool:
    return analysis.run(analysis_id)


@shared_task(name="tournaments.duplicate.tasks.reconcile_board_analyses", ignore_result=True)  # periodic (beat)
def reconcile_board_analyses() -> int:
    return analysis.reconcile()


@shared_task(
    name="tournaments.duplicate.tasks.deepen_board", acks_late=True, ignore_result=True, **RETRY_ON_DATABASE_LOSS
)
def deepen_board(analysis_id: int) -> bool:
    return analysis.deepen(analysis_id)
