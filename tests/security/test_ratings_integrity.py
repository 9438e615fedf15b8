"""Issue 14, class 12 (ratings): a rating moves only on results anyone can check.

The finding: a club administrator registered another club's player in a hidden competition of his own, entered
16 failed deals for him, and the player's federation rating dropped though the sheet was never confirmed.
Ratings now count only deals of confirmed sheets in finalised rounds of competitions whose results are public
(``scoring.selectors.rated_rounds``), whatever the path that changed them; the matrix below is every
visibility x round status x sheet state.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.models import Rating
from scoring.services import recompute_ratings, recompute_statistics
from scoring.tasks import reconcile_standings
from tests.factories import ClubFactory, CompetitionFactory, MembershipFactory, PlayerFactory, UserFactory
from tournaments.models import Competition, Player, Registration, Round, ScoreSheet
from tournaments.services.entry import record_deal
from tournaments.services.rounds import create_round, finalise_round, publish_round

pytestmark = pytest.mark.django_db

VISIBILITIES = [v.value for v in Competition.Visibility]
ROUND_STATUSES = [Round.Status.PUBLISHED, Round.Status.IN_PLAY, Round.Status.COMPLETE, Round.Status.FINALISED]
SHEET_STATES = [s.value for s in ScoreSheet.State]


def failed_alleen(deal: int, declarer: int = 0) -> dict[str, Any]:
    """Deal ``deal`` (clockwise dealers from seat 0): ``declarer`` plays alone and takes two tricks: a failure."""
    return {"deal": deal, "dealer": (deal - 1) % 4, "contract": "alleen", "declarers": [declarer], "tricks": 2}


def played_round(
    players: list[Player], *, visibility: str = "everything", deals: int = 1, club: Any = None
) -> ScoreSheet:
    """A competition of the four ``players`` (registered directly, however they came to be), one published round,
    ``deals`` failed solos of seat 0 entered; the sheet."""
    competition = CompetitionFactory(**({"club": club} if club else {}))
    competition.visibility = visibility
    competition.save()
    Registration.objects.bulk_create([Registration(competition=competition, player=p) for p in players])
    round_ = create_round(competition)
    publish_round(round_)
    sheet = ScoreSheet.objects.get(table__round=round_)
    for deal in range(1, deals + 1):
        record_deal(sheet, failed_alleen(deal))
    return sheet


def set_state(sheet: ScoreSheet, round_status: str, sheet_state: str) -> None:
    ScoreSheet.objects.filter(pk=sheet.pk).update(state=sheet_state)
    Round.objects.filter(pk=sheet.table.round_id).update(status=round_status)


def ordinals() -> dict[int, float]:
    return dict(Rating.objects.values_list("player_id", "ordinal"))


def seat_player(sheet: ScoreSheet, position: int) -> int:
    return sheet.table.seats.get(position=position).player_id


CELLS = [(v, r, s) for v in VISIBILITIES for r in ROUND_STATUSES for s in SHEET_STATES]


@pytest.mark.parametrize(("visibility", "round_status", "sheet_state"), CELLS, ids=["-".join(c) for c in CELLS])
def test_a_deal_counts_only_on_a_confirmed_sheet_of_a_finalised_round_with_public_results(
    visibility: str, round_status: str, sheet_state: str
) -> None:
    sheet = played_round(PlayerFactory.create_batch(4), visibility=visibility)
    set_state(sheet, round_status, sheet_state)
    recompute_ratings()
    counts = (
        visibility == Competition.Visibility.EVERYTHING
        and round_status == Round.Status.FINALISED
        and sheet_state in (ScoreSheet.State.CONFIRMED, ScoreSheet.State.FINAL)
    )
    assert Rating.objects.filter(player_id=seat_player(sheet, 0)).exists() == counts


def test_another_clubs_administrator_cannot_move_a_players_rating_with_a_hidden_competition(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """The finding, step by step: club B's administrator, club A's player, 16 failed deals, never confirmed."""
    club_a, club_b = ClubFactory(), ClubFactory()
    jan = PlayerFactory(first_name="Jan", last_name="Peeters")
    MembershipFactory(club=club_a, player=jan)
    others = PlayerFactory.create_batch(3)
    public = played_round([jan, *others], club=club_a, deals=2)  # Jan's rated results, confirmed and finalised
    set_state(public, Round.Status.FINALISED, ScoreSheet.State.FINAL)
    recompute_ratings()
    before = ordinals()[jan.pk]

    admin_b = UserFactory(is_staff=True)
    MembershipFactory(club=club_b, player=PlayerFactory(user=admin_b), is_admin=True)
    with django_capture_on_commit_callbacks(execute=True):  # every entry recomputes standings, then ratings
        hidden = played_round([jan, *PlayerFactory.create_batch(3)], visibility="hidden", club=club_b, deals=0)
        position = hidden.table.seats.get(player=jan).position
        for deal in range(1, 17):
            record_deal(hidden, failed_alleen(deal, declarer=position), by=admin_b)
    recompute_ratings()
    assert ordinals()[jan.pk] == pytest.approx(before)

    # not even once club B finalises the round: the results are not public
    set_state(hidden, Round.Status.FINALISED, ScoreSheet.State.FINAL)
    recompute_ratings()
    assert ordinals()[jan.pk] == pytest.approx(before)


def test_making_results_public_or_hidden_again_reaches_the_ratings_through_the_reconcile_job() -> None:
    sheet = played_round(PlayerFactory.create_batch(4), visibility="standings")
    set_state(sheet, Round.Status.FINALISED, ScoreSheet.State.FINAL)
    recompute_ratings()
    assert not Rating.objects.exists() and not services.ratings_stale()

    Competition.objects.filter(pk=sheet.table.round.competition_id).update(public_results=True)
    assert services.ratings_stale()
    reconcile_standings()  # the periodic job (eager here): sees the change and recomputes
    assert Rating.objects.filter(player_id=seat_player(sheet, 0)).exists()

    Competition.objects.filter(pk=sheet.table.round.competition_id).update(is_public=False)
    reconcile_standings()
    assert not Rating.objects.exists()


def test_finalising_a_round_recomputes_the_ratings(django_capture_on_commit_callbacks: Any) -> None:
    sheet = played_round(PlayerFactory.create_batch(4))
    set_state(sheet, Round.Status.COMPLETE, ScoreSheet.State.CONFIRMED)
    recompute_ratings()
    assert not Rating.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        finalise_round(Round.objects.get(pk=sheet.table.round_id))
    assert Rating.objects.filter(player_id=seat_player(sheet, 0)).exists()


def test_the_player_page_says_what_the_rating_counts() -> None:
    sheet = played_round(PlayerFactory.create_batch(4))
    set_state(sheet, Round.Status.FINALISED, ScoreSheet.State.FINAL)
    recompute_ratings()
    page = Client().get(reverse("player", args=[seat_player(sheet, 0)]))
    assert "only deals of confirmed sheets in finalised rounds of competitions whose results are public" in (
        page.content.decode()
    )


@pytest.mark.parametrize("visibility", VISIBILITIES)
def test_a_players_statistics_come_only_from_results_the_viewer_may_read(visibility: str) -> None:
    sheet = played_round(PlayerFactory.create_batch(4), visibility=visibility)
    competition = sheet.table.round.competition
    recompute_statistics(competition.pk)
    url = reverse("player", args=[seat_player(sheet, 0)])
    anonymous = Client().get(url).context["page"]
    shown = visibility == Competition.Visibility.EVERYTHING
    assert bool(anonymous.sessions) == shown and bool(anonymous.contracts) == shown and (anonymous.deals > 0) == shown
    organiser = UserFactory()
    competition.organisers.add(organiser)
    client = Client()
    client.force_login(organiser)
    managed = client.get(url).context["page"]
    assert managed.sessions and managed.contracts and managed.deals == 1
