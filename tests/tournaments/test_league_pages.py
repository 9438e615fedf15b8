"""League seasons: options checked by the calculators, the season table and the player page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from rest_framework.test import APIClient

from scoring.models import Standing
from tests.factories import seated_competition
from tournaments.models import ScoreSheet
from tournaments.services.entry import record_deal
from tournaments.services.privacy import public_name

pytestmark = pytest.mark.django_db


def test_a_competition_refuses_unknown_methods_and_tie_breaks() -> None:
    competition = seated_competition(players=4)
    competition.standings_method = "most_coffee"
    competition.tie_breaks = ["sessions_won", "luck"]
    with pytest.raises(ValidationError) as invalid:
        competition.full_clean()
    assert {"standings_method", "tie_breaks"} <= set(invalid.value.message_dict)


def test_players_below_the_minimum_evenings_are_listed_unranked(django_capture_on_commit_callbacks: Any) -> None:
    competition = seated_competition(players=4, rounds=1, kind="league")
    competition.min_evenings = 2
    competition.save()
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    with django_capture_on_commit_callbacks(execute=True):
        record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6})
    rows = list(Standing.objects.filter(competition=competition))
    assert rows and all(r.rank == 0 for r in rows)
    assert all("not ranked" in r.explanation for r in rows)


def test_the_players_a_league_does_not_rank_yet_come_after_the_ranked_everywhere(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Rank 0 ("not ranked") used to sort first: the page, the API and a swiss seating read the unranked as leaders."""
    competition = seated_competition(players=8, rounds=2, kind="league")
    competition.min_evenings = 2
    competition.save()
    sheets = list(ScoreSheet.objects.filter(table__round__competition=competition).order_by("table__round__number"))
    with django_capture_on_commit_callbacks(execute=True):
        for sheet in sheets[:3]:  # round 1 at both tables, round 2 at one: four players have their two evenings
            record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 4})
            record_deal(sheet, {"deal": 2, "dealer": 1, "contract": "alleen", "declarers": [3], "tricks": 6})
    api = APIClient().get(f"/api/v1/competitions/{competition.pk}/standings/").json()
    ranks = [row["rank"] for row in api]
    assert 0 not in ranks[:4] and ranks[:4] == sorted(ranks[:4]), ranks
    assert ranks[4:] == [0, 0, 0, 0]
    unranked = [row["points"] for row in api[4:]]
    assert unranked == sorted(unranked, reverse=True)

    page = Client().get(f"/c/{competition.slug}/").content.decode()
    table = page[page.index('<table id="standings">') :]
    assert [int(pk) for pk in re.findall(r'href="/players/(\d+)/"', table)] == [row["player"] for row in api]


def test_the_season_table_and_player_page_show_evenings_and_history(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    competition = seated_competition(players=4, rounds=2, kind="league")
    first, second = ScoreSheet.objects.filter(table__round__competition=competition).order_by("table__round__number")
    with django_capture_on_commit_callbacks(execute=True):
        record_deal(first, {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6})
        record_deal(second, {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [1], "tricks": 4})
    season = client.get(f"/c/{competition.slug}/season/").content.decode()
    assert "Ev. 1" in season and "Ev. 2" in season
    winner = first.table.seats.get(position=2).player
    page = client.get(f"/players/{winner.pk}/").content.decode()
    assert public_name(winner) in page and "<polyline" in page  # two rounds rated: a line
    assert winner.last_name not in page  # the public sees "First L.", not the full name
    assert "<td>Alleen</td>" in page  # contract statistics, the contract named as players say it


def test_the_competition_page_shows_how_often_contracts_are_made(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    competition = seated_competition(players=4)
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    with django_capture_on_commit_callbacks(execute=True):
        record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6})
        record_deal(sheet, {"deal": 2, "dealer": 1, "contract": "alleen", "declarers": [3], "tricks": 4})
    page = client.get(f"/c/{competition.slug}/").content.decode()
    assert "Contracts played" in page
    # alleen: played 2, made 1: 50 %
    assert '<td>Alleen</td><td class="num">2</td><td class="num">1</td><td class="num">50</td>' in page


def test_a_penalty_is_said_beside_the_season_total_and_the_player_page_says_its_total_is_before_penalties(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    """A persona run read "Ev. 1 26 · Ev. 2 14 · Total 30" with nothing saying where 10 points went, and "Points in
    all: 40" on the player's page."""
    from tournaments.services.penalties import give_penalty

    competition = seated_competition(players=4, rounds=1, kind="league")
    (sheet,) = ScoreSheet.objects.filter(table__round__competition=competition)
    with django_capture_on_commit_callbacks(execute=True):
        record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6})
        player = sheet.table.seats.get(position=2).player
        give_penalty(competition, player, 5, "phone at the table")
    season = client.get(f"/c/{competition.slug}/season/").content.decode()
    row = season[season.index(f'href="/players/{player.pk}/"') :].split("</tr>")[0]
    assert 'title="penalty points deducted">(−5)</small>' in row
    page = client.get(f"/players/{player.pk}/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "vóór strafpunten" in page
