"""The standings of a duplicate competition count a round once it is finalised.

Its rows are stored once for every reader, and a table's points on a board, or its percentage moving, would tell the
tables still to play that board how it went (a persona run read "+15" in the standings while two tables had the
board still to play). The round and sheet pages already waited; the standings, the league table, the progression
and the provisional marks now wait with them, for everyone but those who run the competition where a page is theirs.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.models import Standing
from tests.factories import UserFactory, seated_competition
from tournaments.models import Competition, Round, ScoreSheet
from tournaments.services.entry import record_deal
from tournaments.services.rounds import finalise_round, reopen_round
from tournaments.services.sheets import confirm_sheet

pytestmark = pytest.mark.django_db


def vraag(deal: int, tricks: int) -> dict[str, Any]:
    return {"deal": deal, "dealer": (deal - 1) % 4, "contract": "vraag", "declarers": [0, 2], "tricks": tricks}


def sheets(competition: Competition) -> list[ScoreSheet]:
    return list(ScoreSheet.objects.filter(table__round__competition=competition).order_by("table__number"))


def points(competition: Competition) -> dict[int, int]:
    return dict(Standing.objects.filter(competition=competition).values_list("player_id", "points"))


def declarers(sheet: ScoreSheet) -> list[int]:
    return [seat.player_id for seat in sheet.table.seats.order_by("position")][0::2]


@pytest.fixture
def evening(django_capture_on_commit_callbacks: Any) -> tuple[Competition, Any]:
    """Twelve players at three tables, the same sixteen boards at each; board 1 played at tables 1 and 2."""
    competition = seated_competition(
        players=12, duplicate=True, deals_per_session=16, standings_method="matchpoints", tie_breaks=["points"]
    )
    organiser = UserFactory()
    competition.organisers.add(organiser)
    first, second, _ = sheets(competition)
    with django_capture_on_commit_callbacks(execute=True):
        record_deal(first, vraag(1, 9))  # an overtrick
        record_deal(second, vraag(1, 8))
    return competition, organiser


def test_lines_entered_during_the_round_leave_the_standings_as_they_were(evening: tuple[Competition, Any]) -> None:
    competition, organiser = evening
    assert set(points(competition).values()) == {0}  # every registered player, nothing counted yet
    first = sheets(competition)[0]
    overtrick = first.entries.get(deal_number=1).points[0]
    assert overtrick > 0

    api = APIClient().get(f"/api/v1/competitions/{competition.pk}/standings/").json()
    assert {row["points"] for row in api} == {0}
    page = Client().get(reverse("competition", args=[competition.slug])).content.decode()
    assert "provisional" not in page  # nothing of the round is counted, so no row is marked
    progression = Client().get(reverse("progression", args=[competition.slug])).content.decode()
    assert f">{overtrick}<" not in progression

    runs = Client()
    runs.force_login(organiser)
    own = runs.get(reverse("progression", args=[competition.slug])).content.decode()
    assert f">{overtrick}<" in own  # those who run it follow the evening on their pages


def test_the_contract_counts_wait_too(
    evening: tuple[Competition, Any], django_capture_on_commit_callbacks: Any
) -> None:
    """ "Vraag en meegaan: played 2, made 2" on the competition page told the third table how board 1 went."""
    from scoring.tasks import recompute_statistics

    competition, organiser = evening
    recompute_statistics(competition.pk)
    public = Client().get(reverse("competition", args=[competition.slug])).content.decode()
    assert 'id="contracts-played"' not in public and 'id="statistics-wait"' in public
    poll = (
        Client().get(reverse("competition-standings", args=[competition.slug]), HTTP_HX_REQUEST="true").content.decode()
    )
    assert 'id="contracts-played"' not in poll
    runs = Client()
    runs.force_login(organiser)
    assert 'id="contracts-played"' in runs.get(reverse("competition", args=[competition.slug])).content.decode()


def test_the_round_counts_once_finalised_and_leaves_again_when_reopened(
    evening: tuple[Competition, Any], django_capture_on_commit_callbacks: Any
) -> None:
    competition, organiser = evening
    first, second, third = sheets(competition)
    with django_capture_on_commit_callbacks(execute=True):
        for sheet in (first, second, third):
            played = set(sheet.entries.values_list("deal_number", flat=True))
            for deal in range(1, 17):
                if deal not in played:
                    record_deal(sheet, {"deal": deal, "dealer": (deal - 1) % 4, "contract": "pass"})
            confirm_sheet(sheet, by=organiser)
        finalise_round(Round.objects.get(competition=competition), by=organiser)

    counted = points(competition)
    overtrick = first.entries.get(deal_number=1).points[0]
    assert [counted[p] for p in declarers(first)] == [overtrick, overtrick]
    assert sorted(set(counted.values())) != [0]

    with django_capture_on_commit_callbacks(execute=True):
        reopen_round(Round.objects.get(competition=competition), reason="deal 3 at table 2", by=organiser)
    assert set(points(competition).values()) == {0}


def test_changing_how_the_competition_ranks_recomputes_its_standings(
    evening: tuple[Competition, Any], django_capture_on_commit_callbacks: Any
) -> None:
    """The settings page and the API both change the method; the standings used to keep the old one's values."""
    from tournaments.services.competitions import update_competition

    competition, _ = evening
    Round.objects.filter(competition=competition).update(status=Round.Status.FINALISED)
    with django_capture_on_commit_callbacks(execute=True):
        update_competition(competition, standings_method="total_points")
    values = set(Standing.objects.filter(competition=competition).values_list("value", flat=True))
    assert not any("%" in value for value in values)
    with django_capture_on_commit_callbacks(execute=True):
        update_competition(competition, standings_method="matchpoints")
    values = set(Standing.objects.filter(competition=competition).values_list("value", flat=True))
    assert "100.0%" in values
