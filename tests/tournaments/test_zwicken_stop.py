"""A Zwicken session has no fixed number of deals: its table says when it stopped, and the sheet is then confirmed
as any other. A persona run entered three Zwicken tables' deals and found no way to finish: every sheet stayed a
draft (only a sheet with all its deals in was ever "entered"), so none could be confirmed nor the round completed.
"""

from __future__ import annotations

from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import ClubFactory, PlayerFactory, seated_competition
from tests.roles import make_roles
from tournaments.models import Round, ScoreSheet
from tournaments.services.competitions import create_competition, create_rule_set, register_players
from tournaments.services.entry import engine_sheet, record_deal
from tournaments.services.errors import ServiceError
from tournaments.services.rounds import create_round, publish_round
from tournaments.services.sheets import confirm_sheet, stop_open_session

pytestmark = pytest.mark.django_db

DEALS = [
    {"deal": 1, "dealer": 0, "played": [1, 2, 3], "tricks": [0, 2, 1, 0]},
    {"deal": 2, "dealer": 1, "played": [0, 1, 2, 3], "tricks": [1, 1, 1, 0]},
]


@pytest.fixture
def sheet() -> ScoreSheet:
    rule_set = create_rule_set(name="Zwicken", game="zwicken", preset="zwicken")
    competition = create_competition(club=ClubFactory(), name="Zwickerabend", slug="zwick", rule_set=rule_set)
    register_players(competition, PlayerFactory.create_batch(4))
    publish_round(create_round(competition))
    return ScoreSheet.objects.get(table__round__competition=competition)


def address(name: str, sheet: ScoreSheet) -> str:
    table = sheet.table
    return reverse(name, args=[table.round.competition.slug, table.round.number, table.number])


def test_the_table_stops_its_zwicken_sheet_and_an_administrator_confirms_it(sheet: ScoreSheet) -> None:
    for line in DEALS:
        record_deal(sheet, line)
    captain = Client(HTTP_ACCEPT_LANGUAGE="nl")
    page = unescape(
        captain.get(f"{address('sheet-entry', sheet)}?code={sheet.captain_code}", follow=True).content.decode()
    )
    assert "De tafel is gestopt met spelen" in page and "Zwicken heeft geen vast aantal spellen" in page

    answer = captain.post(address("sheet-stop", sheet), follow=True)

    sheet.refresh_from_db()
    assert sheet.state == ScoreSheet.State.ENTERED
    shown = unescape(answer.content.decode())
    assert "De tafel is gestopt: nu bevestigt een tegenspeler of een beheerder het blad." in shown
    assert "De tafel is gestopt met spelen" not in shown  # stopped once
    organiser = Client()
    organiser.force_login(make_roles(sheet.table.round.competition).club_admin)
    assert organiser.post(address("sheet-confirm", sheet)).status_code == 302
    sheet.refresh_from_db()
    assert sheet.state == ScoreSheet.State.CONFIRMED
    assert Round.objects.get(pk=sheet.table.round_id).status == Round.Status.COMPLETE


def test_a_deal_after_stopping_puts_the_sheet_back_in_play_and_a_correction_does_not(sheet: ScoreSheet) -> None:
    record_deal(sheet, DEALS[0])
    stop_open_session(sheet, by=None)
    record_deal(sheet, {**DEALS[0], "tricks": [0, 1, 2, 0]}, expected_version=1)
    sheet.refresh_from_db()
    assert sheet.state == ScoreSheet.State.ENTERED  # corrected, still stopped: to be confirmed

    record_deal(sheet, DEALS[1])

    sheet.refresh_from_db()
    assert sheet.state == ScoreSheet.State.DRAFT  # the table played on: it stops again when it is done
    stop_open_session(sheet, by=None)
    sheet.refresh_from_db()
    assert sheet.state == ScoreSheet.State.ENTERED


def test_only_a_zwicken_sheet_in_play_with_deals_stops(sheet: ScoreSheet) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    client.get(f"{address('sheet-entry', sheet)}?code={sheet.captain_code}")
    answer = unescape(client.post(address("sheet-stop", sheet), follow=True).content.decode())
    assert "encodez les donnes jouées avant d’arrêter la feuille" in answer  # nothing entered yet
    sheet.refresh_from_db()
    assert sheet.state == ScoreSheet.State.DRAFT
    assert "La table a fini de jouer" not in unescape(client.get(address("sheet-entry", sheet)).content.decode())

    record_deal(sheet, DEALS[0])
    stop_open_session(sheet, by=None)
    wiezen = ScoreSheet.objects.get(table__round__competition=seated_competition(players=4))
    with translation.override("en"):
        with pytest.raises(ServiceError, match="still in play"):
            stop_open_session(sheet, by=None)
        with pytest.raises(ServiceError, match="once all its deals are entered"):
            stop_open_session(wiezen, by=None)
    assert "The table has stopped playing" not in Client().get(address("sheet-entry", wiezen)).content.decode()


def test_a_stranger_without_the_code_cannot_stop_a_sheet(sheet: ScoreSheet) -> None:
    record_deal(sheet, DEALS[0])
    answer = Client().post(address("sheet-stop", sheet))
    assert answer.status_code in (302, 403, 404)
    sheet.refresh_from_db()
    assert sheet.state == ScoreSheet.State.DRAFT


@pytest.mark.parametrize("confirmed", [False, True])
def test_a_correction_that_leaves_a_deal_due_puts_a_wiezen_sheet_back_in_play(confirmed: bool) -> None:
    """A Belgian session tied after 16 deals plays one more. A correction that makes it tie leaves that deal due:
    the sheet stayed entered (or confirmed) and could be confirmed without it, which completed the round (found
    by a review of the stop above, whose correction rule had first applied to every sheet)."""
    competition = seated_competition(players=4, preset="belgian")
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    for deal in range(1, 16):
        record_deal(sheet, {"deal": deal, "dealer": 0, "contract": "pass"})
    record_deal(sheet, {"deal": 16, "dealer": 0, "contract": "alleen", "declarers": [1], "tricks": 5})
    sheet.refresh_from_db()
    assert sheet.state == ScoreSheet.State.ENTERED
    if confirmed:
        confirm_sheet(sheet, by=make_roles(competition).club_admin)

    record_deal(sheet, {"deal": 16, "dealer": 0, "contract": "pass"}, expected_version=1)

    sheet.refresh_from_db()
    assert engine_sheet(sheet).extra_deal_due
    assert sheet.state == ScoreSheet.State.DRAFT
    assert Round.objects.get(competition=competition).status == Round.Status.IN_PLAY
    record_deal(sheet, {"deal": 17, "dealer": 0, "contract": "pass"})
    sheet.refresh_from_db()
    assert sheet.state == ScoreSheet.State.ENTERED
