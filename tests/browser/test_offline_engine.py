"""Issue 18, first part: the rules engine runs in the browser (Pyodide, from npm, served as static files) and settles
a sheet's lines to the same points as the server, under the entry page's CSP; a plain visit loads none of it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from games.errors import InvalidSheet
from games.generate import random_session
from games.sessions import sheet_from_lines
from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, assert_no_csp_violations, script_errors
from tests.browser.test_entry_flow import open_with_code
from tests.factories import seated_competition
from tournaments.models import DealEntry, ScoreSheet
from tournaments.services.entry import record_deal

SETTLE_IN_THE_BROWSER = "async (lines) => (await window.wiezenEngine()).settle(lines)"


def sheet_with_lines(preset: str, overrides: dict[str, Any] | None = None, seed: int = 18) -> ScoreSheet:
    """Table 1 of a new competition, with a random 16-deal session entered through the services."""
    competition = seated_competition(players=4, preset=preset)
    if overrides:
        competition.rule_set.overrides = overrides
        competition.rule_set.save()
    sheet = ScoreSheet.objects.get(table__round__competition=competition, table__number=1)
    rules = competition.rule_set.engine_rules()
    for line in random_session(rules, random.Random(seed), 4, 16):
        record_deal(sheet, line, by=None)
    return sheet


def stored(sheet: ScoreSheet) -> tuple[list[dict[str, Any]], list[list[int]]]:
    entries = list(DealEntry.objects.filter(sheet=sheet).order_by("deal_number"))
    return [e.line for e in entries], [list(e.points) for e in entries]


HOUSE = {
    "miserie_settlement": "pooled",
    "troel_target": 9,
    "tariffs": {"vraag": {"levels": {"9": 4, "10": 6}}, "alleen": {"over_until": 8, "fail_factor": 2}},
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("preset", "overrides", "device"),
    [("iwwa", None, DESKTOP), ("flemish", HOUSE, PHONE), ("solo_whist", None, DESKTOP)],
    ids=["iwwa-desktop", "flemish-house-rules-phone", "solo-whist-desktop"],
)
def test_the_browser_settles_a_sheet_to_the_servers_points(
    browser: Browser, live_server: LiveServer, preset: str, overrides: dict[str, Any] | None, device: dict[str, Any]
) -> None:
    sheet = sheet_with_lines(preset, overrides)
    lines, points = stored(sheet)
    assert len(lines) >= 16
    page = open_with_code(browser, live_server, sheet, device)
    try:
        results = page.evaluate(SETTLE_IN_THE_BROWSER, lines)
        assert [r.get("points") for r in results] == points
        # a line the engine refuses (deal 1 again) is refused in the browser too, with the server's codes
        rules = sheet.table.round.competition.rule_set.engine_rules()
        with pytest.raises(InvalidSheet) as refused:
            sheet_from_lines(rules, [lines[0], lines[0]], 4, 16)
        in_browser = page.evaluate(SETTLE_IN_THE_BROWSER, [lines[0], lines[0]])
        assert in_browser[0]["points"] == points[0]
        assert in_browser[1]["errors"] == [e.as_dict() for e in refused.value.lines[0].errors]
        assert_no_csp_violations(page)
        assert script_errors(page) == []
    finally:
        page.context.close()


@pytest.mark.django_db(transaction=True)
def test_a_plain_visit_starts_no_engine_in_the_page(browser: Browser, live_server: LiveServer) -> None:
    """The page itself fetches none of Pyodide: its service worker keeps the files in the background (the worker's
    own requests), and the engine starts only when a deal is kept offline."""
    sheet = sheet_with_lines("iwwa")
    requested: list[str] = []
    page = open_with_code(browser, live_server, sheet, PHONE)
    page.on("request", lambda request: requested.append(request.url))
    try:
        page.reload()
        page.wait_for_load_state("networkidle")
        assert not [url for url in requested if "pyodide" in url or "engine.zip" in url]
    finally:
        page.context.close()


@pytest.mark.django_db(transaction=True)
def test_the_entry_page_says_when_the_connection_is_gone_and_back_in_the_players_language(
    browser: Browser, live_server: LiveServer
) -> None:
    sheet = sheet_with_lines("iwwa")
    page = open_with_code(browser, live_server, sheet, PHONE)
    try:
        page.context.add_cookies([{"name": "django_language", "value": "nl", "url": live_server.url}])
        page.reload()
        status = page.locator("#connection")
        expect(status).to_have_text("Online: elk spel wordt bewaard als je op Enter drukt.")
        page.context.set_offline(True)
        expect(status).to_have_attribute("data-state", "offline")
        expect(status).to_contain_text("Offline: elk spel dat je bewaart, blijft op dit toestel")
        assert_accessible(page, "entry page, offline")
        page.context.set_offline(False)
        expect(status).to_have_attribute("data-state", "online")
        expect(status).to_have_text("Online: elk spel wordt bewaard als je op Enter drukt.")
        assert_no_csp_violations(page)
        assert script_errors(page) == []
    finally:
        page.context.close()
