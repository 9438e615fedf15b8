"""The entry page by keyboard, where it tripped (issue 15): Enter saves from every field, dropdowns included;
fields a contract does not use are not sent; the preview names the errors the save would; correction mode says so
and can be cancelled; a complete sheet offers no next deal; a sheet corrected after its confirmation shows its
current state, with dates as Belgian readers write them; Zwicken seats are numbered from 1.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from unittest import mock

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

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
from tests.browser.test_entry_flow import ENTER, TAB, entry_path, meant_lines, open_with_code, type_groups
from tests.factories import ClubFactory, PlayerFactory, UserFactory, seated_competition
from tournaments.models import DealEntry, ScoreSheet
from tournaments.services.competitions import create_competition, create_rule_set, register_players
from tournaments.services.entry import record_deal
from tournaments.services.rounds import create_round, publish_round
from tournaments.services.sheets import confirm_sheet

DOWN = "ArrowDown"
DEVICES = {"desktop": DESKTOP, "phone": PHONE}


def a_sheet() -> ScoreSheet:
    competition = seated_competition(players=4)
    return ScoreSheet.objects.get(table__round__competition=competition, table__number=1)


def clean(page: Page, context: str) -> None:
    """Axe, CSP and script errors on this state of the page. A one-time message (base.html's list, whose
    role="status" on the <ul> axe refuses; reported to be wrapped instead) is read first and the page reloaded."""
    if page.locator(".messages").count():
        page.reload()
    assert_accessible(page, context)
    assert_no_csp_violations(page)
    assert script_errors(page) == []


# What is typed, the key that leaves each field, and the line the engine stores (deal 1, seat 1 deals).
ENTER_FROM_A_LIST = {
    "abondance, Enter on the trump": (
        [("ab", TAB), ("1", TAB), ("10", TAB), ("9", TAB), ("h", ENTER)],
        {"contract": "abondance", "declarers": [0], "tricks": 10, "level": 9, "trump": "H"},
    ),
    "solo slim, Enter on the trump": (
        [("solo", DOWN), ("", TAB), ("2", TAB), ("13", TAB), ("s", ENTER)],
        {"contract": "solo_slim", "declarers": [1], "tricks": 13, "trump": "S"},
    ),
    "a pass, Enter on the contract": ([("p", ENTER)], {"contract": "pass"}),
    "a penalty, Enter on the offender": ([("st", TAB), ("3", ENTER)], {"contract": "penalty", "offender": 2}),
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("device", ["desktop", "phone"])
@pytest.mark.parametrize("case", list(ENTER_FROM_A_LIST))
def test_enter_saves_from_a_dropdown(browser: Browser, live_server: LiveServer, case: str, device: str) -> None:
    sheet = a_sheet()
    page = open_with_code(browser, live_server, sheet, DEVICES[device])
    expect(page.locator("select[name=contract]")).to_be_focused()
    groups, meant = ENTER_FROM_A_LIST[case]
    type_groups(page, groups)
    expect(page.locator(".messages")).to_contain_text("Deal 1 saved")
    assert DealEntry.objects.get(sheet=sheet).line == {"deal": 1, "dealer": 0, **meant}
    expect(page.locator("input[name=deal]")).to_have_value("2")
    clean(page, f"entry page after {case}, {device}")
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_the_save_message_says_what_was_played_and_each_seats_points(browser: Browser, live_server: LiveServer) -> None:
    sheet = a_sheet()
    page = open_with_code(browser, live_server, sheet, DESKTOP)
    type_groups(page, [("al", TAB), ("3", TAB), ("6", ENTER)])
    message = page.locator(".messages").inner_text()
    assert "[" not in message, message  # no Python list
    assert re.search(r"Deal 1 saved: Alleen .+; points 1 .+ −3, 2 .+ −3, 3 .+ \+9, 4 .+ −3", message), message
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_fields_the_chosen_contract_does_not_use_are_not_sent(browser: Browser, live_server: LiveServer) -> None:
    sheet = a_sheet()
    page = open_with_code(browser, live_server, sheet, DESKTOP)
    # An abondance typed, then the scorer goes back to the contract and makes it a miserie.
    for text, key in [("ab", TAB), ("1", TAB), ("10", TAB), ("9", TAB), ("h", "")]:
        page.keyboard.type(text)
        if key:
            page.keyboard.press(key)
    for _ in range(4):
        page.keyboard.press("Shift+Tab")
    expect(page.locator("select[name=contract]")).to_be_focused()
    type_groups(page, [("m", TAB), ("1", TAB), ("0", ENTER)])
    expect(page.locator(".messages")).to_contain_text("Deal 1 saved")
    line = DealEntry.objects.get(sheet=sheet).line
    assert line["contract"] == "miserie" and "level" not in line and "trump" not in line
    clean(page, "entry page after a miserie")
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_the_preview_names_the_errors_the_save_would(browser: Browser, live_server: LiveServer) -> None:
    sheet = a_sheet()
    page = open_with_code(browser, live_server, sheet, DESKTOP)
    for text in ("t", "12"):
        page.keyboard.type(text)
        page.keyboard.press(TAB)
    page.keyboard.type("14")
    preview = page.locator("#preview")
    expect(preview.locator(".preview-errors")).to_contain_text("14")  # the engine's word on the typed tricks
    said = preview.locator(".preview-errors").inner_text()
    with page.expect_navigation():
        page.keyboard.press(ENTER)
    refused = page.locator("#errors-tricks").inner_text().strip()
    assert refused and refused in said, (said, refused)
    assert not DealEntry.objects.exists()
    clean(page, "entry page, refused line")
    page.context.close()


def two_deals(sheet: ScoreSheet) -> None:
    record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "pass"})
    record_deal(sheet, {"deal": 2, "dealer": 1, "contract": "alleen", "declarers": [2], "tricks": 6})


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_correction_mode_says_so_shows_the_line_replaced_and_cancels(
    browser: Browser, live_server: LiveServer, device: str
) -> None:
    sheet = a_sheet()
    two_deals(sheet)
    page = open_with_code(browser, live_server, sheet, DEVICES[device])
    heading = page.locator("h1")
    expect(heading).to_contain_text("enter a deal")
    # A stray Enter on a focused "correct" link opens the correction, plainly, and saves nothing.
    page.locator("a[href='?deal=2']").focus()
    with page.expect_navigation():
        page.keyboard.press(ENTER)
    expect(heading).to_contain_text(re.compile("correcting deal 2", re.IGNORECASE))
    replaced = page.locator("#correcting")
    expect(replaced).to_contain_text("Alleen")
    expect(replaced).to_contain_text("+9")  # seat 3 made it
    assert list(DealEntry.objects.values_list("deal_number", "version")) == [(1, 1), (2, 1)]
    expect(page.locator("input[name=deal]")).to_have_value("2")
    shoot(page, f"entry-correcting-{device}")
    clean(page, f"entry page correcting, {device}")
    page.locator("#cancel-correction").focus()
    with page.expect_navigation():
        page.keyboard.press(ENTER)
    expect(heading).to_contain_text("enter a deal")
    expect(page.locator("input[name=deal]")).to_have_value("3")
    assert list(DealEntry.objects.values_list("deal_number", "version")) == [(1, 1), (2, 1)]
    page.context.close()


def complete_sheet(sheet: ScoreSheet) -> None:
    for line in meant_lines():
        record_deal(sheet, line)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_complete_sheet_offers_corrections_and_confirmation_not_a_next_deal(
    browser: Browser, live_server: LiveServer, device: str
) -> None:
    sheet = a_sheet()
    complete_sheet(sheet)
    page = new_page(browser, live_server, DEVICES[device])
    login(page, live_server, UserFactory(is_staff=True, is_superuser=True))  # an administrator who entered none
    page.goto(entry_path(sheet))
    expect(page.locator("#sheet-complete")).to_contain_text("All 16 deals are entered")
    expect(page.locator("h1")).to_contain_text("every deal is entered")
    expect(page.locator("#entry-form")).to_have_count(0)
    expect(page.locator("#confirm-sheet")).to_be_visible()
    expect(page.locator("a[href='?deal=16']")).to_be_visible()
    shoot(page, f"entry-complete-{device}")
    clean(page, f"entry page, complete sheet, {device}")
    with page.expect_navigation():
        page.locator("#confirm-sheet").click()
    expect(page.locator(".sheet-state")).to_have_text("Confirmed")
    expect(page.locator("#entry-form")).to_have_count(0)
    expect(page.locator("#sheet-complete")).to_be_visible()
    clean(page, f"entry page, confirmed sheet, {device}")
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_a_sheet_corrected_after_its_confirmation_shows_only_its_current_state(
    browser: Browser, live_server: LiveServer
) -> None:
    sheet = a_sheet()
    with mock.patch("django.utils.timezone.now", return_value=datetime(2026, 12, 1, 12, 52, tzinfo=UTC)):
        complete_sheet(sheet)
        confirm_sheet(sheet, by=UserFactory(is_superuser=True))
    page = new_page(browser, live_server, DESKTOP)
    page.context.add_cookies([{"name": "django_language", "value": "nl", "url": live_server.url}])
    page.goto(f"{entry_path(sheet)}?code={sheet.captain_code}")
    expect(page.locator(".review-last")).to_contain_text("1/12/2026 13:52")  # Brussels time, as Belgians write it
    corrected = {**meant_lines()[1], "contract": "alleen", "declarers": [0], "tricks": 5}
    record_deal(sheet, corrected, expected_version=1)  # a correction after the confirmation
    sheet.refresh_from_db()
    assert sheet.state == ScoreSheet.State.ENTERED
    page.reload()
    expect(page.locator(".sheet-state")).to_have_text("Ingevuld")
    expect(page.locator(".review-last")).to_have_count(0)
    clean(page, "entry page in Dutch, corrected after confirmation")
    page.context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_zwicken_entry_numbers_seats_from_1_and_starts_on_who_played(
    browser: Browser, live_server: LiveServer, device: str
) -> None:
    rule_set = create_rule_set(name="Zwicken", game="zwicken", preset="zwicken")
    competition = create_competition(club=ClubFactory(), name="Zwickerabend", slug="zwick", rule_set=rule_set)
    players = PlayerFactory.create_batch(4)
    register_players(competition, players)
    publish_round(create_round(competition))
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    page = open_with_code(browser, live_server, sheet, DEVICES[device])
    dealer_labels = page.locator("select[name=dealer] option").all_inner_texts()
    assert [label.split(" · ")[0] for label in dealer_labels] == ["1", "2", "3", "4"], dealer_labels
    for name in ("played", "duties_failed"):
        labels = [t.strip() for t in page.locator(f"[data-field={name}] label:has(input)").all_inner_texts()]
        assert [label.split(" · ")[0] for label in labels] == ["1", "2", "3", "4"], labels
    first_played = page.locator("input[name=played]").first
    expect(first_played).to_be_focused()
    # Seats 2, 3 and 4 played (seat 1 deals and antes), tricks 0, 2, 1, 0: typed, then Enter.
    page.keyboard.press(TAB)
    for _ in range(3):
        page.keyboard.press("Space")
        page.keyboard.press(TAB)
    for _ in range(4):  # past the four failed-duty boxes
        page.keyboard.press(TAB)
    type_groups(page, [("0", TAB), ("2", TAB), ("1", TAB), ("0", ENTER)])
    expect(page.locator(".messages")).to_contain_text("Deal 1 saved")
    line = DealEntry.objects.get(sheet=sheet).line
    assert line == {"deal": 1, "dealer": 0, "played": [1, 2, 3], "tricks": [0, 2, 1, 0]}
    expect(page.locator("input[name=played]").first).to_be_focused()
    clean(page, f"zwicken entry page, {device}")
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_enter_on_a_zwicken_box_saves(browser: Browser, live_server: LiveServer) -> None:
    rule_set = create_rule_set(name="Zwicken", game="zwicken", preset="zwicken")
    competition = create_competition(club=ClubFactory(), name="Zwickerabend", slug="zwick", rule_set=rule_set)
    register_players(competition, PlayerFactory.create_batch(4))
    publish_round(create_round(competition))
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    page = open_with_code(browser, live_server, sheet, DESKTOP)
    expect(page.locator("input[name=played]").first).to_be_focused()
    with page.expect_navigation():
        page.keyboard.press(ENTER)  # nobody played: the dealer loses the ante
    expect(page.locator(".messages")).to_contain_text("Deal 1 saved")
    assert DealEntry.objects.get(sheet=sheet).points == [-3, 0, 0, 0]
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_a_correction_picks_the_contract_by_the_start_of_its_name_as_a_new_deal_does(
    browser: Browser, live_server: LiveServer
) -> None:
    """The correction page opens on the stored contract, and the browser's own search starts after it: typing "ab"
    on an abondance went on to "Abondance in troef" (in French, "mi" on a misère to "Misère étalée"), and the
    preview showed other points (found by a persona run). The first key starts at the top; after it the browser
    searches as it does: "a" again after a pause goes on to the next option of that letter (found by a review)."""
    competition = seated_competition(players=4, preset="flemish")
    sheet = ScoreSheet.objects.get(table__round__competition=competition, table__number=1)
    record_deal(
        sheet,
        {"deal": 1, "dealer": 0, "contract": "abondance", "declarers": [0], "tricks": 9, "level": 9, "trump": "H"},
    )
    page = open_with_code(browser, live_server, sheet, PHONE)
    with page.expect_navigation():
        page.goto(f"{entry_path(sheet)}?deal=1")
    contract = page.locator("select[name=contract]")
    expect(contract).to_be_focused()
    expect(contract).to_have_value("abondance")
    page.keyboard.type("ab")
    expect(contract).to_have_value("abondance")
    page.wait_for_timeout(1100)  # the browser's search starts again, from the option shown
    page.keyboard.type("a")
    expect(contract).to_have_value("abondance_troef")
    page.wait_for_timeout(1100)
    page.keyboard.type("v")
    expect(contract).to_have_value("vraag")
    page.reload()
    expect(contract).to_be_focused()
    page.keyboard.type("abondance i")
    expect(contract).to_have_value("abondance_troef")
    assert script_errors(page) == []
    assert_no_csp_violations(page)
    page.context.close()
