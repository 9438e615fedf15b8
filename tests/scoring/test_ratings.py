"""OpenSkill ratings from deals: teams from the points, history per labelled round."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.models import Rating
from scoring.ratings import DealResult, compute_ratings
from scoring.selectors import rating_history
from scoring.tasks import request_ratings
from tests.factories import seated_competition
from tournaments.models import Round, ScoreSheet
from tournaments.services.entry import record_deal


def test_winners_gain_and_losers_lose_and_an_all_pass_teaches_nothing() -> None:
    rows = compute_ratings(
        [
            DealResult((1, 2, 3, 4), (3, 3, -3, -3), "r1"),  # 1 and 2 won together
            DealResult((1, 2, 3, 4), (0, 0, 0, 0), "r1"),  # all passed
        ]
    )
    by_player = {r.player_id: r for r in rows}
    assert by_player[1].mu > 25 > by_player[3].mu
    assert by_player[1].mu == by_player[2].mu and by_player[3].mu == by_player[4].mu
    assert all(r.deals == 1 for r in rows)


def test_a_lone_winner_against_three_gains_more_than_a_pair_winner() -> None:
    pair = {r.player_id: r for r in compute_ratings([DealResult((1, 2, 3, 4), (3, 3, -3, -3))])}
    alone = {r.player_id: r for r in compute_ratings([DealResult((1, 2, 3, 4), (9, -3, -3, -3))])}
    assert alone[1].mu > pair[1].mu


def test_the_history_has_one_point_per_labelled_round_played() -> None:
    rows = compute_ratings(
        [
            DealResult((1, 2, 3, 4), (3, 3, -3, -3), "round 1"),
            DealResult((1, 2, 3, 4), (3, 3, -3, -3), "round 1"),
            DealResult((1, 2, 5, 6), (-3, -3, 3, 3), "round 2"),
        ]
    )
    by_player = {r.player_id: r for r in rows}
    assert [label for label, _ in by_player[1].history] == ["round 1", "round 2"]
    assert [label for label, _ in by_player[3].history] == ["round 1"]
    assert by_player[1].history[-1][1] == pytest.approx(by_player[1].ordinal, abs=1e-3)


@pytest.mark.django_db
def test_ratings_follow_the_finalised_rounds(django_capture_on_commit_callbacks: Any) -> None:
    """Entries alone move no rating (issue 14: only confirmed sheets of finalised rounds with public results)."""
    competition = seated_competition(players=4, preset="iwwa")
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    seats = dict(sheet.table.seats.values_list("position", "player_id"))
    with django_capture_on_commit_callbacks(execute=True):
        record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6})
    assert not Rating.objects.exists()
    ScoreSheet.objects.filter(pk=sheet.pk).update(state=ScoreSheet.State.FINAL)
    Round.objects.filter(pk=sheet.table.round_id).update(status=Round.Status.FINALISED)
    request_ratings()
    winner = Rating.objects.get(player_id=seats[2])
    loser = Rating.objects.get(player_id=seats[0])
    assert winner.ordinal > loser.ordinal and winner.deals_rated == 1 and len(rating_history(seats[2])) == 1
