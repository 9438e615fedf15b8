"""Real processes for the end-to-end tests: a Celery worker, a dedicated Redis server, a polling helper.

The worker is a real ``celery -A config worker`` process over the project's
broker; it reads and writes the same test database as the test (PostgreSQL in
CI, the SQLite test file otherwise). The fault tests give each test its own
``redis-server`` on a free port, so they can stop it and start it again
without touching the Redis other tests (or other people) use.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings
from django.db import connection
from redis.backoff import NoBackoff
from redis.retry import Retry

from config.celery import app as celery_app

ROOT = Path(__file__).resolve().parents[2]


def worker_database_url() -> str:
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{Path(db['NAME']).resolve()}"
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


def wait_for(predicate: Callable[[], Any], timeout: float = 60) -> bool:
    """Poll ``predicate`` every 0.2 s until it is true or ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _reset_broker_connections() -> None:
    """The app keeps its broker connections: make it open new ones for the new broker."""
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@contextmanager
def broker(url: str, options: dict[str, Any] | None = None) -> Iterator[None]:
    """Send this process's tasks to ``url`` for real (not eagerly), then restore the test configuration."""
    conf = celery_app.conf
    saved = (conf.task_always_eager, conf.broker_url, conf.broker_transport_options)
    conf.task_always_eager, conf.broker_url, conf.broker_transport_options = False, url, options or {}
    _reset_broker_connections()
    try:
        yield
    finally:
        conf.task_always_eager, conf.broker_url, conf.broker_transport_options = saved
        _reset_broker_connections()


class RedisServer:
    """A ``redis-server`` of this test alone, on a free port; it can be stopped and started again."""

    def __init__(self, folder: Path) -> None:
        binary = shutil.which("redis-server")
        assert binary, "redis-server is not installed: the fault tests start their own (apt-get install redis-server)"
        self.binary = binary
        self.folder = folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def client(self) -> redis.Redis:
        return redis.Redis(
            host="127.0.0.1", port=self.port, socket_timeout=1, socket_connect_timeout=1, retry=Retry(NoBackoff(), 0)
        )

    def answers(self) -> bool:
        try:
            return bool(self.client().ping())
        except redis.RedisError:
            return False

    def start(self) -> None:
        assert self.process is None, "this Redis is running already"
        self.folder.mkdir(parents=True, exist_ok=True)
        with (self.folder / "redis.log").open("a") as out:
            self.process = subprocess.Popen(
                [
                    self.binary,
                    "--port",
                    str(self.port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--daemonize",
                    "no",
                    "--dir",
                    str(self.folder),
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        process = self.process

        def up() -> bool:
            assert process.poll() is None, f"redis-server exited:\n{(self.folder / 'redis.log').read_text()}"
            return self.answers()

        assert wait_for(up, timeout=20), f"redis-server did not answer:\n{(self.folder / 'redis.log').read_text()}"

    def stop(self) -> None:
        """Stop the server (no data is kept: it runs without persistence) and wait until it is gone."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None
        assert not self.answers(), "Redis still answers after it was stopped"


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path / "redis")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@dataclass
class Worker:
    process: subprocess.Popen[bytes]
    log: Path

    def text(self) -> str:
        return self.log.read_text()

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL: no warm shutdown, no acknowledgement, no rollback by the worker itself."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


# ``celery -A config worker`` with broker transport options the settings do not take from the environment
_WORKER_WITH_OPTIONS = (
    "import json, sys; from config.celery import app; "
    "app.conf.broker_transport_options = json.loads(sys.argv[1]); app.worker_main(['worker', *sys.argv[2:]])"
)


@contextmanager
def celery_worker(
    log: Path, env: dict[str, str], name: str, transport_options: dict[str, Any] | None = None
) -> Iterator[Worker]:
    """A Celery worker process (solo pool, queue ``celery``) with ``env``, until the block ends."""
    full_env = {k: v for k, v in os.environ.items() if k not in ("CELERY_TASK_ALWAYS_EAGER",)}
    full_env.update(
        DATABASE_URL=worker_database_url(),
        CELERY_TASK_ALWAYS_EAGER="false",
        STANDINGS_COALESCE_SECONDS="1",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    full_env.update(env)
    options = [
        "--pool",
        "solo",
        "-l",
        "info",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "-n",
        f"test-{os.getpid()}-{name}@%h",
    ]
    if transport_options is None:
        command = [sys.executable, "-m", "celery", "-A", "config", "worker", *options]
    else:
        command = [sys.executable, "-c", _WORKER_WITH_OPTIONS, json.dumps(transport_options), *options]
    with log.open("w") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=full_env, stdout=out, stderr=subprocess.STDOUT)
    worker = Worker(process, log)
    try:
        deadline = time.monotonic() + 60
        while "ready" not in log.read_text() and time.monotonic() < deadline:
            assert process.poll() is None, f"the worker died:\n{log.read_text()}"
            time.sleep(0.2)
        assert "ready" in log.read_text(), f"the worker did not start:\n{log.read_text()}"
        yield worker
    finally:
        worker.stop()


def redis_worker_env(server: RedisServer, **extra: str) -> dict[str, str]:
    """A worker's environment for ``server``: its broker, and its cache, as ``REDIS_URL`` configures both."""
    return {"CELERY_BROKER_URL": server.url, "REDIS_URL": server.url, "CELERY_FILESYSTEM_BROKER_DIR": "", **extra}


@pytest.fixture
def worker(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A worker over the project's broker: ``REDIS_URL`` when set (CI), otherwise kombu's filesystem transport."""
    env: dict[str, str] = {}
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
    with broker(broker_url, options):
        celery_app.control.purge()  # tasks other tests left on a shared Redis
        with celery_worker(tmp_path / "worker.log", env, "worker") as started:
            yield {"process": started.process, "log": started.log}
