"""Issue 19's evening in a browser: an organiser creates a duplicate competition by keyboard, prints the hand
records and takes the PBN file; three tables enter their first board by keyboard on phones (one table in Dutch,
and a troel the board's cards refuse is answered in words); when the round is over, the board page shows every
table's result on the board beside the solver's table and the par, and the standings rank by matchpoints. While
the boards are played, a player reads the round's progress on a phone but no table's scores."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from games.duplicate import from_pbn, troel_holder
from tests.browser.conftest import (
    DESKTOP,
    PHONE,
    assert_accessible,
    assert_no_csp_violations,
    login,
    new_page,
    script_errors,
    shoot,
    sideways_overflow,
)
from tests.browser.test_entry_flow import ENTER, TAB, entry_path, type_groups
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory
from tournaments.duplicate.selectors import engine_boards
from tournaments.duplicate.services import deal_round_boards
from tournaments.models import Competition, DealEntry, Round, ScoreSheet
from tournaments.services.competitions import register_players, update_competition
from tournaments.services.entry import record_deal
from tournaments.services.rounds import create_round, finalise_round, publish_round
from tournaments.services.sheets import confirm_sheet

SLUG = "duplicate-night"
VRAAG = {"en": "v", "nl": "v", "fr": "em"}  # French: "Emballage"
DEALS = 16


def _vraag(deal: int, dealer: int) -> dict[str, object]:
    return {"deal": deal, "dealer": dealer, "contract": "vraag", "declarers": [dealer, (dealer + 2) % 4], "tricks": 8}


@pytest.mark.django_db(transaction=True)
def test_a_duplicate_evening_from_the_new_competition_to_the_board_pages(
    browser: Browser, live_server: LiveServer
) -> None:
    club = ClubFactory(name="Wiezenclub De Troef")
    director = UserFactory(username="director")
    MembershipFactory(club=club, player=PlayerFactory(user=director), is_admin=True)
    organiser = new_page(browser, live_server, DESKTOP)
    login(organiser, live_server, director)

    # 1. the competition, by keyboard: the duplicate box ticked with the space bar, sent with Enter
    organiser.goto(reverse("manage-competition-new"))
    organiser.locator("#id_name").focus()
    organiser.keyboard.type("Duplicate night")
    organiser.keyboard.press("Tab")
    organiser.keyboard.type(SLUG)
    organiser.locator("#id_duplicate").focus()
    organiser.keyboard.press("Space")
    expect(organiser.locator("#id_duplicate")).to_be_checked()
    organiser.locator("#id_name").focus()
    organiser.keyboard.press("Enter")
    organiser.wait_for_url(f"**{reverse('manage-competition', args=[SLUG])}")
    competition = Competition.objects.get(slug=SLUG)
    assert competition.duplicate and competition.club == club
    update_competition(competition, standings_method="matchpoints")
    register_players(competition, PlayerFactory.create_batch(12))
    round_ = publish_round(create_round(competition))
    deal_round_boards(round_, seed=1)  # the same boards every run
    boards = engine_boards(round_)
    assert [board.number for board in boards] == list(range(1, DEALS + 1))

    # 2. the hand records to print, and the PBN file for a dealing machine, from the boards page
    organiser.goto(reverse("manage-round", args=[SLUG, 1]))
    organiser.locator("#boards-link a").click()
    expect(organiser.locator("#sets")).to_contain_text("deal 3 sets")
    with organiser.expect_download() as download:
        organiser.locator("#pbn-link").click()
    pbn = download.value.path().read_text(encoding="utf-8")
    assert from_pbn(pbn) == boards  # what the machine deals is what the site dealt
    organiser.locator("#print-link").click()
    expect(organiser.locator("body")).to_contain_text("Board 16")
    assert_accessible(organiser, context="hand records")
    assert_no_csp_violations(organiser)
    shoot(organiser, "duplicate-hand-records")

    # 3. three tables enter board 1 on their phones, by keyboard, in English, Dutch and French; at the Dutch
    # table a troel first, which board 1 refuses (nobody holds three aces: seed 1 deals it so)
    assert troel_holder(boards[0]) is None
    sheets = list(ScoreSheet.objects.filter(table__round=round_).order_by("table__number"))
    for sheet, language in zip(sheets, ["en", "nl", "fr"], strict=True):
        phone = new_page(browser, live_server, PHONE)
        phone.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        phone.goto(f"{entry_path(sheet)}?code={sheet.captain_code}")
        expect(phone.locator("#captain")).to_be_visible()
        expect(phone.locator("select[name=contract]")).to_be_focused()
        if language == "nl":
            type_groups(phone, [("t", TAB), ("13", TAB), ("8", ENTER)])  # troel, seats 1 and 3
            refusal = phone.locator("#errors-seats").inner_text()
            assert "drie azen" in refusal, refusal
            assert "[" not in refusal and "_" not in refusal and "seat" not in refusal, refusal
            phone.locator("select[name=contract]").focus()
        type_groups(phone, [(VRAAG[language], TAB), ("13", TAB), ("8", ENTER)])  # vraag, seats 1 and 3, 8 tricks
        expect(phone.locator("input[name=deal]")).to_have_value("2")
        assert_no_csp_violations(phone)
        assert script_errors(phone) == []
        shoot(phone, f"duplicate-entry-{language}")
        phone.context.close()
    assert DealEntry.objects.filter(sheet__table__round=round_, deal_number=1).count() == 3

    # a player of table 3 reads the round on a phone in French while the boards are played: how far each table
    # is, but no points, no lines, and why
    spectator = new_page(browser, live_server, PHONE)
    spectator.context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
    spectator.goto(reverse("round", args=[SLUG, 1]))
    expect(spectator.locator("#scores-wait")).to_contain_text("d'autres tables jouent encore ces étuis")
    tables = spectator.locator("#tables").inner_text()
    assert tables.count("1 donne sur 16") == 3 and tables.count("\t–") == 12, tables
    assert not re.search(r"\t-?\d+$", tables, re.M), tables  # no player's points
    assert sideways_overflow(spectator) <= 1
    spectator.locator("#table-1 a").click()
    expect(spectator.locator("#scores-wait")).to_be_visible()
    assert spectator.locator("table.sheet").count() == 0
    assert_accessible(spectator, context="duplicate round in play, phone")
    shoot(spectator, "duplicate-round-in-play-fr")
    spectator.context.close()

    # the rest of the evening, as the tables would type it; the organiser confirms and finalises
    for sheet in sheets:
        for deal in range(2, DEALS + 1):
            record_deal(sheet, _vraag(deal, (deal - 1) % 4) | ({"tricks": 9} if sheet == sheets[0] else {}))
        confirm_sheet(sheet, by=director)
    finalise_round(Round.objects.get(pk=round_.pk), by=director)

    # 4. the board page: the hands, every table's result, the solver's table and the par; a player of table 3
    # comes to it from the table's sheet, whose deal 2 names its board, and goes back by the table's number
    reader = new_page(browser, live_server, PHONE)
    sheet_path = reverse("sheet", args=[SLUG, 1, 3])
    reader.goto(sheet_path)
    deal_two = reader.locator('tr[data-deal="2"] .board a')
    expect(deal_two).to_have_text("Board 2")
    assert sideways_overflow(reader) <= 1
    assert_accessible(reader, context="duplicate sheet, phone")
    shoot(reader, "duplicate-sheet-phone")
    deal_two.click()
    reader.wait_for_url(f"**{reverse('board', args=[SLUG, 1, 2])}#table-3")
    expect(reader.locator("#table-3")).to_be_in_viewport()
    body = reader.locator("main").inner_text()
    for sheet in sheets:
        assert f"{sheet.table.number}" in body
    assert re.search(r"par", body, re.I), body
    assert sideways_overflow(reader) <= 1  # no sideways scroll
    assert_accessible(reader, context="board page, phone")
    assert_no_csp_violations(reader)
    shoot(reader, "duplicate-board-phone")
    reader.locator("#table-3 a").click()
    reader.wait_for_url(f"**{sheet_path}")

    # 5. the standings rank by matchpoints: table 1 made one trick more on boards 2..16 than the others
    reader.goto(reverse("competition", args=[SLUG]))
    standings = reader.locator("#standings").inner_text()
    assert "%" in standings, standings
    reader.context.close()
    organiser.context.close()
