"""The phone's Back button on the entry page, as a table presses it (found by typing a whole evening on a phone):

- Back after a save showed the next deal's number beside the last deal's dealer and tricks, restored by the
  browser, and the next line was refused for its dealer;
- Back to the page that refused a line made the browser replay that refused save, which the service worker kept
  on the device as if the Wi-Fi had gone: the refused line came back in red, and later deals waited behind it.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import PHONE, new_page, script_errors
from tests.browser.test_entry_messages import VRAAG, type_line
from tests.factories import seated_competition
from tournaments.models import DealEntry, ScoreSheet

CONTROLLED_S = 120  # the worker installs with the engine's files: seconds, more on a busy machine


def open_in_dutch(browser: Browser, live_server: LiveServer) -> tuple[Page, ScoreSheet]:
    sheet = ScoreSheet.objects.get(table__round__competition=seated_competition(players=4, slug="spring-cup"))
    page = new_page(browser, live_server, PHONE)
    page.context.add_cookies([{"name": "django_language", "value": "nl", "url": live_server.url}])
    page.goto(f"/c/spring-cup/r1/t1/entry/?code={sheet.captain_code}")
    expect(page.locator("select[name=contract]")).to_be_focused()
    return page, sheet


def wait_until_the_worker_controls(page: Page) -> None:
    """The bug lived in the service worker: the page is under its control first (polled: the page's policy
    refuses a string evaluated as script, which ``wait_for_function`` would send)."""
    waited = 0.0
    while not page.evaluate("() => navigator.serviceWorker.controller !== null"):
        assert waited < CONTROLLED_S, "the service worker did not take control of the entry page"
        page.wait_for_timeout(250)
        waited += 0.25


def retype_seats(page: Page, seats: str) -> None:
    page.locator("input[name=seats]").click()
    page.keyboard.press("Control+A")
    page.keyboard.type(seats)
    with page.expect_navigation():
        page.keyboard.press("Enter")


@pytest.mark.django_db(transaction=True)
def test_back_after_two_saves_shows_the_next_deal_as_the_server_has_it(
    browser: Browser, live_server: LiveServer
) -> None:
    page, sheet = open_in_dutch(browser, live_server)
    try:
        type_line(page, VRAAG["nl"], "13", "8")
        page.wait_for_timeout(1_100)  # the next deal is played before it is typed (the list's type-ahead)
        type_line(page, VRAAG["nl"], "24", "7")
        expect(page.locator(".messages")).to_contain_text("Spel 2 bewaard")

        page.go_back()

        expect(page.locator("input[name=deal]")).to_have_value("3")
        expect(page.locator("select[name=dealer]")).to_have_value("2")  # seat 3 deals deal 3
        expect(page.locator("input[name=tricks]")).to_have_value("")
        page.wait_for_timeout(1_100)
        type_line(page, VRAAG["nl"], "13", "9")
        expect(page.locator(".messages")).to_contain_text("Spel 3 bewaard")
        assert DealEntry.objects.filter(sheet=sheet, is_current=True).count() == 3
        assert script_errors(page) == []
    finally:
        page.context.close()


@pytest.mark.django_db(transaction=True)
def test_back_to_a_refused_save_keeps_nothing_on_the_phone(browser: Browser, live_server: LiveServer) -> None:
    page, sheet = open_in_dutch(browser, live_server)
    try:
        wait_until_the_worker_controls(page)
        type_line(page, VRAAG["nl"], "15", "8")  # seat 5 at a table of four: refused
        expect(page.locator("#errors-seats")).to_be_visible()
        retype_seats(page, "13")
        expect(page.locator(".messages")).to_contain_text("Spel 1 bewaard")

        page.go_back()  # to the page that refused the line

        expect(page.locator("#connection")).to_have_attribute("data-state", "online")
        expect(page.locator("#kept-lines ol.kept > li")).to_have_count(0)
        expect(page.locator("input[name=deal]")).to_have_value("2")
        page.wait_for_timeout(1_100)
        type_line(page, VRAAG["nl"], "24", "9")
        expect(page.locator(".messages")).to_contain_text("Spel 2 bewaard")
        assert [e.deal_number for e in DealEntry.objects.filter(sheet=sheet, is_current=True)] == [1, 2]
        assert script_errors(page) == []
    finally:
        page.context.close()
