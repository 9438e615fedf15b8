"""Issue 17, option 3 at the table: where the rule set plays vraag for 9 to 13 tricks and alleen for 6 to 8, the
entry page asks for the tricks bid after the tricks made (empty: the usual bid), typed by keyboard on a desktop
and a phone; a bid the rules do not play is refused in the players' language, naming the levels they do.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, assert_no_csp_violations, script_errors
from tests.browser.test_entry_flow import ENTER, TAB, open_with_code, type_groups
from tests.factories import seated_competition
from tournaments.models import DealEntry, ScoreSheet

RAISED = {"tariffs": {"vraag": {"levels": {"9": 4, "10": 6, "13": 20}}, "alleen": {"levels": {"6": 5}}}}


def raised_sheet() -> ScoreSheet:
    competition = seated_competition(players=4)
    rule_set = competition.rule_set
    rule_set.overrides = RAISED
    rule_set.full_clean()
    rule_set.save()
    return ScoreSheet.objects.get(table__round__competition=competition, table__number=1)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_vraag_bid_for_ten_and_an_ordinary_one_are_typed_as_a_person_types(
    browser: Browser, live_server: LiveServer, device: dict[str, Any]
) -> None:
    sheet = raised_sheet()
    page = open_with_code(browser, live_server, sheet, device)
    try:
        expect(page.locator("[data-field=level] label")).to_have_text("Tricks bid (level):")
        type_groups(page, [("v", TAB), ("13", TAB), ("10", TAB), ("10", ENTER)])  # vraag for 10, ten made
        expect(page.locator(".messages")).to_contain_text("Deal 1 saved")
        type_groups(page, [("v", TAB), ("24", TAB), ("9", ENTER)])  # the usual vraag: Enter leaves the level empty
        expect(page.locator(".messages")).to_contain_text("Deal 2 saved")
        lines = [e.line for e in DealEntry.objects.filter(sheet=sheet).order_by("deal_number")]
        assert lines == [
            {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [0, 2], "tricks": 10, "level": 10},
            {"deal": 2, "dealer": 1, "contract": "vraag", "declarers": [1, 3], "tricks": 9},
        ]
        assert [e.points for e in DealEntry.objects.filter(sheet=sheet).order_by("deal_number")] == [
            [6, -6, 6, -6],  # the level's 6, made exactly
            [-3, 3, -3, 3],  # iwwa: 2 + 1 overtrick
        ]
        page.reload()
        assert_accessible(page, "entry page with raised bids")
        assert_no_csp_violations(page)
        assert script_errors(page) == []
    finally:
        page.context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("nl", "Vraag en meegaan op niveau 11 wordt onder deze regels niet gespeeld"),
        ("fr", "Emballage au niveau 11 ne se joue pas"),
    ],
)
def test_a_raised_bid_the_rules_do_not_play_is_refused_in_words(
    browser: Browser, live_server: LiveServer, language: str, words: str
) -> None:
    sheet = raised_sheet()
    page = open_with_code(browser, live_server, sheet, PHONE)
    try:
        page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        page.reload()
        type_groups(page, [("v", TAB), ("13", TAB), ("11", TAB), ("11", ENTER)])
        expect(page.locator("[data-field=level] .errorlist")).to_contain_text(words)
        expect(page.locator("[data-field=level] .errorlist")).to_contain_text("9, 10, 13")
        assert not DealEntry.objects.filter(sheet=sheet).exists()
    finally:
        page.context.close()
