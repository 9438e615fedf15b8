"""``Idempotency-Key`` on POST: a retry gets the first response back, and nothing is stored twice.

The replayed response carries ``Idempotent-Replayed: true``; the same key with another body is refused (422);
a key whose first request is still running is refused (409); keys belong to a user.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import RuleSetFactory, UserFactory, seated_competition
from tests.roles import Roles, make_roles
from tournaments.models import Competition, DealEntry, IdempotentRequest, Penalty, Round, ScoreSheet

pytestmark = pytest.mark.django_db

API = "/api/v1"
KEY = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"

# iwwa, four players: deal 1 is dealt by seat 0
DEAL_1 = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6}
# a partner on a solo and 14 tricks: two errors, nothing can be stored
BAD_DEAL_1 = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [1, 2], "tricks": 14}


@dataclass
class Setup:
    competition: Competition
    sheet: ScoreSheet
    roles: Roles
    organiser: Any  # in competition.organisers, not a club administrator

    def client(self, user: Any) -> APIClient:
        client = APIClient()
        client.force_authenticate(user)
        return client


@pytest.fixture
def setup() -> Setup:
    competition = seated_competition(players=8)
    organiser = UserFactory(username="director")
    competition.organisers.add(organiser)
    sheet = ScoreSheet.objects.filter(table__round__competition=competition).order_by("table__number").first()
    assert sheet is not None
    return Setup(competition, sheet, make_roles(competition), organiser)


@dataclass(frozen=True)
class Post:
    """A POST that stores one row, a variant of it with another body, and how to count its rows."""

    url: Callable[[Setup], str]
    body: Callable[[Setup], dict[str, Any]]
    other_body: Callable[[Setup], dict[str, Any]]
    count: Callable[[Setup], int]


def penalty(s: Setup, points: int = 2) -> dict[str, Any]:
    player = s.competition.players.order_by("pk").first()
    assert player is not None
    return {"competition": s.competition.pk, "player": player.pk, "points": points, "reason": "late"}


def competition(s: Setup, slug: str = "spring-cup") -> dict[str, Any]:
    rule_set = RuleSetFactory(club=s.competition.club, name=f"Rules of {slug}")
    return {"club": s.competition.club_id, "name": "Spring cup", "slug": slug, "rule_set": rule_set.pk}


POSTS = {
    "lines": Post(
        url=lambda s: f"/sheets/{s.sheet.pk}/lines/",
        body=lambda s: DEAL_1,
        other_body=lambda s: {**DEAL_1, "tricks": 7},
        count=lambda s: DealEntry.objects.filter(sheet=s.sheet).count(),
    ),
    "penalties": Post(
        url=lambda s: "/penalties/",
        body=penalty,
        other_body=lambda s: penalty(s, points=3),
        count=lambda s: Penalty.objects.count(),
    ),
    "rounds": Post(
        url=lambda s: "/rounds/",
        body=lambda s: {"competition": s.competition.pk, "seed": 11},
        other_body=lambda s: {"competition": s.competition.pk, "seed": 12},
        count=lambda s: Round.objects.filter(competition=s.competition).count(),
    ),
    "competitions": Post(
        url=lambda s: "/competitions/",
        body=competition,
        other_body=lambda s: competition(s, slug="autumn-cup"),
        count=lambda s: Competition.objects.count(),
    ),
}


def post_raw(client: APIClient, url: str, body: dict[str, Any], key: str | None) -> Any:
    """POST exactly these bytes: a retry sends the same body."""
    headers = {KEY: key} if key else {}
    return client.post(API + url, data=json.dumps(body), content_type="application/json", headers=headers)


@pytest.mark.parametrize("name", sorted(POSTS))
def test_a_retry_with_the_same_key_replays_the_first_response_and_stores_one_row(setup: Setup, name: str) -> None:
    post = POSTS[name]
    client = setup.client(setup.roles.club_admin)
    url, body, before = post.url(setup), post.body(setup), post.count(setup)

    first = post_raw(client, url, body, "retry-1")
    again = post_raw(client, url, body, "retry-1")

    assert first.status_code == 201, first.data
    assert REPLAYED not in first.headers
    assert again.status_code == first.status_code
    assert again.json() == first.json()
    assert again.headers[REPLAYED] == "true"
    assert post.count(setup) == before + 1
    stored = IdempotentRequest.objects.get(key="retry-1")
    assert (stored.user, stored.state, stored.status_code) == (setup.roles.club_admin, "done", 201)


@pytest.mark.parametrize("name", sorted(POSTS))
def test_the_same_key_with_another_body_is_refused_with_422(setup: Setup, name: str) -> None:
    post = POSTS[name]
    client = setup.client(setup.roles.club_admin)
    url, before = post.url(setup), post.count(setup)

    first = post_raw(client, url, post.body(setup), "reused")
    other = post_raw(client, url, post.other_body(setup), "reused")

    assert first.status_code == 201
    assert other.status_code == 422, other.data
    assert REPLAYED not in other.headers
    assert post.count(setup) == before + 1


def test_the_same_key_on_another_endpoint_is_refused_with_422(setup: Setup) -> None:
    client = setup.client(setup.roles.club_admin)
    assert post_raw(client, "/penalties/", penalty(setup), "one-key").status_code == 201
    response = post_raw(client, "/rounds/", {"competition": setup.competition.pk}, "one-key")
    assert response.status_code == 422
    assert Round.objects.filter(competition=setup.competition).count() == 1


def fingerprint(url: str, body: dict[str, Any]) -> str:
    """What a claim records (the model: "method, path and body hash"): sha256 of ``POST <path>\\n<body>``."""
    return hashlib.sha256(f"POST {API}{url}\n".encode() + json.dumps(body).encode()).hexdigest()


@pytest.mark.parametrize("name", sorted(POSTS))
def test_a_key_whose_first_request_is_still_pending_gets_409_and_stores_nothing(setup: Setup, name: str) -> None:
    post = POSTS[name]
    user = setup.roles.club_admin
    url, body, before = post.url(setup), post.body(setup), post.count(setup)
    IdempotentRequest.objects.create(key="in-flight", user=user, fingerprint=fingerprint(url, body))

    response = post_raw(setup.client(user), url, body, "in-flight")

    assert response.status_code == 409, response.data
    assert post.count(setup) == before
    claim = IdempotentRequest.objects.get(key="in-flight")
    assert claim.state == IdempotentRequest.State.PENDING  # the first request still owns it


def test_the_same_key_from_two_users_makes_two_requests(setup: Setup) -> None:
    body = penalty(setup)
    by_admin = post_raw(setup.client(setup.roles.club_admin), "/penalties/", body, "shared-key")
    by_organiser = post_raw(setup.client(setup.organiser), "/penalties/", body, "shared-key")

    assert (by_admin.status_code, by_organiser.status_code) == (201, 201)
    assert REPLAYED not in by_organiser.headers
    assert by_admin.json()["id"] != by_organiser.json()["id"]
    assert Penalty.objects.count() == 2
    assert IdempotentRequest.objects.filter(key="shared-key").count() == 2


def test_the_same_key_from_two_users_on_one_sheet_makes_two_lines(setup: Setup) -> None:
    # An organiser and a club administrator whose tablets happen to pick the same key.
    deal_2 = {"deal": 2, "dealer": 1, "contract": "pass"}
    url = f"/sheets/{setup.sheet.pk}/lines/"
    first = post_raw(setup.client(setup.organiser), url, DEAL_1, "tablet-1")
    second = post_raw(setup.client(setup.roles.club_admin), url, deal_2, "tablet-1")

    assert first.status_code == 201
    assert second.status_code == 201, second.data
    assert second.json()["deal_number"] == 2
    assert DealEntry.objects.filter(sheet=setup.sheet).count() == 2


def test_a_refused_line_is_replayed_as_the_same_400_and_nothing_is_stored(setup: Setup) -> None:
    client = setup.client(setup.roles.club_admin)
    url = f"/sheets/{setup.sheet.pk}/lines/"

    first = post_raw(client, url, BAD_DEAL_1, "bad-line")
    again = post_raw(client, url, BAD_DEAL_1, "bad-line")

    assert first.status_code == 400
    assert {e["code"] for e in first.json()["errors"]} == {"partner_on_solo", "tricks_out_of_range"}
    assert again.status_code == 400
    assert again.json() == first.json()
    assert again.headers[REPLAYED] == "true"
    assert not DealEntry.objects.exists()


def test_without_a_key_two_posts_of_the_same_penalty_store_two(setup: Setup) -> None:
    client = setup.client(setup.roles.club_admin)
    body = penalty(setup)

    first = post_raw(client, "/penalties/", body, None)
    second = post_raw(client, "/penalties/", body, None)

    assert (first.status_code, second.status_code) == (201, 201)
    assert REPLAYED not in second.headers
    assert Penalty.objects.count() == 2
    assert not IdempotentRequest.objects.exists()


def test_a_table_captain_without_an_account_gets_the_replay_too(setup: Setup) -> None:
    captain = APIClient()
    captain.credentials(HTTP_X_TABLE_CODE=setup.sheet.captain_code)
    url = f"/sheets/{setup.sheet.pk}/lines/"

    first = post_raw(captain, url, DEAL_1, "captain-key")
    again = post_raw(captain, url, DEAL_1, "captain-key")

    assert first.status_code == 201
    assert (again.status_code, again.headers[REPLAYED]) == (201, "true")
    assert again.json() == first.json()
    assert DealEntry.objects.filter(sheet=setup.sheet).count() == 1


def test_a_key_longer_than_200_characters_is_refused(setup: Setup) -> None:
    response = post_raw(setup.client(setup.roles.club_admin), "/penalties/", penalty(setup), "k" * 201)
    assert response.status_code == 422
    assert not Penalty.objects.exists()


def test_a_200_character_key_is_accepted_on_a_line(setup: Setup) -> None:
    # The header allows 200 characters; the line must be stored under it like under a short one.
    key = "k" * 200
    client = setup.client(setup.roles.club_admin)
    url = f"/sheets/{setup.sheet.pk}/lines/"

    first = post_raw(client, url, DEAL_1, key)
    again = post_raw(client, url, DEAL_1, key)

    assert first.status_code == 201, first.content
    assert again.headers[REPLAYED] == "true"
    assert DealEntry.objects.filter(sheet=setup.sheet).count() == 1
