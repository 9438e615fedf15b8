"""Issue 14, class 2: the API never shows what the pages hide.

One rule (``tournaments.visibility``) decides what a viewer may read of a competition. Every GET route of the API
that returns competition data is paired here with the page that shows the same thing (the competition page, a
round page, a sheet page, the organisers' pages), and the matrix

    route x visibility (hidden / standings only / everything) x round status (draft / published / in play /
    finalised) x role (anonymous, outsider, player, other club's administrator, club administrator, organiser)

checks that the API shows the object exactly when its page does: a 404 on the page is a 404 (or 403) on the API,
or a list without the object. The routes come from the URL conf: a new GET route fails
``test_every_api_get_route_is_classified`` until it is paired with its page here or said to hold no competition
data.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import get_resolver, reverse
from rest_framework.test import APIClient

from tests.factories import ClubFactory, CompetitionFactory, MembershipFactory, PlayerFactory, UserFactory
from tests.urlconf import walk
from tournaments.models import Competition, Penalty, Round, ScoreSheet
from tournaments.services.competitions import register_players
from tournaments.services.entry import record_deal
from tournaments.services.rounds import create_round, publish_round

pytestmark = pytest.mark.django_db

API = "/api/v1"
DEAL_1 = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6}

VISIBILITIES = [v.value for v in Competition.Visibility]
STATUSES = ["draft", "published", "in_play", "finalised"]
ROLES = ["anonymous", "outsider", "player", "other_admin", "club_admin", "organiser"]


# -- the routes, from the URL conf ----------------------------------------------------------------------------------


def api_get_routes() -> set[str]:
    """The name of every API route that answers GET (a viewset action or an API view's ``get``)."""
    names: set[str] = set()
    for route, _, pattern in walk(get_resolver().url_patterns):
        if not route.startswith("api/"):
            continue
        callback = pattern.callback
        actions = getattr(callback, "actions", None)
        view_class = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
        if actions is not None:
            answers_get = "get" in actions
        elif view_class is not None:
            answers_get = hasattr(view_class, "get")
        else:
            answers_get = True  # a plain function view answers any method
        if answers_get:
            names.add(pattern.name or callback.__name__)
    return names


# Routes that return no competition's data, and why.
NO_COMPETITION_DATA = {
    "api-root": "lists the API's endpoints",
    "api-schema": "describes the API",
    "api-docs": "describes the API",
    "not_found": "the JSON 404 of any other address under the API",
    "club-list": "clubs are public: name, slug, city",
    "club-detail": "clubs are public: name, slug, city",
    "player-list": "a player's public name only (test_public_names.py, test_permission_matrix.py)",
    "player-detail": "a player's public name only (test_public_names.py, test_permission_matrix.py)",
    "player-me": "the caller's own player",
    "ruleset-list": "rule sets are a club's published house rules, no results",
    "ruleset-detail": "rule sets are a club's published house rules, no results",
    "rating-list": "ratings count only public results: tests/security/test_ratings_integrity.py",
}


# -- the world: one competition of each visibility and round status --------------------------------------------------


@dataclass
class World:
    competition: Competition
    round: Round
    sheet: ScoreSheet
    penalty: Penalty
    users: dict[str, Any]


def build_world(visibility: str, status: str) -> World:
    club = ClubFactory()
    competition = CompetitionFactory(club=club)
    competition.visibility = visibility
    competition.save()
    users: dict[str, Any] = {"anonymous": None}
    players = PlayerFactory.create_batch(4)
    users["player"] = UserFactory()
    players[0].user = users["player"]
    players[0].save()
    MembershipFactory(club=club, player=players[0])
    register_players(competition, players)
    users["outsider"] = UserFactory()
    users["other_admin"] = UserFactory(is_staff=True)
    MembershipFactory(club=ClubFactory(), player=PlayerFactory(user=users["other_admin"]), is_admin=True)
    users["club_admin"] = UserFactory(is_staff=True)
    MembershipFactory(club=club, player=PlayerFactory(user=users["club_admin"]), is_admin=True)
    users["organiser"] = UserFactory()
    competition.organisers.add(users["organiser"])

    round_ = create_round(competition)
    sheet = ScoreSheet.objects.get(table__round=round_)
    penalty = Penalty.objects.create(competition=competition, round=round_, player=players[1], points=2, reason="late")
    if status != "draft":
        publish_round(round_)
    if status in ("in_play", "finalised"):
        record_deal(sheet, DEAL_1, by=users["club_admin"])
    if status == "finalised":
        ScoreSheet.objects.filter(pk=sheet.pk).update(state=ScoreSheet.State.FINAL)
        Round.objects.filter(pk=round_.pk).update(status=Round.Status.FINALISED)
    round_.refresh_from_db()
    assert round_.status == status
    return World(competition, round_, sheet, penalty, users)


# -- what each route shows and which page shows the same --------------------------------------------------------------

PAGES: dict[str, Callable[[World], str]] = {
    "competition": lambda w: reverse("competition", args=[w.competition.slug]),
    "round": lambda w: reverse("round", args=[w.competition.slug, w.round.number]),
    "sheet": lambda w: reverse("sheet", args=[w.competition.slug, w.round.number, w.sheet.table.number]),
    "manage-competition": lambda w: reverse("manage-competition", args=[w.competition.slug]),
    "manage-round": lambda w: reverse("manage-round", args=[w.competition.slug, w.round.number]),
}


@dataclass(frozen=True)
class Request:
    url: Callable[[World], str]
    listed: Callable[[World], int] | None = None  # a list: the pk that must (not) be among its results


@dataclass(frozen=True)
class Route:
    page: str  # a key of PAGES
    requests: tuple[Request, ...]


ROUTES: dict[str, Route] = {
    "competition-list": Route("competition", (Request(lambda w: "/competitions/", lambda w: w.competition.pk),)),
    "competition-detail": Route("competition", (Request(lambda w: f"/competitions/{w.competition.pk}/"),)),
    "competition-standings": Route(
        "competition",
        (
            Request(lambda w: f"/competitions/{w.competition.pk}/standings/"),
            Request(lambda w: f"/competitions/{w.competition.pk}/standings/?fmt=csv"),
        ),
    ),
    "competition-archive": Route(
        "manage-competition", (Request(lambda w: f"/competitions/{w.competition.pk}/archive/"),)
    ),
    "round-list": Route(
        "round",
        (
            Request(lambda w: f"/rounds/?competition={w.competition.pk}", lambda w: w.round.pk),
            Request(lambda w: "/rounds/", lambda w: w.round.pk),
        ),
    ),
    "round-detail": Route("round", (Request(lambda w: f"/rounds/{w.round.pk}/"),)),
    "round-events": Route("manage-round", (Request(lambda w: f"/rounds/{w.round.pk}/events/"),)),
    "round-problems": Route("manage-round", (Request(lambda w: f"/rounds/{w.round.pk}/problems/"),)),
    "table-list": Route(
        "round",
        (
            Request(lambda w: f"/tables/?round={w.round.pk}", lambda w: w.sheet.table_id),
            Request(lambda w: f"/tables/?round__competition={w.competition.pk}", lambda w: w.sheet.table_id),
        ),
    ),
    "table-detail": Route("round", (Request(lambda w: f"/tables/{w.sheet.table_id}/"),)),
    "sheet-list": Route(
        "sheet",
        (
            Request(lambda w: f"/sheets/?table__round={w.round.pk}", lambda w: w.sheet.pk),
            Request(lambda w: f"/sheets/?table__round__competition={w.competition.pk}", lambda w: w.sheet.pk),
        ),
    ),
    "sheet-detail": Route("sheet", (Request(lambda w: f"/sheets/{w.sheet.pk}/"),)),
    "sheet-export": Route(
        "sheet",
        (
            Request(lambda w: f"/sheets/{w.sheet.pk}/export/"),
            Request(lambda w: f"/sheets/{w.sheet.pk}/export/?fmt=csv"),
        ),
    ),
    # the penalty names the round: its round and reason are that round's results
    "penalty-list": Route(
        "round", (Request(lambda w: f"/penalties/?competition={w.competition.pk}", lambda w: w.penalty.pk),)
    ),
    "penalty-detail": Route("round", (Request(lambda w: f"/penalties/{w.penalty.pk}/"),)),
}


def page_shows(client: Client, url: str) -> bool:
    response = client.get(url)
    assert response.status_code in (200, 302, 403, 404), f"{url}: {response.status_code}"
    return response.status_code == 200


def api_shows(client: APIClient, world: World, request: Request) -> tuple[bool, str]:
    url = API + request.url(world)
    response = client.get(url)
    assert response.status_code in (200, 401, 403, 404), f"{url}: {response.status_code}"
    if response.status_code != 200:
        return False, f"{url}: {response.status_code}"
    if request.listed is None:
        return True, f"{url}: 200"
    listed = {item["id"] for item in response.json()["results"]}
    return request.listed(world) in listed, f"{url}: 200 listing {sorted(listed)}"


def clients(world: World, role: str) -> tuple[Client, APIClient]:
    page, api = Client(), APIClient()
    user = world.users[role]
    if user is not None:
        page.force_login(user)
        api.force_authenticate(user)
    return page, api


CELLS = [(v, s, r) for v in VISIBILITIES for s in STATUSES for r in ROLES]


@pytest.mark.parametrize(("visibility", "status", "role"), CELLS, ids=["-".join(cell) for cell in CELLS])
def test_the_api_shows_each_object_exactly_when_its_page_does(visibility: str, status: str, role: str) -> None:
    world = build_world(visibility, status)
    page_client, api_client = clients(world, role)
    pages = {name: page_shows(page_client, url(world)) for name, url in PAGES.items()}
    wrong = []
    for name, route in ROUTES.items():
        for request in route.requests:
            shown, said = api_shows(api_client, world, request)
            if shown != pages[route.page]:
                page = "shows" if pages[route.page] else "hides"
                wrong.append(f"{name}: {said}, but the {route.page} page {page} it")
    assert not wrong, "\n".join(wrong)


def test_the_matrix_is_not_vacuous() -> None:
    """Public everything: anyone sees the published round; hidden: only those who run it see anything."""
    public = build_world(Competition.Visibility.EVERYTHING, "in_play")
    page, _ = clients(public, "anonymous")
    assert all(page_shows(page, PAGES[p](public)) for p in ("competition", "round", "sheet"))
    hidden = build_world(Competition.Visibility.HIDDEN, "draft")
    outsider, _ = clients(hidden, "outsider")
    organiser, _ = clients(hidden, "organiser")
    assert not any(page_shows(outsider, url(hidden)) for url in PAGES.values())
    assert all(page_shows(organiser, url(hidden)) for url in PAGES.values())


# the findings of the issue, by name
REPORTED = {
    "sheet-detail-standings-only": ("standings", "in_play", "/sheets/{sheet}/"),
    "sheet-export-csv-standings-only": ("standings", "in_play", "/sheets/{sheet}/export/?fmt=csv"),
    "tables-of-a-draft-round": ("everything", "draft", "/tables/?round={round}"),
    "round-detail-draft": ("everything", "draft", "/rounds/{round}/"),
}


@pytest.mark.parametrize("finding", sorted(REPORTED))
def test_the_reported_leaks_are_closed(finding: str) -> None:
    visibility, status, path = REPORTED[finding]
    world = build_world(visibility, status)
    response = APIClient().get(API + path.format(sheet=world.sheet.pk, round=world.round.pk))
    assert response.status_code == 404 or (response.status_code == 200 and response.json()["results"] == [])


def test_every_api_get_route_is_classified() -> None:
    routes = api_get_routes()
    assert {"sheet-detail", "sheet-export", "table-list", "round-detail"} <= routes, "the enumeration found nothing"
    unclassified = routes - set(ROUTES) - set(NO_COMPETITION_DATA)
    assert not unclassified, f"GET routes the parity matrix does not classify: {sorted(unclassified)}"
    stale = (set(ROUTES) | set(NO_COMPETITION_DATA)) - routes
    assert not stale, f"classified routes the URL conf no longer has: {sorted(stale)}"
    assert not set(ROUTES) & set(NO_COMPETITION_DATA)


# a table reads its own sheet with its code, as its entry page shows it: a published round, whatever the visibility
TABLE_READS = [(v, s) for v in VISIBILITIES for s in ("draft", "in_play")]


@pytest.mark.parametrize(("visibility", "status"), TABLE_READS, ids=["-".join(cell) for cell in TABLE_READS])
def test_a_table_reads_its_own_sheet_with_its_code_as_its_entry_page_shows_it(visibility: str, status: str) -> None:
    world = build_world(visibility, status)
    entry = reverse("sheet-entry", args=[world.competition.slug, world.round.number, world.sheet.table.number])
    entry_page = Client().get(entry, {"code": world.sheet.captain_code}, follow=True)
    table, stranger = APIClient(), APIClient()
    table.credentials(HTTP_X_TABLE_CODE=world.sheet.captain_code)
    stranger.credentials(HTTP_X_TABLE_CODE="not-the-code")
    for path in (f"/sheets/{world.sheet.pk}/", f"/sheets/{world.sheet.pk}/export/"):
        assert (table.get(API + path).status_code == 200) == (entry_page.status_code == 200), path
        shown_to_all = APIClient().get(API + path).status_code == 200
        assert (stranger.get(API + path).status_code == 200) == shown_to_all, path
    assert (entry_page.status_code == 200) == (status != "draft")
