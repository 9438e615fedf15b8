"""Read benchmark (issue 16, "Benchmark", first bullet): the standings fragment against a static file.

Self-contained: creates a scratch PostgreSQL database (``wiezen_read_<pid>``) and
uses Redis db 13 (flushed before and after), builds a league season of
``--players`` players over ``--evenings`` evenings of 24 deals (``bench/standings.py``'s
generator; every round finalised and every sheet final, as after the evenings),
computes its standings and statistics, collects the static files into a scratch
``WIEZEN_VAR_DIR`` and starts gunicorn as README.md "Production" runs it
(``config.wsgi --workers 3 --timeout 30 --access-logfile -``, ``DEBUG=false``,
whitenoise serving the static files, Redis as the shared cache) behind a played
TLS proxy (``X-Forwarded-Proto: https``). Then, in the same run, in turn over
``--rounds`` rounds (so that whatever else the machine does in the meantime
weighs on all three alike: one static file's rate alone varied by a third from
one run to the next) and ``--seconds`` counted in all, on ``--connections``
keep-alive connections (threads with ``http.client``, each sending its next
request on its answer; the first second of each turn is a warm-up, not counted):

(a) the standings fragment ``/c/<slug>/standings/`` as a phone's htmx poll
    (``HX-Request: true``, the ``rounds_seen``/``statistics_seen`` the page
    includes), unconditional;
(b) the same poll revalidated: ``If-None-Match`` with the ``ETag`` it gave
    (expect 304; a client that gets a 200 takes its new ``ETag``, as a browser does);
(c) a static file of similar size through the same server (whitenoise).

It prints requests/s, p50/p99 latency, body size and statuses of each, the
ratios (a)/(c) and (b)/(c) against the issue's targets, the time of one
rendering from an empty cache, and the CPU used by each process during each
measurement (the load generator shares the cores with the server), then tears
everything down (gunicorn, database, Redis db), also on failure. It is a
benchmark: it exits 0 whether the targets are met or not (1 only if it could
not measure).

    python bench/read.py [--players 400] [--evenings 10] [--connections 20] [--seconds 12] [--rounds 4]
    python bench/read.py --workers 2 --threads 4   # the setting the issue measured on main

Targets (issue 16): unconditional >= 0.25x the static file's requests/s, revalidated >= 0.5x.

The season's standings are dated an hour back (computed after the last
evening): a fragment's validator includes its age as the page words it
("Updated 12 seconds ago", then "1 hour, 5 minutes ago"), which in the first
minute changes every second; an hour back it changes once a minute, as
between rounds.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import http.client
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import load as lb  # the scratch database, Redis db 13, gunicorn's environment, teardown, CPU accounting
from bench.standings import generate  # a season's rounds, sheets, lines and seat results in bulk

TARGET_UNCONDITIONAL = 0.25  # x the static file's requests/s
TARGET_REVALIDATED = 0.5
# as a phone's browser asks: htmx's header, and a compressed body when there is one (both sides alike)
BROWSER = {"Accept-Encoding": "gzip, deflate, br"}
HTMX = {"HX-Request": "true", **BROWSER}
SEEN = re.compile(r'name="(rounds_seen|statistics_seen)" value="([^"]*)"')


def use_database(name: str) -> None:
    """bench/load.py's database helpers, on a database named for this benchmark."""
    lb.DB_NAME = name
    lb.DATABASE_URL = f"{lb.PG}/{name}"
    os.environ["DATABASE_URL"] = lb.DATABASE_URL


# --------------------------------------------------------------------------- data


def build_season(players: int, evenings: int, seed: int) -> str:
    """The season, played and checked: rounds finalised, sheets final; its standings (computed an hour ago) and
    statistics stored."""
    from datetime import timedelta

    from django.utils import timezone

    from scoring.models import StandingsState
    from scoring.services import recompute_standings, recompute_statistics
    from tournaments.models import Round, ScoreSheet

    competition = generate(players, evenings, seed)
    Round.objects.filter(competition=competition).update(status=Round.Status.FINALISED)
    ScoreSheet.objects.filter(table__round__competition=competition).update(state=ScoreSheet.State.FINAL)
    recompute_standings(competition.pk, claim=False)
    recompute_statistics(competition.pk)  # the contract statistics the poll carries out of band
    hour_ago = timezone.now() - timedelta(hours=1)
    StandingsState.objects.filter(competition=competition).update(computed_at=hour_ago)
    return str(competition.slug)


# --------------------------------------------------------------------------- server


def start_gunicorn(args: argparse.Namespace, port: int, *, name: str = "gunicorn", workers: int = 0) -> None:
    """Static files collected into a scratch var dir (once), then gunicorn with README.md's production flags.

    ``workers`` (default ``--workers``) and ``name`` start another pool on the same settings, such as README's
    second one for the tables' entries."""
    env = lb.server_env(coalesce=1)
    assert lb.TEARDOWN.logs is not None
    var = Path(lb.TEARDOWN.logs.name) / "var"
    env["WIEZEN_VAR_DIR"] = str(var)
    if not (var / "static").exists():
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
            cwd=lb.ROOT,
            env=env,
            check=True,
        )
    argv = [str(Path(sys.executable).parent / "gunicorn"), "config.wsgi", "--bind", f"127.0.0.1:{port}"]
    argv += ["--workers", str(workers or args.workers), "--timeout", "30", "--access-logfile", "-"]
    if args.threads > 1:
        argv += ["--threads", str(args.threads)]  # gunicorn then runs gthread workers
    lb.start(name, argv, env, lb.TEARDOWN.logs.name)


def get(port: int, path: str, headers: dict[str, str]) -> tuple[http.client.HTTPResponse, bytes]:
    """One GET on a connection of its own: the response and its body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers={**lb.PROXY, **headers})
        response = conn.getresponse()
        return response, response.read()
    finally:
        conn.close()


def wait_for_gunicorn(port: int, path: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for name, proc in lb.TEARDOWN.processes:
            if proc.poll() is not None:
                raise RuntimeError(f"{name} exited with {proc.returncode}:\n{lb.log_tail(name)}")
        with contextlib.suppress(OSError):
            response, _ = get(port, path, {})
            if response.status != 200:
                raise RuntimeError(f"GET {path}: {response.status}\n{lb.log_tail('gunicorn')}")
            return
        time.sleep(0.2)
    raise RuntimeError(f"gunicorn not answering after {timeout:.0f} s:\n{lb.log_tail('gunicorn')}")


def poll_path(port: int, slug: str) -> str:
    """The fragment's address as the competition page polls it: with the digests of what the page already shows."""
    path = f"/c/{slug}/standings/"
    response, body = get(port, path, HTMX)
    if response.status != 200:
        raise RuntimeError(f"GET {path}: {response.status}")
    if response.getheader("Content-Encoding") == "gzip":
        body = gzip.decompress(body)
    seen = dict(SEEN.findall(body.decode()))
    return f"{path}?{urlencode(seen)}" if seen else path


# --------------------------------------------------------------------------- load


@dataclass
class Measured:
    name: str
    path: str
    seconds: float
    statuses: Counter[str] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    cpu: dict[str, float] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds

    @property
    def errors(self) -> int:
        return sum(n for status, n in self.statuses.items() if status not in ("200", "304"))


def hammer(
    name: str, port: int, path: str, headers: dict[str, str], connections: int, seconds: float, warm: float
) -> Measured:
    """``connections`` clients, each sending its next GET on the answer to the last, for ``warm + seconds``;
    the requests started in the last ``seconds`` are counted. With ``If-None-Match`` a client takes the ``ETag``
    of any 200 it gets, as a browser does."""
    go = threading.Barrier(connections + 1)
    window = [0.0, 0.0]  # counted: requests started from window[0] until window[1]
    samples: list[list[tuple[float, str, float, int]]] = [[] for _ in range(connections)]

    def client(out: list[tuple[float, str, float, int]]) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        sent = {**lb.PROXY, **headers}
        go.wait()
        while (started := time.perf_counter()) < window[1]:
            try:
                conn.request("GET", path, headers=sent)
                response = conn.getresponse()
                body = response.read()
            except (OSError, http.client.HTTPException) as exc:  # the server closed a kept-alive connection
                conn.close()
                out.append((started, type(exc).__name__, time.perf_counter() - started, 0))
                time.sleep(0.01)
                continue
            out.append((started, str(response.status), time.perf_counter() - started, len(body)))
            if response.status == 200 and "If-None-Match" in sent:
                sent["If-None-Match"] = response.getheader("ETag") or sent["If-None-Match"]
        conn.close()

    threads = [threading.Thread(target=client, args=(out,), daemon=True) for out in samples]
    for t in threads:
        t.start()
    cpu = lb.CpuUse()
    now = time.perf_counter()
    window[:] = [now + warm, now + warm + seconds]
    go.wait()
    time.sleep(max(0.0, window[0] - time.perf_counter()))
    cpu.start()
    for t in threads:
        t.join()
    cpu.stop()
    measured = Measured(name, path, seconds)
    for started, status, latency, size in (s for out in samples for s in out):
        if window[0] <= started < window[1]:
            measured.statuses[status] += 1
            measured.latencies.append(latency)
            measured.sizes.append(size)
    measured.cpu = {**cpu.used, "_seconds": cpu.seconds}
    return measured


def merged(parts: list[Measured]) -> Measured:
    """One measurement of several rounds: their requests over their counted seconds, their CPU added up."""
    out = Measured(parts[0].name, parts[0].path, sum(m.seconds for m in parts))
    for m in parts:
        out.statuses.update(m.statuses)
        out.latencies += m.latencies
        out.sizes += m.sizes
        for k, v in m.cpu.items():
            out.cpu[k] = out.cpu.get(k, 0.0) + v
    return out


def cold_renderings(port: int, path: str, times: int = 3) -> list[float]:
    """One poll's latency with the shared cache empty (nothing rendered yet), ``times`` over."""
    latencies = []
    for _ in range(times):
        lb.flush_redis()
        started = time.perf_counter()
        response, _ = get(port, path, HTMX)
        latencies.append(time.perf_counter() - started)
        if response.status != 200:
            raise RuntimeError(f"GET {path}: {response.status}")
    return latencies


# --------------------------------------------------------------------------- report


def size(n: float) -> str:
    return f"{n / 1000:.1f} KB" if n >= 1000 else f"{n:.0f} B"


def report(args: argparse.Namespace, rows: list[Measured], cold: list[float]) -> None:
    fragment, revalidated, static = rows
    print()
    print(f"{'':<40} {'requests/s':>10} {'p50':>8} {'p99':>8} {'body':>9}   statuses")
    print("-" * 100)
    for m in rows:
        lat = m.latencies or [float("nan")]
        body = statistics.median(m.sizes) if m.sizes else 0
        statuses = ", ".join(f"{status} x{n}" for status, n in m.statuses.most_common())
        print(
            f"{m.name:<40} {m.rate:>10.0f} {lb.ms(statistics.median(lat)):>8} {lb.ms(lb.pct(lat, 99)):>8} "
            f"{size(body):>9}   {statuses}"
        )
    print("-" * 100)
    for m, target in ((fragment, TARGET_UNCONDITIONAL), (revalidated, TARGET_REVALIDATED)):
        ratio = m.rate / static.rate if static.rate else 0.0
        verdict = "met" if ratio >= target and not m.errors else "NOT met"
        print(f"{m.name[:3] + ' / (c), requests/s':<40} {ratio:>9.2f}x   target >= {target}x: {verdict}")
    print(f"{'one poll, nothing cached yet':<40} {lb.ms(statistics.median(cold)):>10}   (median of {len(cold)})")
    print("-" * 100)
    print(
        f"config: {args.players} players, {args.evenings} evenings of {args.players // 4} tables x 24 deals; "
        f"gunicorn --workers {args.workers}"
        + (f" --threads {args.threads} (gthread)" if args.threads > 1 else " (sync)")
        + f" --timeout 30; {args.connections} connections, {args.seconds:g} s counted each in {args.rounds} rounds "
        "(1 s of warm-up each); "
        f"DEBUG=false, PostgreSQL, Redis cache; {os.cpu_count()} cores"
    )
    print(f"poll: GET {fragment.path} with HX-Request: true; static: GET {static.path}")
    print("CPU seconds while measuring (the load generator shares the cores):")
    for m in rows:
        used = {k: v for k, v in m.cpu.items() if not k.startswith("_")}
        ours = sum(v for k, v in used.items() if not k.startswith("machine"))
        others = used.get("machine, all processes", 0.0) - ours
        parts = [f"{k.split(' ')[0]} {v:.1f}" for k, v in used.items() if not k.startswith("machine")]
        served = m.rate * m.cpu.get("_seconds", m.seconds)
        per = f"{used.get('gunicorn', 0.0) * 1000 / served:.2f} ms of gunicorn per request" if served else ""
        print(f"  {m.name.split(',')[0]}: {', '.join(parts)}; other processes {others:.1f}; {per}")


# --------------------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=400, help="a multiple of 4: players//4 tables an evening")
    parser.add_argument("--evenings", type=int, default=10)
    parser.add_argument("--connections", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=12.0, help="counted of each measurement, in all rounds")
    parser.add_argument(
        "--rounds", type=int, default=4, help="(a), (b), (c) in turn this many times: drift hits all three alike"
    )
    parser.add_argument("--workers", type=int, default=3, help="gunicorn worker processes (README: 3)")
    parser.add_argument("--threads", type=int, default=1, help="threads per worker; over 1: gthread (README: 1)")
    parser.add_argument("--static", default="/static/django_htmx/htmx-2.js", help="the static file to compare")
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    if args.players < 4 or args.players % 4:
        parser.error("--players takes a multiple of 4 (tables of four)")

    use_database(f"wiezen_read_{os.getpid()}")
    os.chdir(lb.ROOT)
    signal.signal(signal.SIGTERM, lb._on_signal)
    signal.signal(signal.SIGINT, lb._on_signal)
    try:
        print(f"database {lb.DB_NAME}, Redis {lb.REDIS_URL} (flushed)")
        lb.flush_redis()
        lb.create_database()
        import django

        django.setup()
        t0 = time.perf_counter()
        lb.migrate()
        slug = build_season(args.players, args.evenings, args.seed)
        from django.db import connections

        connections.close_all()
        print(
            f"season of {args.players} players, {args.evenings} evenings, standings computed in "
            f"{time.perf_counter() - t0:.1f} s"
        )

        lb.TEARDOWN.logs = tempfile.TemporaryDirectory(prefix="wiezen-read-")
        port = lb.free_port()
        t0 = time.perf_counter()
        start_gunicorn(args, port)
        wait_for_gunicorn(port, f"/c/{slug}/standings/")
        static, _ = get(port, args.static, {})
        if static.status != 200:
            raise RuntimeError(f"GET {args.static}: {static.status}")
        path = poll_path(port, slug)
        tag = get(port, path, HTMX)[0].getheader("ETag")
        if not tag:
            raise RuntimeError(f"GET {path} gave no ETag")
        print(f"gunicorn on 127.0.0.1:{port} answers ({time.perf_counter() - t0:.1f} s, static files collected)")

        cold = cold_renderings(port, path)
        warm = 1.0
        run = [
            ("(a) fragment, unconditional", path, HTMX),
            ("(b) fragment, If-None-Match", path, {**HTMX, "If-None-Match": tag}),
            ("(c) static file", args.static, BROWSER),
        ]
        each = args.seconds / args.rounds
        print(
            f"(a), (b), (c) in turn, {args.rounds} rounds of {warm:g} s of warm-up and {each:g} s counted each, "
            f"{args.connections} connections ..."
        )
        rounds = [
            [hammer(name, port, where, headers, args.connections, each, warm) for name, where, headers in run]
            for _ in range(args.rounds)
        ]
        rows = [merged([r[k] for r in rounds]) for k in range(len(run))]
        for r in rounds:
            print(
                "  round: "
                + ", ".join(f"{m.name[:3]} {m.rate:.0f}/s" for m in r)
                + f"; (a)/(c) {r[0].rate / r[2].rate:.2f}x, (b)/(c) {r[1].rate / r[2].rate:.2f}x"
            )
        for name, proc in lb.TEARDOWN.processes:
            if proc.poll() is not None:
                print(f"{name} exited with {proc.returncode}:\n{lb.log_tail(name)}")
        report(args, rows, cold)
        return 0
    finally:
        lb.TEARDOWN.run()


if __name__ == "__main__":
    sys.exit(main())
