"""The keyboard-first entry page: seat numbers as typed, points as you type, and the sheet's confirmation."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.generate import random_session
from scoring.models import Standing
from tests.factories import CompetitionFactory, PlayerFactory, RuleSetFactory, UserFactory
from tests.roles import Roles, make_roles
from tests.tournaments.test_pages import page
from tournaments.devices import COOKIE, KNOWN, digest
from tournaments.models import AuditEvent, DealEntry, Penalty, ScoreSheet
from tournaments.services.competitions import register_players
from tournaments.services.entry import record_deal
from tournaments.services.rounds import create_round, publish_round

pytestmark = pytest.mark.django_db

PASS_1 = {"deal": 1, "dealer": 0, "contract": "pass"}
ALLEEN_6 = {"deal": 2, "dealer": 1, "contract": "alleen", "declarers": [2], "tricks": 6}


def a_sheet(**overrides: Any) -> ScoreSheet:
    """The first sheet of a published round of four, under IWWA rules with ``overrides``."""
    competition = CompetitionFactory(rule_set=RuleSetFactory(preset="iwwa", overrides=overrides))
    register_players(competition, PlayerFactory.create_batch(4))
    round_ = publish_round(create_round(competition))
    return ScoreSheet.objects.get(table__round=round_, table__number=1)


def url(sheet: ScoreSheet, name: str = "sheet-entry") -> str:
    table = sheet.table
    return reverse(name, args=[table.round.competition.slug, table.round.number, table.number])


@pytest.fixture
def sheet() -> ScoreSheet:
    return a_sheet()


@pytest.fixture
def roles(sheet: ScoreSheet) -> Roles:
    return make_roles(sheet.table.round.competition)


def form(**fields: Any) -> dict[str, Any]:
    return {"deal": 1, "dealer": 0, "idempotency_key": "", "version": 0, **fields}


# -- typing the declarers as seat numbers -----------------------------------------------------------------------


def test_declarers_are_typed_as_seat_numbers_as_on_the_table_card(
    client: Client, sheet: ScoreSheet, roles: Roles
) -> None:
    client.force_login(roles.club_admin)
    response = client.post(url(sheet), form(contract="vraag", seats="13", tricks="9"))
    assert response.status_code == 302
    assert DealEntry.objects.get(sheet=sheet).line["declarers"] == [0, 2]  # seats 1 and 3: positions 0 and 2


@pytest.mark.parametrize(
    ("seats", "message"), [("5", "numbered 1 to 4"), ("22", "Each seat once"), ("1x", "seat numbers")]
)
def test_seat_numbers_the_table_does_not_have_are_refused_on_the_field(
    client: Client, sheet: ScoreSheet, roles: Roles, seats: str, message: str
) -> None:
    client.force_login(roles.club_admin)
    doc = page(client.post(url(sheet), form(contract="alleen", seats=seats, tricks="6")))
    assert message in doc.find(id="errors-seats").text()
    assert not DealEntry.objects.exists()


def test_the_page_lists_the_fields_each_contract_needs_and_names_contracts_in_dutch(
    client: Client, sheet: ScoreSheet, roles: Roles
) -> None:
    client.force_login(roles.club_admin)
    doc = page(client.get(url(sheet)))
    needs = doc.find("script", id="contract-needs").text()
    assert '"pass": []' in needs and '"vraag": ["seats", "tricks"]' in needs
    assert "Vraag en meegaan" in doc.find("select", name="contract").text()


def test_french_pages_name_the_contracts_in_french(client: Client, sheet: ScoreSheet, roles: Roles) -> None:
    client.force_login(roles.club_admin)
    doc = page(client.get(url(sheet), HTTP_ACCEPT_LANGUAGE="fr"))
    assert "Emballage" in doc.find("select", name="contract").text()


# -- points as you type -------------------------------------------------------------------------------------------


def test_the_preview_settles_the_line_without_storing_it(client: Client, sheet: ScoreSheet, roles: Roles) -> None:
    client.force_login(roles.club_admin)
    response = client.post(url(sheet, "sheet-entry-preview"), form(contract="alleen", seats="3", tricks="6"))
    doc = page(response)
    rows = doc.find("section", id="preview").find("tbody").find_all("tr")
    assert [td.text() for td in rows[0].find_all("td")] == ["-3", "-3", "9", "-3"]
    assert [td.text() for td in rows[1].find_all("td")] == ["-3", "-3", "9", "-3"]  # the running total
    assert not DealEntry.objects.exists()


def test_the_preview_marks_a_typed_field_the_engine_refuses_and_lists_what_is_missing(
    client: Client, sheet: ScoreSheet, roles: Roles
) -> None:
    client.force_login(roles.club_admin)
    doc = page(client.post(url(sheet, "sheet-entry-preview"), form(contract="alleen", seats="", tricks="14")))
    tricks_errors = doc.find(id="errors-tricks")
    assert tricks_errors.attrs.get("hx-swap-oob") == "true" and tricks_errors.find_all("ul")  # inline, in place
    assert "Declarers" in doc.find("section", id="preview").text()  # not typed yet: named in the preview
    assert not doc.find(id="errors-seats").find_all("ul")


def test_correcting_a_deal_shows_which_later_deals_change(client: Client) -> None:
    sheet = a_sheet(doubling="next_deal")  # the deal after an all-pass round counts double
    roles = make_roles(sheet.table.round.competition)
    record_deal(sheet, PASS_1)
    doubled = record_deal(sheet, ALLEEN_6).entry
    assert doubled.points == [-6, -6, 18, -6]
    client.force_login(roles.club_admin)
    corrected = form(contract="alleen", seats="2", tricks="5")  # deal 1 played after all: deal 2 no longer doubles
    doc = page(client.post(url(sheet, "sheet-entry-preview"), corrected))
    later = doc.find("ul", class_="later").text()
    assert "deal 2: -6 / -6 / 18 / -6 → -3 / -3 / 9 / -3" in later
    assert DealEntry.objects.count() == 2


def test_the_preview_needs_the_same_rights_as_the_entry(client: Client, sheet: ScoreSheet, roles: Roles) -> None:
    assert client.post(url(sheet, "sheet-entry-preview"), form(contract="pass")).status_code == 302  # to log in
    client.force_login(roles.player)
    assert client.post(url(sheet, "sheet-entry-preview"), form(contract="pass")).status_code == 403
    client.force_login(roles.club_admin)
    assert client.get(url(sheet, "sheet-entry-preview")).status_code == 405


# -- confirmation ---------------------------------------------------------------------------------------------------


def complete(sheet: ScoreSheet, **kwargs: Any) -> None:
    import random

    rules = sheet.table.round.competition.rule_set.engine_rules()
    for line in random_session(rules, random.Random(3), 4, 16):
        record_deal(sheet, line, **kwargs)


def at_the_table(sheet: ScoreSheet) -> Client:
    """A phone that opened the sheet with its table code, nobody signed in."""
    client = Client()
    assert client.get(url(sheet), {"code": sheet.captain_code}).status_code == 302
    return client


def test_the_table_that_entered_cannot_confirm_but_an_opponent_with_the_code_can(sheet: ScoreSheet) -> None:
    scorer, opponent = at_the_table(sheet), at_the_table(sheet)
    complete(sheet, entered_in=KNOWN + digest(scorer.cookies[COOKIE].value))  # the scorer's phone, as a device
    sheet.refresh_from_db()
    assert sheet.state == ScoreSheet.State.ENTERED
    assert "confirm-sheet" not in scorer.get(url(sheet)).content.decode()  # the page offers no button…
    scorer.post(url(sheet, "sheet-confirm"))  # …and the service refuses it anyway
    sheet.refresh_from_db()
    assert sheet.state == ScoreSheet.State.ENTERED

    assert page(opponent.get(url(sheet))).find("button", id="confirm-sheet")
    assert opponent.post(url(sheet, "sheet-confirm")).status_code == 302
    sheet.refresh_from_db()
    assert sheet.state == ScoreSheet.State.CONFIRMED
    assert AuditEvent.objects.filter(model="scoresheet", object_id=str(sheet.pk), action="confirm").exists()


def test_an_administrator_who_entered_cannot_confirm_another_can(sheet: ScoreSheet, roles: Roles) -> None:
    complete(sheet, by=roles.club_admin)
    entered, other = Client(), Client()
    entered.force_login(roles.club_admin)
    other.force_login(UserFactory(username="second", is_staff=True, is_superuser=True))
    entered.post(url(sheet, "sheet-confirm"))
    sheet.refresh_from_db()
    assert sheet.state == ScoreSheet.State.ENTERED
    other.post(url(sheet, "sheet-confirm"))
    sheet.refresh_from_db()
    assert sheet.state == ScoreSheet.State.CONFIRMED


def test_a_rejection_needs_a_reason_sends_the_sheet_back_and_shows_why(sheet: ScoreSheet, roles: Roles) -> None:
    complete(sheet, by=roles.club_admin)
    reviewer = Client()
    reviewer.force_login(roles.organiser)
    reviewer.post(url(sheet, "sheet-reject"), {"reason": "   "})
    sheet.refresh_from_db()
    assert sheet.state == ScoreSheet.State.ENTERED  # no reason, no rejection

    reviewer.post(url(sheet, "sheet-reject"), {"reason": "deal 7: Anna had 6 tricks, not 7"})
    sheet.refresh_from_db()
    assert sheet.state == ScoreSheet.State.DRAFT
    scorer = Client()
    scorer.force_login(roles.club_admin)
    shown = page(scorer.get(url(sheet))).find(class_="review-last").text()
    assert "Rejected by organiser" in shown and "deal 7: Anna had 6 tricks, not 7" in shown


def test_nobody_confirms_a_sheet_that_is_not_entered_yet(sheet: ScoreSheet, roles: Roles) -> None:
    record_deal(sheet, PASS_1)
    reviewer = Client()
    reviewer.force_login(roles.organiser)
    response = reviewer.post(url(sheet, "sheet-confirm"), follow=True)
    assert "only an entered sheet can be confirmed" in response.content.decode()
    sheet.refresh_from_db()
    assert sheet.state == ScoreSheet.State.DRAFT


# -- penalties ------------------------------------------------------------------------------------------------------


def test_an_organiser_gives_a_penalty_with_a_reason_and_the_standings_count_it(
    client: Client, sheet: ScoreSheet, roles: Roles, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(roles.organiser)
    seat = sheet.table.seats.get(position=1)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url(sheet, "sheet-penalty"), {"position": 1, "points": 5, "reason": "arrived late"})
    assert response.status_code == 302
    penalty = Penalty.objects.get()
    assert (penalty.player_id, penalty.points, penalty.reason) == (seat.player_id, 5, "arrived late")
    assert penalty.round_id == sheet.table.round_id and penalty.created_by == roles.organiser
    standing = Standing.objects.get(competition=sheet.table.round.competition, player_id=seat.player_id)
    assert standing.penalty_points == 5
    shown = page(client.get(url(sheet))).find("ul", class_="penalties").text()
    assert "−5 (arrived late)" in shown


@pytest.mark.parametrize("fields", [{"points": 5, "reason": "  "}, {"points": 0, "reason": "late"}])
def test_a_penalty_without_a_reason_or_points_is_refused(
    client: Client, sheet: ScoreSheet, roles: Roles, fields: dict[str, Any]
) -> None:
    client.force_login(roles.organiser)
    response = client.post(url(sheet, "sheet-penalty"), {"position": 1, **fields}, follow=True)
    assert not Penalty.objects.exists()
    said = page(response).find("li", class_="error").text()
    assert said.startswith("Reason: " if "late" not in fields["reason"] else "Points deducted: "), said


def test_a_refused_penalty_names_its_field_as_french_writes_a_colon(
    client: Client, sheet: ScoreSheet, roles: Roles
) -> None:
    client.force_login(roles.organiser)
    typed = {"position": 1, "points": 5, "reason": " "}
    response = client.post(url(sheet, "sheet-penalty"), typed, follow=True, HTTP_ACCEPT_LANGUAGE="fr")
    assert page(response).find("li", class_="error").text() == "Motif : Ce champ est obligatoire."
    assert "Motif\u00a0: Ce champ" in response.content.decode()  # the colon never starts a line


def test_a_table_with_its_code_gives_no_penalties(sheet: ScoreSheet) -> None:
    table = Client()
    table.get(url(sheet), {"code": sheet.captain_code})
    assert table.post(url(sheet, "sheet-penalty"), {"position": 1, "points": 5, "reason": "x"}).status_code == 403
    assert "penalty-title" not in table.get(url(sheet)).content.decode()
    assert not Penalty.objects.exists()


def test_the_sheets_history_shows_its_confirmations_and_rejections_with_the_reason(
    client: Client, sheet: ScoreSheet, roles: Roles
) -> None:
    complete(sheet, by=roles.club_admin)
    reviewer = Client()
    reviewer.force_login(roles.organiser)
    reviewer.post(url(sheet, "sheet-reject"), {"reason": "deal 3 is wrong"})
    events = [li.text() for li in page(client.get(url(sheet, "sheet"))).find_all("li", class_="review-event")]
    assert len(events) == 1 and events[0].startswith("rejected: deal 3 is wrong")
    assert "organiser" not in events[0]  # the public sees what happened, not the account that did it
    shown = page(reviewer.get(url(sheet, "sheet"))).find("li", class_="review-event").text()
    assert "organiser" in shown


# -- issue 15: what the page sends, says and offers ---------------------------------------------------------------


def test_fields_a_contract_does_not_use_are_neither_judged_nor_sent(
    client: Client, sheet: ScoreSheet, roles: Roles
) -> None:
    client.force_login(roles.club_admin)
    left_over = {"level": "9", "trump": "H", "offender": "7"}  # from an abondance, and a seat the table lacks
    assert client.post(url(sheet), form(contract="miserie", seats="1", tricks="0", **left_over)).status_code == 302
    line = DealEntry.objects.get(sheet=sheet).line
    assert line["contract"] == "miserie" and not {"level", "trump", "offender"} & set(line)
    client.post(url(sheet), form(deal=2, dealer=1, contract="pass", seats="9x", tricks="14"))
    assert DealEntry.objects.get(sheet=sheet, deal_number=2).line == {"deal": 2, "dealer": 1, "contract": "pass"}


def test_the_preview_names_each_error_the_save_would(client: Client, sheet: ScoreSheet, roles: Roles) -> None:
    client.force_login(roles.club_admin)
    typed = form(contract="troel", seats="12", tricks="14")
    said = page(client.post(url(sheet, "sheet-entry-preview"), typed)).find(class_="preview-errors").text()
    refused = page(client.post(url(sheet), typed)).find(id="errors-tricks").text().strip()
    assert refused and refused in said and "Tricks" in said


@pytest.mark.parametrize(("language", "starts"), [("en", "Tricks: "), ("nl", "Slagen: "), ("fr", "Plis\u00a0: ")])
def test_the_preview_names_each_field_before_its_error_as_the_language_writes_a_colon(
    client: Client, sheet: ScoreSheet, roles: Roles, language: str, starts: str
) -> None:
    client.force_login(roles.club_admin)
    typed = form(contract="troel", seats="12", tricks="14")
    said = client.post(url(sheet, "sheet-entry-preview"), typed, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f">{starts}" in said, said  # the list item begins with the field's name (French: a colon never wraps)


def test_the_save_message_says_what_was_played_and_each_seats_points(
    client: Client, sheet: ScoreSheet, roles: Roles
) -> None:
    client.force_login(roles.club_admin)
    names = [seat.player.name for seat in sheet.table.seats.select_related("player").order_by("position")]
    response = client.post(url(sheet), form(contract="alleen", seats="3", tricks="6"), follow=True)
    message = page(response).find(class_="messages").text()
    assert "Deal 1 saved: Alleen" in message and names[2] in message and "[" not in message
    assert f"1 {names[0]} −3, 2 {names[1]} −3, 3 {names[2]} +9, 4 {names[3]} −3" in message


def test_a_correction_says_which_deal_it_replaces_and_offers_to_cancel(
    client: Client, sheet: ScoreSheet, roles: Roles
) -> None:
    record_deal(sheet, PASS_1)
    record_deal(sheet, ALLEEN_6)
    client.force_login(roles.club_admin)
    doc = page(client.get(url(sheet) + "?deal=2"))
    assert "correcting deal 2" in doc.find("h1").text()
    replaced = doc.find(id="correcting").text()
    assert "Alleen" in replaced and "+9" in replaced
    assert doc.find(id="cancel-correction").attrs["href"] == url(sheet)
    assert "correcting" not in page(client.get(url(sheet))).find("h1").text()


def test_a_complete_sheet_offers_no_next_deal(client: Client, sheet: ScoreSheet, roles: Roles) -> None:
    complete(sheet)
    client.force_login(roles.club_admin)
    doc = page(client.get(url(sheet)))
    assert "All 16 deals are entered" in doc.find(id="sheet-complete").text()
    assert not doc.find_all(id="entry-form")
    assert page(client.get(url(sheet) + "?deal=16")).find_all(id="entry-form")  # corrections stay open


def test_a_review_is_shown_only_while_it_still_applies(sheet: ScoreSheet, roles: Roles) -> None:
    complete(sheet)
    admin = Client()
    admin.force_login(roles.club_admin)
    assert admin.post(url(sheet, "sheet-confirm")).status_code == 302
    assert "Confirmed by" in page(admin.get(url(sheet))).find(class_="review-last").text()
    current = DealEntry.objects.get(sheet=sheet, deal_number=16, is_current=True)
    record_deal(sheet, {**current.line}, expected_version=1)  # saved again after the confirmation: entered again
    doc = page(admin.get(url(sheet)))
    assert doc.find(class_="sheet-state").text() == "Entered"
    assert not doc.find_all(class_="review-last")


@pytest.mark.parametrize("language", ["nl", "fr", "en"])
def test_short_dates_are_written_as_belgians_do(language: str) -> None:
    from datetime import UTC, datetime

    from django.template import Context, Template
    from django.utils import timezone, translation

    moment = datetime(2026, 12, 1, 12, 52, tzinfo=UTC)
    with translation.override(language), timezone.override("Europe/Brussels"):
        shown = Template('{{ at|date:"SHORT_DATETIME_FORMAT" }}').render(Context({"at": moment}))
    assert shown == "1/12/2026 13:52"


def test_zwicken_seats_are_numbered_from_1_and_the_sheet_has_no_multiplier_column(
    client: Client, sheet: ScoreSheet, roles: Roles
) -> None:
    from tournaments.services.competitions import create_competition, create_rule_set

    rule_set = create_rule_set(name="Zwicken", game="zwicken", preset="zwicken")
    competition = create_competition(club=CompetitionFactory().club, name="Zwick", slug="zwick", rule_set=rule_set)
    register_players(competition, PlayerFactory.create_batch(4))
    round_ = publish_round(create_round(competition))
    zwicken = ScoreSheet.objects.get(table__round=round_)
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    response = client.get(url(zwicken))
    assert response.context["multiplier_column"] is False
    labels = [option.text() for option in page(response).find("select", name="dealer").find_all("option")]
    assert [label.split(" · ")[0] for label in labels] == ["1", "2", "3", "4"]
    assert client.get(url(sheet)).context["multiplier_column"] is True


def test_the_entry_page_links_to_the_competitions_tariff_card(client: Client, sheet: ScoreSheet, roles: Roles) -> None:
    client.force_login(roles.club_admin)
    tariff = reverse("tariff", args=[sheet.table.round.competition.slug])
    assert page(client.get(url(sheet))).find_all("a", href=tariff)


@pytest.mark.parametrize(
    ("language", "said"), [("en", "Deal 1 corrected (version 2): Pas"), ("fr", "Donne 1 corrigée (version 2)")]
)
def test_a_correction_says_it_replaced_the_deal(
    client: Client, sheet: ScoreSheet, roles: Roles, language: str, said: str
) -> None:
    """A table that opened deal 1's correction by mistake (Tab from the save button to its "correct" link, then
    Enter) is told its line replaced deal 1, not that deal 1 was saved."""
    client.force_login(roles.club_admin)
    client.post(url(sheet), form(contract="alleen", seats="3", tricks="6"))
    response = client.post(url(sheet), form(contract="pass", version=1), follow=True, HTTP_ACCEPT_LANGUAGE=language)
    message = page(response).find(class_="messages").text()
    assert said in message, message


@pytest.mark.parametrize(
    ("preset", "game", "levels"), [("iwwa", "wiezen", [9, 10, 11, 12]), ("solo_whist", "solo_whist", [9])]
)
def test_the_level_list_offers_the_levels_the_rule_set_plays(preset: str, game: str, levels: list[int]) -> None:
    """Solo whist's abondance is bid at 9 only: the list offered 10 to 12, which the engine then refused."""
    competition = CompetitionFactory(game=game, rule_set=RuleSetFactory(preset=preset, game=game))
    register_players(competition, PlayerFactory.create_batch(4))
    round_ = publish_round(create_round(competition))
    sheet = ScoreSheet.objects.get(table__round=round_, table__number=1)
    client = Client()
    client.force_login(make_roles(competition).club_admin)
    options = page(client.get(url(sheet))).find("select", name="level").find_all("option")
    assert [option.attrs["value"] for option in options] == ["", *map(str, levels)]
