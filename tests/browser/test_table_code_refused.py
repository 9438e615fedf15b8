"""A table's phone scans an old table card (its code changed when the organiser re-seated the round), in Dutch:
the refusal says why in Dutch, in the site's layout on a phone, with the code field ready; the table types the new
card's code by keyboard and its sheet opens."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import PHONE, assert_accessible, new_page, script_errors, sideways_overflow
from tests.factories import seated_competition
from tournaments.models import ScoreSheet
from tournaments.models.sheets import new_table_code


@pytest.mark.django_db(transaction=True)
def test_an_old_table_card_asks_for_the_new_code_in_dutch(browser: Browser, live_server: LiveServer) -> None:
    sheet = ScoreSheet.objects.get(table__round__competition=seated_competition(players=4, slug="spring-cup"))
    old_code = sheet.captain_code
    ScoreSheet.objects.filter(pk=sheet.pk).update(captain_code=new_table_code())  # a new card was printed
    new_code = ScoreSheet.objects.get(pk=sheet.pk).captain_code
    page = new_page(browser, live_server, PHONE)
    try:
        page.context.add_cookies([{"name": "django_language", "value": "nl", "url": live_server.url}])
        page.goto(f"/c/spring-cup/r1/t1/entry/?code={old_code}")

        expect(page.locator("h1")).to_have_text("Niet toegestaan")
        expect(page.locator("[role=alert]")).to_have_text("Deze tafelcode opent dit scoreblad niet.")
        expect(page.locator("#id_code")).to_be_focused()
        assert sideways_overflow(page) == 0
        assert_accessible(page, "a refused table code, Dutch, phone")

        page.keyboard.type(new_code.lower().replace("-", " "))  # as read aloud from the card, in any case
        with page.expect_navigation():
            page.keyboard.press("Enter")

        expect(page.locator("select[name=contract]")).to_be_focused()
        assert page.url.endswith("/c/spring-cup/r1/t1/entry/")
        assert script_errors(page) == []
    finally:
        page.context.close()
