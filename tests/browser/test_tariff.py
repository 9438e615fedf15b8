"""Issue 15, item 10: everyone can see the points. From the competition page (and a table's sheet) a person
follows the link to the tariff card, reads it in Dutch, French and English, and prints it on one sheet."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import Browser, Page
from pytest_django.live_server_helper import LiveServer

from games.presets import FLEMISH
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
from tests.factories import seated_competition
from tests.roles import make_roles
from tournaments.contract_names import contract_name
from tournaments.tariff.card import wiezen_card

pytestmark = pytest.mark.django_db(transaction=True)

# What the card says of the Flemish house rules today: two all-pass rounds in a row double the next deal once
TWO_PASSES = "Two all-pass rounds in a row: the next deal still counts ×%(m)s, not more (all-pass rounds do not stack)."


def _clean(page: Page, context: str) -> None:
    assert_accessible(page, context=context)
    assert_no_csp_violations(page)
    assert script_errors(page) == []


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("language", ["nl", "fr", "en"])
def test_from_the_competition_page_a_player_reads_the_tariff_card(
    browser: Browser, live_server: LiveServer, language: str, device: dict[str, object]
) -> None:
    competition = seated_competition(players=4, preset="flemish", name="Kampioenschap Rupelstreek")
    page = new_page(browser, live_server, device)
    try:
        page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        page.goto(reverse("competition", args=[competition.slug]))
        page.locator(f"a[href='{reverse('tariff', args=[competition.slug])}']").first.click()
        page.wait_for_url(f"**{reverse('tariff', args=[competition.slug])}")
        assert page.locator("html").get_attribute("lang") == language
        rows = page.locator("#tariff-table tbody tr")
        card = wiezen_card(FLEMISH)
        assert rows.count() == len(card.rows)
        with translation.override(language):
            for i, row in enumerate(card.rows):
                name = contract_name(row.contract) + (f" {row.level}" if row.level is not None else "")
                assert page.locator("#tariff-table tbody th").nth(i).inner_text().startswith(name)
        alleen = page.locator("#tariff-table tr[data-contract='alleen']")
        assert alleen.locator("td.made").inner_text() == "+6 / \u22122"
        assert alleen.locator("td.failed").inner_text() == "\u22129 / +3"
        assert page.locator("#tariff-table tr[data-contract='troel'] td.made").inner_text() == "+4 / \u22124"
        # today two all-pass rounds in a row double the next deal once: the card says so
        with translation.override(language):
            assert page.locator("#two-passes").inner_text() == gettext(TWO_PASSES) % {"m": 2}
        assert "×4" in page.locator("#troel").inner_text()
        # nothing of the card is wider than a phone
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= page.viewport_size["width"]  # type: ignore[index]
        _clean(page, f"tariff card, {language}")
        shoot(page, f"tariff-{language}-{'phone' if device is PHONE else 'desktop'}")

        page.emulate_media(media="print")
        assert not page.locator("nav.toolbar").is_visible()
        assert page.locator("#tariff-card").is_visible()
        if device is DESKTOP:  # printing is the same from any screen; one PDF is enough
            assert _pages(page.pdf(prefer_css_page_size=True)) == 1, "the card fits one A5 page"
            assert _pages(page.pdf(format="A4")) == 1, "and one A4 page"
    finally:
        page.context.close()


def test_the_sheet_page_links_to_the_card_and_zwicken_gets_its_own(browser: Browser, live_server: LiveServer) -> None:
    competition = seated_competition(players=4, preset="iwwa")
    page = new_page(browser, live_server, DESKTOP)
    try:
        page.goto(reverse("sheet", args=[competition.slug, 1, 1]))
        page.locator(f"a[href='{reverse('tariff', args=[competition.slug])}']").first.click()
        page.wait_for_url(f"**{reverse('tariff', args=[competition.slug])}")
        assert page.locator("#tariff-table tr[data-contract='solo']").count() == 1  # iwwa has solo
        assert "does not count double" in page.locator("#after-pass").inner_text()
        _clean(page, "tariff card from the sheet")
        # and from the entry page, where the table keeps its score
        login(page, live_server, make_roles(competition).organiser)
        page.goto(reverse("sheet-entry", args=[competition.slug, 1, 1]))
        page.locator(f"a[href='{reverse('tariff', args=[competition.slug])}']").first.click()
        page.wait_for_url(f"**{reverse('tariff', args=[competition.slug])}")
        assert page.locator("#tariff-table tr[data-contract='solo_slim'] td.made").inner_text() == "+90 / \u221230"
    finally:
        page.context.close()


def test_a_zwicken_competition_gets_the_zwicken_card(browser: Browser, live_server: LiveServer) -> None:
    from tests.factories import ClubFactory
    from tournaments.services.competitions import create_competition, create_rule_set

    rule_set = create_rule_set(name="Zwicken", game="zwicken", preset="zwicken")
    competition = create_competition(club=ClubFactory(), name="Zwickerabend", slug="zwick", rule_set=rule_set)
    page = new_page(browser, live_server, PHONE)
    try:
        page.goto(reverse("competition", args=[competition.slug]))
        page.locator(f"a[href='{reverse('tariff', args=[competition.slug])}']").first.click()
        page.wait_for_url("**/tariff/")
        assert page.locator("#tariff-table").count() == 0
        assert "3" in page.locator("#zw-ante").inner_text()
        assert "Durchmarsch" in page.locator("#zw-durchmarsch").inner_text()
        _clean(page, "Zwicken tariff card, phone")
        shoot(page, "tariff-zwicken-phone")
        page.emulate_media(media="print")
        assert _pages(page.pdf(prefer_css_page_size=True)) == 1
    finally:
        page.context.close()
