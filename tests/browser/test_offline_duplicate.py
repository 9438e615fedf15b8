"""A relay table of a duplicate round loses the Wi-Fi: the deal it keeps on the device is named with its board, as
the preview names it online, so the server's refusal "on this board", when the connection returns, reads under
the board's number; set aside, the line stays on the device under the same name.

Table 2 of a three-table relay plays board 5 as its deal 1. The scorer, on a phone in French, types by keyboard while
offline a troel for two seats of which neither holds three aces on board 5.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from games.duplicate import troel_holder
from tests.browser.conftest import PHONE, assert_accessible, shoot, sideways_overflow
from tests.browser.test_entry_flow import ENTER, TAB, open_with_code
from tests.duplicate.test_movement import relay
from tournaments.duplicate.movement import board_for_deal
from tournaments.models import Board, DealEntry, ScoreSheet


@pytest.mark.django_db(transaction=True)
def test_a_relay_table_offline_keeps_deal_1_as_board_5_and_reads_the_boards_refusal_in_french(
    browser: Browser, live_server: LiveServer
) -> None:
    round_ = relay()
    sheet = ScoreSheet.objects.get(table__round=round_, table__number=2)
    assert board_for_deal(round_, 2, 1) == 5
    holder = troel_holder(Board.objects.get(round=round_, number=5).engine_board())
    seats = "24" if holder in (0, 2) else "13"  # two seats without three aces on board 5
    page = open_with_code(browser, live_server, sheet, PHONE)
    try:
        page.context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
        page.reload()
        expect(page.locator("#board-order")).to_contain_text("5–16, 1–4")
        expect(page.locator("select[name=contract]")).to_be_focused()

        page.context.set_offline(True)
        expect(page.locator("#connection")).to_have_attribute("data-state", "offline")
        page.keyboard.type("t")  # troel
        page.keyboard.press(TAB)
        page.keyboard.type(seats)
        page.keyboard.press(TAB)
        page.keyboard.type("8")
        page.keyboard.press(ENTER)
        kept = page.locator("#kept-lines ol.kept > li")
        expect(kept).to_have_count(1)
        heading = kept.first.locator("strong").inner_text()
        assert heading == "Donne 1, étui 5", heading
        said = kept.first.locator("p").first.inner_text()
        assert "Contrat\u00a0: Trou" in said and "Plis\u00a0: 8" in said, said  # French colons
        expect(page.locator("input[name=deal]")).to_have_value("2")
        assert DealEntry.objects.filter(sheet=sheet).count() == 0

        # back online: the server checks the line against board 5 and refuses it, naming the same board
        page.context.set_offline(False)
        expect(kept.first).to_have_attribute("data-state", "refused")
        refusal = kept.first.locator(".errorlist").inner_text()
        # "on this board", under the heading that names it
        assert refusal.startswith("Déclarants\u00a0: "), refusal  # the field, with French's spaced colon
        assert "trois as" in refusal and "sur cet étui" in refusal, refusal
        assert "[" not in refusal and "_" not in refusal and "seat" not in refusal, refusal
        assert kept.first.locator("strong").inner_text() == "Donne 1, étui 5"
        assert DealEntry.objects.filter(sheet=sheet).count() == 0  # nothing stored, and the table's line still kept
        assert sideways_overflow(page) <= 1
        assert_accessible(page, "relay entry page, a kept deal refused by its board, phone, fr")
        shoot(page, "offline-relay-refused-fr")

        # the table sets its line aside, by keyboard: it stays readable on the device, under its board
        kept.first.get_by_role("button", name="La mettre de côté").focus()
        page.keyboard.press(ENTER)
        expect(kept).to_have_count(0)
        aside = page.locator("#set-aside li").first.inner_text()
        assert aside.startswith("Donne 1, étui 5\u00a0: "), aside
        assert DealEntry.objects.filter(sheet=sheet).count() == 0
    finally:
        page.context.close()
