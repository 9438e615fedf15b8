"""The reconcile job is on beat's schedule and names a registered task."""

from django.conf import settings

from config.celery import app as celery_app


def setup_module() -> None:
    celery_app.loader.import_default_modules()  # what a worker or beat does at start-up


def test_beat_runs_the_reconcile_task_periodically() -> None:
    schedule = settings.CELERY_BEAT_SCHEDULE["reconcile-standings"]
    assert schedule["task"] in celery_app.tasks
    assert 0 < float(schedule["schedule"]) <= 300


def test_the_recompute_task_is_registered_under_its_stable_name() -> None:
    assert "scoring.tasks.recompute_standings" in celery_app.tasks
