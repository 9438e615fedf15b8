"""Mixed-evening benchmark (issue 16, "Benchmark", second bullet): tables entering while a thousand phones poll.

Self-contained: creates a scratch PostgreSQL database (``wiezen_evening_<pid>``) and uses Redis db 13
(``--redis-db``; flushed before and after), builds a league season of ``--tables`` x 4 players whose first
``--evenings`` - 1 evenings are played and checked (``bench/standings.py``'s generator; standings and statistics
stored) and whose last evening is in play (a published round of ``--tables`` tables, nothing entered yet), then
starts everything as README.md "Production" runs it: gunicorn ``config.wsgi --workers 3 --timeout 30
--access-logfile -`` (``bench/read.py``'s start: ``DEBUG=false``, static files collected, Redis as the shared
cache, behind a played TLS proxy), the second pool for the tables' entries (``--workers 2`` on a port of its own,
``--entry-workers``; the tables send their lines there, as README's proxy routes them; 0 runs one pool for
everything), a Celery worker for standings (``-Q celery``), one for ratings and statistics
(``-Q analytics --concurrency 1``) and ``beat``. Then, for ``--minutes`` (all clients asyncio coroutines with
aiohttp in this one process, each client its own connection pool of one, kept alive when the server allows it):

- **tables**: each of the ``--tables`` tables enters its next line every ``--entry-seconds`` (30), its first at a
  random moment of the first period, the way a table's device does: ``POST /api/v1/sheets/<id>/lines/`` with its
  table code (``X-Table-Code``), an ``Idempotency-Key`` per line (a dropped connection is retried with the same
  key, as bench/load.py does) and the ``X-Device`` token the first answer handed out;
- **phones**: ``--phones`` phones poll the standings fragment ``/c/<slug>/standings/`` every ``--poll-seconds``
  (5), each from a random moment of the first period, as the competition page's htmx does: ``HX-Request``, the
  ``rounds_seen``/``statistics_seen`` the page includes (taken from each answer's out-of-band inputs), and, as a
  browser's cache does for an address it holds, ``If-None-Match`` with that address's last ``ETag``. A tick
  while the last poll is still in flight is dropped, as htmx drops it. Languages: 6 in 10 phones ask for Dutch,
  3 French, 1 English (a validator per language);
- **displays**: ``--displays`` projector screens load ``/c/<slug>/display/`` and poll what it polls (its htmx
  ``hx-get`` elements with an ``every Ns`` trigger, and the clock its script fetches from ``data-clock-src``
  every ``data-poll-seconds``, both revalidating with ``If-None-Match``), reloading the page when a poll shows
  another view (seating between rounds, standings while one is played), as its script does; a page that polls
  nothing is reloaded every ``--display-seconds``. If the display page answers 404, the displays show the
  competition page ``/c/<slug>/`` instead (the page, then its standings poll), and the output says so.

A monitor thread reads the competition's ``entries_version`` and the stored standings' ``computed_version``
every 20 ms. When the tables are done, the phones poll on until the standings cover the last line. It prints,
against the issue's targets (p95 <= 100 ms for polls and entries, standings lag p95 <= 2 s, 0 errors, every line
stored once):

- polls and display requests: count, rate, p50/p95/p99 latency (from sending to the whole body read), statuses;
- entries: count, p50/p95/p99 latency, retries;
- **standings lag** of each entry answered 2xx: from that answer to the first moment a phone holds standings that
  include it. Precisely: the entry's version is the ``entries_version`` the monitor read first after the answer
  (the line was committed before it was answered, so this bounds its version from above); the standings cover it
  from the first monitor reading whose ``computed_version`` reached that version; the lag ends at the earliest
  answer (200 or 304) to a poll *sent* after that reading: such a poll reads the new standings (its validator and
  the cached rendering's key include ``computed_version``). Both bounds err towards a longer lag, by at most the
  monitor's 20 ms. Also shown: the part spent before the standings were stored (what bench/load.py calls the
  lag), and how long until *every* phone holds them (bounded below by the poll period, informative only);
- **stale 304s**: a 304 to a poll sent after standings covering an entry were stored, for a body received before
  that entry was answered (the validator failed to change; must be 0);
- errors (any status other than 2xx/304, any exception);
- every line stored once: per sheet, the stored lines (all versions) against the lines answered 2xx; none
  missing, none twice, none that was not sent, each as sent;
- CPU seconds of each process (the load generator, this process, shares the cores with the server: against a
  trivial server it costs about 1.4 ms of CPU per poll of a 135 KB gzipped body, some 0.3 core at 200 polls/s) and
  how late the generator sent its requests against their schedule (if it is late, it is the limit, not the server).

It tears everything down (gunicorn, workers, beat, database, Redis db), also on failure. It is a benchmark: it
exits 0 whether the targets are met or not (1 only if it could not measure).

    python bench/evening.py [--tables 100] [--phones 1000] [--displays 3] [--minutes 3] [--evenings 10]
    python bench/evening.py --tables 10 --phones 100 --minutes 0.5 --evenings 2     # a quick check
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import os
import random
import re
import secrets
import signal
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import load as lb  # scratch database, Redis db 13, servers' environment, teardown, monitor, CPU use
from bench import read as rb  # gunicorn as README "Production" runs it, with its static files
from bench.standings import generate  # a season's rounds, sheets, lines and seat results in bulk

TARGET_P95 = 0.100  # s, polls and entries
TARGET_LAG_P95 = 2.0  # s
LANGUAGES = ("nl",) * 6 + ("fr",) * 3 + ("en",)  # phone i asks for LANGUAGES[i % 10]
MONITOR_INTERVAL = 0.02  # s
TAG = re.compile(r"<[a-z]+\s[^>]*>")
INPUT = re.compile(rb"<input\s[^>]*>")  # on the body's bytes: a poll's 135 KB is not decoded to find two inputs
VIEW = re.compile(rb'data-display-view="([^"]*)"')
ATTRIBUTE = re.compile(r'([a-zA-Z_:][-a-zA-Z0-9_:.]*)="([^"]*)"')
EVERY = re.compile(r"every\s+(\d+(?:\.\d+)?)(ms|s)")


# --------------------------------------------------------------------------- data


def build_evening(tables: int, evenings: int, deals: int, seed: int) -> tuple[str, int, list[lb.Table]]:
    """A league season of ``tables`` x 4 players: ``evenings`` - 1 evenings played and checked (standings and
    statistics stored), the last one published and in play, nothing entered; each table's lines, seeded."""
    from games.generate import random_session
    from scoring.services import recompute_standings, recompute_statistics
    from tournaments.models import Round, ScoreSheet
    from tournaments.services.rounds import create_round, publish_round

    competition = generate(tables * 4, evenings - 1, seed)
    Round.objects.filter(competition=competition).update(status=Round.Status.FINALISED)
    ScoreSheet.objects.filter(table__round__competition=competition).update(state=ScoreSheet.State.FINAL)
    round_ = publish_round(create_round(competition, seed=seed, method="random"))
    recompute_standings(competition.pk, claim=False)
    recompute_statistics(competition.pk)
    sheets = list(ScoreSheet.objects.filter(table__round=round_).select_related("table").order_by("table__number"))
    if len(sheets) != tables or any(s.table.size != 4 for s in sheets):
        raise RuntimeError(f"expected {tables} tables of 4, got {[s.table.size for s in sheets]}")
    rules = competition.rule_set.engine_rules()
    rng = random.Random(seed)
    lines = [lb.Table(s.pk, s.captain_code, random_session(rules, rng, 4, deals)) for s in sheets]
    return str(competition.slug), competition.pk, lines


# --------------------------------------------------------------------------- servers


def start_servers(args: argparse.Namespace, port: int, entry_port: int) -> list[str]:
    """gunicorn (bench/read.py's start, README's flags), its pool for entries when ``--entry-workers``, then
    README's two workers and beat on the same settings."""
    lb.TEARDOWN.logs = tempfile.TemporaryDirectory(prefix="wiezen-evening-")
    logs = lb.TEARDOWN.logs.name
    rb.start_gunicorn(args, port)
    if args.entry_workers:
        rb.start_gunicorn(args, entry_port, name="gunicorn-entries", workers=args.entry_workers)
    env = lb.server_env(coalesce=args.coalesce)
    env["WIEZEN_VAR_DIR"] = str(Path(logs) / "var")  # where read.py collected the static files; beat's schedule
    celery = [str(Path(sys.executable).parent / "celery"), "-A", "config"]
    host = socket.gethostname()
    lb.start(
        "celery-standings", [*celery, "worker", "-Q", "celery", "-n", f"standings@{host}", "-l", "info"], env, logs
    )
    analytics = [*celery, "worker", "-Q", "analytics", "-n", f"analytics@{host}", "--concurrency", "1", "-l", "info"]
    lb.start("celery-analytics", analytics, env, logs)
    lb.start("celery-beat", [*celery, "beat", "-l", "info"], env, logs)
    return [f"standings@{host}", f"analytics@{host}"]


def wait_for_workers(workers: list[str], timeout: float = 90) -> None:
    from celery import Celery

    control = Celery(broker=lb.REDIS_URL)
    pinged: set[str] = set()
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            for name, proc in lb.TEARDOWN.processes:
                if proc.poll() is not None:
                    raise RuntimeError(f"{name} exited with {proc.returncode}:\n{lb.log_tail(name)}")
            for reply in control.control.ping(destination=workers, timeout=0.5) or []:
                pinged.update(reply)
            if pinged >= set(workers):
                return
            time.sleep(0.2)
    finally:
        control.close()
    raise RuntimeError(f"workers not answering after {timeout:.0f} s: {sorted(pinged)} of {workers}")


# --------------------------------------------------------------------------- what the pages poll


@dataclass
class Poller:
    """What a page asks again and again: ``path`` every ``period`` s; as htmx (``HX-Request``, with the inputs
    ``hx-include`` names by id, taken from each answer that carries them) or as a plain request."""

    path: str
    period: float
    htmx: bool
    include: frozenset[str] = frozenset()  # ids of the inputs it sends
    seen: dict[str, str] = field(default_factory=dict)
    target: str = ""
    page: str = ""  # the page that polls (htmx's HX-Current-URL)


def tags(html: str, pattern: re.Pattern[str] = TAG) -> list[dict[str, str]]:
    return [dict(ATTRIBUTE.findall(tag)) for tag in pattern.findall(html)]


def inputs(body: bytes, ids: frozenset[str]) -> dict[str, str]:
    """The name and value of each input of these ids, as htmx's ``hx-include`` sends them."""
    found = (dict(ATTRIBUTE.findall(tag.decode(errors="replace"))) for tag in INPUT.findall(body))
    return {a["name"]: a.get("value", "") for a in found if a.get("id") in ids and "name" in a}


def polled(html: str, page: str = "") -> list[Poller]:
    """A page's polls: each htmx element with ``hx-get`` and an ``every Ns`` trigger, and each element whose script
    fetches ``data-clock-src`` every ``data-poll-seconds`` (the display's clock)."""
    found = []
    for a in tags(html):
        every = EVERY.search(a.get("hx-trigger", ""))
        if "hx-get" in a and every:
            period = float(every.group(1)) / (1000 if every.group(2) == "ms" else 1)
            ids = frozenset(x.strip().removeprefix("#") for x in a.get("hx-include", "").split(",") if x.strip())
            path = a["hx-get"].replace("&amp;", "&")
            found.append(Poller(path, period, True, ids, inputs(html.encode(), ids), a.get("id", ""), page))
        if "data-clock-src" in a:
            found.append(Poller(a["data-clock-src"], float(a.get("data-poll-seconds") or 5), False))
    return found


def page(port: int, path: str) -> tuple[int, str]:
    response, body = rb.get(port, path, {"Accept": "text/html", "Accept-Language": "nl"})
    return response.status, body.decode(errors="replace")


def phone_poller(port: int, slug: str, period: float) -> Poller:
    """The competition page's standings poll, as a phone that just opened the page has it."""
    status, html = page(port, f"/c/{slug}/")
    if status != 200:
        raise RuntimeError(f"GET /c/{slug}/: {status}")
    for poller in polled(html, f"/c/{slug}/"):
        if poller.path.split("?")[0] == f"/c/{slug}/standings/":
            poller.period = period
            return poller
    raise RuntimeError(f"/c/{slug}/ does not poll its standings (is the competition live?)")


def display_page(port: int, slug: str) -> tuple[str, str]:
    """The page a display shows, and what it does: ``/c/<slug>/display/``; the competition page if that is 404."""
    status, html = page(port, f"/c/{slug}/display/")
    if status == 404:
        note = f"/c/{slug}/display/ answered 404: displays show /c/{slug}/ instead (the page, then what it polls)"
        return f"/c/{slug}/", note
    if status != 200:
        raise RuntimeError(f"GET /c/{slug}/display/: {status}")
    described = ", ".join(f"{p.path.split('?')[0]} every {p.period:g} s" for p in polled(html)) or "nothing"
    return f"/c/{slug}/display/", (
        f"displays load /c/{slug}/display/ and poll what it polls (now: {described}), reloading it when its view "
        "changes (seating <-> standings), as its script does"
    )


# --------------------------------------------------------------------------- load


@dataclass(slots=True)
class Poll:
    who: str  # "phone" or "display"
    client: int
    sent: float
    answered: float
    status: str  # the HTTP status, or the exception's name
    origin: float | None  # when the body held (its If-None-Match) was answered; None: unconditional
    size: int  # bytes as sent (Content-Length; compressed if the server compressed)
    late: float  # how much later than scheduled the generator sent it


@dataclass(slots=True)
class Line:
    sheet_id: int
    deal: int
    status: int  # 0: no answer
    sent: float
    answered: float
    attempts: int
    late: float
    error: str = ""

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


@dataclass
class Run:
    t0: float
    stop: float  # polls stop being scheduled at this moment: set once the standings cover the last line
    polls: list[Poll] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    dropped: Counter[str] = field(default_factory=Counter)  # ticks dropped: the last poll still in flight
    paths: Counter[str] = field(default_factory=Counter)  # what the displays asked for
    encodings: Counter[str] = field(default_factory=Counter)  # of the 200s: gzip, identity, ...
    tags: set[str] = field(default_factory=set)  # the phones' distinct validators: at least as many renderings


def client(timeout: float = 30) -> Any:
    """One browser or device: one connection, kept alive while the server allows it; no shared cookies."""
    import aiohttp

    return aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=1, force_close=False),
        timeout=aiohttp.ClientTimeout(total=timeout),
        cookie_jar=aiohttp.DummyCookieJar(),
    )


async def fetch(
    run: Run, who: str, n: int, session: Any, url: str, headers: dict[str, str], held: Any, due: float
) -> tuple[str, str | None, bytes, float]:
    """One GET, recorded: its status (or exception), ETag, body and when it was answered."""
    import aiohttp

    sent = time.perf_counter()
    try:
        async with session.get(url, headers=headers, allow_redirects=False) as response:
            body = await response.read()
            status, tag = str(response.status), response.headers.get("ETag")
            size = len(body) if response.content_length is None else response.content_length  # as sent
            run.encodings[response.headers.get("Content-Encoding", "identity")] += status == "200"
            if status == "200" and who == "phone" and tag:
                run.tags.add(tag)
    except (aiohttp.ClientError, TimeoutError, OSError) as exc:
        status, tag, body, size = type(exc).__name__, None, b"", 0
    answered = time.perf_counter()
    run.polls.append(Poll(who, n, sent, answered, status, held[1] if held else None, size, sent - due))
    return status, tag, body, answered


async def poll(
    run: Run,
    who: str,
    n: int,
    session: Any,
    base: str,
    poller: Poller,
    offset: float,
    language: str,
    view: tuple[str, asyncio.Event] | None = None,
) -> None:
    """``poller.path`` on its period from ``offset``, revalidating what the browser's cache holds for the address
    (``If-None-Match``); until the run stops, or (``view``) an answer shows another view than the page's."""
    headers = {**lb.PROXY, "Accept-Language": language, "Accept-Encoding": "gzip, deflate", "Accept": "*/*"}
    if poller.htmx:
        headers |= {"HX-Request": "true", "HX-Current-URL": f"https://127.0.0.1{poller.page or poller.path}"}
        if poller.target:
            headers |= {"HX-Target": poller.target, "HX-Trigger": poller.target}
    seen = dict(poller.seen)
    cache: dict[str, tuple[str, float, dict[str, str]]] = {}  # address -> ETag, when answered, inputs it carried
    k = 0
    while (due := offset + k * poller.period) < run.stop and not (view and view[1].is_set()):
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        sep = "&" if "?" in poller.path else "?"
        address = poller.path + (sep + urlencode(seen) if seen else "")
        held = cache.get(address)
        sent_headers = {**headers, "If-None-Match": held[0]} if held else headers
        status, tag, body, answered = await fetch(run, who, n, session, base + address, sent_headers, held, due)
        if who == "display":
            run.paths[poller.path.split("?")[0]] += 1
        if status == "200":
            carried = inputs(body, poller.include) if poller.include else {}
            if tag:
                cache[address] = (tag, answered, carried)
            seen |= carried
            shown = VIEW.search(body) if view else None
            if view and shown and shown.group(1).decode() != view[0]:
                view[1].set()  # the display's script reloads the page
        elif status == "304" and held:
            seen |= held[2]  # the browser hands htmx the body it holds, out-of-band inputs and all
        k += 1
        while offset + k * poller.period < time.perf_counter():  # a tick while the poll is in flight is dropped
            k += 1
            run.dropped[who] += 1


async def phone(run: Run, n: int, base: str, poller: Poller, offset: float, language: str) -> None:
    async with client() as session:
        await poll(run, "phone", n, session, base, poller, offset, language)


async def display(run: Run, n: int, base: str, path: str, reload: float, offset: float) -> None:
    """A venue's screen: loads ``path`` and polls what the page polls until its view changes, then reloads it;
    a page that polls nothing is reloaded every ``reload`` s (``If-None-Match``, as a browser revalidates)."""
    page_poller = Poller(path, reload, False)
    async with client() as session:
        await asyncio.sleep(max(0.0, offset - time.perf_counter()))
        while time.perf_counter() < run.stop:
            due = time.perf_counter()
            status, _, body, loaded = await fetch(run, "display", n, session, base + path, {**lb.PROXY}, None, due)
            run.paths[path] += 1
            html = body.decode(errors="replace")
            pollers = polled(html, path) if status == "200" else []
            if not pollers:
                await poll(run, "display", n, session, base, page_poller, loaded + reload, "nl")
                return
            shown = VIEW.search(body)
            changed = asyncio.Event()
            view = (shown.group(1).decode(), changed) if shown else None
            await asyncio.gather(*(poll(run, "display", n, session, base, p, loaded, "nl", view) for p in pollers))
            if not changed.is_set():
                return  # the run is over; else the page is reloaded, as its script does


async def table(run: Run, base: str, t: lb.Table, period: float, offset: float, stop: float, key: str) -> None:
    """One table's device: its next line every ``period`` s, with its table code, retried safely with its key."""
    import aiohttp

    device = ""
    async with client() as session:
        for k, line in enumerate(t.lines):
            due = run.t0 + offset + k * period
            if due >= stop:
                break
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            body = json.dumps(line).encode()
            headers = {
                **lb.PROXY,
                "Content-Type": "application/json",
                "Accept": "application/json",
                "X-Table-Code": t.code,
                "Idempotency-Key": f"{key}-{t.sheet_id}-{line['deal']}",
            }
            if device:
                headers["X-Device"] = device
            sent = time.perf_counter()
            status, error, attempts = 0, "", 0
            while attempts < 5:
                attempts += 1
                try:
                    url = f"{base}/api/v1/sheets/{t.sheet_id}/lines/"
                    async with session.post(url, data=body, headers=headers, allow_redirects=False) as response:
                        payload = await response.read()
                        status, error = response.status, ""
                        device = response.headers.get("X-Device") or device
                except (aiohttp.ClientError, TimeoutError, OSError) as exc:  # a dropped connection: the key makes
                    status, error = 0, type(exc).__name__  # a retry safe
                    continue
                if status == 409 and b"idempotency_conflict" in payload:
                    await asyncio.sleep(0.05)  # the first attempt is still being processed: ask again
                    continue
                if status >= 300:
                    error = payload[:300].decode(errors="replace")
                break
            run.lines.append(
                Line(t.sheet_id, line["deal"], status, sent, time.perf_counter(), attempts, sent - due, error)
            )


async def evening(
    args: argparse.Namespace,
    port: int,
    entry_port: int,
    tables: list[lb.Table],
    poller: Poller,
    display_path: str,
    monitor: lb.Monitor,
) -> Run:
    """Everyone at once for ``--minutes``; then the phones poll on until the standings cover the last line."""
    base = f"http://127.0.0.1:{port}"
    entry_base = f"http://127.0.0.1:{entry_port}"  # the proxy's route for the tables' lines
    rng = random.Random(args.seed)
    window = args.minutes * 60
    run = Run(t0=time.perf_counter() + 1.0, stop=float("inf"))  # readers go on until the last line is shown
    key = secrets.token_hex(4)
    writers = [
        table(run, entry_base, t, args.entry_seconds, rng.uniform(0, args.entry_seconds), run.t0 + window, key)
        for t in tables
    ]
    readers = [
        phone(run, i, base, poller, run.t0 + rng.uniform(0, poller.period), LANGUAGES[i % len(LANGUAGES)])
        for i in range(args.phones)
    ]
    readers += [
        display(run, i, base, display_path, args.display_seconds, run.t0 + rng.uniform(0, args.display_seconds))
        for i in range(args.displays)
    ]
    reading = [asyncio.ensure_future(r) for r in readers]
    await asyncio.gather(*writers)
    deadline = time.perf_counter() + 30
    while time.perf_counter() < deadline:  # the phones go on until a poll can show the last line
        if monitor.entries and monitor.computed[-1] >= monitor.entries[-1]:
            break
        await asyncio.sleep(0.05)
    else:
        print("the standings did not cover the last line within 30 s after it")
    run.stop = time.perf_counter() + poller.period + 0.5  # a tick for every phone after it
    await asyncio.gather(*reading)
    return run


# --------------------------------------------------------------------------- measures


@dataclass
class Lags:
    seen: list[float]  # answer -> the first phone's answer holding standings that include it
    stored: list[float]  # answer -> standings stored (the monitor's reading)
    everyone: list[float]  # answer -> every phone holds them
    never: int  # entries no poll was seen to cover


def lags(run: Run, monitor: lb.Monitor) -> tuple[Lags, list[tuple[float, float]]]:
    """Each 2xx entry's lags (see the module's docstring), and each entry's (answered, covered) moments."""
    times, entries, computed = monitor.times, monitor.entries, monitor.computed
    answers = sorted(
        (p.sent, p.answered, p.client) for p in run.polls if p.who == "phone" and p.status in ("200", "304")
    )
    sent = [a[0] for a in answers]
    first = [0.0] * (len(answers) + 1)  # first[i]: earliest answer among polls sent at sent[i] or later
    first[-1] = float("inf")
    for i in range(len(answers) - 1, -1, -1):
        first[i] = min(answers[i][1], first[i + 1])
    by_phone: dict[int, list[tuple[float, float]]] = {}
    for s, a, n in answers:
        by_phone.setdefault(n, []).append((s, a))
    out = Lags([], [], [], 0)
    covered: list[tuple[float, float]] = []
    for line in (x for x in run.lines if x.ok):
        i = bisect.bisect_left(times, line.answered)
        if i >= len(times):
            out.never += 1
            continue
        j = max(i, bisect.bisect_left(computed, entries[i]))
        if j >= len(times):
            out.never += 1
            continue
        stored_at = times[j]
        covered.append((line.answered, stored_at))
        out.stored.append(stored_at - line.answered)
        k = bisect.bisect_left(sent, stored_at)
        if first[k] == float("inf"):
            out.never += 1
            continue
        out.seen.append(first[k] - line.answered)
        last = 0.0
        for polls in by_phone.values():
            m = bisect.bisect_left(polls, (stored_at, 0.0))
            if m >= len(polls):
                last = float("inf")
                break
            last = max(last, polls[m][1])
        if last != float("inf"):
            out.everyone.append(last - line.answered)
    return out, covered


def stale_304s(run: Run, covered: list[tuple[float, float]]) -> int:
    """304s that told a phone its body was current although standings covering a later entry were stored before
    it asked: the body was answered before that entry, the poll sent after the standings covering it."""
    ordered = sorted(covered, key=lambda c: c[1])
    stored = [c[1] for c in ordered]
    latest: list[float] = []  # latest[i]: the latest entry answer among the first i + 1 covered
    for answered, _ in ordered:
        latest.append(max(answered, latest[-1] if latest else 0.0))
    stale = 0
    for p in run.polls:
        if p.who == "phone" and p.status == "304" and p.origin is not None:
            i = bisect.bisect_left(stored, p.sent)
            stale += i > 0 and latest[i - 1] > p.origin
    return stale


def check_lines(tables: list[lb.Table], run: Run) -> tuple[bool, str]:
    """Every line answered 2xx stored once, as sent; nothing stored that was not sent; per sheet."""
    from tournaments.models import DealEntry

    sent = {(t.sheet_id, line["deal"]): line for t in tables for line in t.lines}
    answered = Counter((x.sheet_id, x.deal) for x in run.lines if x.ok)
    tried = {(x.sheet_id, x.deal) for x in run.lines}
    rows = DealEntry.objects.filter(sheet_id__in=[t.sheet_id for t in tables])
    stored = Counter(rows.values_list("sheet_id", "deal_number"))
    current = dict(
        ((s, d), line) for s, d, line in rows.filter(is_current=True).values_list("sheet_id", "deal_number", "line")
    )
    missing = [k for k in answered if k not in stored]
    twice = [k for k, n in stored.items() if n > 1]
    unsent = [k for k in stored if k not in tried]
    differ = [k for k in stored if k in sent and current.get(k) != sent[k]]
    unanswered = [k for k in tried if k not in answered and k in stored]  # an error, yet stored: said, not wrong
    sheets_ok = sum(
        1
        for t in tables
        if sum(stored[(t.sheet_id, line["deal"])] for line in t.lines)
        == sum(answered[(t.sheet_id, line["deal"])] for line in t.lines)
    )
    ok = not (missing or twice or unsent or differ) and sheets_ok == len(tables)
    detail = (
        f"{sheets_ok}/{len(tables)} sheets hold as many lines as were answered; {sum(stored.values())} stored for "
        f"{sum(answered.values())} answered 2xx: {len(missing)} missing, {len(twice)} twice, {len(unsent)} never "
        f"sent, {len(differ)} not as sent"
        + (f"; {len(unanswered)} stored although their request failed" if unanswered else "")
    )
    return ok, detail


# --------------------------------------------------------------------------- report


def describe(values: list[float], *ps: float) -> list[float]:
    return [lb.pct(values, p) for p in ps] if values else [float("nan")] * len(ps)


def windows(run: Run, monitor: lb.Monitor, width: float) -> list[tuple[float, list[float], list[float], int]]:
    """Latencies by when the request was sent, ``width`` seconds at a time: where in the run the slow ones were."""
    polls: dict[int, list[float]] = {}
    entries: dict[int, list[float]] = {}
    for p in run.polls:
        if p.who == "phone" and p.status in ("200", "304"):
            polls.setdefault(int((p.sent - run.t0) // width), []).append(p.answered - p.sent)
    for x in run.lines:
        if x.ok:
            entries.setdefault(int((x.sent - run.t0) // width), []).append(x.answered - x.sent)
    stored: dict[int, set[int]] = {}
    for at, version in zip(monitor.times, monitor.computed, strict=True):
        stored.setdefault(int((at - run.t0) // width), set()).add(version)
    keys = sorted(set(polls) | set(entries))
    return [
        (k * width, polls.get(k, []) or [0.0], entries.get(k, []) or [0.0], len(stored.get(k, set()))) for k in keys
    ]


def report(
    args: argparse.Namespace,
    run: Run,
    monitor: lb.Monitor,
    cpu: lb.CpuUse,
    lines_ok: tuple[bool, str],
    display_note: str,
    poller: Poller,
) -> None:
    measured, covered = lags(run, monitor)
    stale = stale_304s(run, covered)
    end = max([p.answered for p in run.polls] + [x.answered for x in run.lines] + [run.t0])
    duration = end - run.t0
    phones = [p for p in run.polls if p.who == "phone"]
    displays = [p for p in run.polls if p.who == "display"]
    entries = run.lines
    ok_entries = [x for x in entries if x.ok]

    def statuses(polls: list[Poll]) -> Counter[str]:
        return Counter(p.status for p in polls)

    def bad(status: str) -> bool:
        return not (status.isdigit() and (200 <= int(status) < 300 or status == "304"))

    poll_errors = Counter(p.status for p in run.polls if bad(p.status))
    entry_errors = Counter(str(x.status) if x.status else x.error for x in entries if not x.ok)
    errors = sum(poll_errors.values()) + sum(entry_errors.values())

    print()
    print(f"{'metric':<44} {'measured':>34}   {'target':<14} result")
    print("-" * 104)

    def row(name: str, value: str, target: str = "", good: bool | None = None) -> None:
        verdict = "" if good is None else ("met" if good else "NOT met")
        print(f"{name:<44} {value:>34}   {target:<14} {verdict}")

    def ms3(values: list[float]) -> str:
        return " / ".join(f"{v * 1000:.0f}" for v in describe(values, 50, 95, 99)) + " ms"

    def counted(c: Counter[str]) -> str:
        return ", ".join(f"{k} x{n}" for k, n in sorted(c.items()))

    latency = [p.answered - p.sent for p in phones if not bad(p.status)]
    row("phone polls: count, rate", f"{len(phones)}, {len(phones) / duration:.0f}/s")
    row(
        "phone polls: p50 / p95 / p99",
        ms3(latency),
        f"p95 <= {TARGET_P95 * 1000:.0f} ms",
        describe(latency, 95)[0] <= TARGET_P95,
    )
    row("phone polls: statuses", counted(statuses(phones)))
    bodies = [p.size for p in phones if p.status == "200"]
    if bodies:
        row("phone polls: a 200's body as sent (median)", f"{statistics.median(bodies) / 1000:.1f} KB")
        print(f"    encodings of all 200s: {counted(run.encodings)}")
        print(f"    distinct validators the phones got (each rendered at least once): {len(run.tags)}")
    shown = [p.answered - p.sent for p in displays if not bad(p.status)]
    row("display requests: count", str(len(displays)))
    row("display requests: p50 / p95 / p99", ms3(shown))
    row("display requests: statuses", counted(statuses(displays)))
    print(f"    by address: {counted(run.paths)}")
    entry_latency = [x.answered - x.sent for x in ok_entries]
    row("entries: count (answered 2xx / sent)", f"{len(ok_entries)} / {len(entries)}")
    good = describe(entry_latency, 95)[0] <= TARGET_P95
    row("entries: p50 / p95 / p99", ms3(entry_latency), f"p95 <= {TARGET_P95 * 1000:.0f} ms", good)
    row("entries: statuses", counted(Counter(str(x.status) for x in entries)))
    retried = sum(1 for x in entries if x.attempts > 1)
    if retried:
        row("entries: retried (dropped connection, busy key)", str(retried))
    lag = describe(measured.seen, 50, 95)
    good = lag[1] <= TARGET_LAG_P95 and not measured.never
    never = f" ({measured.never} never seen)" if measured.never else ""
    row(
        "standings lag (to a phone): p50 / p95",
        f"{lag[0]:.2f} / {lag[1]:.2f} s{never}",
        f"p95 <= {TARGET_LAG_P95:g} s",
        good,
    )
    stored = describe(measured.stored, 50, 95)
    row("  of which until stored: p50 / p95", f"{stored[0]:.2f} / {stored[1]:.2f} s")
    everyone = describe(measured.everyone, 50, 95)
    row(f"  until every phone has it (poll {poller.period:g} s)", f"{everyone[0]:.2f} / {everyone[1]:.2f} s")
    computations = len(set(monitor.computed)) - (1 if monitor.computed and monitor.computed[0] == 0 else 0)
    row("  standings versions stored during the run", str(computations))
    row("stale 304s (validator unchanged after entry)", str(stale), "0", stale == 0)
    detail = f" ({counted(poll_errors + entry_errors)})" if errors else ""
    row("errors (not 2xx/304, exceptions)", f"{errors}{detail}", "0", errors == 0)
    row("every line stored once", "yes" if lines_ok[0] else "NO", "yes", lines_ok[0])
    print(f"    {lines_ok[1]}")
    print("-" * 104)
    print("over time (by when sent, 10 s windows): phone polls count and p95, entries count and p95, versions stored")
    for start, polls_in, entries_in, versions in windows(run, monitor, 10.0):
        print(
            f"    {start:5.0f} s  polls {len(polls_in):5d} p95 {describe(polls_in, 95)[0] * 1000:7.0f} ms   "
            f"entries {len(entries_in):4d} p95 {describe(entries_in, 95)[0] * 1000:7.0f} ms   versions {versions}"
        )
    late = [p.late for p in run.polls] + [x.late for x in entries]
    print(
        f"load generator: requests sent late against their schedule p50 / p99 / max "
        f"{' / '.join(f'{v * 1000:.0f}' for v in describe(late, 50, 99, 100))} ms; "
        f"ticks dropped while a poll was in flight: {counted(run.dropped) or 0}"
    )
    print(
        f"config: {args.tables} tables ({args.tables * 4} players) x {args.deals} deals, evening {args.evenings} of a "
        f"league season; a line per table every {args.entry_seconds:g} s for {args.minutes:g} min; "
        f"{args.phones} phones every {poller.period:g} s ({args.phones / poller.period:.0f} polls/s offered); "
        f"{args.displays} displays"
    )
    print(f"phones poll GET {poller.path}?{'&'.join(poller.seen)}=... with HX-Request, If-None-Match; {display_note}")
    print(
        f"gunicorn --workers {args.workers}"
        + (f" --threads {args.threads} (gthread)" if args.threads > 1 else " (sync)")
        + (f", entries' pool --workers {args.entry_workers}" if args.entry_workers else ", one pool")
        + f" --timeout 30; celery worker -Q celery (standings) and -Q analytics --concurrency 1; beat; "
        f"STANDINGS_COALESCE_SECONDS={args.coalesce}; DEBUG=false, PostgreSQL, Redis cache; {os.cpu_count()} cores"
    )
    capacity = cpu.used.pop("_capacity", 0.0)
    print(f"CPU seconds during the run ({cpu.seconds:.0f} s, {capacity:.0f} CPU-s on {os.cpu_count()} cores):")
    ours = sum(v for k, v in cpu.used.items() if not k.startswith("machine"))
    others = cpu.used.get("machine, all processes", 0.0) - ours
    parts = [
        f"{k} {v:.1f} ({v / cpu.seconds:.0%} of a core)" for k, v in cpu.used.items() if not k.startswith("machine")
    ]
    print("  " + ", ".join(parts))
    print(
        f"  this benchmark {ours:.1f}; other processes on the machine {others:.1f}; load average (1 min) "
        f"{args.load[0]:.1f} before the run, {args.load[1]:.1f} after, on {os.cpu_count()} cores"
    )
    served = len(run.polls) + sum(x.attempts for x in entries)
    if served:
        web = cpu.used.get("gunicorn", 0.0) + cpu.used.get("gunicorn-entries", 0.0)
        print(f"  gunicorn per request (both pools): {web * 1000 / served:.2f} ms CPU")
    for x in [x for x in entries if not x.ok][:3]:
        print(f"  e.g. sheet {x.sheet_id} deal {x.deal}: {x.status or ''} {x.error}")


# --------------------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100, help="tables of four in play (players: 4x)")
    parser.add_argument("--evenings", type=int, default=10, help="the evening in play is the last of these")
    parser.add_argument("--deals", type=int, default=24, choices=(16, 24))
    parser.add_argument("--phones", type=int, default=1000)
    parser.add_argument("--poll-seconds", type=float, default=5.0, help="the phones' poll period")
    parser.add_argument("--displays", type=int, default=3)
    parser.add_argument("--display-seconds", type=float, default=5.0, help="a display's reload, if it polls nothing")
    parser.add_argument("--entry-seconds", type=float, default=30.0, help="a table's time between two lines")
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn worker processes (README: 3)")
    parser.add_argument(
        "--entry-workers", type=int, default=2, help="workers of the pool for entries, 0: none (README: 2)"
    )
    parser.add_argument("--threads", type=int, default=1, help="threads per worker; over 1: gthread (README: 1)")
    parser.add_argument("--coalesce", type=int, default=1, help="STANDINGS_COALESCE_SECONDS (the default: 1)")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--redis-db", type=int, default=13, help="flushed before and after (13: the benchmarks')")
    args = parser.parse_args()
    if args.tables < 1 or args.evenings < 1 or args.minutes <= 0:
        parser.error("--tables, --evenings and --minutes must be positive")

    rb.use_database(f"wiezen_evening_{os.getpid()}")
    lb.REDIS_URL = f"redis://127.0.0.1:6379/{args.redis_db}"  # the servers' broker and cache, and the teardown's
    os.chdir(lb.ROOT)  # Celery's Django fix-up puts the working directory first on sys.path: make it this tree
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
        slug, competition_id, tables = build_evening(args.tables, args.evenings, args.deals, args.seed)
        from django.db import connections

        connections.close_all()
        print(
            f"season of {args.tables * 4} players: {args.evenings - 1} evenings played, evening {args.evenings} "
            f"published ({args.tables} tables) in {time.perf_counter() - t0:.1f} s"
        )

        port = lb.free_port()
        entry_port = port
        while args.entry_workers and entry_port == port:
            entry_port = lb.free_port()
        t0 = time.perf_counter()
        workers = start_servers(args, port, entry_port)
        rb.wait_for_gunicorn(port, f"/c/{slug}/standings/")
        if entry_port != port:
            rb.wait_for_gunicorn(entry_port, f"/c/{slug}/standings/")
        wait_for_workers(workers)
        standings = phone_poller(port, slug, args.poll_seconds)
        display_path, display_note = display_page(port, slug)
        print(
            f"gunicorn on 127.0.0.1:{port}, celery {', '.join(workers)} and beat up ({time.perf_counter() - t0:.1f} s)"
        )
        print(display_note)

        monitor = lb.Monitor(competition_id, interval=MONITOR_INTERVAL)
        lb.TEARDOWN.stop.append(monitor.stop)
        watcher = threading.Thread(target=monitor.run, daemon=True)
        watcher.start()
        print(
            f"{args.tables} tables entering a line every {args.entry_seconds:g} s, {args.phones} phones polling every "
            f"{standings.period:g} s, {args.displays} displays, for {args.minutes:g} min ..."
        )
        load_before = os.getloadavg()[0]
        cpu = lb.CpuUse()
        cpu.start()
        run = asyncio.run(evening(args, port, entry_port, tables, standings, display_path, monitor))
        cpu.stop()
        args.load = (load_before, os.getloadavg()[0])
        monitor.stop.set()
        watcher.join()
        for name, proc in lb.TEARDOWN.processes:
            if proc.poll() is not None:
                print(f"{name} exited with {proc.returncode}:\n{lb.log_tail(name)}")
        report(args, run, monitor, cpu, check_lines(tables, run), display_note, standings)
        return 0
    except Exception as exc:  # it could not measure: say why, and tear down
        import traceback

        traceback.print_exc()
        print(f"could not measure: {exc}", file=sys.stderr)
        return 1
    finally:
        lb.TEARDOWN.run()


if __name__ == "__main__":
    sys.exit(main())
