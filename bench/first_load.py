"""First load of the entry page on a phone, with the offline service worker (issue 18): what it costs, and when.

Self-contained: a scratch PostgreSQL database (``wiezen_first_load_<pid>``) and Redis db 13 (flushed before and
after), one seated competition (``tests/factories.py``'s ``seated_competition``) whose table 1 has ``--stored``
deals on its sheet, then gunicorn as README "Production" runs it (``bench/read.py``'s start: ``config.wsgi
--workers 3``, ``DEBUG=false``, static files collected and served by whitenoise). No TLS proxy: Chromium talks
HTTP to 127.0.0.1 (a secure context, so the worker registers), with ``SECURE_SSL_REDIRECT`` and ``SECURE_COOKIES``
off. Debian's Chromium (Playwright) as a phone: 390x844, mobile, touch, 2x pixels; network through CDP
``Network.emulateNetworkConditions`` (default 9 Mbit/s down, 3 Mbit/s up, 40 ms latency: café Wi-Fi or fast 4G),
the page's main thread slowed by ``Emulation.setCPUThrottlingRate`` 4x (a mid-range phone). A page's CDP session
does not cover its service worker's own requests: a second DevTools client (``--remote-debugging-port``) attaches
to each worker as it starts (paused until then), applies the same network conditions and counts its bytes.

1. First visit (fresh context, no worker): ``?code=`` (a redirect; the code kept in the session). DOMContentLoaded
   and load (Navigation Timing, from the redirect's start); bytes over the network (CDP ``Network.loadingFinished``
   encodedDataLength, headers included) of the page apart from those the worker fetches in the background; when
   the worker has kept the engine (``caches.match`` of pyodide.asm.wasm, polled every 100 ms).
2. Later visit: a new tab in the same context (worker active, engine kept): the same figures.
3. Engine start: ``await window.wiezenEngine()`` (from the worker's cache), then ``.settle(<the sheet's lines>)``
   twice: first on the later visit as the page does it (engine.js gives up after 90 s), then on ``--engine-runs``
   new tabs with that give-up stretched (to time a start that takes longer), at CPU 4x, and once at 1x.
4. The online keystroke preview (htmx POST ``entry/preview/``, 250 ms after the last input): ``--lines`` lines typed
   by keyboard as tests/browser/test_entry_flow.py does, each on a freshly loaded page; from the keydown of the
   last character (the tricks) to ``#preview``'s text changing, with the worker controlling the page and in a
   context with service workers blocked, the two in turn. Both include the 250 ms delay.

Also the engine's files: on disk, gzip -9, and as the server answers a browser (``Content-Encoding``). It cleans up
(gunicorn, Chromium, database, Redis db) also on failure; exit 1 only if it could not measure.

    .venv/bin/python bench/first_load.py [--down 9] [--up 3] [--latency 40] [--cpu 4] [--lines 20] [--engine-runs 3]
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
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import load as lb  # scratch database, Redis db 13, teardown
from bench import read as rb  # gunicorn as README "Production" runs it, with its static files

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
WASM = "/static/pyodide/pyodide.asm.wasm"
# In every page: the keydown of the last character (once armed), htmx requests in flight, when #preview changed.
PROBE = """window.__b = {armed: false, key: 0, seen: 0, before: "", busy: 0, quiet: 0};
addEventListener("keydown", () => { if (__b.armed) __b.key = performance.now(); }, true);
addEventListener("input", () => { __b.quiet = performance.now(); }, true);
addEventListener("htmx:beforeRequest", () => { __b.busy++; __b.quiet = performance.now(); });
addEventListener("htmx:afterRequest", () => { __b.busy--; __b.quiet = performance.now(); });
new MutationObserver(() => {
  const p = document.getElementById("preview");
  if (__b.armed && !__b.seen && p && p.textContent !== __b.before) __b.seen = performance.now();
}).observe(document, {childList: true, subtree: true, characterData: true});"""
# engine.js gives up on a start after 90 s (GIVE_UP_MS): stretched to 10 min, to time a start that takes longer
STRETCH = "const _st = setTimeout; window.setTimeout = (f, ms, ...a) => _st(f, ms === 90000 ? 6e5 : ms, ...a);"
ENGINE = """async () => {
  const lines = JSON.parse(document.getElementById("engine-spec").textContent).lines;
  const t0 = performance.now();
  let engine;
  try { engine = await window.wiezenEngine(); } catch (e) { return {error: String(e), after: performance.now() - t0}; }
  const t1 = performance.now(); engine.settle(lines); const t2 = performance.now(); engine.settle(lines);
  return {start: t1 - t0, first: t2 - t1, second: performance.now() - t2, lines: lines.length};
}"""


class WorkerTap:
    """A second DevTools client, attached to every service worker as it starts (paused until then): throttles the
    worker's own requests as the pages' are and records them as (time, browser context, url, bytes, encoding)."""

    def __init__(self, port: int, conditions: dict[str, Any]) -> None:
        self.port, self.conditions, self.records = port, conditions, []
        self.ids, self.calls, self.pending, self.contexts, self.inflight = 0, {}, {}, {}, set()
        self.active, self.loop = time.monotonic(), asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        asyncio.run_coroutine_threadsafe(self.connect(), self.loop).result(timeout=30)

    async def connect(self) -> None:
        import aiohttp

        self.http = aiohttp.ClientSession()
        async with self.http.get(f"http://127.0.0.1:{self.port}/json/version") as response:
            url = (await response.json())["webSocketDebuggerUrl"]
        self.ws = await self.http.ws_connect(url, max_msg_size=0)
        self.reader = asyncio.create_task(self.read())
        workers = [{"type": "service_worker", "exclude": False}]
        attach = {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": True, "filter": workers}
        await (await self.send("Target.setAutoAttach", attach))

    async def send(self, method: str, params: dict[str, Any], session: str | None = None) -> asyncio.Future[Any]:
        """Sent in order; the answer comes in the future (set by the reader, which must not wait for it)."""
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
            key, self.active = (session, params.get("requestId")), time.monotonic()
            if method == "Target.attachedToTarget":
                sid = params["sessionId"]
                self.contexts[sid] = params["targetInfo"].get("browserContextId")
                await self.send("Network.enable", {}, sid)
                await self.send("Network.emulateNetworkConditions", self.conditions, sid)
                await self.send("Runtime.runIfWaitingForDebugger", {}, sid)
            elif method == "Network.requestWillBeSent":
                self.inflight.add(key)
            elif method == "Network.responseReceived":
                headers = {k.lower(): v for k, v in params["response"]["headers"].items()}
                self.pending[key] = (params["response"]["url"], headers.get("content-encoding", ""))
            elif method in ("Network.loadingFinished", "Network.loadingFailed"):
                self.inflight.discard(key)
                if (seen := self.pending.pop(key, None)) and method == "Network.loadingFinished":
                    size = params["encodedDataLength"]
                    self.records.append((time.monotonic(), self.contexts.get(session), seen[0], size, seen[1]))

    def since(self, start: float, context: str) -> list[tuple[Any, ...]]:
        return [r for r in self.records if r[0] >= start and r[1] == context]

    def quiet(self, seconds: float = 2.0, limit: float = 600.0) -> None:
        """Until no worker has had a request in flight for ``seconds``."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline and (self.inflight or time.monotonic() - self.active < seconds):
            time.sleep(0.1)

    def close(self) -> None:
        for closing in (self.ws.close, self.http.close):
            asyncio.run_coroutine_threadsafe(closing(), self.loop).result(timeout=10)
        self.loop.call_soon_threadsafe(self.loop.stop)


class Phone:
    """A new page of ``context``, throttled through its own CDP session, recording its responses' bytes."""

    def __init__(self, context: Any, conditions: dict[str, Any], cpu: float, stretch: bool = False) -> None:
        self.page = context.new_page()
        self.page.add_init_script(PROBE + (STRETCH if stretch else ""))
        cdp = context.new_cdp_session(self.page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", conditions)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
        self.context_id = cdp.send("Target.getTargetInfo")["targetInfo"]["browserContextId"]
        self.responses: dict[str, tuple[str, bool]] = {}
        self.records: list[tuple[str, int, bool]] = []  # url, bytes, answered by the worker
        cdp.on("Network.requestWillBeSent", self.redirected)
        cdp.on("Network.responseReceived", self.received)
        cdp.on("Network.loadingFinished", self.finished)

    def redirected(self, params: dict[str, Any]) -> None:
        if response := params.get("redirectResponse"):
            self.records.append((response["url"], int(response.get("encodedDataLength", 0)), False))

    def received(self, params: dict[str, Any]) -> None:
        response = params["response"]
        self.responses[params["requestId"]] = (response["url"], bool(response.get("fromServiceWorker")))

    def finished(self, params: dict[str, Any]) -> None:
        if seen := self.responses.pop(params["requestId"], None):
            self.records.append((seen[0], int(params["encodedDataLength"]), seen[1]))

    def visit(self, path: str) -> dict[str, float]:
        """Load ``path``: DOMContentLoaded and load (ms from the navigation's start), and its bytes so far."""
        self.page.goto(path, wait_until="load", timeout=120_000)
        timing = self.page.evaluate(
            "() => { const n = performance.getEntriesByType('navigation')[0];"
            " return {dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd}; }"
        )
        return {**timing, "bytes": self.network_bytes()}

    def network_bytes(self) -> int:
        return sum(size for _, size, by_worker in self.records if not by_worker)

    def kept_at(self, limit: float = 600.0) -> float:
        """When (ms from navigation start) the worker's cache holds the WebAssembly. Polled from here: Playwright's
        wait_for_function takes an async predicate's promise for a true value and returns at once."""
        deadline = time.monotonic() + limit
        script = f"async () => (await caches.match(location.origin + '{WASM}')) ? performance.now() : 0"
        while time.monotonic() < deadline:
            if at := self.page.evaluate(script):
                return float(at)
            time.sleep(0.1)
        raise RuntimeError(f"the engine was not kept in {limit:.0f} s")

    def preview_ms(self, path: str, groups: list[tuple[str, str]]) -> float:
        """Type a line (not its saving key) on a fresh page: ms from the last character's keydown to #preview."""
        page = self.page
        page.goto(path, wait_until="load", timeout=120_000)
        page.wait_for_function("() => document.activeElement && document.activeElement.name === 'contract'")
        for text, key in groups[:-1]:
            page.keyboard.type(text)
            page.keyboard.press(key)
        page.wait_for_function("() => __b.busy === 0 && performance.now() - __b.quiet > 600", polling=50)
        page.evaluate("() => { __b.before = document.getElementById('preview').textContent; __b.armed = true; }")
        page.keyboard.type(groups[-1][0])
        page.wait_for_function("() => __b.seen > 0", polling="raf", timeout=30_000)
        return float(page.evaluate("() => __b.seen - __b.key"))


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
    """Each engine file: bytes on disk (the collected copy; engine.zip as the view makes it), gzip -9, and as the
    server answers a browser's Accept-Encoding: status and Content-Encoding, body bytes."""
    assert lb.TEARDOWN.logs is not None
    static = Path(lb.TEARDOWN.logs.name) / "var" / "static" / "pyodide"
    rows = []
    for path in [f"/static/pyodide/{name}" for name in PYODIDE_FILES] + ["/offline/engine.zip"]:
        response, body = rb.get(port, path, {"Accept-Encoding": "gzip, deflate, br, zstd"})  # as Chromium asks
        raw = (static / Path(path).name).read_bytes() if path.startswith("/static/") else rb.get(port, path, {})[1]
        served = f"{response.status} {response.getheader('Content-Encoding') or 'none'}"
        rows.append((path, len(raw), len(gzip.compress(raw, 9)), served, len(body)))
    return rows


def measure(args: argparse.Namespace, path: str, code: str) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import PHONE
    from tests.browser.test_entry_flow import DEALS

    net = {"offline": False, "latency": args.latency}
    net |= {"downloadThroughput": args.down * 1e6 / 8, "uploadThroughput": args.up * 1e6 / 8}
    devtools, base, out = lb.free_port(), f"http://127.0.0.1:{args.port}", {}
    with sync_playwright() as pw:
        args_ = [*CHROMIUM_ARGS, f"--remote-debugging-port={devtools}"]
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=args_)
        tap = WorkerTap(devtools, net)
        try:
            context = browser.new_context(base_url=base, locale="en-US", **PHONE)
            for visit, address in (("first", f"{path}?code={code}"), ("later", path)):
                phone, start = Phone(context, net, args.cpu), time.monotonic()
                out[visit] = phone.visit(address)
                if visit == "first":
                    out[visit]["kept"] = phone.kept_at()
                    phone.page.wait_for_function("() => !!navigator.serviceWorker.controller")
                tap.quiet()
                out[visit]["after_load"] = phone.network_bytes() - out[visit]["bytes"]
                out[visit]["worker"] = tap.since(start, phone.context_id)
                out[visit]["by_worker"] = sum(1 for r in phone.records if r[2])
            out["engine"] = {f"CPU {args.cpu:g}x, as the page does": [phone.page.evaluate(ENGINE)]}
            phone.page.close()
            for cpu, runs in ((args.cpu, args.engine_runs), (1, 1)):  # each on a new tab, as after a reload
                for _ in range(runs):
                    tab = Phone(context, net, cpu, stretch=True)
                    tab.visit(path)
                    out["engine"].setdefault(f"CPU {cpu:g}x, no give-up", []).append(tab.page.evaluate(ENGINE))
                    tab.page.close()

            blocked = browser.new_context(base_url=base, locale="en-US", service_workers="block", **PHONE)
            phones = {"worker": Phone(context, net, args.cpu), "blocked": Phone(blocked, net, args.cpu)}
            phones["blocked"].visit(f"{path}?code={code}")
            typed = [g for g in DEALS if len(g) == 3 and g[-1][0].isdigit()]  # ending in the tricks, a text field
            out["preview"] = {name: [] for name in phones}
            for i in range(args.lines):
                for name in sorted(phones, reverse=i % 2 == 1):  # in turn: drift weighs on both alike
                    out["preview"][name].append(phones[name].preview_ms(path, typed[i % len(typed)]))
            out["controlled"] = phones["worker"].page.evaluate("() => !!navigator.serviceWorker.controller")
        finally:
            tap.close()
            browser.close()
    return out


def report(args: argparse.Namespace, files: list[tuple[str, int, int, str, int]], m: dict[str, Any]) -> None:
    def kb(n: float) -> str:
        return f"{n / 1000:,.1f} kB"

    def p95(values: list[float]) -> float:
        return sorted(values)[max(0, math.ceil(0.95 * len(values)) - 1)]

    print(
        f"\nphone 390x844 mobile touch 2x; network {args.down:g} Mbit/s down, {args.up:g} Mbit/s up, {args.latency:g}"
        f" ms latency (CDP, pages and service worker); page's main thread {args.cpu:g}x slower"
    )
    first, later = m["first"], m["later"]
    rows = [
        ("DOMContentLoaded (from navigation start)", f"{first['dcl']:,.0f} ms", f"{later['dcl']:,.0f} ms"),
        ("load", f"{first['load']:,.0f} ms", f"{later['load']:,.0f} ms"),
        ("page: bytes over the network until load", kb(first["bytes"]), kb(later["bytes"])),
        ("page: bytes over the network after load", kb(first["after_load"]), kb(later["after_load"])),
        ("page: requests answered by the worker", str(first["by_worker"]), str(later["by_worker"])),
        ("service worker: bytes over the network", *(kb(sum(r[3] for r in v["worker"])) for v in (first, later))),
        ("service worker: requests", str(len(first["worker"])), str(len(later["worker"]))),
        ("engine kept by the worker (from navigation start)", f"{first['kept'] / 1000:.1f} s", "(already)"),
    ]
    print(f"{'':52}{'first visit':>16}{'later visit':>16}")
    for label, a, b in rows:
        print(f"{label:52}{a:>16}{b:>16}")
    print("engine on a later visit: await wiezenEngine() (from the worker's cache); then settle(the sheet's lines)")
    for label, runs in m["engine"].items():
        done = [e for e in runs if "error" not in e]
        parts = [f"{e['error']} after {e['after'] / 1000:.1f} s" for e in runs if "error" in e]
        if done:
            median = {k: statistics.median(e[k] for e in done) for k in ("start", "first", "second")}
            starts = ", ".join(f"{e['start'] / 1000:.1f}" for e in done)
            parts.insert(0, f"{starts} s (median {median['start'] / 1000:.1f} s); settle({done[0]['lines']} lines)")
            parts[0] += f" {median['first']:,.0f} ms, again {median['second']:,.0f} ms"
        print(f"  {label}: {'; '.join(parts)}")
    print(f"\nkeystroke preview, last key -> #preview changed ({args.lines} lines each, includes htmx's 250 ms delay):")
    print(f"{'':30}{'worker installed':>18}{'workers blocked':>18}")
    w, b = m["preview"]["worker"], m["preview"]["blocked"]
    for label, f in (("median", statistics.median), ("p95", p95), ("max", max)):
        print(f"{label:30}{f(w):>15,.0f} ms{f(b):>15,.0f} ms")
    print(f"(the worker controlled the preview page: {m['controlled']})")
    print("\nengine files: on disk, gzip -9, as the server answers Accept-Encoding: gzip, deflate, br, zstd,")
    print("and what the worker fetched on the first visit (Content-Encoding, bytes over the network):")
    print(f"{'file':36}{'disk':>12}{'gzip -9':>12}  {'served':<10}{'body':>12}{'worker got':>22}")
    got = {r[2].removeprefix(f"http://127.0.0.1:{args.port}"): r for r in first["worker"]}
    for path, disk, gz, served, body in files:
        seen = got.get(path)
        fetched = f"{seen[4] or 'none'} {kb(seen[3])}" if seen else "-"
        print(f"{path:36}{kb(disk):>12}{kb(gz):>12}  {served:<10}{kb(body):>12}{fetched:>22}")
    print(f"{'total':36}{kb(sum(r[1] for r in files)):>12}{kb(sum(r[2] for r in files)):>12}", end="")
    print(f"  {'':<10}{kb(sum(r[4] for r in files)):>12}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--down", type=float, default=9.0, help="Mbit/s")
    parser.add_argument("--up", type=float, default=3.0, help="Mbit/s")
    parser.add_argument("--latency", type=float, default=40.0, help="ms added to each request")
    parser.add_argument("--cpu", type=float, default=4.0, help="slow-down of the page's main thread")
    parser.add_argument("--lines", type=int, default=20, help="lines typed for the preview, in each context")
    parser.add_argument("--engine-runs", type=int, default=3, help="engine starts timed at --cpu, without give-up")
    parser.add_argument("--stored", type=int, default=8, help="deals on the sheet (the engine settles them)")
    args = parser.parse_args()
    args.workers, args.threads = 3, 1  # README "Production": --workers 3, sync workers

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
        os.environ.update(SECURE_SSL_REDIRECT="false", SECURE_COOKIES="false")  # HTTP on loopback, no TLS proxy
        lb.TEARDOWN.logs = tempfile.TemporaryDirectory(prefix="wiezen-first-load-")
        args.port = lb.free_port()
        rb.start_gunicorn(args, args.port)
        rb.wait_for_gunicorn(args.port, path.rsplit("/r", 1)[0] + "/")
        print(f"gunicorn on 127.0.0.1:{args.port} (--workers {args.workers}, DEBUG=false), entry page {path}")
        files, load = engine_files(args.port), os.getloadavg()[0]
        report(args, files, measure(args, path, code))
        print(
            f"machine: {os.cpu_count()} cores, load average (1 min) {load:.1f} before, {os.getloadavg()[0]:.1f} after"
        )
        return 0
    except Exception:
        traceback.print_exc()
        print("could not measure", file=sys.stderr)
        return 1
    finally:
        lb.TEARDOWN.run()


if __name__ == "__main__":
    sys.exit(main())
