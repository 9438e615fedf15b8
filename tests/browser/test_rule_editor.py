"""Issue 17, the rule set editor, as an organiser uses it: figures typed by keyboard (focus, select, type, Enter),
on a desktop and a phone, in English, Dutch and French. The tariff card and the worked examples beside the form
follow what is typed before anything is saved; a refused figure is named beside its field; Enter saves.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from games.examples import worked_examples
from tests.browser.conftest import (
    DESKTOP,
    PHONE,
    assert_accessible,
    assert_no_csp_violations,
    login,
    new_page,
    script_errors,
    shoot,
)
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, RuleSetFactory, UserFactory
from tournaments.models import RuleSet

MINUS = "\u2212"
VRAAG = '#preview tr[data-contract="vraag"]:not([data-level])'  # the ordinary bid's row, not a raised one's


def retype(page: Page, field: str, text: str) -> None:
    """Put the cursor in ``field``, select what it holds and type ``text`` over it, as a person does."""
    page.locator(f"#id_{field}").focus()
    page.keyboard.press("Control+A")
    page.keyboard.type(text)


def setup_rules() -> tuple[RuleSet, Any]:
    club = ClubFactory(name="Café De Klaver")
    rule_set = RuleSetFactory(club=club, name="Huisregels", preset="iwwa")
    admin = UserFactory(username="klaver-admin")
    MembershipFactory(club=club, player=PlayerFactory(user=admin), is_admin=True)
    return rule_set, admin


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_card_and_examples_follow_the_figures_typed_and_enter_saves(
    browser: Browser, live_server: LiveServer, device: dict[str, Any]
) -> None:
    rule_set, admin = setup_rules()
    page = new_page(browser, live_server, device)
    name = "phone" if device is PHONE else "desktop"
    try:
        login(page, live_server, admin)
        page.goto(reverse("manage-rule-set", args=[rule_set.pk]))
        made = page.locator(f"{VRAAG} td.made")
        expect(made).to_have_text(f"+2 / {MINUS}2")
        assert_accessible(page, context=f"rule set editor, {name}")

        retype(page, "vraag-base", "3")
        page.keyboard.press("Tab")
        page.keyboard.type("2")  # Tab went on to "Each trick more" and selected its 1: typing replaces it
        expect(made).to_have_text(f"+3 / {MINUS}3")
        expect(page.locator(f"{VRAAG} td.over")).to_contain_text(f"+2 / {MINUS}2")
        vraag = page.locator('#preview [data-example="vraag_two_overtricks"]')
        expect(vraag).to_have_attribute("data-points", "-7,7,-7,7")
        expect(vraag).to_contain_text(f"seat 1 {MINUS}7, seat 2 +7")
        shoot(page, f"rule-editor-{name}")
        rule_set.refresh_from_db()
        assert rule_set.overrides == {}  # nothing saved while typing

        page.keyboard.press("Enter")
        expect(page.locator(".messages")).to_contain_text("Rule set Huisregels saved.")
        rule_set.refresh_from_db()
        tariff = rule_set.engine_rules().tariffs["vraag"]
        assert (tariff.base, tariff.over) == (3, 2)
        assert worked_examples(rule_set.engine_rules())[0].points == (-7, 7, -7, 7)
        expect(page.locator("#id_vraag-base")).to_have_value("3")
        assert_no_csp_violations(page)
        assert script_errors(page) == []
    finally:
        page.context.close()


CASES = {
    "en": ("Count tricks more up to a number between 8 and 12.", "Not yet valid"),
    "nl": ("Tel slagen meer tot een getal tussen 8 en 12.", "Nog niet geldig"),
    "fr": ("Comptez les plis en plus jusqu'à un nombre entre 8 et 12.", "Pas encore valable"),
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", list(CASES))
def test_a_refused_figure_is_named_in_the_preview_and_beside_its_field(
    browser: Browser, live_server: LiveServer, language: str
) -> None:
    rule_set, admin = setup_rules()
    page = new_page(browser, live_server, PHONE)
    sentence, status = CASES[language]
    try:
        login(page, live_server, admin)
        page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        page.goto(reverse("manage-rule-set", args=[rule_set.pk]))
        retype(page, "vraag-over_until", "5")
        expect(page.locator("#preview-status")).to_contain_text(status)
        expect(page.locator("#preview-problems")).to_contain_text(sentence)
        page.keyboard.press("Enter")
        expect(page.locator("#id_vraag-over_until_error")).to_have_text(sentence)
        expect(page.locator("#id_vraag-over_until")).to_have_attribute("aria-invalid", "true")
        assert "over_until" not in page.locator("main").inner_text()  # no engine key in what a person reads
        rule_set.refresh_from_db()
        assert rule_set.overrides == {}

        retype(page, "vraag-over_until", "10")  # mended: the card comes back, and Enter saves
        expect(page.locator(f"{VRAAG} td.over small")).to_be_visible()
        page.keyboard.press("Enter")
        expect(page.locator("#id_vraag-over_until")).to_have_value("10")
        rule_set.refresh_from_db()
        assert rule_set.engine_rules().tariffs["vraag"].over_until == 10
        assert_accessible(page, context=f"rule set editor after saving, {language}")
        assert_no_csp_violations(page)
        assert script_errors(page) == []
    finally:
        page.context.close()
