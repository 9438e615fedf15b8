"""Live public pages (issue 15, item 9): everything on them that changes with entries refreshes without a reload.

The competition page polls its standings; the rounds beside them ("Round 1 · In play · 0 of 2 tables confirmed")
come with the same poll. The round page polls its tables: each sheet's state, deals entered and points. The test
changes the database through the services, as the entry page and the confirmation do, and waits for the text.
"""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from games.generate import random_session
from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, assert_no_csp_violations, new_page, script_errors
from tests.browser.sites import SEED, Site, build_site
from tests.factories import UserFactory
from tournaments.models import ScoreSheet
from tournaments.services.entry import record_deal
from tournaments.services.sheets import confirm_sheet

pytestmark = pytest.mark.django_db(transaction=True)

POLL_WAIT_MS = 15_000  # a poll every 5 s, on a loaded machine


@pytest.fixture
def site() -> Site:
    return build_site()


def sheet_of(site: Site, round_number: int, table: int) -> ScoreSheet:
    return ScoreSheet.objects.select_related("table__round__competition").get(
        table__round__competition=site.tournament, table__round__number=round_number, table__number=table
    )


def clean(page: Page, context: str) -> None:
    assert_accessible(page, context=context)
    assert_no_csp_violations(page)
    assert script_errors(page) == []


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_rounds_on_the_competition_page_follow_confirmations_without_a_reload(
    browser: object, live_server: LiveServer, site: Site, device: str
) -> None:
    page = new_page(browser, live_server, DESKTOP if device == "desktop" else PHONE)  # type: ignore[arg-type]
    page.goto(reverse("competition", args=[site.tournament.slug]))
    first = page.locator("#rounds li").first
    expect(first).to_contain_text("0 of 2 tables confirmed")
    marker = page.evaluate("() => (window.__notReloaded = true)")
    assert marker is True
    link = first.locator("a")
    link.focus()
    standings = reverse("competition-standings", args=[site.tournament.slug])
    with page.expect_response(lambda r: standings in r.url, timeout=POLL_WAIT_MS) as poll:
        pass
    assert "rounds_seen=" in poll.value.url
    page.wait_for_timeout(300)  # the poll's answer swapped in
    assert link.evaluate("a => a === document.activeElement"), "a poll that changed nothing took the focus away"

    confirm_sheet(sheet_of(site, 1, 2), by=UserFactory())

    expect(first).to_contain_text("1 of 2 tables confirmed", timeout=POLL_WAIT_MS)
    assert page.evaluate("() => window.__notReloaded") is True  # the same page: nothing reloaded it
    clean(page, f"competition page after a confirmation, {device}")
    page.context.close()


def test_the_round_page_follows_entries_and_confirmations_without_a_reload(
    desktop: Page, live_server: LiveServer, site: Site
) -> None:
    desktop.goto(reverse("round", args=[site.tournament.slug, 1]))
    first, second = desktop.locator("#tables section.card").nth(0), desktop.locator("#tables section.card").nth(1)
    deals = site.tournament.deals_per_session
    expect(first.locator("p.muted").first).to_contain_text(f"5 of {deals} deals")
    expect(second.locator("p.muted").first).to_contain_text("Entered")
    desktop.evaluate("() => (window.__notReloaded = true)")
    link = first.locator("h2 a")
    link.focus()
    round_url = reverse("round", args=[site.tournament.slug, 1])
    with desktop.expect_response(lambda r: round_url in r.url and "seen=" in r.url, timeout=POLL_WAIT_MS) as poll:
        pass
    assert poll.value.status == 204  # nothing changed: nothing swapped
    assert link.evaluate("a => a === document.activeElement"), "a poll that changed nothing took the focus away"

    sheet = sheet_of(site, 1, 1)
    rules = site.tournament.rule_set.engine_rules()
    lines = random_session(rules, random.Random(SEED), sheet.table.seats.count(), deals or 16)
    record_deal(sheet, lines[5])  # the sixth deal, as the table would type it next
    confirm_sheet(sheet_of(site, 1, 2), by=UserFactory())

    expect(first.locator("p.muted").first).to_contain_text(f"6 of {deals} deals", timeout=POLL_WAIT_MS)
    expect(second.locator("p.muted").first).to_contain_text(re.compile(r"^Confirmed"), timeout=POLL_WAIT_MS)
    assert desktop.evaluate("() => window.__notReloaded") is True
    clean(desktop, "round page after an entry and a confirmation")
