"""Issue 15, item 2: a refused line names seats as the page does (1, 2, 3... as on the table card, with the
player's name), in the reader's language, without the engine's codes or Python lists.

The lines are typed as a scorer types them: the contract by the start of its name, Tab, the declarers' seat
numbers, Tab, the tricks, Enter.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import (
    DESKTOP,
    PHONE,
    assert_accessible,
    assert_no_csp_violations,
    new_page,
    script_errors,
)
from tests.factories import seated_competition
from tournaments.models import ScoreSheet
from tournaments.selectors.public import shown_seats
from tournaments.services.entry import record_deal

TAB, ENTER = "Tab", "Enter"
# What the reader's language calls a seat, and how the contracts start there (vraag, alleen).
SEAT = {"en": "seat", "nl": "plaats", "fr": "place"}
VRAAG = {"en": "v", "nl": "v", "fr": "em"}  # French: "Emballage"
ALLEEN = {"en": "al", "nl": "al", "fr": "se"}  # French: "Seul"
# What the old page showed instead: the engine's positions and codes.
ENGINE_WORDS = ("[", "]", "missing_partner", "declarer_sits_out", "declarers ", "declarer 1")


def a_sheet(players: int) -> ScoreSheet:
    competition = seated_competition(players=players)
    return ScoreSheet.objects.get(table__round__competition=competition, table__number=1)


def names(sheet: ScoreSheet) -> list[str]:
    """The players by engine position, named as the table (holding its code) sees them, e.g. "Ann P."."""
    return [seat.player.name for seat in shown_seats(sheet, full_names=False)]


def open_entry(browser: Browser, live_server: LiveServer, sheet: ScoreSheet, language: str, device: str) -> Page:
    page = new_page(browser, live_server, DESKTOP if device == "desktop" else PHONE)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    table = sheet.table
    page.goto(
        f"/c/{table.round.competition.slug}/r{table.round.number}/t{table.number}/entry/?code={sheet.captain_code}"
    )
    expect(page.locator("#captain")).to_be_visible()
    expect(page.locator("select[name=contract]")).to_be_focused()
    return page


def type_line(page: Page, contract: str, seats: str, tricks: str) -> None:
    page.keyboard.type(contract)
    page.keyboard.press(TAB)
    page.keyboard.type(seats)
    page.keyboard.press(TAB)
    page.keyboard.type(tricks)
    with page.expect_navigation():
        page.keyboard.press(ENTER)


def assert_readable(text: str) -> None:
    for word in ENGINE_WORDS:
        assert word not in text, f"{word!r} in {text!r}"


def named(language: str, number: int, player: str) -> re.Pattern[str]:
    """ "seat 3 (Ann P.)" in the reader's language, at the start of a sentence or inside one."""
    return re.compile(rf"{SEAT[language]} {number} \({re.escape(player)}\)", re.IGNORECASE)


def check_page(page: Page, context: str) -> None:
    assert_accessible(page, context)
    assert_no_csp_violations(page)
    assert script_errors(page) == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "nl", "fr"])
def test_a_vraag_with_one_declarer_names_that_seat_and_player_in_the_readers_language(
    browser: Browser, live_server: LiveServer, language: str
) -> None:
    sheet = a_sheet(players=4)
    player = names(sheet)[2]
    page = open_entry(browser, live_server, sheet, language, "desktop")
    type_line(page, VRAAG[language], "3", "9")  # vraag en meegaan by seat 3 alone: the partner is missing
    error = page.locator("#errors-seats")
    expect(error).to_contain_text(named(language, 3, player))
    assert_readable(error.inner_text())
    assert not sheet.entries.exists()
    check_page(page, f"entry page, a refused vraag, {language}")
    page.context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("language", "device"), [("en", "desktop"), ("nl", "phone"), ("fr", "desktop")])
def test_at_a_table_of_five_the_dealer_as_declarer_is_named_by_their_seat_on_the_card(
    browser: Browser, live_server: LiveServer, language: str, device: str
) -> None:
    sheet = a_sheet(players=5)
    record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 5})
    player = names(sheet)[1]  # deal 2 is dealt by seat 2 (engine position 1), who sits it out
    page = open_entry(browser, live_server, sheet, language, device)
    expect(page.locator("input[name=deal]")).to_have_value("2")
    type_line(page, ALLEEN[language], "2", "5")
    error = page.locator("#errors-seats")
    expect(error).to_contain_text(named(language, 2, player))
    assert not re.search(rf"{SEAT[language]} 1\b", error.inner_text(), re.IGNORECASE)
    assert_readable(error.inner_text())
    assert sheet.entries.count() == 1
    check_page(page, f"entry page, the dealer of a table of five as declarer, {language}, {device}")
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_an_alleen_with_a_partner_names_both_seats_and_the_contract_as_players_say_it(
    browser: Browser, live_server: LiveServer
) -> None:
    sheet = a_sheet(players=4)
    first, second = names(sheet)[:2]
    page = open_entry(browser, live_server, sheet, "nl", "desktop")
    type_line(page, ALLEEN["nl"], "12", "6")
    error = page.locator("#errors-seats")
    expect(error).to_contain_text(named("nl", 1, first))
    expect(error).to_contain_text(named("nl", 2, second))
    expect(error).to_contain_text("Alleen")
    text = error.inner_text()
    assert_readable(text)
    assert "alleen line" not in text and "partner_on_solo" not in text
    check_page(page, "entry page, a refused alleen, nl")
    page.context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("language", "typed", "trump"), [("fr", "co", "H"), ("fr", "ca", "D"), ("nl", "h", "H")])
def test_the_trump_is_picked_by_typing_the_start_of_its_name(
    browser: Browser, live_server: LiveServer, language: str, typed: str, trump: str
) -> None:
    """French "Cœur": a list does not match "co" against "cœ", so "co" picked Carreau, the first "c" (a persona run
    saved an abondance in diamonds); the list says "Coeur"."""
    sheet = a_sheet(players=4)
    page = open_entry(browser, live_server, sheet, language, "desktop")
    for text, key in [("ab", TAB), ("3", TAB), ("9", TAB), ("9", TAB), (typed, "")]:
        page.keyboard.type(text)
        if key:
            page.keyboard.press(key)
    with page.expect_navigation():
        page.keyboard.press(ENTER)
    (entry,) = sheet.entries.all()
    assert (entry.line["contract"], entry.line["trump"]) == ("abondance", trump)
    page.context.close()
