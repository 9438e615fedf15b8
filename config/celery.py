"""The Celery app: ``celery -A config worker`` and ``celery -A config beat``."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("wiezen")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.autodiscover_tasks(["tournaments.duplicate"])  # not an app of its own: its tasks module by name
