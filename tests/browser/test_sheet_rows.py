"""Issue 15, items 11, 12 and 14: every sheet row says what was played the way players write it, tables of five say
who sits out how often, the entry sheet's correct links fit a phone, and the table card's QR code prints at least
3 cm wide.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from games.generate import random_session
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
from tests.factories import ClubFactory, PlayerFactory, UserFactory, seated_competition
from tournaments.models import ScoreSheet
from tournaments.services.competitions import create_competition, create_rule_set, register_players
from tournaments.services.entry import record_deal
from tournaments.services.privacy import public_name
from tournaments.services.rounds import create_round, publish_round

DEVICES = {"desktop": DESKTOP, "phone": PHONE}
CM = 96 / 2.54  # CSS pixels in a centimetre

# Flemish rules: the deal after an all-pass deal counts double, and so does troel.
LINES: list[dict[str, Any]] = [
    {"deal": 1, "dealer": 0, "contract": "abondance", "declarers": [0], "tricks": 10, "level": 9, "trump": "H"},
    {"deal": 2, "dealer": 1, "contract": "miserie", "declarers": [2, 3], "tricks": [0, 1]},
    {"deal": 3, "dealer": 2, "contract": "pass"},
    {"deal": 4, "dealer": 3, "contract": "vraag", "declarers": [0, 2], "tricks": 9},
    {"deal": 5, "dealer": 0, "contract": "troel", "declarers": [1, 3], "tricks": 8},
]


def flemish_sheet(players: int = 4, **kwargs: Any) -> ScoreSheet:
    competition = seated_competition(players=players, preset="flemish", **kwargs)
    return ScoreSheet.objects.get(table__round__competition=competition, table__number=1)


def names(sheet: ScoreSheet) -> list[str]:
    return [public_name(seat.player) for seat in sheet.table.seats.select_related("player").order_by("position")]


def sheet_path(sheet: ScoreSheet, entry: bool = False) -> str:
    table = sheet.table
    name = "sheet-entry" if entry else "sheet"
    return reverse(name, args=[table.round.competition.slug, table.round.number, table.number])


def clean(page: Page, context: str) -> None:
    assert_accessible(page, context)
    assert_no_csp_violations(page)
    assert script_errors(page) == []


def row(page: Page, deal: int) -> Any:
    return page.locator(f"table.sheet tr.what[data-deal='{deal}']")


def assert_rows_say_what_was_played(page: Page, who: list[str]) -> None:
    expect(row(page, 1)).to_contain_text(f"Abondance 9 ♥ hearts — seat 1 {who[0]} — 10 tricks, made")
    expect(row(page, 2)).to_contain_text(f"Miserie — seat 3 {who[2]} made (0 tricks), seat 4 {who[3]} failed (1 trick)")
    expect(row(page, 3)).to_contain_text("the next deal counts double")
    expect(row(page, 4)).to_contain_text(f"seat 1 {who[0]} and seat 3 {who[2]} — 9 tricks, made")
    expect(row(page, 4)).to_contain_text("counts ×2: after an all-pass deal")
    expect(row(page, 5)).to_contain_text("counts ×2: troel counts double")
    expect(row(page, 1)).not_to_contain_text("counts ×")
    table = page.locator("table.sheet").inner_text()
    assert "[" not in table and "(1)" not in table, table


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_public_and_the_entry_sheet_say_what_was_played_and_why_a_deal_counts_double(
    browser: Browser, live_server: LiveServer, device: str
) -> None:
    sheet = flemish_sheet()
    for line in LINES:
        record_deal(sheet, line)
    who = names(sheet)
    public = new_page(browser, live_server, DEVICES[device])
    public.goto(sheet_path(sheet))
    assert_rows_say_what_was_played(public, who)
    public.locator("details summary").click()
    history = public.locator("details li").first
    expect(history).to_contain_text(f"deal 1 v1: Abondance 9 ♥ hearts — seat 1 {who[0]} — 10 tricks, made")
    expect(history).to_contain_text("points by seat 9 / -3 / -3 / -3")
    assert "[" not in public.locator("details").inner_text()
    shoot(public, f"sheet-rows-public-{device}")
    clean(public, f"public sheet, {device}")

    entry = new_page(browser, live_server, DEVICES[device])
    entry.goto(f"{sheet_path(sheet, entry=True)}?code={sheet.captain_code}")
    assert_rows_say_what_was_played(entry, who)
    shoot(entry, f"sheet-rows-entry-{device}")
    clean(entry, f"entry sheet, {device}")
    for page in (public, entry):
        page.context.close()


@pytest.mark.django_db(transaction=True)
def test_a_zwicken_sheet_names_each_players_tricks_and_has_no_multiplier(desktop: Page) -> None:
    rule_set = create_rule_set(name="Zwicken", game="zwicken", preset="zwicken")
    competition = create_competition(club=ClubFactory(), name="Zwickerabend", slug="zwick", rule_set=rule_set)
    register_players(competition, PlayerFactory.create_batch(4))
    publish_round(create_round(competition))
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    record_deal(sheet, {"deal": 1, "dealer": 0, "played": [1, 2, 3], "tricks": [0, 2, 1, 0]})
    who = names(sheet)
    desktop.goto(sheet_path(sheet))
    expect(row(desktop, 1)).to_contain_text(
        f"seat 1 {who[0]} passed, seat 2 {who[1]} 2 tricks, seat 3 {who[2]} 1 trick, seat 4 {who[3]} 0 tricks"
    )
    expect(desktop.locator("table.sheet")).not_to_contain_text("zwicken")
    expect(desktop.locator("table.sheet thead th")).to_have_count(5)  # deal and four seats: no ×
    clean(desktop, "zwicken public sheet")


@pytest.mark.django_db(transaction=True)
def test_a_table_of_five_with_24_deals_says_who_sits_out_how_often(browser: Browser, live_server: LiveServer) -> None:
    sheet = flemish_sheet(players=5, deals_per_session=24)
    who = names(sheet)
    record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [1, 2], "tricks": 8})
    expected = [f"seat {n} {who[n - 1]}: {5 if n < 5 else 4} deals" for n in range(1, 6)]

    public = new_page(browser, live_server, DESKTOP)
    public.goto(sheet_path(sheet))
    for text in expected:
        expect(public.locator(".sit-outs")).to_contain_text(text)
    clean(public, "public sheet of a table of five")
    public.goto(f"{sheet_path(sheet, entry=True)}?code={sheet.captain_code}")
    for text in expected:
        expect(public.locator(".sit-outs")).to_contain_text(text)

    organiser = new_page(browser, live_server, DESKTOP)
    login(organiser, live_server, UserFactory(username="boss", is_staff=True, is_superuser=True))
    organiser.goto(reverse("round-print", args=[sheet.table.round.competition.slug, 1]))
    full = [seat.player.name for seat in sheet.table.seats.select_related("player").order_by("position")]
    card_rows = organiser.locator(".table-card table.sit-outs tbody tr")
    expect(card_rows).to_have_count(5)
    for n in range(1, 6):
        expect(card_rows.nth(n - 1)).to_have_text(f"{n}{full[n - 1]}{5 if n < 5 else 4} deals", use_inner_text=False)
        expect(organiser.locator(".score-sheet .sit-outs")).to_contain_text(
            f"seat {n} {full[n - 1]}: {5 if n < 5 else 4} deals"
        )
    clean(organiser, "printed cards and sheets of a table of five")
    organiser.goto(reverse("round-print", args=[sheet.table.round.competition.slug, 1]) + "?only=cards")
    pdf = organiser.pdf(format="A4", prefer_css_page_size=True)
    assert len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf)) == 1, "the card of a table of five takes more than a page"
    for page in (public, organiser):
        page.context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("players", [4, 5])
def test_on_a_phone_every_correct_link_of_the_entry_sheet_is_within_the_screen(phone: Page, players: int) -> None:
    sheet = flemish_sheet(players=players, deals_per_session=24)
    rules = sheet.table.round.competition.rule_set.engine_rules()
    for line in random_session(rules, random.Random(15), players, 24):  # a whole evening: totals in the hundreds
        record_deal(sheet, line)
    phone.goto(f"{sheet_path(sheet, entry=True)}?code={sheet.captain_code}")
    region = phone.locator("table.sheet").locator("xpath=..")
    # nothing to scroll sideways: every column, the correct links too, is on the screen as it opens
    assert region.evaluate("r => r.scrollWidth <= r.clientWidth"), "the sheet scrolls sideways on a phone"
    for deal in range(1, 25):
        link = phone.locator(f"a[href='?deal={deal}']")
        expect(link).to_be_visible()
        box = link.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    shoot(phone, f"entry-sheet-phone-{players}")
    clean(phone, f"entry sheet of a table of {players}, phone")


@pytest.mark.django_db(transaction=True)
def test_the_table_cards_qr_code_prints_at_least_3_cm_wide(desktop: Page, live_server: LiveServer) -> None:
    competition = seated_competition(players=8)
    login(desktop, live_server, UserFactory(username="boss", is_staff=True, is_superuser=True))
    desktop.goto(reverse("round-print", args=[competition.slug, 1]) + "?only=cards")
    desktop.emulate_media(media="print")
    # the dark modules as drawn, quiet zone left out: the box of the <svg> element alone says nothing when the
    # drawing inside it keeps its own size
    codes = desktop.locator(".table-card .qr svg path")
    expect(codes).to_have_count(2)
    for index in range(2):
        size = codes.nth(index).evaluate("p => [p.getBoundingClientRect().width, p.getBoundingClientRect().height]")
        assert min(size) >= 3 * CM, f"QR code {index + 1} prints {size[0] / CM:.1f} × {size[1] / CM:.1f} cm"
    pdf = desktop.pdf(format="A4", prefer_css_page_size=True)
    assert pdf.startswith(b"%PDF")
    desktop.emulate_media(media="screen")
    clean(desktop, "printed table cards")
