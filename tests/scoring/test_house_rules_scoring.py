"""A house rule set whose tariffs need not sum to zero (issue 17, option 6): standings and ratings still work; the
ratings take who won from the points each seat got."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.models import Rating, Standing
from scoring.services import recompute_standings
from scoring.tasks import request_ratings
from tests.factories import seated_competition
from tournaments.models import Round, ScoreSheet
from tournaments.services.entry import record_deal

HOME = {
    "tariffs": {
        "open_miserie": {"declarer_made": 36, "others_made": 0, "declarer_failed": 36, "others_failed": 0},
        "kleine_miserie": {"declarer_made": 12, "others_made": 4, "declarer_failed": 18, "others_failed": 12},
    }
}


@pytest.mark.django_db
def test_standings_and_ratings_of_a_rule_set_that_does_not_sum_to_zero(django_capture_on_commit_callbacks: Any) -> None:
    competition = seated_competition(players=4, preset="belgian")
    competition.rule_set.overrides = HOME
    competition.rule_set.save()
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    seats = dict(sheet.table.seats.values_list("position", "player_id"))
    with django_capture_on_commit_callbacks(execute=True):
        first = record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "open_miserie", "declarers": [2], "tricks": 0})
        second = record_deal(
            sheet, {"deal": 2, "dealer": 1, "contract": "kleine_miserie", "declarers": [3], "tricks": 1}
        )
    assert first.entry.points == [0, 0, 36, 0] and second.entry.points == [12, 12, 12, -18]
    recompute_standings(competition.pk)
    points = dict(Standing.objects.filter(competition=competition).values_list("player_id", "points"))
    assert points == {seats[0]: 12, seats[1]: 12, seats[2]: 48, seats[3]: -18}
    assert sum(points.values()) == 54  # the house's tariff pays more than it takes

    ScoreSheet.objects.filter(pk=sheet.pk).update(state=ScoreSheet.State.FINAL)
    Round.objects.filter(pk=sheet.table.round_id).update(status=Round.Status.FINALISED)
    request_ratings()
    ordinal = dict(Rating.objects.values_list("player_id", "ordinal"))
    # seat 3 won the first deal alone; seat 4 lost the second alone: best and worst
    assert ordinal[seats[2]] == max(ordinal.values()) and ordinal[seats[3]] == min(ordinal.values())
