"""Two organisers change a competition's settings at once, in Chromium: one at a desk in English, one on a phone in
French, each typing. The second to save keeps the first's change; changing the same setting is refused once, in
French, beside the field, and saving again keeps the phone's value on purpose."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import DESKTOP, PHONE, login, new_page, script_errors, shoot, sideways_overflow
from tests.factories import CompetitionFactory, RuleSetFactory
from tests.roles import make_roles
from tournaments.models import Competition


def retype(page: Page, selector: str, text: str) -> None:
    """Select the field's text and type over it, as a person does."""
    page.locator(selector).click()
    page.keyboard.press("Control+A")
    page.keyboard.type(text)


def save(page: Page) -> None:
    """Enter in a field sends the form; the page that comes back (the competition's, or the form refused)."""
    page.locator("#id_name").focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")


@pytest.mark.django_db(transaction=True)
def test_two_organisers_change_the_settings_at_once_and_neither_loses_a_change(
    browser: Browser, live_server: LiveServer
) -> None:
    competition = CompetitionFactory(name="Spring Cup", slug="spring-cup", rule_set=RuleSetFactory(preset="iwwa"))
    roles = make_roles(competition)
    desk, phone = new_page(browser, live_server, DESKTOP), new_page(browser, live_server, PHONE)
    try:
        login(desk, live_server, roles.organiser)
        login(phone, live_server, roles.club_admin)
        phone.context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
        page = reverse("manage-competition-edit", args=["spring-cup"])
        desk.goto(page)
        phone.goto(page)

        retype(desk, "#id_name", "Lentebeker")  # the desk renames it and saves first
        save(desk)
        expect(desk.locator(".messages")).to_contain_text("Lentebeker")

        retype(phone, "#id_min_evenings", "2")  # the phone, opened before, changes another setting
        save(phone)
        stored = Competition.objects.get(pk=competition.pk)
        assert (stored.name, stored.min_evenings) == ("Lentebeker", 2)  # both changes kept

        desk.goto(page)  # both open the settings again, and both change the minimum
        phone.goto(reverse("manage-competition-edit", args=["spring-cup"]))
        retype(desk, "#id_min_evenings", "3")
        save(desk)
        retype(phone, "#id_min_evenings", "4")
        save(phone)
        expect(phone.locator("[role=alert]").first).to_contain_text(
            "Rien n'a été enregistré\u00a0: un autre organisateur a modifié les mêmes paramètres entre-temps."
        )
        expect(phone.locator("#id_min_evenings_error")).to_contain_text("Un autre organisateur a enregistré")
        expect(phone.locator("#id_min_evenings")).to_have_value("4")  # what the phone typed is still there
        assert Competition.objects.get(pk=competition.pk).min_evenings == 3
        assert sideways_overflow(phone) == 0
        shoot(phone, "settings-changed-meanwhile-phone-fr")

        save(phone)  # saved again, on purpose
        assert Competition.objects.get(pk=competition.pk).min_evenings == 4
        assert script_errors(desk) == script_errors(phone) == []
    finally:
        desk.context.close()
        phone.context.close()
