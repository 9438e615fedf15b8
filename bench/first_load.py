"""First load of the entry page on a phone, with the offline service worker (issue 18): what it costs, and when.

Self-contained: a scratch PostgreSQL database (``wiezen_first_load_<pid>``) and Redis db 13 (flushed before and
after), one seated competition (``tests/factories.py``'s ``seated_competition``) whose table 1 has ``--stored``
deals on its sheet, then gunicorn as README "Production" runs it (``bench/read.py``'s start: ``config.wsgi
--workers 3``, ``DEBUG=false``, static files collected and served by whitenoise). There is no TLS proxy: Chromium
talks plain HTTP to 127.0.0.1 (a secure context, so the worker registers), with ``SECURE_SSL_REDIRECT`` and
``SECURE_COOKIES`` off. Debian's Chromium (Playwright), a phone: 390x844, mobile, touch, 2x pixels; network through
CDP ``Network.emulateNetworkConditions`` (default 9 Mbit/s down, 3 Mbit/s up, 40 ms latency: a café's Wi-Fi or fast
4G) and the main thread ``Emulation.setCPUThrottlingRate`` 4x (a mid-range phone). A page's CDP session does not
cover its service worker's own requests, so a second DevTools client (``--remote-debugging-port``) attaches to each
worker as it starts, paused, applies the same network conditions, then lets it run, and counts its bytes.

1. First visit (fresh context, no worker): ``?code=`` (redirect, the code kept in the session), time to
   DOMContentLoaded and load (Navigation Timing, from the redirect's start), bytes over the network for the page
   (CDP ``Network.loadingFinished`` encodedDataLength, headers included) apart from the bytes the worker fetches in
   the background, and the time until the worker has kept the engine (``caches.match`` of pyodide.asm.wasm).
2. Later visit: a new tab in the same context (worker active, engine cached): the same figures.
3. Engine start on that later visit: ``await window.wiezenEngine()`` (from the worker's cache), then a first and
   a second ``.settle(<the sheet's stored lines>)``; CPU 4x, and 1x in another tab for reference.
4. The online keystroke preview (htmx POST ``entry/preview/``, 250 ms after the last input): ``--lines`` lines typed
   by keyboard as tests/browser/test_entry_flow.py does, each on a freshly loaded page; the time from the keydown of
   the last character (the tricks) to ``#preview``'s text changing, with the worker controlling the page against a
   context with service workers blocked, the two in turn. Both include the 250 ms delay.

Also the engine's files: on disk, gzip -9, and as whitenoise serves them (``Content-Encoding`` for a browser's
``Accept-Encoding``). It cleans up (gunicorn, database, Redis db) also on failure; exit 1 only if it could not measure.

    .venv/bin/python bench/first_load.py [--down 9] [--up 3] [--latency 40] [--cpu 4] [--lines 20]
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import math
import os
import signal
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import load as lb  # scratch database, Redis db 13, teardown
from bench import read as rb  # gunicorn as README "Production" runs it, with its static files

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
WASM = "/static/pyodide/pyodide.asm.wasm"
ACCEPT = {"Accept-Encoding": "gzip, deflate, br, zstd"}  # as Chromium asks
# In every page: the keydown of the last character typed (once armed), htmx requests in flight, when #preview's
# text changed.
PROBE = """window.__b = {armed: false, key: 0, seen: 0, before: "", busy: 0, quiet: 0};
addEventListener("keydown", () => { if (__b.armed) __b.key = performance.now(); }, true);
addEventListener("input", () => { __b.quiet = performance.now(); }, true);
addEventListener("htmx:beforeRequest", () => { __b.busy++; __b.quiet = performance.now(); });
addEventListener("htmx:afterRequest", () => { __b.busy--; __b.quiet = performance.now(); });
new MutationObserver(() => {
  const p = document.getElementById("preview");
  if (__b.armed && !__b.seen && p && p.textContent !== __b.before) __b.seen = performance.now();
}).observe(document, {childList: true, subtree: true, characterData: true});"""
QUIET = "() => __b.busy === 0 && performance.now() - __b.quiet > 600"
ARM = '() => { __b.before = document.getElementById("preview").textContent; __b.seen = 0; __b.armed = true; }'
ENGINE = """async () => {
  const lines = JSON.parse(document.getElementById("engine-spec").textContent).lines;
  const t0 = performance.now();
  let engine;
  try { engine = await window.wiezenEngine(); } catch (e) { return {error: String(e), after: performance.now() - t0}; }
  const t1 = performance.now(); const first = engine.settle(lines); const t2 = performance.now(); engine.settle(lines);
  return {start: t1 - t0, first: t2 - t1, second: performance.now() - t2, lines: lines.length, settled: first.length};
}"""
# engine.js gives up on a start after 20 s (GIVE_UP_MS); stretched, to time a start that takes longer
STRETCH = "const _st = setTimeout; window.setTimeout = (f, ms, ...a) => _st(f, ms === 20000 ? 6e5 : ms, ...a);"


class WorkerTap:
    """A second DevTools client: attached to every service worker as it starts (paused until then), it throttles
    the worker's own requests as the page's are, and records them: (time, browser context, url, bytes, encoding)."""

    def __init__(self, port: int, conditions: dict[str, Any]) -> None:
        self.port, self.conditions, self.records = port, conditions, []
        self.loop = asyncio.new_event_loop()
        self.ids, self.calls, self.pending, self.contexts = 0, {}, {}, {}
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        asyncio.run_coroutine_threadsafe(self.connect(), self.loop).result(timeout=30)

    async def connect(self) -> None:
        import aiohttp

        self.http = aiohttp.ClientSession()
        async with self.http.get(f"http://127.0.0.1:{self.port}/json/version") as response:
            url = (await response.json())["webSocketDebuggerUrl"]
        self.ws = await self.http.ws_connect(url, max_msg_size=0)
        self.reader = asyncio.create_task(self.read())
        only_workers = [{"type": "service_worker", "exclude": False}]
        args = {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": True, "filter": only_workers}
        await (await self.send("Target.setAutoAttach", args))

    async def send(self, method: str, params: dict[str, Any], session: str | None = None) -> asyncio.Future[Any]:
        """Sent in order; the answer is the future's (the reader sets it: it must not wait for it)."""
        self.ids += 1
        message = {"id": self.ids, "method": method, "params": params, **({"sessionId": session} if session else {})}
        self.calls[self.ids] = future = self.loop.create_future()
        await self.ws.send_str(json.dumps(message))
        return future

    async def read(self) -> None:
        async for message in self.ws:
            data = json.loads(message.data)
            if "id" in data:
                self.calls.pop(data["id"]).set_result(data.get("result"))
                continue
            method, params, session = data.get("method"), data.get("params", {}), data.get("sessionId")
            if method == "Target.attachedToTarget":
                sid = params["sessionId"]
                self.contexts[sid] = params["targetInfo"].get("browserContextId")
                await self.send("Network.enable", {}, sid)
                await self.send("Network.emulateNetworkConditions", self.conditions, sid)
                await self.send("Runtime.runIfWaitingForDebugger", {}, sid)
            elif method == "Network.responseReceived":
                headers = {k.lower(): v for k, v in params["response"]["headers"].items()}
                self.pending[(session, params["requestId"])] = (params["response"]["url"], headers)
            elif method == "Network.loadingFinished" and (session, params["requestId"]) in self.pending:
                url, headers = self.pending.pop((session, params["requestId"]))
                encoding = headers.get("content-encoding", "")
                self.records.append(
                    (time.monotonic(), self.contexts.get(session), url, params["encodedDataLength"], encoding)
                )

    def since(self, start: float, context: str) -> list[tuple[Any, ...]]:
        return [r for r in self.records if r[0] >= start and r[1] == context]

    def close(self) -> None:
        async def close() -> None:
            await self.ws.close()
            await self.http.close()

        asyncio.run_coroutine_threadsafe(close(), self.loop).result(timeout=10)
        self.loop.call_soon_threadsafe(self.loop.stop)


class Phone:
    """A page of ``context`` throttled through its own CDP session; records its responses' bytes."""

    def __init__(self, context: Any, conditions: dict[str, Any], cpu: float, stretch: bool = False) -> None:
        self.page = context.new_page()
        self.page.add_init_script(PROBE + (STRETCH if stretch else ""))
        self.cdp = context.new_cdp_session(self.page)
        self.cdp.send("Network.enable")
        self.cdp.send("Network.emulateNetworkConditions", conditions)
        self.cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
        self.context_id = self.cdp.send("Target.getTargetInfo")["targetInfo"]["browserContextId"]
        self.responses: dict[str, tuple[str, bool, str]] = {}
        self.records: list[tuple[str, int, bool, str]] = []  # url, bytes, answered by the worker, encoding
        self.cdp.on("Network.requestWillBeSent", self.redirected)
        self.cdp.on("Network.responseReceived", self.received)
        self.cdp.on("Network.loadingFinished", self.finished)

    def redirected(self, params: dict[str, Any]) -> None:
        if response := params.get("redirectResponse"):
            self.records.append((response["url"], int(response.get("encodedDataLength", 0)), False, ""))

    def received(self, params: dict[str, Any]) -> None:
        response = params["response"]
        encoding = {k.lower(): v for k, v in response["headers"].items()}.get("content-encoding", "")
        self.responses[params["requestId"]] = (response["url"], bool(response.get("fromServiceWorker")), encoding)

    def finished(self, params: dict[str, Any]) -> None:
        if seen := self.responses.pop(params["requestId"], None):
            self.records.append((seen[0], int(params["encodedDataLength"]), seen[1], seen[2]))

    def visit(self, path: str) -> dict[str, float]:
        """Load ``path``; DOMContentLoaded and load in ms from the navigation's start, and its bytes so far."""
        self.page.goto(path, wait_until="load", timeout=120_000)
        timing = self.page.evaluate(
            "() => { const n = performance.getEntriesByType('navigation')[0];"
            " return {dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd}; }"
        )
        return {**timing, "bytes": self.network_bytes()}

    def network_bytes(self) -> int:
        return sum(size for _, size, by_worker, _ in self.records if not by_worker)


def preview_ms(phone: Phone, path: str, groups: list[tuple[str, str]]) -> float:
    """Type a line (all but its saving key) on a fresh page: ms from the last character's keydown to #preview."""
    page = phone.page
    page.goto(path, wait_until="load", timeout=120_000)
    page.wait_for_function("() => document.activeElement && document.activeElement.name === 'contract'")
    for text, key in groups[:-1]:
        page.keyboard.type(text)
        page.keyboard.press(key)
    page.wait_for_function(QUIET, polling=50)
    page.evaluate(ARM)
    page.keyboard.type(groups[-1][0])
    page.wait_for_function("() => __b.seen > 0", polling="raf", timeout=30_000)
    return float(page.evaluate("() => __b.seen - __b.key"))


def quiet(tap: WorkerTap, seconds: float = 3.0, limit: float = 60.0) -> None:
    """Until the workers have fetched nothing for ``seconds``."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        last = max((r[0] for r in tap.records), default=0.0)
        if time.monotonic() - last >= seconds:
            return
        time.sleep(0.25)


def build_sheet(stored: int) -> tuple[str, str]:
    """A seated competition; table 1's sheet with its first ``stored`` deals: its entry page's path and code."""
    from tests.browser.test_entry_flow import entry_path, meant_lines
    from tests.factories import seated_competition
    from tournaments.models import ScoreSheet
    from tournaments.services.entry import record_deal

    sheet = ScoreSheet.objects.get(table__round__competition=seated_competition(players=4), table__number=1)
    for line in meant_lines()[:stored]:
        record_deal(sheet, line, by=None)
    return entry_path(sheet), sheet.captain_code


def engine_files(port: int) -> list[tuple[str, int, int, str, int]]:
    """Each engine file: bytes on disk (the collected copy; engine.zip as served), gzip -9, and as whitenoise (or
    the view) answers a browser: Content-Encoding and body bytes."""
    assert lb.TEARDOWN.logs is not None
    static = Path(lb.TEARDOWN.logs.name) / "var" / "static" / "pyodide"
    rows = []
    for path in [f"/static/pyodide/{name}" for name in PYODIDE_FILES] + ["/offline/engine.zip"]:
        response, body = rb.get(port, path, ACCEPT)
        plain = rb.get(port, path, {})[1]
        raw = (static / Path(path).name).read_bytes() if path.startswith("/static/") else plain
        encoding = response.getheader("Content-Encoding") or "none"
        rows.append((path, len(raw), len(gzip.compress(raw, 9)), f"{response.status} {encoding}", len(body)))
    return rows


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def measure(args: argparse.Namespace, port: int, path: str, code: str) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import PHONE
    from tests.browser.test_entry_flow import DEALS

    conditions = {
        "offline": False,
        "latency": args.latency,
        "downloadThroughput": args.down * 1e6 / 8,
        "uploadThroughput": args.up * 1e6 / 8,
    }
    devtools = lb.free_port()
    out: dict[str, Any] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path="/usr/bin/chromium", args=[*CHROMIUM_ARGS, f"--remote-debugging-port={devtools}"]
        )
        tap = WorkerTap(devtools, conditions)
        try:
            base = f"http://127.0.0.1:{port}"
            context = browser.new_context(base_url=base, locale="en-US", **PHONE)
            first = Phone(context, conditions, args.cpu)
            start = time.monotonic()
            out["first"] = first.visit(f"{path}?code={code}")
            out["first"]["kept"] = first.page.wait_for_function(
                f"async () => (await caches.match(location.origin + '{WASM}')) ? performance.now() : false",
                polling=100,
                timeout=600_000,
            ).json_value()
            quiet(tap)
            out["first"]["later_page"] = first.network_bytes() - out["first"]["bytes"]
            out["first"]["worker"] = tap.since(start, first.context_id)
            first.page.close()

            later = Phone(context, conditions, args.cpu)
            start = time.monotonic()
            out["later"] = later.visit(path)
            quiet(tap)
            out["later"]["later_page"] = later.network_bytes() - out["later"]["bytes"]
            out["later"]["worker"] = tap.since(start, later.context_id)
            out["later"]["by_worker"] = sum(1 for r in later.records if r[2])
            out["engine"] = {f"CPU {args.cpu:g}x, as the page does": later.page.evaluate(ENGINE)}
            later.page.close()
            for cpu in (args.cpu, 1):
                tab = Phone(context, conditions, cpu, stretch=True)
                tab.visit(path)
                out["engine"][f"CPU {cpu:g}x, no 20 s give-up"] = tab.page.evaluate(ENGINE)
                tab.page.close()

            blocked = browser.new_context(base_url=base, locale="en-US", service_workers="block", **PHONE)
            phones = {"worker": Phone(context, conditions, args.cpu), "blocked": Phone(blocked, conditions, args.cpu)}
            phones["blocked"].visit(f"{path}?code={code}")
            typed = [g for g in DEALS if len(g) == 3 and g[-1][0].isdigit()]  # the last key: the tricks, a text field
            out["preview"] = {name: [] for name in phones}
            for i in range(args.lines):
                for name in sorted(phones, reverse=i % 2 == 1):  # in turn: drift weighs on both alike
                    out["preview"][name].append(preview_ms(phones[name], path, typed[i % len(typed)]))
            controlled = phones["worker"].page.evaluate("() => !!navigator.serviceWorker.controller")
            out["controlled"] = controlled
        finally:
            tap.close()
            browser.close()
    return out


def report(args: argparse.Namespace, files: list[tuple[str, int, int, str, int]], m: dict[str, Any]) -> None:
    def kb(n: float) -> str:
        return f"{n / 1000:,.1f} kB"

    print(
        f"\nphone 390x844 mobile touch 2x; network {args.down:g} Mbit/s down, {args.up:g} Mbit/s up, "
        f"{args.latency:g} ms latency (CDP, page and service worker); CPU {args.cpu:g}x slower (main thread)"
    )
    first, later = m["first"], m["later"]
    print(f"{'':52}{'first visit':>16}{'later visit':>16}")
    for label, key in (("DOMContentLoaded (from navigation start)", "dcl"), ("load", "load")):
        print(f"{label:52}{first[key]:>13,.0f} ms{later[key]:>13,.0f} ms")
    print(f"{'bytes over the network, page until load':52}{kb(first['bytes']):>16}{kb(later['bytes']):>16}")
    print(f"{'  page, after load':52}{kb(first['later_page']):>16}{kb(later['later_page']):>16}")
    for label, key in (("bytes the service worker fetched", "worker"),):
        a, b = sum(r[3] for r in first[key]), sum(r[3] for r in later[key])
        print(f"{label:52}{kb(a):>16}{kb(b):>16}")
        print(f"{'  its requests':52}{len(first[key]):>16}{len(later[key]):>16}")
    print(f"{'page requests answered by the worker':52}{'':>16}{later['by_worker']:>16}")
    print(f"{'engine kept by the worker (from navigation start)':52}{first['kept'] / 1000:>14.1f} s")
    for label, e in m["engine"].items():
        if "error" in e:
            print(f"engine on a later visit, {label}: {e['error']} (after {e['after'] / 1000:.1f} s)")
            continue
        print(
            f"engine on a later visit, {label}: await wiezenEngine() {e['start'] / 1000:.1f} s; "
            f"settle({e['lines']} lines) first {e['first']:,.0f} ms, second {e['second']:,.0f} ms"
        )
    print(f"\nkeystroke preview, last key -> #preview changed ({args.lines} lines, includes htmx's 250 ms delay):")
    print(f"{'':30}{'worker installed':>18}{'workers blocked':>18}")
    w, b = m["preview"]["worker"], m["preview"]["blocked"]
    for label, f in (("median", statistics.median), ("p95", lambda v: pct(v, 95)), ("max", max)):
        print(f"{label:30}{f(w):>15,.0f} ms{f(b):>15,.0f} ms")
    print(f"(the worker controlled the preview page: {m['controlled']})")
    print("\nengine files: on disk, gzip -9, as the server answers Accept-Encoding: gzip, deflate, br, zstd;")
    print("and what the worker got on the first visit (Content-Encoding, bytes over the network)")
    print(f"{'file':36}{'disk':>12}{'gzip -9':>12}  {'served':<14}{'body':>12}  {'worker got':>22}")
    got = {r[2].split(str(args.port))[-1]: r for r in first["worker"]}
    for path, disk, gz, served, body in files:
        seen = got.get(path)
        fetched = f"{seen[4] or 'none'} {kb(seen[3])}" if seen else "-"
        print(f"{path:36}{kb(disk):>12}{kb(gz):>12}  {served:<14}{kb(body):>12}  {fetched:>22}")
    total = sum(r[1] for r in files), sum(r[2] for r in files), sum(r[4] for r in files)
    print(f"{'total':36}{kb(total[0]):>12}{kb(total[1]):>12}  {'':<14}{kb(total[2]):>12}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--down", type=float, default=9.0, help="Mbit/s")
    parser.add_argument("--up", type=float, default=3.0, help="Mbit/s")
    parser.add_argument("--latency", type=float, default=40.0, help="ms, added to each request")
    parser.add_argument("--cpu", type=float, default=4.0, help="CPU slow-down of the page's main thread")
    parser.add_argument("--lines", type=int, default=20, help="lines typed for the preview, in each context")
    parser.add_argument("--stored", type=int, default=8, help="deals on the sheet (the engine settles them)")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn worker processes (README: 3)")
    parser.add_argument("--threads", type=int, default=1, help="threads per worker; over 1: gthread (README: 1)")
    args = parser.parse_args()

    rb.use_database(f"wiezen_first_load_{os.getpid()}")
    os.chdir(lb.ROOT)
    signal.signal(signal.SIGTERM, lb._on_signal)
    signal.signal(signal.SIGINT, lb._on_signal)
    try:
        lb.flush_redis()
        lb.create_database()
        import django

        django.setup()
        lb.migrate()
        path, code = build_sheet(args.stored)
        from django.db import connections

        connections.close_all()
        # no TLS proxy here: the browser talks HTTP to loopback (a secure context for Chromium)
        os.environ.update(SECURE_SSL_REDIRECT="false", SECURE_COOKIES="false")
        lb.TEARDOWN.logs = tempfile.TemporaryDirectory(prefix="wiezen-first-load-")
        args.port = lb.free_port()
        rb.start_gunicorn(args, args.port)
        rb.wait_for_gunicorn(args.port, path.rsplit("/r", 1)[0] + "/")
        print(f"gunicorn on 127.0.0.1:{args.port} (--workers {args.workers}), entry page {path}")
        files = engine_files(args.port)
        report(args, files, measure(args, args.port, path, code))
        return 0
    except Exception as exc:
        import traceback

        traceback.print_exc()
        print(f"could not measure: {exc}", file=sys.stderr)
        return 1
    finally:
        lb.TEARDOWN.run()


if __name__ == "__main__":
    sys.exit(main())
