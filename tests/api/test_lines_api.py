"""Score-sheet lines through the API, the stateless calculator, seatings and penalties in the standings.

Points are worked out by hand from RULES.md §3-4. ``iwwa`` settles per player: alleen pays 2 per opponent
+1 per overtrick above 5 (6 tricks: 3 from each of three, declarer +9); vraag pays 2 to each partner +1 per
overtrick above 8 (10 tricks: ±4 each). ``flemish`` vraag failed by one trick pays 3 each (the source's
"7 tricks → 3 each").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import CompetitionFactory, RuleSetFactory, UserFactory, seated_competition
from tests.roles import Roles, make_roles
from tournaments.models import Competition, DealEntry, Penalty, Round, ScoreSheet, Seat

pytestmark = pytest.mark.django_db

API = "/api/v1"

DEAL_1 = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6}
DEAL_1_POINTS = [-3, -3, 9, -3]
# alleen by seat 1 with exactly 5 tricks: 2 from each opponent
DEAL_1_CORRECTED = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [1], "tricks": 5}
DEAL_1_CORRECTED_POINTS = [-2, 6, -2, -2]
# vraag by seats 1 and 3 with 10 tricks: 2 + 2 overtricks = 4 to each partner
DEAL_1_OTHER_CORRECTION = {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [1, 3], "tricks": 10}
DEAL_2_VRAAG = {"deal": 2, "dealer": 1, "contract": "vraag", "declarers": [1, 3], "tricks": 10}


@dataclass
class Setup:
    competition: Competition
    sheet: ScoreSheet
    roles: Roles

    def client(self, user: Any) -> APIClient:
        client = APIClient()
        client.force_authenticate(user)
        return client

    def captain(self) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_X_TABLE_CODE=self.sheet.captain_code)
        return client

    @property
    def admin(self) -> APIClient:
        return self.client(self.roles.club_admin)

    def seated(self, position: int) -> int:
        return Seat.objects.get(table=self.sheet.table, position=position).player_id


@pytest.fixture
def setup() -> Setup:
    competition = seated_competition(players=4)
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    return Setup(competition, sheet, make_roles(competition))


def lines_url(s: Setup, deal: int | None = None) -> str:
    return f"{API}/sheets/{s.sheet.pk}/lines/" + (f"{deal}/" if deal else "")


# -- adding a line --------------------------------------------------------------------------------------------------


def test_a_valid_line_is_stored_with_the_points_the_engine_computes(setup: Setup) -> None:
    response = setup.admin.post(lines_url(setup), DEAL_1, format="json")

    assert response.status_code == 201, response.data
    body = response.json()
    assert body["points"] == DEAL_1_POINTS
    assert (body["deal_number"], body["version"], body["contract"], body["multiplier"]) == (1, 1, "alleen", 1)
    assert (body["line"], body["source"]) == (DEAL_1, "api")
    entry = DealEntry.objects.get(sheet=setup.sheet)
    assert (entry.points, entry.is_current, entry.created_by) == (DEAL_1_POINTS, True, setup.roles.club_admin)


def test_the_sheet_shows_the_stored_line_with_its_points(setup: Setup) -> None:
    setup.captain().post(lines_url(setup), DEAL_1, format="json")
    setup.captain().post(lines_url(setup), DEAL_2_VRAAG, format="json")

    sheet = APIClient().get(f"{API}/sheets/{setup.sheet.pk}/").json()

    assert [(line["deal_number"], line["points"]) for line in sheet["lines"]] == [
        (1, DEAL_1_POINTS),
        (2, [-4, 4, -4, 4]),
    ]


def test_an_invalid_line_gets_400_listing_every_error_and_stores_nothing(setup: Setup) -> None:
    # a partner on a solo, and 14 tricks: two errors on two fields
    line = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [1, 2], "tricks": 14}

    response = setup.admin.post(lines_url(setup), line, format="json")

    assert response.status_code == 400
    errors = response.json()["errors"]
    assert sorted((e["code"], e["field"]) for e in errors) == [
        ("partner_on_solo", "declarers"),
        ("tricks_out_of_range", "tricks"),
    ]
    assert all(e["message"] for e in errors)
    assert "14" in next(e["message"] for e in errors if e["field"] == "tricks")
    assert not DealEntry.objects.exists()


def test_a_line_out_of_turn_is_refused_with_the_dealer_and_the_partner_named(setup: Setup) -> None:
    setup.admin.post(lines_url(setup), DEAL_1, format="json")
    # deal 2 is dealt by seat 1, and vraag needs two declarers
    line = {"deal": 2, "dealer": 3, "contract": "vraag", "declarers": [1], "tricks": 8}

    response = setup.admin.post(lines_url(setup), line, format="json")

    assert response.status_code == 400
    assert {(e["code"], e["field"]) for e in response.json()["errors"]} == {
        ("dealer_out_of_rotation", "dealer"),
        ("missing_partner", "declarers"),
    }
    assert DealEntry.objects.filter(sheet=setup.sheet).count() == 1


# -- corrections with versions --------------------------------------------------------------------------------------


def test_a_correction_based_on_the_current_version_is_stored_as_the_next_version(setup: Setup) -> None:
    setup.admin.post(lines_url(setup), DEAL_1, format="json")

    response = setup.admin.put(lines_url(setup, 1), {"line": DEAL_1_CORRECTED, "version": 1}, format="json")

    assert response.status_code == 200, response.data
    body = response.json()
    assert (body["version"], body["line"], body["points"]) == (2, DEAL_1_CORRECTED, DEAL_1_CORRECTED_POINTS)
    versions = DealEntry.objects.filter(sheet=setup.sheet, deal_number=1).order_by("version")
    assert [(e.version, e.is_current, e.points) for e in versions] == [
        (1, False, DEAL_1_POINTS),
        (2, True, DEAL_1_CORRECTED_POINTS),
    ]


def test_a_correction_based_on_a_stale_version_gets_409_with_the_current_line(setup: Setup) -> None:
    setup.admin.post(lines_url(setup), DEAL_1, format="json")
    setup.admin.put(lines_url(setup, 1), {"line": DEAL_1_CORRECTED, "version": 1}, format="json")

    response = setup.admin.put(lines_url(setup, 1), {"line": DEAL_1_OTHER_CORRECTION, "version": 1}, format="json")

    assert response.status_code == 409
    body = response.json()
    assert (body["version"], body["line"], body["points"]) == (2, DEAL_1_CORRECTED, DEAL_1_CORRECTED_POINTS)
    assert DealEntry.objects.filter(sheet=setup.sheet).count() == 2


def test_two_clients_correcting_one_deal_from_the_same_version_lose_no_update(setup: Setup) -> None:
    setup.admin.post(lines_url(setup), DEAL_1, format="json")
    captain, organiser = setup.captain(), setup.client(setup.roles.organiser)
    # both read the sheet: deal 1 at version 1
    seen = [
        client.get(f"{API}/sheets/{setup.sheet.pk}/").json()["lines"][0]["version"] for client in (captain, organiser)
    ]
    assert seen == [1, 1]

    first = captain.put(lines_url(setup, 1), {"line": DEAL_1_CORRECTED, "version": 1}, format="json")
    second = organiser.put(lines_url(setup, 1), {"line": DEAL_1_OTHER_CORRECTION, "version": 1}, format="json")

    assert first.status_code == 200
    assert second.status_code == 409
    assert (second.json()["version"], second.json()["line"]) == (2, DEAL_1_CORRECTED)
    current = DealEntry.objects.get(sheet=setup.sheet, deal_number=1, is_current=True)
    assert (current.version, current.line) == (2, DEAL_1_CORRECTED)
    assert DealEntry.objects.filter(sheet=setup.sheet).count() == 2
    # the loser retries on the version it was shown, and wins
    retry = organiser.put(lines_url(setup, 1), {"line": DEAL_1_OTHER_CORRECTION, "version": 2}, format="json")
    assert (retry.status_code, retry.json()["version"], retry.json()["points"]) == (200, 3, [-4, 4, -4, 4])


def test_a_correction_whose_deal_differs_from_the_address_is_refused(setup: Setup) -> None:
    setup.admin.post(lines_url(setup), DEAL_1, format="json")
    response = setup.admin.put(lines_url(setup, 1), {"line": DEAL_2_VRAAG, "version": 1}, format="json")
    assert response.status_code == 400
    assert DealEntry.objects.filter(sheet=setup.sheet).count() == 1


def test_an_invalid_correction_gets_400_and_keeps_the_current_version(setup: Setup) -> None:
    setup.admin.post(lines_url(setup), DEAL_1, format="json")
    bad = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [1, 2], "tricks": 6}

    response = setup.admin.put(lines_url(setup, 1), {"line": bad, "version": 1}, format="json")

    assert response.status_code == 400
    assert [e["code"] for e in response.json()["errors"]] == ["partner_on_solo"]
    current = DealEntry.objects.get(sheet=setup.sheet, is_current=True)
    assert (current.version, current.line) == (1, DEAL_1)


# -- the calculator -------------------------------------------------------------------------------------------------


def test_the_preset_calculator_returns_each_deals_points_and_running_totals(setup: Setup) -> None:
    body = {"players": 4, "lines": [DEAL_1, DEAL_2_VRAAG]}

    response = APIClient().post(f"{API}/rulesets/presets/iwwa/score/", body, format="json")

    assert response.status_code == 200, response.data
    results = response.json()["results"]
    assert [(r["deal"], r["contract"], r["points"]) for r in results] == [
        (1, "alleen", DEAL_1_POINTS),
        (2, "vraag", [-4, 4, -4, 4]),
    ]
    assert results[0]["totals"] == DEAL_1_POINTS
    assert results[1]["totals"] == [-7, 1, 5, 1]
    assert response.json()["totals"] == [-7, 1, 5, 1]
    assert not DealEntry.objects.exists()


def test_a_rule_sets_calculator_scores_under_that_rule_set(setup: Setup) -> None:
    flemish = RuleSetFactory(preset="flemish", club=setup.competition.club)
    CompetitionFactory(club=setup.competition.club, rule_set=flemish)  # public: so is the rule set it plays
    failed_vraag = {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [1, 3], "tricks": 7}

    response = APIClient().post(
        f"{API}/rulesets/{flemish.pk}/score/", {"players": 4, "lines": [failed_vraag]}, format="json"
    )

    assert response.status_code == 200, response.data
    assert response.json()["totals"] == [3, -3, 3, -3]


def test_the_calculator_lists_every_error_with_its_line_number(setup: Setup) -> None:
    lines = [
        DEAL_1,
        {"deal": 2, "dealer": 3, "contract": "vraag", "declarers": [1], "tricks": 8},
        {"deal": 3, "dealer": 2, "contract": "alleen", "declarers": [0], "tricks": 15},
    ]

    response = APIClient().post(f"{API}/rulesets/presets/iwwa/score/", {"players": 4, "lines": lines}, format="json")

    assert response.status_code == 400
    errors = response.json()["errors"]
    assert sorted((e["line"], e["code"], e["field"]) for e in errors) == [
        (2, "dealer_out_of_rotation", "dealer"),
        (2, "missing_partner", "declarers"),
        (3, "tricks_out_of_range", "tricks"),
    ]
    assert all(e["message"] for e in errors)


def test_the_calculator_answers_404_for_an_unknown_preset(setup: Setup) -> None:
    response = APIClient().post(
        f"{API}/rulesets/presets/nosuchgame/score/", {"players": 4, "lines": [DEAL_1]}, format="json"
    )
    assert response.status_code == 404


# -- rounds ---------------------------------------------------------------------------------------------------------


def test_a_new_round_seats_every_registered_player_once_and_publish_shows_it() -> None:
    competition = seated_competition(players=9, rounds=0)
    organiser = UserFactory(username="director")
    competition.organisers.add(organiser)
    client = APIClient()
    client.force_authenticate(organiser)

    created = client.post(f"{API}/rounds/", {"competition": competition.pk}, format="json")

    assert created.status_code == 201, created.data
    round_ = created.json()
    assert (round_["number"], round_["status"]) == (1, "draft")
    # 9 players: one table of 5 and one of 4 (tables of 5 only as needed)
    assert [(t["number"], t["size"], len(t["seats"])) for t in round_["tables"]] == [(1, 5, 5), (2, 4, 4)]
    seated = [seat["player"] for table in round_["tables"] for seat in table["seats"]]
    assert sorted(seated) == sorted(competition.players.values_list("pk", flat=True))
    assert all(table["sheet"] is not None for table in round_["tables"])

    published = client.post(f"{API}/rounds/{round_['id']}/publish/")

    assert published.status_code == 200
    assert published.json()["status"] == "published"
    assert Round.objects.get(pk=round_["id"]).status == Round.Status.PUBLISHED
    assert APIClient().get(f"{API}/rounds/{round_['id']}/").json()["status"] == "published"


def test_a_round_cannot_be_seated_with_fewer_than_four_players() -> None:
    competition = seated_competition(players=3, rounds=0)
    client = APIClient()
    client.force_authenticate(UserFactory(is_superuser=True))
    response = client.post(f"{API}/rounds/", {"competition": competition.pk}, format="json")
    assert response.status_code == 400
    assert not Round.objects.exists()


# -- penalties in the standings -------------------------------------------------------------------------------------


def standings_by_player(competition: Competition) -> dict[int, tuple[int, int, int]]:
    rows = APIClient().get(f"{API}/competitions/{competition.pk}/standings/").json()
    return {row["player"]: (row["rank"], row["points"], row["penalty_points"]) for row in rows}


def test_a_penalty_changes_the_standings_after_commit(
    setup: Setup, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    admin = setup.admin
    declarer = setup.seated(2)
    others = [setup.seated(p) for p in (0, 1, 3)]
    with django_capture_on_commit_callbacks(execute=True):
        assert admin.post(lines_url(setup), DEAL_1, format="json").status_code == 201
    assert standings_by_player(setup.competition) == {declarer: (1, 9, 0)} | {p: (2, -3, 0) for p in others}

    with django_capture_on_commit_callbacks(execute=False) as queued:
        given = admin.post(
            f"{API}/penalties/",
            {"competition": setup.competition.pk, "player": declarer, "points": 13, "reason": "renege"},
            format="json",
        )
    assert given.status_code == 201
    assert queued, "the standings are recomputed on commit"
    assert standings_by_player(setup.competition)[declarer] == (1, 9, 0)  # not before the commit
    for callback in queued:
        callback()

    # 9 - 13 = -4: below the three players at -3, who now share first place
    assert standings_by_player(setup.competition) == {declarer: (4, -4, 13)} | {p: (1, -3, 0) for p in others}

    with django_capture_on_commit_callbacks(execute=True):
        removed = admin.delete(f"{API}/penalties/{given.json()['id']}/")
    assert removed.status_code == 204
    assert not Penalty.objects.exists()
    assert standings_by_player(setup.competition)[declarer] == (1, 9, 0)
