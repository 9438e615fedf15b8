"""README "Production", run as written: every command of that section, so the section cannot rot (issue 15).

The section's fenced blocks are marked by the HTML comment just above them:

- ``<!-- production: env -->``: the settings file (``/etc/wiezen/wiezen.env``); written as is, then read by
  every command and process, as systemd's ``EnvironmentFile=`` would;
- ``<!-- production: run -->``: commands run to completion as one bash script (``set -e``): any failing command
  fails the test;
- ``<!-- production: processes -->``: one long-running process a line (gunicorn, a worker per queue, beat),
  started in the background, waited for until ready, then stopped.

Blocks without a mark are configuration that cannot run in a test (the TLS proxy's nginx file, a systemd unit):
shown, not run. The README's names are replaced by the test's own, and nothing else is changed: the database
``wiezen_prod`` and role ``wiezen_app`` by uniquely named ones on the PostgreSQL at 127.0.0.1:5432 (trust, user
postgres; both dropped afterwards), Redis db 0 by the spare db 12 at 127.0.0.1:6379 (flushed afterwards), port
8000 and 8001 by free ports, ``/etc/wiezen`` and ``/srv/wiezen/var`` by temporary directories. Requests go
through both gunicorn pools with the proxy's headers (``Host``, ``X-Forwarded-Proto``); both workers must answer
``inspect ping``; beat must start, write its schedule and stop.

The proxy's file is not run, but its route to the second pool is checked against the URL conf: every address a
table's device writes through goes there, and none of the addresses the phones and displays poll.
"""

from __future__ import annotations

import os
import re
import secrets
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.urls import get_resolver, reverse

from tests.urlconf import walk
from tournaments.api.views_results import ScoreSheetViewSet
from tournaments.views import entry as views_entry

ROOT = Path(__file__).resolve().parent.parent
PG = ["psql", "-h", "127.0.0.1", "-p", "5432", "-U", "postgres", "-q", "-v", "ON_ERROR_STOP=1"]
SPARE_REDIS_DB = 12
STARTUP_SECONDS = 40


def production_section() -> str:
    readme = (ROOT / "README.md").read_text()
    start = readme.index("\n## Production\n")
    end = readme.index("\n## ", start + 1)
    return readme[start:end]


def marked_blocks(section: str) -> list[tuple[str, str]]:
    """Each fenced block with its mark (``env``, ``run``, ``processes``; ``""`` for configuration), in order."""
    found = re.finditer(r"(?:<!-- production: (\w+) -->\s*\n)?[ \t]*```(\w*)\n(.*?)\n[ \t]*```", section, re.S)
    return [(m.group(1) or "", "\n".join(line.strip() for line in m.group(3).splitlines())) for m in found]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def documented_settings() -> set[str]:
    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("\n## Configuration\n") : readme.index("\n## Production\n")]
    return set(re.findall(r"`([A-Z][A-Z0-9_]+)`", table))


class Run:
    """The section's commands with the test's names, and the processes they start."""

    def __init__(self, tmp: Path) -> None:
        tag = f"{os.getpid()}_{secrets.token_hex(3)}"
        self.database, self.role, self.port = f"wiezen_readme_{tag}", f"wiezen_readme_{tag}_app", free_port()
        self.entry_port = free_port()
        while self.entry_port == self.port:
            self.entry_port = free_port()
        self.var = tmp / "var"
        self.env_file = tmp / "etc" / "wiezen.env"
        self.env_file.parent.mkdir()
        self.replacements = {
            "wiezen_prod": self.database,
            "wiezen_app": self.role,
            "redis://127.0.0.1:6379/0": f"redis://127.0.0.1:6379/{SPARE_REDIS_DB}",
            "127.0.0.1:8000": f"127.0.0.1:{self.port}",
            "127.0.0.1:8001": f"127.0.0.1:{self.entry_port}",
            "/etc/wiezen/wiezen.env": str(self.env_file),
            "/srv/wiezen/var": str(self.var),
        }
        self.logs = tmp / "logs"
        self.logs.mkdir()
        self.processes: list[tuple[str, subprocess.Popen[bytes], Path]] = []
        # a fresh login shell's environment: nothing of the test's own settings leaks into the commands
        self.environ = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "USER") if k in os.environ}

    def ours(self, text: str) -> str:
        for theirs, mine in self.replacements.items():
            text = text.replace(theirs, mine)
        return text

    def script(self, commands: str) -> str:
        result = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", self.ours(commands)],
            cwd=ROOT,
            env=self.environ,
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert result.returncode == 0, f"a README command failed:\n{commands}\n{result.stdout}\n{result.stderr}"
        return result.stdout

    def start(self, line: str) -> None:
        log = self.logs / f"{len(self.processes)}.log"
        command = f"set -a && . {self.env_file} && set +a && exec {self.ours(line)}"
        with log.open("wb") as out:
            process = subprocess.Popen(
                ["bash", "-c", command],
                cwd=ROOT,
                env=self.environ,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: stopped as a whole, gunicorn's workers too
            )
        self.processes.append((line, process, log))

    def wait_for(self, line: str, text: str) -> None:
        _, process, log = next(p for p in self.processes if p[0] == line)
        deadline = time.monotonic() + STARTUP_SECONDS
        while text not in log.read_text(errors="replace"):
            assert process.poll() is None, f"{line} stopped:\n{log.read_text(errors='replace')}"
            assert time.monotonic() < deadline, f"{line} never said {text!r}:\n{log.read_text(errors='replace')}"
            time.sleep(0.3)

    def stop(self) -> list[tuple[str, int | None]]:
        for _, process, _ in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        codes = []
        for line, process, _ in self.processes:
            try:
                codes.append((line, process.wait(timeout=20)))
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                codes.append((line, None))
        return codes

    def drop(self) -> None:
        drop_database = f"DROP DATABASE IF EXISTS {self.database} WITH (FORCE)"
        subprocess.run(
            [*PG, "-c", drop_database, "-c", f"DROP ROLE IF EXISTS {self.role}"], capture_output=True, timeout=30
        )
        subprocess.run(["redis-cli", "-n", str(SPARE_REDIS_DB), "flushdb"], capture_output=True, timeout=30)


def require_servers() -> None:
    """Fail (never skip), saying what is missing: the section needs a PostgreSQL and a Redis, as .ci/run has."""
    pg = subprocess.run([*PG, "-tA", "-c", "SELECT 1"], capture_output=True, text=True, timeout=30)
    assert pg.returncode == 0, (
        f"README Production needs PostgreSQL at 127.0.0.1:5432, user postgres (.ci/run starts it): {pg.stderr}"
    )
    redis = subprocess.run(
        ["redis-cli", "-h", "127.0.0.1", "-p", "6379", "ping"], capture_output=True, text=True, timeout=30
    )
    assert redis.stdout.strip() == "PONG", "README Production needs Redis at 127.0.0.1:6379 (.ci/run starts it)"


@pytest.fixture
def run(tmp_path: Path) -> Iterator[Run]:
    require_servers()
    run = Run(tmp_path)
    try:
        yield run
    finally:
        run.stop()
        run.drop()


def test_the_readme_production_section_runs_as_written(run: Run) -> None:
    blocks = marked_blocks(production_section())
    marks = [mark for mark, _ in blocks]
    assert marks.count("env") == 1 and marks.count("processes") == 1 and marks.count("run") >= 3
    assert "" in marks  # the proxy's and systemd's files: configuration, not run

    (_, env), *rest = blocks
    settings = dict(line.split("=", 1) for line in env.splitlines() if line and not line.startswith("#"))
    assert set(settings) - {"WIEZEN_VAR_DIR"} <= documented_settings()  # each setting is explained
    assert settings["DEBUG"] == "false"  # the production defaults: HTTPS redirect, HSTS, secure cookies
    run.env_file.write_text(run.ours(env) + "\n")

    gunicorns: list[str] = []
    worker_lines = beat = None
    for mark, text in rest:
        if mark == "run":
            out = run.script(text)
            if "inspect ping" in text:  # both workers answer, each on its own queue
                assert "standings@" in out and "analytics@" in out, out
        elif mark == "processes":
            lines = text.splitlines()
            gunicorns = [line for line in lines if "gunicorn" in line]
            binds = [re.findall(r"--bind 127\.0\.0\.1:(\d+)", line) for line in gunicorns]
            assert binds == [["8000"], ["8001"]], "two pools: the site (8000) and the tables' entries (8001)"
            worker_lines = [line for line in lines if " worker " in line]
            beat = next(line for line in lines if " beat" in line)
            assert {"-Q celery", "-Q analytics"} <= {q for line in worker_lines for q in re.findall(r"-Q \w+", line)}
            for line in lines:
                run.start(line)
            for line in gunicorns:
                run.wait_for(line, "Booting worker")
            for line in worker_lines:
                run.wait_for(line, "ready.")
            run.wait_for(beat, "beat: Starting")
            assert [through_the_proxy(port) for port in (run.port, run.entry_port)] == [200, 200]
    assert gunicorns and worker_lines and beat, "the section starts the web server, the workers and beat"
    assert (run.var / "celerybeat-schedule").exists() or list(run.var.glob("celerybeat-schedule*"))
    assert list((run.var / "static").rglob("*.css"))  # collectstatic wrote where whitenoise serves from
    assert list((run.var / "backups").glob("wiezen-*.dump"))  # the backup
    assert psql("SELECT count(*) FROM django_migrations", run.database) > 0
    stopped = run.stop()
    assert all(code is not None for _, code in stopped), stopped


def through_the_proxy(port: int) -> int:
    """A request as the TLS proxy passes it on: the public host, marked HTTPS. Retried while gunicorn warms up."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/", headers={"Host": "wiezen.example", "X-Forwarded-Proto": "https"}
    )
    deadline = time.monotonic() + STARTUP_SECONDS
    while True:
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return int(response.status)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def psql(query: str, database: str) -> int:
    out = subprocess.run([*PG, "-d", database, "-tA", "-c", query], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    return int(out.stdout.strip())


# -- the proxy's route to the entries' pool, against the URL conf ----------------------------------------------------


def entry_route() -> re.Pattern[str]:
    """The nginx ``location`` that passes a table's writes to the second pool (port 8001), as a Python regex."""
    nginx = next(text for mark, text in marked_blocks(production_section()) if "proxy_pass" in text)
    found = re.findall(r"location ~ (\S+) \{\s*proxy_pass http://127\.0\.0\.1:8001;", nginx)
    assert len(found) == 1, f"one regex location for the entries' pool:\n{nginx}"
    return re.compile(found[0])


SAMPLE = {"slug": "season", "round_number": 3, "table_number": 7, "pk": 12, "deal": 5, "format": "json"}


def table_writes() -> list[str]:
    """Every address a table's device writes through, from the URL conf: the entry pages (each form on them posts
    to its own address) and the API's sheet writes, with and without a format suffix."""
    paths: list[str] = []
    for _, _, pattern in walk(get_resolver().url_patterns):
        callback: Any = pattern.callback
        wanted = SAMPLE.keys() & set(pattern.pattern.regex.groupindex)
        kwargs = {name: SAMPLE[name] for name in wanted}
        page = callback.__module__ == views_entry.__name__ or "/entry/" in str(pattern.pattern)
        writes = set(getattr(callback, "actions", {})) & {"post", "put", "patch"}
        if page or (getattr(callback, "cls", None) is ScoreSheetViewSet and writes):
            paths.append(reverse(str(pattern.name), kwargs=kwargs))
    return paths


def test_the_proxy_sends_every_write_of_a_table_to_the_entries_pool() -> None:
    route, writes = entry_route(), table_writes()
    assert {"/api/v1/sheets/12/lines/", "/c/season/r3/t7/entry/", "/c/season/r3/t7/entry/preview/"} <= set(writes)
    assert [path for path in writes if not route.match(path)] == []


@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("home", {}),
        ("competition", {"slug": "season"}),
        ("competition-standings", {"slug": "season"}),
        ("display", {"slug": "season"}),
        ("display-live", {"slug": "season"}),
        ("round", {"slug": "season", "round_number": 3}),
        ("round-clock", {"slug": "season", "round_number": 3}),
        ("sheet", {"slug": "season", "round_number": 3, "table_number": 7}),
    ],
)
def test_what_the_phones_and_displays_poll_stays_on_the_main_pool(name: str, kwargs: dict[str, Any]) -> None:
    assert not entry_route().match(reverse(name, kwargs=kwargs))
