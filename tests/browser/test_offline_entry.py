"""Issue 18: a table keeps entering when the café's Wi-Fi drops, and nothing is lost or stored twice.

The table types by keyboard as on any evening; the browser is taken offline with ``context.set_offline``. Deals
saved meanwhile are kept on the device (IndexedDB) with their points as the engine in the browser settles them,
survive a reload offline (the service worker keeps the page), and reach the server once, in order, when the
connection returns. A deal someone else changed meanwhile is shown beside the table's, for the table to choose.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

import games
from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, assert_no_csp_violations, script_errors, shoot
from tests.browser.test_entry_flow import DEALS, ENTER, TAB, meant_lines, open_with_code
from tests.factories import seated_competition
from tournaments.contract_names import contract_name
from tournaments.models import DealEntry, ScoreSheet
from tournaments.services.entry import record_deal
from tournaments.views.entry import points_text

SERVER_DEALS = 4  # on the sheet before the Wi-Fi goes
OFFLINE_DEALS = 6  # typed while it is gone
ENGINE_READY_MS = 60_000  # Pyodide starts on the first deal kept: seconds, more on a slow machine
KEPT_STALLED_MS = 180_000  # the worker keeps 14 MB in the background: given up when no file was kept for this long
KEPT_AT_MOST_MS = 900_000  # and in any case after this long (a busy CI machine: a few minutes)
TYPE_AHEAD_MS = 1_100  # Chromium's list type-ahead joins letters typed within a second


def sheet_with_deals(count: int) -> ScoreSheet:
    competition = seated_competition(players=4)
    sheet = ScoreSheet.objects.get(table__round__competition=competition, table__number=1)
    for line in meant_lines()[:count]:
        record_deal(sheet, line, by=None)
    return sheet


KEPT = """async () => navigator.serviceWorker.controller !== null
    && !!(await caches.match(location.origin + location.pathname))
    && !!(await caches.match(new URL(JSON.parse(
        document.getElementById("engine-spec").textContent).pyodide + "pyodide.asm.wasm", location.href)))"""


UNCONTROLLED = """async () => navigator.serviceWorker.controller === null
    && ((await navigator.serviceWorker.getRegistration()) || {}).active?.state === 'activated'"""


# No worker installing, waiting or active: its install failed (a download cut short on a busy machine); the page
# registers it again on its next load, as a browser does on the table's next visit.
NO_WORKER = """async () => { const r = await navigator.serviceWorker.getRegistration();
    return !r || !(r.installing || r.waiting || r.active); }"""
# How many files the page's caches hold: the worker's download going on, however slowly.
FILES_KEPT = """async () => { let n = 0;
    for (const name of await caches.keys()) n += (await (await caches.open(name)).keys()).length;
    return n; }"""
NO_WORKER_S = 5  # how long a page may go without one before it is loaded again (registering takes a moment)
# A worker installing: it downloads the page and the engine at once (cache.addAll keeps them all or none, at the end).
INSTALLING = """async () => !!((await navigator.serviceWorker.getRegistration()) || {}).installing"""
# Controlling the page without the engine kept (its install's download failed, kept nothing): each later visit asks it
# to fetch what is missing, as a table's device does deal after deal.
STALLED_VISIT_S = 30


def worker_keeps_the_page(page: Page) -> None:
    """The service worker controls the page and has kept it (and the engine's files) for a reload offline; then a
    later visit, as a table's device makes many, with nothing left on the way.

    Polled from here: ``wait_for_function`` takes the promise of an async check for a true answer. The wait
    follows the download: it gives up when no file was kept (and no worker was installing) for
    ``KEPT_STALLED_MS``, not at a fixed hour."""
    started = time.monotonic()
    progress_at, files, visited_at = started, 0, started
    without_worker_since: float | None = None
    while not page.evaluate(KEPT):
        now, kept = time.monotonic(), page.evaluate(FILES_KEPT)
        if kept != files or page.evaluate(INSTALLING):
            progress_at, files = now, kept
        stalled, waited = now - progress_at, now - started
        assert stalled < KEPT_STALLED_MS / 1000 and waited < KEPT_AT_MOST_MS / 1000, (
            f"the service worker did not keep the page and the engine: {files} files kept after {waited:.0f} s, "
            f"none for the last {stalled:.0f} s"
        )
        if page.evaluate(UNCONTROLLED):  # loaded while the worker was installing: the next visit is its
            page.reload()
        elif page.evaluate(NO_WORKER):
            without_worker_since = without_worker_since or time.monotonic()
            if time.monotonic() - without_worker_since > NO_WORKER_S:
                page.reload()
                without_worker_since = None
        else:
            without_worker_since = None
            if now - max(progress_at, visited_at) > STALLED_VISIT_S:  # in control, the engine not kept: visit again
                page.reload()
                visited_at = time.monotonic()
        page.wait_for_timeout(250)
    page.reload()
    page.wait_for_load_state("networkidle")


def type_kept(page: Page, groups: list[tuple[str, str]]) -> None:
    """Type a deal as a person does; its last Enter keeps it on the device (no page comes back).

    The next deal is played before it is typed: a list's type-ahead ("p" for pass, then "al" for alleen at once
    would look for "pal") has forgotten the last deal's letters by then, as it has at a table."""
    page.wait_for_timeout(TYPE_AHEAD_MS)
    for text, key in groups:
        if text:
            page.keyboard.type(text)
        page.keyboard.press(key)


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"


def names_on(page: Page) -> list[str]:
    return list(json.loads(page.locator("#engine-spec").text_content() or "{}")["names"])


def by_seat(numbers: list[int], names: list[str], sign: bool) -> str:
    pairs = enumerate(zip(names, numbers, strict=True))
    return ", ".join(f"{i + 1} {name} {signed(n) if sign else n}" for i, (name, n) in pairs)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("device", "language"), [(DESKTOP, "en"), (PHONE, "nl")], ids=["desktop-en", "phone-nl"])
def test_a_table_goes_offline_types_six_deals_reloads_and_every_deal_is_stored_once_in_order(
    browser: Browser, live_server: LiveServer, device: dict[str, Any], language: str
) -> None:
    sheet = sheet_with_deals(SERVER_DEALS)
    page = open_with_code(browser, live_server, sheet, device)
    try:
        page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        page.reload()
        worker_keeps_the_page(page)
        names = names_on(page)
        wanted = meant_lines()[: SERVER_DEALS + OFFLINE_DEALS]
        engine = games.sheet_from_lines(games.find("iwwa"), wanted, players=4, deals=16)
        totals = [0, 0, 0, 0]
        running = []
        for result in engine.results:
            totals = [t + p for t, p in zip(totals, result.points, strict=True)]
            running.append(totals)

        page.context.set_offline(True)
        status = page.locator("#connection")
        expect(status).to_have_attribute("data-state", "offline")
        kept = page.locator("#kept-lines ol.kept > li")
        for offset, keys in enumerate(DEALS[SERVER_DEALS : SERVER_DEALS + OFFLINE_DEALS]):
            deal = SERVER_DEALS + offset + 1
            expect(page.locator("input[name=deal]")).to_have_value(str(deal))
            expect(page.locator("select[name=contract]")).to_be_focused()
            type_kept(page, keys)
            expect(kept).to_have_count(offset + 1)
            line = kept.nth(offset)
            expect(line).to_have_attribute("data-deal", str(deal))
            # the deal's points and the running totals, as the server will settle them, marked as settled offline
            points = by_seat(list(engine.results[deal - 1].points), names, sign=True)
            expect(line.locator(".settled")).to_contain_text(points, timeout=ENGINE_READY_MS)
            expect(line.locator(".settled")).to_contain_text(by_seat(running[deal - 1], names, sign=False))
        expect(status).to_have_attribute("data-state", "offline")
        expect(status).to_contain_text("6")
        shoot(page, f"offline-kept-{language}")
        assert DealEntry.objects.filter(sheet=sheet).count() == SERVER_DEALS  # nothing reached the server

        # the tab closed and another opened, offline: the worker answers with the page, the device has the deals
        other = page.context.new_page()
        other.goto(page.url)
        expect(other.locator("#kept-lines ol.kept > li")).to_have_count(OFFLINE_DEALS)
        other.close()
        page.reload()  # offline: the worker answers with the page as kept, the device still has the deals
        expect(kept).to_have_count(OFFLINE_DEALS)
        expect(kept.nth(OFFLINE_DEALS - 1).locator(".settled")).to_contain_text(
            by_seat(running[-1], names, sign=False), timeout=ENGINE_READY_MS
        )
        expect(page.locator("input[name=deal]")).to_have_value(str(SERVER_DEALS + OFFLINE_DEALS + 1))
        assert_accessible(page, f"entry page, offline with kept deals, {language}")

        with page.expect_navigation():  # back online: the deals are sent, and the page shows the sheet as stored
            page.context.set_offline(False)
        expect(kept).to_have_count(0)
        expect(status).to_have_attribute("data-state", "online")
        entries = list(DealEntry.objects.filter(sheet=sheet).order_by("pk"))
        assert [e.deal_number for e in entries] == list(range(1, SERVER_DEALS + OFFLINE_DEALS + 1))  # once, in order
        assert all(e.is_current and e.version == 1 for e in entries)
        assert [e.line for e in entries] == wanted
        assert [list(e.points) for e in entries] == [list(r.points) for r in engine.results]
        expect(page.locator("table.sheet tr.what")).to_have_count(SERVER_DEALS + OFFLINE_DEALS)
        assert_no_csp_violations(page)
        assert script_errors(page) == []
    finally:
        page.context.close()


OURS = [("al", TAB), ("2", TAB), ("5", ENTER)]  # deal 2 corrected offline: alleen by seat 2, five tricks
OURS_LINE = {"deal": 2, "dealer": 1, "contract": "alleen", "declarers": [1], "tricks": 5}
THEIRS_LINE = {"deal": 2, "dealer": 1, "contract": "vraag", "declarers": [0, 2], "tricks": 8}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("choice", ["keep-ours", "keep-theirs"])
def test_a_deal_corrected_on_the_server_while_the_table_was_offline_is_shown_beside_theirs_and_nothing_is_lost(
    browser: Browser, live_server: LiveServer, choice: str
) -> None:
    sheet = sheet_with_deals(SERVER_DEALS)
    page = open_with_code(browser, live_server, sheet, PHONE)
    try:
        worker_keeps_the_page(page)
        names = names_on(page)
        page.context.set_offline(True)
        # the table corrects deal 2 from the sheet's "correct" link: offline, the kept page opens it
        page.locator('tr.what[data-deal="2"] a.correct').focus()
        page.keyboard.press(ENTER)
        expect(page.locator("#correcting-offline")).to_contain_text("2")
        expect(page.locator("input[name=version]")).to_have_value("1")
        page.locator("select[name=contract]").focus()
        type_kept(page, OURS)
        kept = page.locator("#kept-lines ol.kept > li")
        expect(kept).to_have_count(1)
        expect(kept.first).to_have_attribute("data-deal", "2")

        # meanwhile the organiser corrects deal 2 on the server
        theirs = record_deal(sheet, THEIRS_LINE, by=None, expected_version=1).entry
        page.context.set_offline(False)
        status = page.locator("#connection")
        expect(status).to_have_attribute("data-state", "conflict")
        expect(status).to_contain_text("Deal 2")
        conflict = kept.first
        expect(conflict).to_have_attribute("data-state", "conflict")
        sides = conflict.locator(".versus .side")
        expect(sides.nth(0)).to_contain_text("This table's line")
        expect(sides.nth(0)).to_contain_text(contract_name("alleen"))
        expect(sides.nth(1)).to_contain_text("The line on the server")
        expect(sides.nth(1)).to_contain_text(points_text(theirs.points, names))
        shoot(page, f"offline-conflict-{choice}")
        assert_accessible(page, "entry page, a conflict to resolve")

        if choice == "keep-ours":
            conflict.get_by_role("button", name="Keep this table's line").focus()
            with page.expect_navigation():  # stored over theirs; the page shows the sheet as stored
                page.keyboard.press(ENTER)
            versions = list(DealEntry.objects.filter(sheet=sheet, deal_number=2).order_by("version"))
            assert [(e.version, e.is_current) for e in versions] == [(1, False), (2, False), (3, True)]
            assert versions[1].line == THEIRS_LINE and versions[2].line == OURS_LINE  # both lines kept
        else:
            conflict.get_by_role("button", name="Keep theirs (this table's line is set aside)").focus()
            page.keyboard.press(ENTER)
            expect(kept).to_have_count(0)
            aside = page.locator("#set-aside")
            expect(aside).to_be_visible()
            expect(aside).to_contain_text(contract_name("alleen"))  # the table's line, still readable
            current = DealEntry.objects.get(sheet=sheet, deal_number=2, is_current=True)
            assert (current.version, current.line) == (2, THEIRS_LINE)
            expect(status).to_have_attribute("data-state", "online")
        assert DealEntry.objects.filter(sheet=sheet, is_current=True).count() == SERVER_DEALS
        assert_no_csp_violations(page)
        assert script_errors(page) == []
    finally:
        page.context.close()
