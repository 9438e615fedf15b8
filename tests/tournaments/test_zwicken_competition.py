"""A Zwicken competition runs through the same domain: nothing in it is Wiezen-specific."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Standing
from tests.factories import ClubFactory, PlayerFactory
from tests.roles import make_roles
from tournaments.models import DealEntry, ScoreSheet
from tournaments.services.competitions import create_competition, create_rule_set, register_players
from tournaments.services.entry import record_deal
from tournaments.services.errors import EntryRejected
from tournaments.services.rounds import create_round, publish_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheet() -> ScoreSheet:
    rule_set = create_rule_set(name="Zwicken", game="zwicken", preset="zwicken")
    competition = create_competition(club=ClubFactory(), name="Zwickerabend", slug="zwick", rule_set=rule_set)
    assert competition.deals_per_session is None  # open-ended
    register_players(competition, PlayerFactory.create_batch(4))
    publish_round(create_round(competition))
    return ScoreSheet.objects.get(table__round__competition=competition)


def test_a_zwicken_line_is_settled_in_chips_and_counts_in_the_standings(
    sheet: ScoreSheet, django_capture_on_commit_callbacks: Any
) -> None:
    # 001: the dealer antes 3; a third of the pot per trick; who played and took nothing pays a bete of 3
    with django_capture_on_commit_callbacks(execute=True):
        entry = record_deal(sheet, {"deal": 1, "dealer": 0, "played": [1, 2, 3], "tricks": [0, 2, 1, 0]}).entry
    assert entry.points == [-3, 2, 1, -3]  # dealer -3 ante; 3 // 3 = 1 per trick; seat 3 gezwickt
    seats = [s.player_id for s in sheet.table.seats.order_by("position")]
    points = dict(Standing.objects.filter(competition=sheet.table.round.competition).values_list("player_id", "points"))
    assert [points[p] for p in seats] == [-3, 2, 1, -3]


def test_a_zwicken_player_may_not_pass_with_the_trump_ace(sheet: ScoreSheet) -> None:
    line = {"deal": 1, "dealer": 0, "played": [1, 2], "tricks": [0, 2, 1, 0], "trump_ace": 3}
    with pytest.raises(EntryRejected) as rejected:
        record_deal(sheet, line)
    assert "trump_ace_passed" in rejected.value.codes
    assert not DealEntry.objects.exists()


def test_the_entry_page_offers_the_zwicken_form_and_saves_a_line(sheet: ScoreSheet, client: Client) -> None:
    roles = make_roles(sheet.table.round.competition)
    client.force_login(roles.club_admin)
    url = reverse(
        "sheet-entry",
        kwargs={"slug": "zwick", "round_number": sheet.table.round.number, "table_number": sheet.table.number},
    )
    page = client.get(url)
    assert page.status_code == 200 and 'name="played"' in page.content.decode()
    form = {"deal": 1, "dealer": 0, "played": ["0", "1", "2", "3"], "tricks_0": 3, "idempotency_key": "z1"}
    response = client.post(url, form)
    assert response.status_code == 302
    entry = DealEntry.objects.get()
    # Durchmarsch: seat 0 takes the whole pot (its own ante of 3); the other three pay a bete each
    assert entry.line["tricks"] == [3, 0, 0, 0] and entry.points == [0, -3, -3, -3]


def test_the_zwicken_preview_shows_points_betes_and_the_pot_carried(sheet: ScoreSheet, client: Client) -> None:
    roles = make_roles(sheet.table.round.competition)
    client.force_login(roles.club_admin)
    url = reverse("sheet-entry-preview", args=["zwick", sheet.table.round.number, sheet.table.number])
    form = {"deal": 1, "dealer": 0, "played": ["1", "2", "3"], "tricks_1": 2, "tricks_2": 1, "idempotency_key": ""}
    html = client.post(url, form).content.decode()
    cells = [c for c in html.split('<td class="num">')[1:5]]
    assert [c.split("<")[0] for c in cells] == ["-3", "2", "1", "-3"]  # seat 3 played, took nothing: a bete of 3
    assert "Pot carried to the next deal: 3" in html  # the bete goes into the pot
    assert not DealEntry.objects.exists()


def test_a_zwicken_tricks_error_is_shown_beside_the_seat_it_names(sheet: ScoreSheet, client: Client) -> None:
    """Seat 2 did not play and was given tricks: the error stood under seat 1's field, which took the cursor, so
    the next key typed overwrote seat 1's right count (found by a persona run). Counts that add up wrong belong to
    no one seat: they are said above the form."""
    client.force_login(make_roles(sheet.table.round.competition).club_admin)
    url = reverse("sheet-entry", args=["zwick", sheet.table.round.number, sheet.table.number])
    base = {"deal": 1, "dealer": 0, "played": ["0", "2", "3"], "idempotency_key": "z1"}

    idle = client.post(url, {**base, "tricks_0": 1, "tricks_1": 1, "tricks_2": 1, "tricks_3": 0})
    errors = idle.context["form"].errors
    assert list(errors) == ["tricks_1"], errors

    too_many = client.post(url, {**base, "tricks_0": 2, "tricks_2": 2, "tricks_3": 0})
    errors = too_many.context["form"].errors
    assert list(errors) == ["__all__"], errors
    assert not DealEntry.objects.exists()
