"""An entry's standings are computed by a separate Celery worker process, not eagerly.

The worker is a real ``celery -A config worker`` process over the project's
broker: Redis when ``REDIS_URL`` is set (CI), otherwise kombu's filesystem
transport; it reads and writes the same test database (PostgreSQL in CI).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from config.celery import app as celery_app
from scoring.models import Standing, StandingsState
from tests.factories import seated_competition
from tournaments.models import Competition, ScoreSheet
from tournaments.services.entry import record_deal

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.real_worker]


def worker_database_url() -> str:
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{Path(db['NAME']).resolve()}"
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


@pytest.fixture
def worker(tmp_path: Path) -> Iterator[dict[str, Any]]:
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_TASK_ALWAYS_EAGER",)}
    env.update(
        DATABASE_URL=worker_database_url(),
        CELERY_TASK_ALWAYS_EAGER="false",
        STANDINGS_COALESCE_SECONDS="1",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    saved = (celery_app.conf.task_always_eager, celery_app.conf.broker_url, celery_app.conf.broker_transport_options)
    if settings.REDIS_URL:
        broker_url, options = settings.REDIS_URL, {}
    else:
        folder = str(tmp_path / "broker")
        env["CELERY_FILESYSTEM_BROKER_DIR"] = folder
        Path(folder).mkdir()
        broker_url = "filesystem://"
        options = {
            "data_folder_in": folder,
            "data_folder_out": folder,
            "control_folder": str(Path(folder) / "control"),
            "store_processed": False,
        }
    celery_app.conf.task_always_eager = False
    celery_app.conf.broker_url = broker_url
    celery_app.conf.broker_transport_options = options
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    celery_app.control.purge()  # tasks other tests left on a shared Redis

    log = tmp_path / "worker.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool",
                "solo",
                "-l",
                "info",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-n",
                f"test-{os.getpid()}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while "ready" not in log.read_text() and time.monotonic() < deadline:
            assert process.poll() is None, f"the worker died:\n{log.read_text()}"
            time.sleep(0.2)
        assert "ready" in log.read_text(), f"the worker did not start:\n{log.read_text()}"
        yield {"process": process, "log": log}
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        celery_app.conf.task_always_eager, celery_app.conf.broker_url, celery_app.conf.broker_transport_options = saved
        celery_app._pool = None
        celery_app.amqp._producer_pool = None


def wait_for(predicate: Any, timeout: float = 60) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def test_a_worker_process_computes_the_standings_after_an_entry(worker: dict[str, Any]) -> None:
    competition = seated_competition(players=4, preset="iwwa")
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    seats = [s.player_id for s in sheet.table.seats.order_by("position")]

    record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6})

    # Entry did not wait: nothing was computed in this process.
    assert not Standing.objects.filter(competition=competition).exists()

    def computed() -> bool:
        state = StandingsState.objects.filter(competition=competition).first()
        return (
            state is not None and state.computed_version == Competition.objects.get(pk=competition.pk).entries_version
        )

    assert wait_for(computed), f"no standings after 60 s; worker log:\n{worker['log'].read_text()}"
    points = dict(Standing.objects.filter(competition=competition).values_list("player_id", "points"))
    # iwwa alleen with 6 tricks: 2 + 1 = 3 per opponent (RULES.md §4)
    assert [points[p] for p in seats] == [-3, -3, 9, -3]
    assert "scoring.tasks.recompute_standings" in worker["log"].read_text()

    # A burst of entries is computed in far fewer runs than entries.
    before = StandingsState.objects.get(competition=competition).computations
    for deal in range(2, 12):
        record_deal(
            sheet, {"deal": deal, "dealer": (deal - 1) % 4, "contract": "alleen", "declarers": [deal % 4], "tricks": 5}
        )
    assert wait_for(computed), f"standings did not catch up; worker log:\n{worker['log'].read_text()}"
    runs = StandingsState.objects.get(competition=competition).computations - before
    assert 1 <= runs < 10
    totals = dict(Standing.objects.filter(competition=competition).values_list("player_id", "points"))
    expected = [0, 0, 0, 0]
    for entry in sheet.entries.filter(is_current=True):
        expected = [a + b for a, b in zip(expected, entry.points, strict=True)]
    assert [totals[p] for p in seats] == expected
