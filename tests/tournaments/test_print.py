"""The printable round: a table card and a blank score sheet per table, A4, one table at a time, and who may see it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import RuleSetFactory, UserFactory, seated_competition
from tests.roles import make_roles
from tests.tournaments.test_pages import Element, page
from tournaments.models import Competition, Round, RuleSet, Table

pytestmark = pytest.mark.django_db


def print_url(competition: Competition, round_number: int = 1) -> str:
    return reverse("round-print", args=[competition.slug, round_number])


def set_status(competition: Competition, status: str, round_number: int = 1) -> None:
    Round.objects.filter(competition=competition, number=round_number).update(status=status)


def publish(competition: Competition, round_number: int = 1) -> None:
    set_status(competition, Round.Status.PUBLISHED, round_number)


def draft(competition: Competition, round_number: int = 1) -> None:
    set_status(competition, Round.Status.DRAFT, round_number)


def with_rules(competition: Competition, rule_set: RuleSet) -> Competition:
    """The same seated competition under other rules (a Zwicken session is open-ended)."""
    Competition.objects.filter(pk=competition.pk).update(
        rule_set=rule_set,
        game=rule_set.game,
        deals_per_session=None if rule_set.game == RuleSet.GameChoice.ZWICKEN else competition.deals_per_session,
    )
    competition.refresh_from_db()
    return competition


def names_by_table(competition: Competition, round_number: int = 1) -> dict[int, list[str]]:
    tables = Table.objects.filter(round__competition=competition, round__number=round_number).order_by("number")
    return {t.number: [s.player.name for s in t.seats.order_by("position")] for t in tables}


def sections(doc: Element) -> list[Element]:
    return doc.find_all("section", class_="print-table")


def card_names(section: Element) -> list[str]:
    rows = section.find(class_="table-card").find("table", class_="seats").find("tbody").find_all("tr")
    return [row.find("td", class_="player").text() for row in rows]


def card_seat_numbers(section: Element) -> list[str]:
    rows = section.find(class_="table-card").find("table", class_="seats").find("tbody").find_all("tr")
    return [row.find("td", class_="num").text() for row in rows]


def sheet_rows(section: Element) -> list[Element]:
    return section.find("table", class_="score").find("tbody").find_all("tr")


def dealers(section: Element) -> list[str]:
    return [row.find("td", class_="dealer").text() for row in sheet_rows(section)]


def short(name: str) -> str:
    first, last = name.split(" ", 1)
    return f"{first} {last[0]}."


@pytest.fixture
def organiser(client: Client) -> Client:
    client.force_login(UserFactory(username="superorganiser", is_superuser=True, is_staff=True))
    return client


# -- what the page shows ------------------------------------------------------------------------------------------


def test_it_prints_every_table_with_its_players_in_seat_order_and_seat_1_as_first_dealer(organiser: Client) -> None:
    competition = seated_competition(players=13)  # tables of 5, 4 and 4
    expected = names_by_table(competition)

    doc = page(organiser.get(print_url(competition)))

    shown = sections(doc)
    assert [s.attrs["data-table"] for s in shown] == [str(n) for n in expected]
    for section, (number, names) in zip(shown, expected.items(), strict=True):
        card = section.find(class_="table-card")
        assert card.find(class_="table-number").find(class_="number").text() == str(number)
        assert competition.name in card.text() and "Round 1" in card.text()
        assert card_names(section) == names
        assert card_seat_numbers(section) == [str(n) for n in range(1, len(names) + 1)]
        assert card.find(class_="first-dealer-name").text() == names[0]
        assert "(seat 1)" in card.find(class_="first-dealer-line").text()
        headers = [th.text() for th in section.find("table", class_="score").find_all("th", class_="player")]
        assert headers == [f"{seat}. {name}" for seat, name in enumerate(names, start=1)]


def test_a_table_of_five_shows_five_players_and_that_the_dealer_sits_out(organiser: Client) -> None:
    competition = seated_competition(players=9)  # a table of 5 and one of 4

    four, five = sorted(sections(page(organiser.get(print_url(competition)))), key=lambda s: len(card_names(s)))

    assert len(card_names(five)) == 5 and len(card_names(four)) == 4
    assert "the dealer sits out each deal" in five.find(class_="sits-out").text()
    assert not four.find_all(class_="sits-out")
    for k, row in enumerate(sheet_rows(five)):  # the dealer's own points cell is shaded, nobody else's
        points = row.find_all("td", class_="points")
        assert [i for i, cell in enumerate(points) if "out" in (cell.attrs.get("class") or "").split()] == [k % 5]
    assert not four.find_all("td", class_="out")


@pytest.mark.parametrize("deals", [16, 24])
def test_the_score_sheet_has_one_row_per_deal_of_the_session(organiser: Client, deals: int) -> None:
    competition = seated_competition(players=8, deals_per_session=deals)

    for section in sections(page(organiser.get(print_url(competition)))):
        rows = sheet_rows(section)
        assert [row.find("td").text() for row in rows] == [str(k) for k in range(1, deals + 1)]
        header = [th.text() for th in section.find("table", class_="score").find("thead").find_all("th")]
        assert header[:5] == ["Deal", "Dealer", "Contract", "Declarer(s)", "Tricks"]
        assert header.count("Points") == 4 and header.count("Total") == 4


def test_the_dealer_column_follows_the_clockwise_rotation_from_seat_1(organiser: Client) -> None:
    competition = seated_competition(players=9)

    for section, names in zip(
        sections(page(organiser.get(print_url(competition)))), names_by_table(competition).values(), strict=True
    ):
        size = len(names)
        assert dealers(section) == [f"{(k - 1) % size + 1}. {short(names[(k - 1) % size])}" for k in range(1, 17)]
        order = section.find(class_="dealing-order").text()
        assert " → ".join(str(n) for n in range(1, size + 1)) in order


def test_a_counter_clockwise_rule_set_rotates_the_other_way(organiser: Client) -> None:
    competition = with_rules(seated_competition(players=4), RuleSetFactory(overrides={"rotation": "counter_clockwise"}))
    names = names_by_table(competition)[1]

    (section,) = sections(page(organiser.get(print_url(competition))))

    assert [d.split(".")[0] for d in dealers(section)[:5]] == ["1", "4", "3", "2", "1"]
    assert dealers(section)[1] == f"4. {short(names[3])}"
    assert "1 → 4 → 3 → 2" in section.find(class_="dealing-order").text()


def test_when_the_same_dealer_redeals_after_a_pass_only_the_first_dealer_is_prefilled(organiser: Client) -> None:
    competition = seated_competition(players=4, preset="belgian")  # after_pass: same_dealer
    names = names_by_table(competition)[1]

    (section,) = sections(page(organiser.get(print_url(competition))))

    assert dealers(section) == [f"1. {short(names[0])}"] + [""] * 15
    assert "the same dealer deals again" in section.find(class_="score-sheet").text()


def test_a_zwicken_sheet_has_24_blank_rows_with_chips_and_pot(organiser: Client) -> None:
    competition = with_rules(seated_competition(players=5), RuleSetFactory(game="zwicken", preset="zwicken"))

    (section,) = sections(page(organiser.get(print_url(competition))))

    table = section.find("table", class_="score")
    assert "zwicken" in table.attrs["class"].split()
    assert len(sheet_rows(section)) == 24
    assert dealers(section) == [""] * 24  # a cut can keep or move the deal: nothing to pre-fill
    header = [th.text() for th in table.find("thead").find_all("th")]
    assert header.count("Chips") == 5 and header.count("Tricks") == 5 and "Pot" in header and "Cut" in header
    assert "Contract" not in header
    assert not section.find_all(class_="sits-out")  # in Zwicken the dealer plays
    assert section.find(class_="first-dealer-name").text() == names_by_table(competition)[1][0]


def test_the_sheet_has_a_signature_line_per_player(organiser: Client) -> None:
    competition = seated_competition(players=9)

    for section, names in zip(
        sections(page(organiser.get(print_url(competition)))), names_by_table(competition).values(), strict=True
    ):
        assert [s.text() for s in section.find_all(class_="signature")] == [f"Signature of {n}" for n in names]


# -- print layout -------------------------------------------------------------------------------------------------


def test_each_table_is_its_own_section_of_a4_pages_that_break_after_each_page(organiser: Client) -> None:
    competition = seated_competition(players=12)  # three tables

    response = organiser.get(print_url(competition))
    doc = page(response)
    html = response.content.decode()

    style = doc.find("style").text()
    assert re.search(r"@page\s*{\s*size:\s*A4;\s*margin:", style)
    assert re.search(r"\.page\s*{[^}]*break-after:\s*page", style)
    assert re.search(r"\.page\s*{[^}]*page-break-after:\s*always", style)
    assert re.search(r"@media print\s*{[^@]*\.no-print\s*{\s*display:\s*none", style)
    assert len(sections(doc)) == 3
    for section in sections(doc):
        pages = section.find_all(class_="page")
        assert [p.attrs["class"].split()[1] for p in pages] == ["table-card", "score-sheet"]
    assert "data-print" in doc.find("button", class_=None).attrs  # wired to window.print() by the page's script
    script = doc.find("script")  # inline, so it carries the Content-Security-Policy nonce (no onclick attribute)
    assert "window.print()" in script.text() and script.attrs.get("nonce")
    assert "no-print" in doc.find("nav").attrs["class"].split()
    assert html.count('class="print-table"') == 3


@pytest.mark.parametrize(("only", "cards", "sheets"), [("cards", 3, 0), ("sheets", 0, 3), ("", 3, 3), ("junk", 3, 3)])
def test_only_cards_or_only_sheets(organiser: Client, only: str, cards: int, sheets: int) -> None:
    competition = seated_competition(players=12)

    doc = page(organiser.get(print_url(competition), {"only": only} if only else {}))

    assert len(sections(doc)) == 3
    assert len(doc.find_all(class_="table-card")) == cards
    assert len(doc.find_all(class_="score-sheet")) == sheets


def test_the_number_of_queries_does_not_grow_with_the_tables(client: Client) -> None:
    small = seated_competition(players=8)  # 2 tables
    large = seated_competition(players=80)  # 20 tables
    publish(small)
    publish(large)

    counts = []
    for competition in (small, large):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(print_url(competition)).status_code == 200
        counts.append(len(queries))

    assert counts[0] == counts[1] <= 5


def test_the_query_count_is_constant_for_an_organiser_too(
    organiser: Client, django_assert_max_num_queries: Any
) -> None:
    small, large = seated_competition(players=8), seated_competition(players=80)
    with CaptureQueriesContext(connection) as first:
        organiser.get(print_url(small))
    with django_assert_max_num_queries(len(first)):
        assert len(sections(page(organiser.get(print_url(large))))) == 20


# -- who may see it -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["organiser", "club_admin"])
def test_those_who_manage_the_competition_print_a_draft_round(client: Client, role: str) -> None:
    competition = seated_competition(players=4)
    draft(competition)
    client.force_login(getattr(make_roles(competition), role))
    assert page(client.get(print_url(competition))).find_all("section", class_="print-table")


def test_a_listed_organiser_prints_a_draft_round_of_a_hidden_competition(client: Client) -> None:
    competition = seated_competition(players=4, is_public=False)
    draft(competition)
    director = UserFactory(username="director")
    competition.organisers.add(director)
    client.force_login(director)
    assert client.get(print_url(competition)).status_code == 200


def test_a_draft_round_is_not_found_for_anyone_else(client: Client) -> None:
    competition = seated_competition(players=4)
    draft(competition)
    roles = make_roles(competition)
    assert client.get(print_url(competition)).status_code == 404
    for user in (roles.player, roles.outsider):
        client.force_login(user)
        assert client.get(print_url(competition)).status_code == 404


@pytest.mark.parametrize("status", [s for s in Round.Status.values if s != Round.Status.DRAFT])
def test_a_published_round_of_a_public_competition_is_printable_by_anyone(client: Client, status: str) -> None:
    competition = seated_competition(players=4)
    set_status(competition, status)  # published, or any later status
    assert len(sections(page(client.get(print_url(competition))))) == 1
    client.force_login(make_roles(competition).outsider)
    assert client.get(print_url(competition)).status_code == 200


def test_a_hidden_competition_is_not_found_even_when_its_round_is_published(client: Client) -> None:
    competition = seated_competition(players=4, is_public=False)
    publish(competition)
    roles = make_roles(competition)
    assert client.get(print_url(competition)).status_code == 404
    client.force_login(roles.outsider)
    assert client.get(print_url(competition)).status_code == 404
    client.force_login(roles.club_admin)
    assert client.get(print_url(competition)).status_code == 200


def test_an_unknown_round_or_competition_is_not_found(organiser: Client) -> None:
    competition = seated_competition(players=4)
    assert organiser.get(print_url(competition, 2)).status_code == 404
    assert organiser.get(reverse("round-print", args=["no-such-competition", 1])).status_code == 404


# -- languages ----------------------------------------------------------------------------------------------------


def test_the_page_speaks_dutch_to_a_dutch_browser(organiser: Client) -> None:
    competition = seated_competition(players=5, deals_per_session=24)
    names = names_by_table(competition)[1]

    doc = page(organiser.get(print_url(competition), HTTP_ACCEPT_LANGUAGE="nl"))

    assert doc.find("html").attrs.get("lang") == "nl"
    (section,) = sections(doc)
    card = section.find(class_="table-card")
    assert card.find(class_="label").text() == "Tafel"
    assert "Ronde 1" in card.text()
    assert card.find(class_="first-dealer-line").text() == f"Eerste deler: {names[0]} (plaats 1)"
    assert "de deler zit elk spel uit" in card.find(class_="sits-out").text()
    header = [th.text() for th in section.find("table", class_="score").find("thead").find_all("th")]
    assert header[:5] == ["Spel", "Deler", "Contract", "Speler(s)", "Slagen"]
    assert header.count("Punten") == 5 and header.count("Totaal") == 5
    assert doc.find("button").text() == "Afdrukken"


def test_the_page_speaks_french_to_a_french_browser(organiser: Client) -> None:
    competition = seated_competition(players=4)

    doc = page(organiser.get(print_url(competition), HTTP_ACCEPT_LANGUAGE="fr"))

    assert doc.find("html").attrs.get("lang") == "fr"
    card = doc.find(class_="table-card")
    assert card.find(class_="label").text() == "Table"
    assert card.find(class_="first-dealer-line").text().startswith("Premier donneur :")
    assert doc.find("button").text() == "Imprimer"


# -- the table's entry address on the organiser's cards --------------------------------------------------------------


def test_the_organisers_cards_carry_each_tables_entry_address_with_its_code_and_a_qr_code(organiser: Client) -> None:
    competition = seated_competition(players=8)
    doc = page(organiser.get(print_url(competition)))
    sheets = {t.number: t.sheet for t in Table.objects.filter(round__competition=competition).select_related("sheet")}
    for number, section in enumerate(sections(doc), start=1):
        link = section.find(class_="table-card").find(class_="entry-link")
        url = link.find("span", class_="url").text()
        assert url.endswith(f"/c/{competition.slug}/r1/t{number}/entry/?code={sheets[number].captain_code}")
        assert url.startswith("http://testserver/")
        assert link.find("svg", class_="segno")  # the same address as a QR code
        at_the_table = Client()  # nobody signed in: the code alone opens the sheet
        entry = at_the_table.get(url.removeprefix("http://testserver"), follow=True)
        assert entry.status_code == 200
        assert entry.redirect_chain[-1][0].endswith(f"/r1/t{number}/entry/")


def test_cards_printed_by_anyone_else_carry_no_table_code(client: Client) -> None:
    competition = seated_competition(players=8)
    publish(competition)
    codes = [t.sheet.captain_code for t in Table.objects.filter(round__competition=competition).select_related("sheet")]
    client.force_login(make_roles(competition).player)
    response = client.get(print_url(competition))
    assert not page(response).find_all(class_="entry-link")
    assert not any(code in response.content.decode() for code in codes)


def test_the_print_of_a_standings_only_competition_is_for_those_who_run_it(client: Client) -> None:
    competition = seated_competition(players=4)
    publish(competition)
    Competition.objects.filter(pk=competition.pk).update(public_results=False)
    assert client.get(print_url(competition)).status_code == 404
    client.force_login(make_roles(competition).club_admin)
    assert client.get(print_url(competition)).status_code == 200


# -- issue 15: who sits out how often, and a QR code that prints at its size -----------------------------------------


def sit_outs_on_card(section: Element) -> list[tuple[str, str, str]]:
    rows = section.find(class_="table-card").find("table", class_="sit-outs").find("tbody").find_all("tr")
    return [tuple(td.text() for td in row.find_all("td")) for row in rows]  # type: ignore[misc]


def test_a_table_of_five_with_24_deals_prints_who_sits_out_how_often(organiser: Client) -> None:
    competition = seated_competition(players=9, deals_per_session=24)  # a table of 5 and one of 4
    four, five = sorted(sections(page(organiser.get(print_url(competition)))), key=lambda s: len(card_names(s)))
    names = card_names(five)

    assert sit_outs_on_card(five) == [(str(n), names[n - 1], "5 deals" if n < 5 else "4 deals") for n in range(1, 6)]
    note = five.find(class_="score-sheet").find(class_="sit-outs").text()
    assert "seat 1 " + names[0] + ": 5 deals" in note and "seat 5 " + names[4] + ": 4 deals" in note
    assert not four.find_all(class_="sit-outs")  # at four nobody sits out


def test_16_deals_at_five_give_seat_1_the_extra_sit_out(organiser: Client) -> None:
    competition = seated_competition(players=5, deals_per_session=16)
    (section,) = sections(page(organiser.get(print_url(competition))))
    assert [deals for _n, _name, deals in sit_outs_on_card(section)] == ["4 deals"] + ["3 deals"] * 4


def test_no_count_is_printed_when_the_same_dealer_redeals_after_a_pass(organiser: Client) -> None:
    competition = seated_competition(players=5, preset="belgian", deals_per_session=24)
    (section,) = sections(page(organiser.get(print_url(competition))))
    assert not section.find_all(class_="sit-outs")  # who deals, and so who sits out, depends on the passes


def test_the_qr_code_takes_its_printed_size_from_the_page(organiser: Client) -> None:
    competition = seated_competition(players=4)
    response = organiser.get(print_url(competition))
    svg = page(response).find(class_="entry-link").find("svg", class_="segno")
    assert re.fullmatch(r"0 0 \d+ \d+", svg.attrs.get("viewbox") or svg.attrs.get("viewBox") or "")
    assert "width" not in svg.attrs and "height" not in svg.attrs  # a fixed size kept the drawing at ~2 cm
    assert ".qr svg { display: block; margin: 0 auto; width: 40mm; height: 40mm; }" in response.content.decode()
