"""Test-wide fixtures. Celery runs eagerly unless a test starts a real worker."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.utils import translation

from config.celery import app as celery_app


@pytest.fixture(autouse=True)
def _eager_celery(request: pytest.FixtureRequest) -> Iterator[None]:
    if request.node.get_closest_marker("real_worker"):
        yield
        return
    saved = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = saved


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "real_worker: the test runs a Celery worker process over a real broker")
    # A user's password is hashed each time a factory makes one and each time a test logs in: with Django's
    # PBKDF2 (a million rounds, about 0.4 s here) that was most of the suite's time. No test is about the hasher.
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Each test starts in the default language: a page requested in French must not leak into the next test."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    """Rate limits (the token endpoint's) count in the cache: each test starts with a clean count, and with no
    rendering a process kept (a rolled-back test's ids come again in the next one, and so would its validators)."""
    from tournaments import conditional

    cache.clear()
    conditional._recent.clear()
    yield


# Nodes a contract for a board analysed as a side effect (eager Celery runs the analysis whenever a duplicate
# round is seated): enough to exercise the solver, small enough that seating a round stays quick. No second pass
# (its default with a broker, as in CI, is minutes a board). Tests of the analysis itself set their own budgets.
TEST_SOLVER_BUDGET = 2_000


@pytest.fixture(autouse=True)
def _small_solver_budget(settings: Any) -> None:
    settings.WIEZEN_SOLVER_BUDGET = TEST_SOLVER_BUDGET
    settings.WIEZEN_SOLVER_DEEP_BUDGET = 0
