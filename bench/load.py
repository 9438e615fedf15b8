"""Load test (issue 9): 100 tables enter their 24-deal sheets at once through the REST API.

Self-contained: creates a scratch PostgreSQL database (``wiezen_load_<pid>``),
seats one tournament of ``--tables`` tables of four through the project's
services, starts gunicorn and Celery workers on it (Redis db 13, flushed first),
and lets one client per table send its sheet's lines one after another
(``POST /api/v1/sheets/{id}/lines/`` with the table code and an
``Idempotency-Key`` per line, keep-alive). By default the tables together
offer the target rate, 200 lines/s: each table sends a line every
``tables / rate`` seconds on its own schedule, the tables' schedules evenly
staggered, and a line's latency counts from its scheduled moment (a server
that falls behind is charged for the wait). ``--rate 0`` makes it a closed
loop instead (each line right after the previous answer and a think time),
which measures the capacity.
It prints, measured in the same run:

- lines, duration, lines/s; entry latency p50/p95/p99; errors by status;
- standings lag: from an entry's 2xx response to the first standings
  computation that covers it (a monitor polls ``StandingsState``);
- checks: every line stored exactly once, and the stored standings equal a
  fresh in-process recomputation;

then tears everything down (processes, database, Redis db), also on failure.

    python bench/load.py [--tables 100] [--deals 24] [--rate 200] [--workers 2] [--threads 4]
    python bench/load.py --rate 0 [--think 0,50]     # closed loop: the capacity

Targets (issue 9): >= 200 lines/s with 0 errors; entry latency p95 <= 150 ms; standings lag p95 <= 2 s.

Defaults for a 2-core machine that also runs PostgreSQL, Redis, the Celery
workers and this load generator: gunicorn ``--workers 2 --threads 4``
(gthread). A line costs a worker's Python about as much CPU as it waits on
PostgreSQL, so one process per core keeps both cores busy, and four threads
per process overlap those waits; more processes or threads measured no faster
(3x4, 4x2, 5x1, 2x8: the same lines/s or fewer, more CPU per line: context
switches, and threads queueing for the GIL while one holds a row lock).
gthread also keeps the tables' keep-alive connections without holding a
thread while a table thinks. Celery: one ``--pool solo`` worker per queue, so
standings (queue ``celery``) never wait behind ratings and statistics (queue
``analytics``), which run at a lower CPU priority (``nice 10``) so they do not
slow entry down; solo, because each queue's jobs are coalesced to one at a
time anyway. ``STANDINGS_COALESCE_SECONDS=1``: a burst of entries is still
computed once (about once a second), and the lag stays under the 2 s target
(with the default 2 the countdown alone takes the whole budget).

With 100 tables in a closed loop, rate and latency are tied (Little's law):
mean latency = tables / rate - mean think time, so a p95 of 150 ms in a closed
loop would need some 770 lines/s; the open loop asks what the targets ask:
200 lines/s offered, and how long each line takes at that rate.
"""

from __future__ import annotations

import argparse
import atexit
import bisect
import contextlib
import http.client
import json
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PG = "postgres://postgres@127.0.0.1:5432"
REDIS_URL = "redis://127.0.0.1:6379/13"  # db 13: the benchmarks' own; other work uses 0-12, 14, 15
DB_NAME = f"wiezen_load_{os.getpid()}"
DATABASE_URL = f"{PG}/{DB_NAME}"
os.environ["DATABASE_URL"] = DATABASE_URL  # the set-up, the monitor and the checks run in this process
os.environ.pop("REDIS_URL", None)  # in-process nothing is queued: only the servers talk to the broker
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# The app runs as in production (DEBUG off, HTTPS only) behind a proxy that terminates TLS: loopback plays it.
PROXY = {"X-Forwarded-Proto": "https"}
TARGET_RATE = 200.0  # lines/s, with 0 errors
TARGET_P95_LATENCY = 0.150  # s
TARGET_P95_LAG = 2.0  # s


# --------------------------------------------------------------------------- teardown


class Teardown:
    """Everything started or created, undone once: at the end, on an exception, on SIGTERM/SIGINT, at exit."""

    def __init__(self) -> None:
        self.processes: list[tuple[str, subprocess.Popen[bytes]]] = []
        self.database = False
        self.logs: tempfile.TemporaryDirectory[str] | None = None
        self.stop: list[threading.Event] = []  # threads to stop first (the monitor)
        self.done = False

    def run(self) -> None:
        if self.done:
            return
        self.done = True
        for event in self.stop:
            event.set()
        for _, proc in reversed(self.processes):
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):  # its own session: the master and its children
                    os.killpg(proc.pid, signal.SIGTERM)
        for name, proc in reversed(self.processes):
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                print(f"{name} did not stop in 15 s: killing it", file=sys.stderr)
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)
        with contextlib.suppress(Exception):  # Django was maybe never set up
            from django.db import connections

            connections.close_all()
        if self.database:
            drop_database()
            self.database = False
        try:
            flush_redis()
        except Exception as exc:  # best effort
            print(f"could not flush {REDIS_URL}: {exc}", file=sys.stderr)
        if self.logs is not None:
            self.logs.cleanup()


TEARDOWN = Teardown()
atexit.register(TEARDOWN.run)


def _on_signal(signum: int, frame: Any) -> None:
    TEARDOWN.run()
    sys.exit(128 + signum)


# --------------------------------------------------------------------------- database and data


def create_database() -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DB_NAME}"')
    TEARDOWN.database = True


def drop_database() -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


def flush_redis() -> None:
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()


def migrate() -> None:
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


@dataclass
class Table:
    sheet_id: int
    code: str
    lines: list[dict[str, Any]]


def build(tables: int, deals: int, preset: str, seed: int) -> tuple[int, list[Table]]:
    """One tournament of ``tables`` tables of four, its first round published; each sheet's lines, seeded."""
    from games.generate import random_session
    from tournaments.models import Club, Player, ScoreSheet
    from tournaments.services.competitions import create_competition, create_rule_set, register_players
    from tournaments.services.rounds import create_round, publish_round

    club = Club.objects.create(name="Load test club", slug="load-test")
    rule_set = create_rule_set(name=f"{preset} (load test)", game="wiezen", preset=preset, club=club)
    competition = create_competition(
        club=club, name="Load test", slug="load-test", rule_set=rule_set, deals_per_session=deals
    )
    players = Player.objects.bulk_create(
        Player(first_name=f"Player{i:03d}", last_name="Load", federation_id=f"LOAD-{i:04d}") for i in range(tables * 4)
    )
    register_players(competition, players)
    round_ = publish_round(create_round(competition, seed=seed))
    sheets = list(ScoreSheet.objects.filter(table__round=round_).select_related("table").order_by("table__number"))
    if len(sheets) != tables or any(s.table.size != 4 for s in sheets):
        raise RuntimeError(f"expected {tables} tables of 4, got {[s.table.size for s in sheets]}")
    rules = rule_set.engine_rules()
    rng = random.Random(seed)
    return competition.pk, [Table(s.pk, s.captain_code, random_session(rules, rng, 4, deals)) for s in sheets]


# --------------------------------------------------------------------------- servers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_env(coalesce: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE",)}
    env.update(
        DATABASE_URL=DATABASE_URL,
        REDIS_URL=REDIS_URL,
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(48),
        ALLOWED_HOSTS="127.0.0.1",
        STANDINGS_COALESCE_SECONDS=str(coalesce),
        LOG_LEVEL="WARNING",
        DJANGO_SETTINGS_MODULE="config.settings",
        PYTHONPATH=str(ROOT),  # this tree's code, also when the script runs from a copy of it
        SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto: https",  # requests come through the (played) TLS proxy
    )
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    return env


def start(name: str, argv: list[str], env: dict[str, str], logdir: str) -> subprocess.Popen[bytes]:
    log = open(Path(logdir) / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    TEARDOWN.processes.append((name, proc))
    return proc


def log_tail(name: str, lines: int = 30) -> str:
    assert TEARDOWN.logs is not None
    path = Path(TEARDOWN.logs.name) / f"{name}.log"
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) if path.exists() else ""


def start_servers(args: argparse.Namespace, port: int) -> list[str]:
    env = server_env(args.coalesce)
    TEARDOWN.logs = tempfile.TemporaryDirectory(prefix="wiezen-load-")
    logdir = TEARDOWN.logs.name
    bin_ = Path(sys.executable).parent
    start(
        "gunicorn",
        [
            str(bin_ / "gunicorn"),
            "config.wsgi",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            str(args.workers),
            "--threads",
            str(args.threads),
            "--worker-class",
            "gthread",
            "--keep-alive",
            "10",
            "--backlog",
            "512",
            "--preload",
        ],
        env,
        logdir,
    )
    workers = ["standings"]
    host = socket.gethostname()
    celery = [str(bin_ / "celery"), "-A", "config", "worker", "-l", "warning", "--without-gossip", "--without-mingle"]
    start("celery-standings", [*celery, "-Q", "celery", "--pool", "solo", "-n", f"standings@{host}"], env, logdir)
    if not args.no_analytics:
        nice = ["nice", "-n", "10"]
        analytics = [*celery, "-Q", "analytics", "--pool", "solo", "-n", f"analytics@{host}"]
        start("celery-analytics", [*nice, *analytics], env, logdir)
        workers.append("analytics")
    return [f"{w}@{host}" for w in workers]


def wait_for_servers(port: int, sheet_id: int, workers: list[str], timeout: float = 60) -> None:
    from celery import Celery

    deadline = time.monotonic() + timeout
    control = Celery(broker=REDIS_URL)
    web_ok = False
    pinged: set[str] = set()
    while time.monotonic() < deadline:
        for name, proc in TEARDOWN.processes:
            if proc.poll() is not None:
                raise RuntimeError(f"{name} exited with {proc.returncode}:\n{log_tail(name)}")
        if not web_ok:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                conn.request("GET", f"/api/v1/sheets/{sheet_id}/", headers=PROXY)
                response = conn.getresponse()
                response.read()
                conn.close()
                if response.status != 200:
                    raise RuntimeError(f"GET sheet: {response.status}\n{log_tail('gunicorn')}")
                web_ok = True
            except OSError:
                pass
        if len(pinged) < len(workers):
            for reply in control.control.ping(destination=workers, timeout=0.5) or []:
                pinged.update(reply)
        if web_ok and len(pinged) == len(workers):
            control.close()
            return
        time.sleep(0.2)
    control.close()
    raise RuntimeError(f"servers not answering after {timeout:.0f} s (web {web_ok}, workers {sorted(pinged)})")


def warm_up(port: int, sheet_id: int, connections: int) -> None:
    """One GET on many connections, so every gunicorn worker has imported its views and opened its database."""

    def get() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        for _ in range(3):
            conn.request("GET", f"/api/v1/sheets/{sheet_id}/", headers=PROXY)
            conn.getresponse().read()
        conn.close()

    threads = [threading.Thread(target=get) for _ in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


# --------------------------------------------------------------------------- load


@dataclass
class Sent:
    sheet_id: int
    deal: int
    status: int  # 0: no answer (an exception)
    started: float
    answered: float
    attempts: int
    replayed: bool
    error: str = ""

    @property
    def latency(self) -> float:
        return self.answered - self.started


@dataclass
class Monitor:
    """Polls the competition's entries_version and the standings' computed_version every ``interval`` s."""

    competition_id: int
    interval: float = 0.01
    times: list[float] = field(default_factory=list)
    entries: list[int] = field(default_factory=list)
    computed: list[int] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        import psycopg

        sql = (
            "SELECT c.entries_version, COALESCE(s.computed_version, 0) FROM tournaments_competition c "
            "LEFT JOIN scoring_standingsstate s ON s.competition_id = c.id WHERE c.id = %s"
        )
        while not self.stop.is_set():
            try:
                with psycopg.connect(DATABASE_URL, autocommit=True) as conn:
                    while not self.stop.is_set():
                        row = conn.execute(sql, (self.competition_id,)).fetchone()
                        assert row is not None
                        self.times.append(time.perf_counter())
                        self.entries.append(int(row[0]))
                        self.computed.append(max(int(row[1]), self.computed[-1] if self.computed else 0))
                        time.sleep(self.interval)
            except psycopg.OperationalError as exc:  # PostgreSQL restarted under us: say so, and carry on
                print(f"monitor: {exc}".strip(), file=sys.stderr)
                time.sleep(0.5)

    def lag(self, answered: float) -> float | None:
        """Seconds from ``answered`` (a 2xx) to the first computation covering that entry, or None if never.

        The entry's version is at most the entries_version seen at the first poll after its answer
        (it was committed before the answer): a conservative bound, it may only lengthen the lag.
        """
        i = bisect.bisect_left(self.times, answered)
        if i >= len(self.times):
            return None
        j = max(i, bisect.bisect_left(self.computed, self.entries[i]))
        return None if j >= len(self.times) else self.times[j] - answered


@dataclass
class Pace:
    """When a table sends its lines: on a fixed schedule (open loop), or each after the last answer and a think.

    With ``period`` the table sends line k at ``offset + k * period`` after the start, or as soon as its
    previous line is answered if that is later; the latency counts from the scheduled moment, so a server
    that falls behind shows it in full (no coordinated omission). Without, it is a closed loop.
    """

    period: float | None
    offset: float
    think: tuple[float, float]


def table_client(
    table: Table, port: int, pace: Pace, seed: int, run: str, go: threading.Barrier, out: list[Sent]
) -> None:
    """One table: its lines one after another on one keep-alive connection, paced or with a think time between."""
    rng = random.Random(seed)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    go.wait()
    start = time.perf_counter()
    for k, line in enumerate(table.lines):
        body = json.dumps(line).encode()
        headers = {
            **PROXY,
            "Content-Type": "application/json",
            "Accept": "application/json",
            "X-Table-Code": table.code,
            "Idempotency-Key": f"{run}-{table.sheet_id}-{line['deal']}",
        }
        if pace.period is None:
            started = time.perf_counter()
        else:
            started = start + pace.offset + k * pace.period
            time.sleep(max(0.0, started - time.perf_counter()))
        status, replayed, error, attempts = 0, False, "", 0
        while attempts < 5:
            attempts += 1
            try:
                conn.request("POST", f"/api/v1/sheets/{table.sheet_id}/lines/", body=body, headers=headers)
                response = conn.getresponse()
                payload = response.read()
            except (OSError, http.client.HTTPException) as exc:
                # a kept-alive connection the server closed, a reset: the key makes a retry safe
                conn.close()
                error = type(exc).__name__
                continue
            status, error = response.status, ""
            replayed = response.getheader("Idempotent-Replayed") == "true"
            if status == 409 and b"idempotency_conflict" in payload:
                time.sleep(0.05)  # the first attempt is still being processed: ask again
                continue
            if status >= 300:
                error = payload[:300].decode(errors="replace")
            break
        out.append(Sent(table.sheet_id, line["deal"], status, started, time.perf_counter(), attempts, replayed, error))
        if pace.period is None:
            time.sleep(rng.uniform(*pace.think))
    conn.close()


def drive(
    tables: list[Table], port: int, rate: float, think: tuple[float, float], seed: int
) -> tuple[list[Sent], float, float]:
    """All tables at once: with ``rate`` > 0 on a schedule that offers ``rate`` lines/s, spread evenly."""
    run = secrets.token_hex(4)
    results: list[list[Sent]] = [[] for _ in tables]
    go = threading.Barrier(len(tables) + 1)
    period = len(tables) / rate if rate > 0 else None
    paces = [Pace(period, (period or 0.0) * i / len(tables), think) for i in range(len(tables))]
    threads = [
        threading.Thread(target=table_client, args=(t, port, paces[i], seed + i, run, go, results[i]), daemon=True)
        for i, t in enumerate(tables)
    ]
    for t in threads:
        t.start()
    go.wait()
    begin = time.perf_counter()
    for t in threads:
        t.join()
    end = time.perf_counter()
    return [s for per_table in results for s in per_table], begin, end


# --------------------------------------------------------------------------- CPU accounting


CLOCK = os.sysconf("SC_CLK_TCK")


def process_table() -> dict[int, tuple[int, float]]:
    """Every process: pid -> (parent pid, CPU seconds used so far)."""
    table: dict[int, tuple[int, float]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            fields = Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        table[int(entry.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / CLOCK)
    return table


def machine_busy() -> tuple[float, float]:
    """CPU seconds of the whole machine: (busy, total), all cores."""
    values = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return (sum(values[:8]) - idle) / CLOCK, sum(values[:8]) / CLOCK


def database_backends() -> set[int]:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", (DB_NAME,)).fetchall()
    return {int(r[0]) for r in rows}


@dataclass
class CpuUse:
    """CPU seconds by who used them between ``start()`` and ``stop()``: are the two cores the limit?"""

    before: dict[int, tuple[int, float]] = field(default_factory=dict)
    machine: tuple[float, float] = (0.0, 0.0)
    used: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0

    def start(self) -> None:
        self.before, self.machine, self.seconds = process_table(), machine_busy(), time.perf_counter()

    def stop(self) -> None:
        after, (busy, total) = process_table(), machine_busy()
        self.seconds = time.perf_counter() - self.seconds
        children: dict[int, list[int]] = {}
        for pid, (ppid, _) in after.items():
            children.setdefault(ppid, []).append(pid)

        def tree(pid: int) -> set[int]:
            found, todo = set(), [pid]
            while todo:
                p = todo.pop()
                found.add(p)
                todo.extend(children.get(p, []))
            return found

        def spent(pids: set[int]) -> float:
            return sum(after[p][1] - self.before.get(p, (0, 0.0))[1] for p in pids if p in after)

        for name, proc in TEARDOWN.processes:
            self.used[name] = spent(tree(proc.pid))
        self.used["postgres (this database)"] = spent(database_backends())
        self.used["load generator (this process)"] = spent({os.getpid()})
        self.used["machine, all processes"] = busy - self.machine[0]
        self.used["_capacity"] = total - self.machine[1]


# --------------------------------------------------------------------------- checks


def wait_for_standings(monitor: Monitor, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if monitor.entries and monitor.computed[-1] >= monitor.entries[-1]:
            return True
        time.sleep(0.05)
    return False


def check_lines(competition_id: int, tables: list[Table], deals: int) -> list[tuple[str, bool, str]]:
    from django.db.models import Count

    from tournaments.models import DealEntry, IdempotentRequest

    entries = DealEntry.objects.filter(sheet__table__round__competition_id=competition_id)
    current = entries.filter(is_current=True)
    per_sheet = dict(current.values_list("sheet_id").annotate(n=Count("id")))
    short = {t.sheet_id: per_sheet.get(t.sheet_id, 0) for t in tables if per_sheet.get(t.sheet_id, 0) != deals}
    stored = {(e.sheet_id, e.deal_number): e.line for e in current.only("sheet_id", "deal_number", "line")}
    wrong = [
        (t.sheet_id, line["deal"]) for t in tables for line in t.lines if stored.get((t.sheet_id, line["deal"])) != line
    ]
    total, versions = entries.count(), entries.filter(version__gt=1).count()
    dup_versions = entries.values("sheet_id", "deal_number", "version").annotate(n=Count("id")).filter(n__gt=1).count()
    keys = list(entries.values_list("idempotency_key", flat=True))
    requests = IdempotentRequest.objects.filter(scope__in=[t.code for t in tables])
    done = requests.filter(state=IdempotentRequest.State.DONE, status_code=201).count()
    expected = len(tables) * deals
    return [
        (
            f"{deals} current lines per sheet, as sent",
            not short and not wrong,
            f"{len(tables) - len(short)}/{len(tables)} sheets complete, {len(wrong)} lines differ",
        ),
        (
            "each line stored once (one version, no duplicates)",
            total == expected and versions == 0 and dup_versions == 0,
            f"{total} rows for {expected} lines, {versions} later versions, {dup_versions} duplicated versions",
        ),
        (
            "idempotency keys unique, one per line",
            None not in keys and len(set(keys)) == len(keys) == expected and requests.count() == expected == done,
            f"{len({k for k in keys if k})} distinct keys on lines, {requests.count()} key claims ({done} 201 done)",
        ),
    ]


def check_standings(competition_id: int) -> list[tuple[str, bool, str]]:
    from scoring.models import Standing, StandingsState
    from scoring.selectors import competition_penalty_records, competition_sessions
    from scoring.services import rank_competition
    from tournaments.models import Competition

    competition = Competition.objects.get(pk=competition_id)
    state = StandingsState.objects.get(competition_id=competition_id)
    registered = Competition.players.through.objects.filter(competition_id=competition_id)
    fresh = rank_competition(
        competition,
        competition_sessions(competition_id, settled_only=True),
        competition_penalty_records(competition_id, settled_only=True),
        registered.values_list("player_id", flat=True),
    )
    fields = ("rank", "points", "deals_played", "sessions_played", "shared")
    want = {row.player_id: tuple(getattr(row, f) for f in fields) for row in fresh}
    have = {
        row.player_id: tuple(getattr(row, f) for f in fields)
        for row in Standing.objects.filter(competition=competition)
    }
    differ = sorted(p for p in want.keys() | have.keys() if want.get(p) != have.get(p))
    return [
        (
            "standings cover the last entry",
            state.computed_version == competition.entries_version,
            f"computed v{state.computed_version} of v{competition.entries_version}, {state.computations} computations",
        ),
        (
            "stored standings = fresh recomputation",
            not differ and len(have) == len(want),
            f"{len(have)} rows stored, {len(want)} recomputed, {len(differ)} players differ (rank, points, deals)",
        ),
    ]


# --------------------------------------------------------------------------- report


def pct(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) of a non-empty list."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, -(-len(ordered) * p // 100) - 1))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def report(
    args: argparse.Namespace,
    sent: list[Sent],
    begin: float,
    end: float,
    monitor: Monitor,
    checks: list[tuple[str, bool, str]],
    cpu: CpuUse,
) -> bool:
    ok = [s for s in sent if 200 <= s.status < 300]
    duration = end - begin
    rate = len(ok) / duration if duration > 0 else 0.0
    errors = Counter(str(s.status) if s.status else s.error for s in sent if not 200 <= s.status < 300)
    latencies = [s.latency for s in ok] or [float("nan")]
    lags_or_none = [monitor.lag(s.answered) for s in ok]
    lags = [x for x in lags_or_none if x is not None]
    uncovered = len(lags_or_none) - len(lags)
    retried = sum(1 for s in sent if s.attempts > 1)
    replayed = sum(1 for s in sent if s.replayed)
    p95_latency = pct(latencies, 95)
    p95_lag = pct(lags, 95) if lags else float("inf")
    computations = len(set(monitor.computed)) - (1 if monitor.computed and monitor.computed[0] == 0 else 0)

    print()
    print(f"{'metric':<34} {'measured':>22}   {'target':<22} result")
    print("-" * 90)

    def row(name: str, value: str, target: str = "", good: bool | None = None) -> bool:
        verdict = "" if good is None else ("OK" if good else "FAIL")
        print(f"{name:<34} {value:>22}   {target:<22} {verdict}")
        return good is not False

    passed = True
    row("lines sent / answered 2xx", f"{len(sent)} / {len(ok)}")
    row("duration", f"{duration:.2f} s")
    passed &= row("lines/s sustained", f"{rate:.0f}", f">= {TARGET_RATE:.0f}", rate >= TARGET_RATE)
    passed &= row(
        "errors (non-2xx, exceptions)",
        str(sum(errors.values())) + (f" {dict(errors)}" if errors else ""),
        "0",
        not errors,
    )
    row("retried after a dropped connection", f"{retried} ({replayed} replayed)")
    row("entry latency p50", ms(statistics.median(latencies)))
    passed &= row(
        "entry latency p95", ms(p95_latency), f"<= {ms(TARGET_P95_LATENCY)}", p95_latency <= TARGET_P95_LATENCY
    )
    row("entry latency p99 / max", f"{ms(pct(latencies, 99))} / {ms(max(latencies))}")
    row("standings lag p50", f"{statistics.median(lags):.2f} s" if lags else "-")
    passed &= row(
        "standings lag p95",
        f"{p95_lag:.2f} s" + (f" ({uncovered} never)" if uncovered else ""),
        f"<= {TARGET_P95_LAG:.0f} s",
        p95_lag <= TARGET_P95_LAG and not uncovered,
    )
    row("standings lag max", f"{max(lags):.2f} s" if lags else "-")
    row("standings computations seen", str(computations))
    for name, good, detail in checks:
        passed &= row(name, "", "", good)
        print(f"    {detail}")
    print("-" * 90)
    print(
        f"config: {args.tables} tables x {args.deals} deals ({args.preset}), "
        + (f"open loop at {args.rate:.0f} lines/s" if args.rate > 0 else f"closed loop, think {args.think} ms")
        + "; gunicorn "
        f"-w {args.workers} --threads {args.threads} (gthread); celery solo: standings"
        f"{'' if args.no_analytics else ' + analytics (nice 10)'}; STANDINGS_COALESCE_SECONDS={args.coalesce}"
    )
    capacity = cpu.used.pop("_capacity", 0.0)
    print(f"CPU seconds during the load ({cpu.seconds:.1f} s, {capacity:.0f} CPU-s on {os.cpu_count()} cores):")
    print("  " + ", ".join(f"{name} {seconds:.1f}" for name, seconds in cpu.used.items()))
    ours = sum(v for n, v in cpu.used.items() if not n.startswith("machine"))
    others = cpu.used.get("machine, all processes", 0.0) - ours
    print(f"  this benchmark {ours:.1f} CPU-s; other processes on the machine {others:.1f} CPU-s")
    if ok:
        per_line = {n: s * 1000 / len(ok) for n, s in cpu.used.items() if not n.startswith("machine")}
        print(
            "  per line: "
            + ", ".join(f"{name.split(' ')[0]} {v:.1f} ms" for name, v in per_line.items())
            + f"; all {ours * 1000 / len(ok):.1f} ms: CPU alone would allow "
            f"{len(ok) * capacity / ours / cpu.seconds:.0f} lines/s with the {os.cpu_count()} cores to itself"
        )
    if args.rate <= 0:
        think = sum(args.think_s) / 2
        print(
            f"closed loop (Little's law): {args.tables} tables at a mean think of {think * 1000:.0f} ms get a mean "
            f"latency of {args.tables} / rate - think; p95 <= {ms(TARGET_P95_LATENCY)} needs about "
            f"{args.tables / (think + TARGET_P95_LATENCY * 0.7):.0f} lines/s here (mean ~ 0.7 x p95)"
        )
    first_errors = [s for s in sent if s.error and not 200 <= s.status < 300][:3]
    for s in first_errors:
        print(f"  e.g. sheet {s.sheet_id} deal {s.deal}: {s.status or ''} {s.error}")
    print("RESULT:", "OK" if passed else "FAIL")
    return passed


# --------------------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--deals", type=int, default=24, choices=(16, 24))
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn worker (gthread)")
    parser.add_argument(
        "--rate",
        type=float,
        default=TARGET_RATE,
        help="lines/s offered by all tables together, each on its own schedule (open loop); 0: closed loop",
    )
    parser.add_argument(
        "--think", default="0,50", help="closed loop (--rate 0): think time between a table's lines: min,max ms"
    )
    parser.add_argument("--coalesce", type=int, default=1, help="STANDINGS_COALESCE_SECONDS for the servers")
    parser.add_argument("--no-analytics", action="store_true", help="no worker for ratings and statistics")
    parser.add_argument("--preset", default="iwwa")
    parser.add_argument("--seed", type=int, default=9)
    args = parser.parse_args()
    low, high = (float(x) / 1000 for x in args.think.split(","))
    if not 0 <= low <= high <= 5:
        parser.error("--think takes min,max in ms, 0 <= min <= max <= 5000")
    args.think_s = (low, high)

    os.chdir(ROOT)  # Celery's Django fix-up puts the working directory first on sys.path: make it this tree
    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGINT, _on_signal)
    try:
        print(f"database {DB_NAME}, Redis {REDIS_URL} (flushed)")
        flush_redis()
        create_database()
        import django

        django.setup()
        t0 = time.perf_counter()
        migrate()
        competition_id, tables = build(args.tables, args.deals, args.preset, args.seed)
        from django.db import connections

        connections.close_all()  # the servers and the monitor do the work now
        print(
            f"set up {args.tables} tables of 4 ({args.tables * 4} players), round published, "
            f"{args.tables * args.deals} lines generated in {time.perf_counter() - t0:.1f} s"
        )

        port = free_port()
        workers = start_servers(args, port)
        t0 = time.perf_counter()
        wait_for_servers(port, tables[0].sheet_id, workers)
        warm_up(port, tables[0].sheet_id, args.workers * args.threads * 2)
        print(f"gunicorn on 127.0.0.1:{port} and celery {', '.join(workers)} answer ({time.perf_counter() - t0:.1f} s)")

        monitor = Monitor(competition_id)
        TEARDOWN.stop.append(monitor.stop)
        watcher = threading.Thread(target=monitor.run, daemon=True)
        watcher.start()
        offered = (
            f"offering {args.rate:.0f} lines/s (a line per table every {args.tables / args.rate:.2f} s)"
            if args.rate > 0
            else f"closed loop, think {args.think} ms"
        )
        print(f"{len(tables)} tables entering {args.deals} lines each, {offered} ...")
        cpu = CpuUse()
        cpu.start()
        sent, begin, end = drive(tables, port, args.rate, (low, high), args.seed)
        cpu.stop()
        covered = wait_for_standings(monitor, timeout=30)
        monitor.stop.set()
        watcher.join()
        if not covered:
            print("standings did not catch up within 30 s after the last entry")
        for name, proc in TEARDOWN.processes:
            if proc.poll() is not None:
                print(f"{name} exited with {proc.returncode}:\n{log_tail(name)}")
        checks = check_lines(competition_id, tables, args.deals) + check_standings(competition_id)
        return 0 if report(args, sent, begin, end, monitor, checks, cpu) else 1
    finally:
        TEARDOWN.run()


if __name__ == "__main__":
    sys.exit(main())
