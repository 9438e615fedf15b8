"""Faults with real processes (issue 9): Redis down, no worker, a worker killed mid-job, PostgreSQL restarting.

Each test runs its own ``redis-server`` on a free port (so stopping it touches
nobody else's Redis) and real ``celery -A config worker`` processes on the
test database. What must hold whatever fails:

- an entry that returned is saved, and nothing about the standings ever makes
  an entry fail;
- standings that miss entries are marked stale (``StandingsView.stale``, the
  age shown on the competition page) until a worker catches up;
- stored standings are always one whole computation, never a mix;
- once the service is back, the queued jobs or the reconcile job bring the
  standings to exactly what a fresh computation gives.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db import InterfaceError, OperationalError, close_old_connections, connection, connections
from django.utils import timezone
from rest_framework.test import APIClient

from scoring import services, tasks
from scoring.models import JobState, Standing, StandingsState
from tests.e2e.conftest import RedisServer, Worker, broker, celery_worker, redis_worker_env, wait_for
from tests.factories import seated_competition
from tournaments.models import Competition, DealEntry, ScoreSheet
from tournaments.selectors.public import competition_standings
from tournaments.services.entry import record_deal

pytestmark = pytest.mark.django_db(transaction=True)  # the tests with processes are also marked real_worker

API = "/api/v1"


# --- helpers ---------------------------------------------------------------------------------------------------------


def alleen(deal: int, tricks: int = 6) -> dict[str, Any]:
    """Deal ``deal`` of a table of four: seat ``deal % 4`` plays alone and takes ``tricks``."""
    return {"deal": deal, "dealer": (deal - 1) % 4, "contract": "alleen", "declarers": [deal % 4], "tricks": tricks}


def one_table() -> tuple[Competition, ScoreSheet]:
    competition = seated_competition(players=4, preset="iwwa")
    return competition, ScoreSheet.objects.get(table__round__competition=competition)


ROW_FIELDS = ("rank", "points", "deals_played", "sessions_played", "penalty_points", "value", "shared", "explanation")


def stored_rows(competition_id: int) -> dict[int, tuple[Any, ...]]:
    """The stored standings, by player."""
    return {
        row[0]: row[1:]
        for row in Standing.objects.filter(competition_id=competition_id).values_list("player_id", *ROW_FIELDS)
    }


def fresh_rows(competition_id: int) -> dict[int, tuple[Any, ...]]:
    """What a computation from scratch gives now, without storing anything."""
    rows = services.standings_rows(Competition.objects.get(pk=competition_id))
    return {row.player_id: tuple(getattr(row, name) for name in ROW_FIELDS) for row in rows}


def entry_totals(competition_id: int) -> dict[int, int]:
    """Each player's points summed straight from the current lines: a check independent of the standings code."""
    totals: dict[int, int] = {}
    for sheet in ScoreSheet.objects.filter(table__round__competition_id=competition_id):
        players = [seat.player_id for seat in sheet.table.seats.order_by("position")]
        for entry in sheet.entries.filter(is_current=True):
            for player, points in zip(players, entry.points, strict=True):
                totals[player] = totals.get(player, 0) + points
    return totals


def up_to_date(competition_id: int) -> bool:
    state = StandingsState.objects.filter(competition_id=competition_id).first()
    version = Competition.objects.get(pk=competition_id).entries_version
    return state is not None and state.computed_version == version


def stale(competition_id: int) -> bool:
    """What the competition page shows: stored standings older than the entries."""
    competition = Competition.objects.get(pk=competition_id)
    state = StandingsState.objects.filter(competition_id=competition_id).first()
    view = competition_standings(competition)
    assert view.stale == ((state.computed_version if state else 0) < competition.entries_version)
    return view.stale


def assert_caught_up(competition_id: int, worker: Worker, timeout: float = 40) -> None:
    assert wait_for(lambda: up_to_date(competition_id), timeout), f"standings still stale; worker log:\n{worker.text()}"
    assert not stale(competition_id)
    assert stored_rows(competition_id) == fresh_rows(competition_id)
    points = {player: row[1] for player, row in stored_rows(competition_id).items()}
    assert points == entry_totals(competition_id)


def task_runs(worker: Worker, task: str) -> list[str]:
    """The results the worker logged for ``task``: ``True``/``False``/``[...]``, one per finished run."""
    return re.findall(rf"Task {re.escape(task)}\[[^\]]+\] succeeded in [0-9.e-]+s: (.*)", worker.text())


def settled(worker: Worker) -> bool:
    """Every task the worker received has finished, as far as its log says (it logs after the database commit)."""
    text = worker.text()
    received = set(re.findall(r"Task [\w.]+\[([\w-]+)\] received", text))
    finished = set(re.findall(r"Task [\w.]+\[([\w-]+)\] (?:succeeded|raised|retry)", text))
    return received <= finished


def broker_idle(server: RedisServer) -> bool:
    """No message waits in the ``celery`` queue and none is out unacknowledged."""
    client = server.client()
    return not client.llen("celery") and not client.hlen("unacked")


@pytest.fixture
def redis_broker(redis_server: RedisServer, settings: Any) -> Iterator[RedisServer]:
    """This test's own Redis as this process's broker and cache (``REDIS_URL`` configures both)."""
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": redis_server.url}
    }
    settings.STANDINGS_COALESCE_SECONDS = 1
    with broker(redis_server.url):
        yield redis_server


def start_worker(
    tmp_path: Path, server: RedisServer, name: str, transport_options: dict[str, Any] | None = None, **env: str
) -> AbstractContextManager[Worker]:
    """A worker on ``server``, logging to ``worker-<name>.log``; ``env`` adds to its environment."""
    log = tmp_path / f"worker-{name}.log"
    return celery_worker(log, redis_worker_env(server, **env), name, transport_options)


# Redis hands out an unacknowledged message again once it is this old (default: an hour), checked every second.
REDELIVER_QUICKLY = {"visibility_timeout": 3, "unacked_restore_interval": 1, "unacked_restore_throttle": 1}


# --- 1. Redis down ---------------------------------------------------------------------------------------------------


@pytest.mark.real_worker
def test_with_redis_down_entries_are_saved_marked_stale_and_the_reconcile_job_catches_up(
    redis_broker: RedisServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    competition, sheet = one_table()
    with start_worker(tmp_path, redis_broker, "a") as worker:
        record_deal(sheet, alleen(1))
        assert_caught_up(competition.pk, worker)

        redis_broker.stop()
        for deal in (2, 3, 4):
            started = time.monotonic()
            assert record_deal(sheet, alleen(deal, tricks=5 + deal)).created  # returns: nothing raised
            assert time.monotonic() - started < 10, "the entry waited on the broker"
        api = APIClient()
        api.credentials(HTTP_X_TABLE_CODE=sheet.captain_code)
        response = api.post(f"{API}/sheets/{sheet.pk}/lines/", alleen(5, tricks=9), format="json")
        assert response.status_code == 201, response.content

        # Saved, and the standings say they are behind.
        saved = sheet.entries.filter(is_current=True).order_by("deal_number").values_list("deal_number", flat=True)
        assert list(saved) == [1, 2, 3, 4, 5]
        assert stale(competition.pk)
        assert "could not queue standings of competition" in caplog.text  # the broker really was unreachable
        assert not StandingsState.objects.get(competition=competition).queued, "an unsent request stays claimed"
        assert worker.alive(), f"the worker gave up while Redis was down:\n{worker.text()}"

        redis_broker.start()  # empty: it keeps nothing
        # As beat does: the reconcile job goes through the broker and runs on the worker.
        tasks.reconcile_standings.apply_async()
        assert_caught_up(competition.pk, worker)
        assert wait_for(lambda: settled(worker), 10)
        assert f"[{competition.pk}]" in task_runs(worker, "scoring.tasks.reconcile_standings")


# --- 2. no worker ----------------------------------------------------------------------------------------------------


@pytest.mark.real_worker
def test_with_no_worker_entries_are_saved_and_the_queued_job_catches_up_when_one_starts(
    redis_broker: RedisServer, tmp_path: Path
) -> None:
    competition, sheet = one_table()
    for deal in (1, 2, 3):
        assert record_deal(sheet, alleen(deal, tricks=5 + deal)).created

    assert sheet.entries.filter(is_current=True).count() == 3
    assert stale(competition.pk)
    assert competition_standings(Competition.objects.get(pk=competition.pk)).pending
    assert redis_broker.client().llen("celery") == 1, "three entries, one job waiting in the broker"

    with start_worker(tmp_path, redis_broker, "late") as worker:
        assert_caught_up(competition.pk, worker)
        assert wait_for(lambda: settled(worker), 10)
        assert task_runs(worker, "scoring.tasks.recompute_standings") == ["True"]  # no reconcile needed
    state = StandingsState.objects.get(competition=competition)
    assert (state.computations, state.queued) == (1, False)


# --- 3. a worker killed mid-job --------------------------------------------------------------------------------------


def open_transactions() -> int | None:
    """Other sessions of the test database inside a transaction (PostgreSQL only)."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            " AND state IN ('idle in transaction', 'idle in transaction (aborted)')"
        )
        return int(cursor.fetchone()[0])


@pytest.mark.real_worker
def test_a_worker_killed_while_writing_leaves_the_old_standings_whole_and_a_new_worker_completes_the_job(
    redis_broker: RedisServer, tmp_path: Path
) -> None:
    competition, sheet = one_table()
    record_deal(sheet, alleen(1, tricks=6))  # queues a request on the broker
    assert services.recompute_standings(competition.pk)  # computed here instead: the queued copy will find no claim
    old = stored_rows(competition.pk)
    assert old == fresh_rows(competition.pk)
    old_version = StandingsState.objects.get(competition=competition).computed_version
    record_deal(sheet, alleen(2, tricks=9))

    slow = start_worker(tmp_path, redis_broker, "slow", STANDINGS_TEST_DELAY_SECONDS="45")
    with slow as worker:
        # The worker has deleted the old rows inside its transaction and holds it open.
        holding = "holding the write transaction"
        assert wait_for(lambda: holding in worker.text(), 30), f"the job did not start:\n{worker.text()}"
        if connection.vendor == "postgresql":
            assert wait_for(lambda: (open_transactions() or 0) >= 1, 10)
        worker.kill()
        if connection.vendor == "postgresql":  # the server rolled the killed session back
            assert wait_for(lambda: open_transactions() == 0, 20)

    # All old rows, none new, none missing; and shown as stale.
    assert stored_rows(competition.pk) == old
    assert StandingsState.objects.get(competition=competition).computed_version == old_version
    assert stale(competition.pk)

    # Unacknowledged (tasks acknowledge late), so Redis hands the message out again: to a new worker, which
    # computes although the dead run had taken the claim.
    assert redis_broker.client().hlen("unacked") >= 1  # the killed run's (the no-op first request's too, if held)
    with start_worker(tmp_path, redis_broker, "new", REDELIVER_QUICKLY) as worker:
        assert_caught_up(competition.pk, worker)
        assert "resuming a run that did not finish" in worker.text()
        assert stored_rows(competition.pk) != old
        done = stored_rows(competition.pk)

        # The same request delivered twice: one run computes, the other finds nothing to claim.
        assert wait_for(lambda: settled(worker) and broker_idle(redis_broker), 10)
        runs = len(task_runs(worker, "scoring.tasks.recompute_standings"))
        computations = StandingsState.objects.get(competition=competition).computations
        assert services.request_standings(competition.pk)
        tasks.recompute_standings.apply_async((competition.pk,))
        assert wait_for(lambda: len(task_runs(worker, "scoring.tasks.recompute_standings")) >= runs + 2, 30)
        assert wait_for(lambda: settled(worker), 10)
        assert sorted(task_runs(worker, "scoring.tasks.recompute_standings")[runs:]) == ["False", "True"]
        assert StandingsState.objects.get(competition=competition).computations == computations + 1
        assert stored_rows(competition.pk) == done

    # Computing the same version again, unclaimed, stores the same rows.
    assert services.recompute_standings(competition.pk, claim=False)
    assert services.recompute_standings(competition.pk, claim=False)
    assert stored_rows(competition.pk) == done == fresh_rows(competition.pk)
    assert up_to_date(competition.pk)


# --- 4. PostgreSQL restarting during entry ---------------------------------------------------------------------------


def postgres_version() -> str:
    """The version of the local cluster ``main`` that serves the test database's port (``ls /etc/postgresql``)."""
    assert shutil.which("pg_ctlcluster"), "pg_ctlcluster is missing: this test restarts the local PostgreSQL with it"
    port = str(connection.settings_dict.get("PORT") or 5432)
    root = Path("/etc/postgresql")
    assert root.is_dir(), "no /etc/postgresql: this test restarts a local Debian PostgreSQL cluster"
    for version in sorted(os.listdir(root)):
        conf = root / version / "main" / "postgresql.conf"
        if conf.is_file() and re.search(rf"^\s*port\s*=\s*{port}\b", conf.read_text(), re.MULTILINE):
            return version
    raise AssertionError(f"no cluster under {root} listens on port {port}, the test database's")


def postgres_answers() -> bool:
    db = connection.settings_dict
    host, port = db.get("HOST") or "127.0.0.1", str(db.get("PORT") or 5432)
    command = ["pg_isready", "-q", "-h", host, "-p", port, "-U", db.get("USER") or "postgres"]
    return subprocess.run(command, check=False, timeout=10).returncode == 0


def pg_ctlcluster(version: str, action: str) -> subprocess.CompletedProcess[str]:
    command = ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", action]
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=60)


@dataclass
class EntryLog:
    saved: list[tuple[int, int, int, bool]] = field(default_factory=list)  # sheet, deal, entry id, created
    failed: list[tuple[int, int, BaseException]] = field(default_factory=list)  # sheet, deal, the error
    unexpected: list[BaseException] = field(default_factory=list)


def enter_continuously(sheets: list[ScoreSheet], stop: threading.Event, log: EntryLog, deadline: float) -> None:
    """Enter line after line, each in its own transaction and "request"; retry a line that failed until it is saved."""
    try:
        for sheet in sheets:
            for deal in range(1, 17):
                while True:
                    if stop.is_set() and not any(f[:2] == (sheet.pk, deal) for f in log.failed):
                        return
                    if time.monotonic() > deadline:
                        return
                    close_old_connections()  # what Django does when a request starts and ends
                    try:
                        result = record_deal(sheet, alleen(deal), idempotency_key=f"fault-{sheet.pk}-{deal}")
                    except (OperationalError, InterfaceError) as exc:
                        log.failed.append((sheet.pk, deal, exc))
                        time.sleep(0.05)
                        continue
                    finally:
                        close_old_connections()
                    log.saved.append((sheet.pk, deal, result.entry.pk, result.created))
                    time.sleep(0.02)
                    break
    except BaseException as exc:  # anything but a database error is a bug: the test reports it
        log.unexpected.append(exc)
    finally:
        connections.close_all()  # this thread's connection


@pytest.mark.real_worker
def test_a_postgresql_restart_during_entry_loses_no_committed_line_and_failed_lines_succeed_on_retry(
    redis_broker: RedisServer, tmp_path: Path
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("restarts the PostgreSQL server: the test database is SQLite, and the requirement is PostgreSQL's")
    version = postgres_version()
    competition = seated_competition(players=16, preset="iwwa", rounds=2)
    sheets = list(ScoreSheet.objects.filter(table__round__competition=competition).order_by("table__round", "table"))
    assert len(sheets) == 8 and all(sheet.table.size == 4 for sheet in sheets)

    with start_worker(tmp_path, redis_broker, "pg") as worker:
        log, stop = EntryLog(), threading.Event()
        thread = threading.Thread(target=enter_continuously, args=(sheets, stop, log, time.monotonic() + 50))
        thread.start()
        try:
            assert wait_for(lambda: len(log.saved) >= 5 or not thread.is_alive(), 20), "entry did not start"
            connections.close_all()  # this thread's own connection must not be in the way
            restart = pg_ctlcluster(version, "restart")
            assert restart.returncode == 0, f"pg_ctlcluster restart failed: {restart.stdout}{restart.stderr}"
            assert wait_for(postgres_answers, 30), "PostgreSQL did not come back"
            after = len(log.saved)
            assert wait_for(lambda: len(log.saved) >= after + 5 or not thread.is_alive(), 30), "entry did not resume"
        finally:
            stop.set()
            thread.join(timeout=30)
            if not postgres_answers():
                pg_ctlcluster(version, "start")
                wait_for(postgres_answers, 30)
        assert not thread.is_alive()
        assert not log.unexpected, log.unexpected
        assert log.failed, "no entry met the restart, so this test proved nothing"
        assert all(isinstance(exc, (OperationalError, InterfaceError)) for _, _, exc in log.failed)

        stored = {(e.sheet_id, e.deal_number): e for e in DealEntry.objects.filter(sheet__in=sheets)}
        # Committed = not lost: every line whose call returned is there, as returned.
        for sheet_id, deal, entry_id, _ in log.saved:
            assert stored[(sheet_id, deal)].pk == entry_id
        # Every line that failed was saved by a retry, once (its idempotency key), and nothing else was stored.
        assert {(s, d) for s, d, _ in log.failed} <= {(s, d) for s, d, _, _ in log.saved}
        assert set(stored) == {(s, d) for s, d, _, _ in log.saved}
        assert all(entry.version == 1 for entry in stored.values())
        assert DealEntry.objects.filter(sheet__in=sheets).count() == len(stored)

        # The worker came through the restart too: the reconcile job brings the standings up to date.
        tasks.reconcile_standings.apply_async()
        assert_caught_up(competition.pk, worker)


# --- focused checks of the fixes (in process) ------------------------------------------------------------------------


def test_an_entry_reports_success_when_the_standings_request_meets_a_database_error_after_its_commit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    competition, sheet = one_table()

    def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(services, "_claim_standings_request", unreachable)
    result = record_deal(sheet, alleen(1))  # the on_commit request runs after the commit, and fails: no raise
    monkeypatch.undo()

    assert DealEntry.objects.filter(pk=result.entry.pk).exists()
    assert stale(competition.pk)
    assert services.reconcile_standings() == [competition.pk]  # eager here: queued and computed
    assert up_to_date(competition.pk) and stored_rows(competition.pk) == fresh_rows(competition.pk)


def test_a_standings_write_that_fails_half_way_keeps_the_previous_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    competition, sheet = one_table()
    record_deal(sheet, alleen(1))  # computed eagerly on commit (no real worker here)
    old = stored_rows(competition.pk)
    assert old and up_to_date(competition.pk)

    def lost(competition_id: int) -> None:  # the old rows are deleted, the new ones not yet written
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(services, "_hold_for_fault_tests", lost)
    record_deal(sheet, alleen(2, tricks=9))  # its standings run fails inside the write: the entry does not
    assert stored_rows(competition.pk) == old
    assert stale(competition.pk)

    monkeypatch.undo()
    services.reconcile_standings()
    assert up_to_date(competition.pk) and stored_rows(competition.pk) == fresh_rows(competition.pk) != old


def test_a_standings_task_retried_after_a_database_error_computes_even_though_its_first_run_took_the_claim(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    competition, sheet = one_table()
    record_deal(sheet, alleen(1))
    real = services.standings_rows
    calls: list[int] = []

    def first_call_loses_the_database(competition: Competition) -> list[Standing]:
        calls.append(competition.pk)
        if len(calls) == 1:  # after the claim: the request is no longer marked queued
            raise OperationalError("terminating connection due to administrator command")
        return real(competition)

    monkeypatch.setattr(services, "standings_rows", first_call_loses_the_database)
    record_deal(sheet, alleen(2, tricks=9))  # its (eager) run claims, then loses the database: Celery would retry
    assert calls == [competition.pk]
    state = StandingsState.objects.get(competition=competition)
    assert stale(competition.pk) and not state.queued  # the claim is gone with the failed run

    assert tasks.recompute_standings.apply((competition.pk,), retries=1).get() is True  # the retry, as a worker runs it
    assert len(calls) == 2
    assert up_to_date(competition.pk) and stored_rows(competition.pk) == fresh_rows(competition.pk)

    # A plain duplicate delivery (no retry, no redelivery) still does nothing.
    computations = StandingsState.objects.get(competition=competition).computations
    assert tasks.recompute_standings.apply((competition.pk,)).get() is False
    assert StandingsState.objects.get(competition=competition).computations == computations


def test_a_lost_analytics_request_is_released_after_the_stale_delay(settings: Any) -> None:
    sent: list[tuple[Any, ...]] = []

    class Recorder:
        def apply_async(self, args: tuple[Any, ...], **options: Any) -> None:
            sent.append(args)

    settings.STANDINGS_STALE_QUEUE_SECONDS = 60
    JobState.objects.create(key="ratings", queued=True, queued_at=timezone.now())
    assert not services.request_job("ratings", Recorder())  # queued a moment ago: still running its course
    JobState.objects.filter(key="ratings").update(queued_at=timezone.now() - timedelta(minutes=5))
    assert services.request_job("ratings", Recorder())  # its message was lost (Redis restarted empty)
    assert sent == [()]
