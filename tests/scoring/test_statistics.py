"""Statistics per player and per competition, computed after standings."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.models import Statistics
from scoring.statistics import DealRecord, compute_statistics
from tests.factories import seated_competition
from tournaments.models import ScoreSheet
from tournaments.services.entry import record_deal

pytestmark = pytest.mark.django_db


def test_the_calculator_counts_bids_makes_partners_and_points_per_deal() -> None:
    deals = [
        DealRecord((1, 2, 3, 4), (3, 3, -3, -3), "vraag", (0, 1), (True, True)),
        DealRecord((1, 2, 3, 4), (-9, 3, 3, 3), "alleen", (0,), (False,)),
        DealRecord((1, 2, 3, 4), (0, 0, 0, 0), "pass"),
    ]
    players, summary = compute_statistics(deals)
    one = players[1].as_json()
    assert one["deals"] == 3 and one["points"] == -6 and one["points_per_deal"] == -2.0
    assert one["contracts"] == {"alleen": {"bid": 1, "made": 0}, "vraag": {"bid": 1, "made": 1}}
    assert one["partners"] == [{"player": 2, "deals": 1}]
    assert summary["contracts"]["vraag"] == {"played": 1, "made": 1, "success_rate": 1.0}
    assert summary["contracts"]["alleen"]["success_rate"] == 0.0 and summary["deals"] == 3


def test_statistics_follow_the_entries(django_capture_on_commit_callbacks: Any) -> None:
    competition = seated_competition(players=4, preset="iwwa")
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    seats = dict(sheet.table.seats.values_list("position", "player_id"))
    with django_capture_on_commit_callbacks(execute=True):
        record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "miserie", "declarers": [1, 2], "tricks": [0, 2]})
    whole = Statistics.objects.get(competition=competition, player=None).data
    assert whole["contracts"]["miserie"] == {"played": 1, "made": 0, "success_rate": 0.0}  # not every declarer made it
    made = Statistics.objects.get(competition=competition, player_id=seats[1]).data["contracts"]["miserie"]
    failed = Statistics.objects.get(competition=competition, player_id=seats[2]).data["contracts"]["miserie"]
    assert made == {"bid": 1, "made": 1} and failed == {"bid": 1, "made": 0}
