"""Project configuration; the Celery app is loaded with Django so tasks are registered."""

from config.celery import app as celery_app

__all__ = ("celery_app",)
