"""Who may call what: every endpoint and method of the API against every role, one test id per cell.

The roles (columns of ``EXPECTED``):

- ``anonymous``: nobody logged in (the public);
- ``outsider``: logged in, no tie to the club or the competition;
- ``player``: a member of the organising club, not an administrator, with a linked ``Player``;
- ``captain``: nobody logged in, but sending ``X-Table-Code`` with the code of table 1's sheet;
- ``organiser``: listed in ``Competition.organisers`` of the competition, not a club administrator;
- ``other_admin``: administrator of another club;
- ``club_admin``: administrator of the competition's club;
- ``superuser``.

A row names one request (``ENDPOINTS``); ``test_every_schema_operation_has_a_permission_row`` fails when the
OpenAPI schema gains an operation that has no row here, so a new endpoint must say who may call it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from tests.factories import (
    ClubFactory,
    MembershipFactory,
    PlayerFactory,
    RuleSetFactory,
    UserFactory,
    seated_competition,
)
from tests.roles import make_roles
from tournaments.models import Club, Competition, Penalty, Player, Round, RuleSet, ScoreSheet
from tournaments.services.entry import record_deal
from tournaments.services.transfer import export_competition

pytestmark = pytest.mark.django_db

API = "/api/v1"
PASSWORD = "secret-pass-123"  # UserFactory's
ROLES = ("anonymous", "outsider", "player", "captain", "organiser", "other_admin", "club_admin", "superuser")

# iwwa, four players at table 1: deal 1 dealt by seat 0, deal 2 by seat 1.
DEAL_1 = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6}
DEAL_1_CORRECTED = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [1], "tricks": 5}
DEAL_2 = {"deal": 2, "dealer": 1, "contract": "pass"}


@dataclass
class World:
    club: Club
    other_club: Club
    competition: Competition  # public, 8 players: tables 1 and 2 of round 1
    hidden: Competition  # is_public=False, same club, same organiser
    rule_set: RuleSet  # belongs to the club; no competition plays it
    global_rule_set: RuleSet  # the competition's, no club
    member: Player  # a member of the club (no user): the player whose details are changed
    sheet: ScoreSheet  # table 1: the captain's sheet; deal 1 entered
    other_sheet: ScoreSheet  # table 2: not the captain's
    round: Round
    penalty: Penalty
    hidden_sheet: ScoreSheet
    hidden_round: Round
    hidden_penalty: Penalty
    users: dict[str, Any]


@pytest.fixture
def world() -> World:
    club = ClubFactory()
    other_club = ClubFactory()
    competition = seated_competition(players=8, club=club)
    hidden = seated_competition(players=4, club=club, is_public=False)
    roles = make_roles(competition)
    organiser = UserFactory(username="director")
    competition.organisers.add(organiser)
    hidden.organisers.add(organiser)
    other_admin = UserFactory(username="otheradmin")
    MembershipFactory(club=other_club, player=PlayerFactory(user=other_admin), is_admin=True)
    member = PlayerFactory()
    MembershipFactory(club=club, player=member)

    sheets = ScoreSheet.objects.filter(table__round__competition=competition).order_by("table__number")
    sheet, other_sheet = sheets
    record_deal(sheet, DEAL_1, by=roles.club_admin)
    hidden_sheet = ScoreSheet.objects.get(table__round__competition=hidden)
    record_deal(hidden_sheet, DEAL_1, by=roles.club_admin)
    registered = competition.players.order_by("pk").first()
    hidden_registered = hidden.players.order_by("pk").first()
    return World(
        club=club,
        other_club=other_club,
        competition=competition,
        hidden=hidden,
        rule_set=RuleSetFactory(club=club),
        global_rule_set=competition.rule_set,
        member=member,
        sheet=sheet,
        other_sheet=other_sheet,
        round=competition.rounds.get(),
        penalty=Penalty.objects.create(competition=competition, player=registered, points=3, reason="late"),
        hidden_sheet=hidden_sheet,
        hidden_round=hidden.rounds.get(),
        hidden_penalty=Penalty.objects.create(competition=hidden, player=hidden_registered, points=3, reason="late"),
        users={
            "outsider": roles.outsider,
            "player": roles.player,
            "organiser": organiser,
            "other_admin": other_admin,
            "club_admin": roles.club_admin,
            "superuser": roles.organiser,  # make_roles' "organiser" is the federation's superuser
        },
    )


def client_for(world: World, role: str) -> APIClient:
    client = APIClient()
    if role == "captain":
        client.credentials(HTTP_X_TABLE_CODE=world.sheet.captain_code)
    elif role != "anonymous":
        client.force_authenticate(world.users[role])
    return client


# -- the requests ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Endpoint:
    method: str
    template: str  # the path as the OpenAPI schema spells it
    url: Callable[[World], str]
    body: Callable[[World], Any] | None = None


def competition_body(w: World, slug: str) -> dict[str, Any]:
    return {
        "club": w.club.pk,
        "name": f"Competition {slug}",
        "slug": slug,
        "kind": "tournament",
        "rule_set": w.rule_set.pk,
        "deals_per_session": 16,
        "is_public": True,
    }


SCORE_BODY = {"players": 4, "lines": [DEAL_1, DEAL_2]}

ENDPOINTS: dict[str, Endpoint] = {
    # clubs
    "clubs-list": Endpoint("get", "/clubs/", lambda w: "/clubs/"),
    "clubs-create": Endpoint(
        "post", "/clubs/", lambda w: "/clubs/", lambda w: {"name": "New club", "slug": "new-club", "city": "Gent"}
    ),
    "clubs-retrieve": Endpoint("get", "/clubs/{id}/", lambda w: f"/clubs/{w.club.pk}/"),
    "clubs-update": Endpoint(
        "put",
        "/clubs/{id}/",
        lambda w: f"/clubs/{w.club.pk}/",
        lambda w: {"name": w.club.name, "slug": w.club.slug, "city": "Brugge"},
    ),
    "clubs-partial-update": Endpoint(
        "patch", "/clubs/{id}/", lambda w: f"/clubs/{w.club.pk}/", lambda w: {"city": "Brugge"}
    ),
    # players
    "players-list": Endpoint("get", "/players/", lambda w: "/players/"),
    "players-create": Endpoint(
        "post",
        "/players/",
        lambda w: "/players/",
        lambda w: {"first_name": "Nieuw", "last_name": "Lid", "club": w.club.pk},
    ),
    "players-retrieve": Endpoint("get", "/players/{id}/", lambda w: f"/players/{w.member.pk}/"),
    "players-update": Endpoint(
        "put",
        "/players/{id}/",
        lambda w: f"/players/{w.member.pk}/",
        lambda w: {"first_name": "Renamed", "last_name": w.member.last_name},
    ),
    "players-partial-update": Endpoint(
        "patch", "/players/{id}/", lambda w: f"/players/{w.member.pk}/", lambda w: {"first_name": "Renamed"}
    ),
    "players-me": Endpoint("get", "/players/me/", lambda w: "/players/me/"),
    "players-me-rename": Endpoint("patch", "/players/me/", lambda w: "/players/me/", lambda w: {"display_name": "Ace"}),
    # rule sets and the calculator
    "rulesets-list": Endpoint("get", "/rulesets/", lambda w: "/rulesets/"),
    "rulesets-create": Endpoint(
        "post",
        "/rulesets/",
        lambda w: "/rulesets/",
        lambda w: {"name": "House rules", "club": w.club.pk, "game": "wiezen", "preset": "flemish", "overrides": {}},
    ),
    "rulesets-create-global": Endpoint(
        "post",
        "/rulesets/",
        lambda w: "/rulesets/",
        lambda w: {"name": "Federation rules", "club": None, "game": "wiezen", "preset": "iwwa", "overrides": {}},
    ),
    "rulesets-retrieve": Endpoint("get", "/rulesets/{id}/", lambda w: f"/rulesets/{w.rule_set.pk}/"),
    "rulesets-update": Endpoint(
        "put",
        "/rulesets/{id}/",
        lambda w: f"/rulesets/{w.rule_set.pk}/",
        lambda w: {"name": "Renamed", "club": w.club.pk, "game": "wiezen", "preset": "iwwa", "overrides": {}},
    ),
    "rulesets-partial-update": Endpoint(
        "patch", "/rulesets/{id}/", lambda w: f"/rulesets/{w.rule_set.pk}/", lambda w: {"name": "Renamed"}
    ),
    "rulesets-partial-update-global": Endpoint(
        "patch", "/rulesets/{id}/", lambda w: f"/rulesets/{w.global_rule_set.pk}/", lambda w: {"name": "Renamed"}
    ),
    "rulesets-partial-update-make-global": Endpoint(
        "patch", "/rulesets/{id}/", lambda w: f"/rulesets/{w.rule_set.pk}/", lambda w: {"club": None}
    ),
    "rulesets-partial-update-move-to-other-club": Endpoint(
        "patch", "/rulesets/{id}/", lambda w: f"/rulesets/{w.rule_set.pk}/", lambda w: {"club": w.other_club.pk}
    ),
    "rulesets-score": Endpoint(
        "post", "/rulesets/{id}/score/", lambda w: f"/rulesets/{w.rule_set.pk}/score/", lambda w: SCORE_BODY
    ),
    "rulesets-presets-score": Endpoint(
        "post", "/rulesets/presets/{name}/score/", lambda w: "/rulesets/presets/iwwa/score/", lambda w: SCORE_BODY
    ),
    # competitions
    "competitions-list": Endpoint("get", "/competitions/", lambda w: "/competitions/"),
    "competitions-create": Endpoint(
        "post", "/competitions/", lambda w: "/competitions/", lambda w: competition_body(w, "new-competition")
    ),
    "competitions-retrieve": Endpoint("get", "/competitions/{id}/", lambda w: f"/competitions/{w.competition.pk}/"),
    "competitions-update": Endpoint(
        "put",
        "/competitions/{id}/",
        lambda w: f"/competitions/{w.competition.pk}/",
        lambda w: {**competition_body(w, w.competition.slug), "rule_set": w.competition.rule_set_id},
    ),
    "competitions-partial-update": Endpoint(
        "patch", "/competitions/{id}/", lambda w: f"/competitions/{w.competition.pk}/", lambda w: {"name": "Renamed"}
    ),
    "competitions-partial-update-move-to-other-club": Endpoint(
        "patch",
        "/competitions/{id}/",
        lambda w: f"/competitions/{w.competition.pk}/",
        lambda w: {"club": w.other_club.pk},
    ),
    "competitions-standings": Endpoint(
        "get", "/competitions/{id}/standings/", lambda w: f"/competitions/{w.competition.pk}/standings/"
    ),
    "competitions-standings-csv": Endpoint(
        "get", "/competitions/{id}/standings/", lambda w: f"/competitions/{w.competition.pk}/standings/?fmt=csv"
    ),
    "competitions-close": Endpoint(
        "post", "/competitions/{id}/close/", lambda w: f"/competitions/{w.competition.pk}/close/"
    ),
    "competitions-reopen": Endpoint(
        "post",
        "/competitions/{id}/reopen/",
        lambda w: f"/competitions/{w.competition.pk}/reopen/",
        lambda w: {"reason": "wrong result"},
    ),
    # deal 1 is at version 1 already: organisers get the service's refusal (400)
    "sheets-line-restore": Endpoint(
        "post",
        "/sheets/{id}/lines/{deal}/restore/",
        lambda w: f"/sheets/{w.sheet.pk}/lines/1/restore/",
        lambda w: {"version": 1},
    ),
    "competitions-archive": Endpoint(
        "get", "/competitions/{id}/archive/", lambda w: f"/competitions/{w.competition.pk}/archive/"
    ),
    "competitions-import": Endpoint(
        "post",
        "/competitions/import/",
        lambda w: f"/competitions/import/?club={w.club.pk}",
        lambda w: export_competition(w.competition),
    ),
    # rounds and tables
    "rounds-list": Endpoint("get", "/rounds/", lambda w: "/rounds/"),
    "rounds-create": Endpoint(
        "post", "/rounds/", lambda w: "/rounds/", lambda w: {"competition": w.competition.pk, "seed": 7}
    ),
    "rounds-retrieve": Endpoint("get", "/rounds/{id}/", lambda w: f"/rounds/{w.round.pk}/"),
    "rounds-publish": Endpoint("post", "/rounds/{id}/publish/", lambda w: f"/rounds/{w.round.pk}/publish/"),
    # the round is in play (deal 1 entered): organisers get the state's refusal (400), everyone else no further
    "rounds-redraw": Endpoint("post", "/rounds/{id}/redraw/", lambda w: f"/rounds/{w.round.pk}/redraw/", lambda w: {}),
    "rounds-swap": Endpoint(
        "post",
        "/rounds/{id}/swap/",
        lambda w: f"/rounds/{w.round.pk}/swap/",
        lambda w: {"players": list(w.competition.players.order_by("pk").values_list("pk", flat=True)[:2])},
    ),
    "rounds-problems": Endpoint("get", "/rounds/{id}/problems/", lambda w: f"/rounds/{w.round.pk}/problems/"),
    "rounds-reseat": Endpoint(
        "post",
        "/rounds/{id}/reseat/",
        lambda w: f"/rounds/{w.round.pk}/reseat/",
        lambda w: {"players": list(w.competition.players.values_list("pk", flat=True))},
    ),
    "rounds-finalise": Endpoint("post", "/rounds/{id}/finalise/", lambda w: f"/rounds/{w.round.pk}/finalise/"),
    "rounds-reopen": Endpoint(
        "post", "/rounds/{id}/reopen/", lambda w: f"/rounds/{w.round.pk}/reopen/", lambda w: {"reason": "typo"}
    ),
    "rounds-events": Endpoint("get", "/rounds/{id}/events/", lambda w: f"/rounds/{w.round.pk}/events/"),
    "tables-list": Endpoint("get", "/tables/", lambda w: "/tables/"),
    "tables-retrieve": Endpoint("get", "/tables/{id}/", lambda w: f"/tables/{w.sheet.table_id}/"),
    # score sheets
    "sheets-list": Endpoint("get", "/sheets/", lambda w: "/sheets/"),
    "sheets-retrieve": Endpoint("get", "/sheets/{id}/", lambda w: f"/sheets/{w.sheet.pk}/"),
    "sheets-lines-add": Endpoint(
        "post", "/sheets/{id}/lines/", lambda w: f"/sheets/{w.sheet.pk}/lines/", lambda w: DEAL_2
    ),
    "sheets-lines-add-other-table": Endpoint(
        "post", "/sheets/{id}/lines/", lambda w: f"/sheets/{w.other_sheet.pk}/lines/", lambda w: DEAL_1
    ),
    "sheets-lines-correct": Endpoint(
        "put",
        "/sheets/{id}/lines/{deal}/",
        lambda w: f"/sheets/{w.sheet.pk}/lines/1/",
        lambda w: {"line": DEAL_1_CORRECTED, "version": 1},
    ),
    "sheets-export": Endpoint("get", "/sheets/{id}/export/", lambda w: f"/sheets/{w.sheet.pk}/export/"),
    "sheets-export-csv": Endpoint("get", "/sheets/{id}/export/", lambda w: f"/sheets/{w.sheet.pk}/export/?fmt=csv"),
    "sheets-import": Endpoint(
        "post", "/sheets/{id}/import/", lambda w: f"/sheets/{w.sheet.pk}/import/", lambda w: {"lines": [DEAL_2]}
    ),
    # penalties, ratings, tokens
    "penalties-list": Endpoint("get", "/penalties/", lambda w: "/penalties/"),
    "penalties-create": Endpoint(
        "post",
        "/penalties/",
        lambda w: "/penalties/",
        lambda w: {"competition": w.competition.pk, "player": w.penalty.player_id, "points": 2, "reason": "phone"},
    ),
    "penalties-retrieve": Endpoint("get", "/penalties/{id}/", lambda w: f"/penalties/{w.penalty.pk}/"),
    "penalties-destroy": Endpoint("delete", "/penalties/{id}/", lambda w: f"/penalties/{w.penalty.pk}/"),
    "ratings-list": Endpoint("get", "/ratings/", lambda w: "/ratings/"),
    "token": Endpoint("post", "/token/", lambda w: "/token/", lambda w: {"username": "player", "password": PASSWORD}),
    # the non-public competition: the same operations on its objects
    "hidden-competitions-retrieve": Endpoint("get", "/competitions/{id}/", lambda w: f"/competitions/{w.hidden.pk}/"),
    "hidden-competitions-partial-update": Endpoint(
        "patch", "/competitions/{id}/", lambda w: f"/competitions/{w.hidden.pk}/", lambda w: {"name": "Renamed"}
    ),
    "hidden-competitions-standings": Endpoint(
        "get", "/competitions/{id}/standings/", lambda w: f"/competitions/{w.hidden.pk}/standings/"
    ),
    "hidden-competitions-standings-csv": Endpoint(
        "get", "/competitions/{id}/standings/", lambda w: f"/competitions/{w.hidden.pk}/standings/?fmt=csv"
    ),
    "hidden-competitions-archive": Endpoint(
        "get", "/competitions/{id}/archive/", lambda w: f"/competitions/{w.hidden.pk}/archive/"
    ),
    "hidden-rounds-retrieve": Endpoint("get", "/rounds/{id}/", lambda w: f"/rounds/{w.hidden_round.pk}/"),
    "hidden-rounds-publish": Endpoint(
        "post", "/rounds/{id}/publish/", lambda w: f"/rounds/{w.hidden_round.pk}/publish/"
    ),
    "hidden-tables-retrieve": Endpoint("get", "/tables/{id}/", lambda w: f"/tables/{w.hidden_sheet.table_id}/"),
    "hidden-sheets-retrieve": Endpoint("get", "/sheets/{id}/", lambda w: f"/sheets/{w.hidden_sheet.pk}/"),
    "hidden-sheets-export": Endpoint("get", "/sheets/{id}/export/", lambda w: f"/sheets/{w.hidden_sheet.pk}/export/"),
    "hidden-sheets-lines-add": Endpoint(
        "post", "/sheets/{id}/lines/", lambda w: f"/sheets/{w.hidden_sheet.pk}/lines/", lambda w: DEAL_2
    ),
    "hidden-penalties-retrieve": Endpoint("get", "/penalties/{id}/", lambda w: f"/penalties/{w.hidden_penalty.pk}/"),
    "hidden-penalties-destroy": Endpoint("delete", "/penalties/{id}/", lambda w: f"/penalties/{w.hidden_penalty.pk}/"),
}

# -- the expectations -----------------------------------------------------------------------------------------------

OK = "ok"  # 2xx
NO = "denied"  # 401 without credentials or 403 (anonymous: 401 or 403; logged in: exactly 403)
HID = "hidden"  # 404: the object is invisible to this role
NOH = "denied or hidden"  # 401/403/404: a write on an invisible object may refuse or hide
NOT_LINKED = 404  # players/me of an account without a Player: not a permission matter

EVERYONE = (OK, OK, OK, OK, OK, OK, OK, OK)
# fmt: off
EXPECTED: dict[str, tuple[Any, ...]] = {
    #                                    anonymous outsider player captain organiser other_admin club_admin superuser
    "clubs-list":                        EVERYONE,
    "clubs-create":                      (NO,      NO,      NO,    NO,     NO,       NO,         NO,        OK),
    "clubs-retrieve":                    EVERYONE,
    "clubs-update":                      (NO,      NO,      NO,    NO,     NO,       NO,         OK,        OK),
    "clubs-partial-update":              (NO,      NO,      NO,    NO,     NO,       NO,         OK,        OK),
    "players-list":                      EVERYONE,
    "players-create":                    (NO,      NO,      NO,    NO,     NO,       NO,         OK,        OK),
    "players-retrieve":                  EVERYONE,
    "players-update":                    (NO,      NO,      NO,    NO,     NO,       NO,         OK,        OK),
    "players-partial-update":            (NO,      NO,      NO,    NO,     NO,       NO,         OK,        OK),
    "players-me":                        (NO,  NOT_LINKED,  OK,    NO, NOT_LINKED,   OK,         OK,  NOT_LINKED),
    "players-me-rename":                 (NO,  NOT_LINKED,  OK,    NO, NOT_LINKED,   OK,         OK,  NOT_LINKED),
    "rulesets-list":                     EVERYONE,
    "rulesets-create":                   (NO,      NO,      NO,    NO,     NO,       NO,         OK,        OK),
    "rulesets-create-global":            (NO,      NO,      NO,    NO,     NO,       NO,         NO,        OK),
    # the club's rule set that no competition plays: its club's own (it may be named after a hidden competition)
    "rulesets-retrieve":                 (HID,     HID,     HID,   HID,    HID,      HID,        OK,        OK),
    "rulesets-update":                   (NOH,     NOH,     NOH,   NOH,    NOH,      NOH,        OK,        OK),
    "rulesets-partial-update":           (NOH,     NOH,     NOH,   NOH,    NOH,      NOH,        OK,        OK),
    "rulesets-partial-update-global":    (NO,      NO,      NO,    NO,     NO,       NO,         NO,        OK),
    # making a club's rule set global is creating a global one; moving it, creating it in the other club
    "rulesets-partial-update-make-global": (NOH,   NOH,     NOH,   NOH,    NOH,      NOH,        NO,        OK),
    "rulesets-partial-update-move-to-other-club":
                                         (NOH,     NOH,     NOH,   NOH,    NOH,      NOH,        NO,        OK),
    "rulesets-score":                    (HID,     HID,     HID,   HID,    HID,      HID,        OK,        OK),
    "rulesets-presets-score":            EVERYONE,
    "competitions-list":                 EVERYONE,
    "competitions-create":               (NO,      NO,      NO,    NO,     NO,       NO,         OK,        OK),
    "competitions-retrieve":             EVERYONE,
    "competitions-update":               (NO,      NO,      NO,    NO,     OK,       NO,         OK,        OK),
    "competitions-partial-update":       (NO,      NO,      NO,    NO,     OK,       NO,         OK,        OK),
    # moving a competition to another club is creating it there: that club's administrators only
    "competitions-partial-update-move-to-other-club":
                                         (NO,      NO,      NO,    NO,     NO,       NO,         NO,        OK),
    "competitions-standings":            EVERYONE,
    "competitions-standings-csv":        EVERYONE,
    "competitions-archive":              (NO,      NO,      NO,    NO,     OK,       NO,         OK,        OK),
    "competitions-close":                (NO,      NO,      NO,    NO,     OK,       NO,         OK,        OK),
    # not closed: reopening is refused with the reason
    "competitions-reopen":               (NO,      NO,      NO,    NO,     400,      NO,         400,       400),
    "sheets-line-restore":               (NO,      NO,      NO,    NO,     400,      NO,         400,       400),
    "competitions-import":               (NO,      NO,      NO,    NO,     NO,       NO,         OK,        OK),
    "rounds-list":                       EVERYONE,
    "rounds-create":                     (NO,      NO,      NO,    NO,     OK,       NO,         OK,        OK),
    "rounds-retrieve":                   EVERYONE,
    # both rounds are in play already: publishing again is refused with the reason
    "rounds-publish":                    (NO,      NO,      NO,    NO,     400,      NO,         400,       400),
    "rounds-redraw":                     (NO,      NO,      NO,    NO,     400,      NO,         400,       400),
    "rounds-swap":                       (NO,      NO,      NO,    NO,     400,      NO,         400,       400),
    "rounds-problems":                   (NO,      NO,      NO,    NO,     OK,       NO,         OK,        OK),
    "rounds-reseat":                     (NO,      NO,      NO,    NO,     400,      NO,         400,       400),
    "rounds-finalise":                   (NO,      NO,      NO,    NO,     400,      NO,         400,       400),
    "rounds-reopen":                     (NO,      NO,      NO,    NO,     400,      NO,         400,       400),
    "rounds-events":                     (NO,      NO,      NO,    NO,     OK,       NO,         OK,        OK),
    "tables-list":                       EVERYONE,
    "tables-retrieve":                   EVERYONE,
    "sheets-list":                       EVERYONE,
    "sheets-retrieve":                   EVERYONE,
    "sheets-lines-add":                  (NO,      NO,      NO,    OK,     OK,       NO,         OK,        OK),
    "sheets-lines-add-other-table":      (NO,      NO,      NO,    NO,     OK,       NO,         OK,        OK),
    "sheets-lines-correct":              (NO,      NO,      NO,    OK,     OK,       NO,         OK,        OK),
    "sheets-export":                     EVERYONE,
    "sheets-export-csv":                 EVERYONE,
    "sheets-import":                     (NO,      NO,      NO,    OK,     OK,       NO,         OK,        OK),
    "penalties-list":                    EVERYONE,
    "penalties-create":                  (NO,      NO,      NO,    NO,     OK,       NO,         OK,        OK),
    "penalties-retrieve":                EVERYONE,
    "penalties-destroy":                 (NO,      NO,      NO,    NO,     OK,       NO,         OK,        OK),
    "ratings-list":                      EVERYONE,
    "token":                             EVERYONE,
    "hidden-competitions-retrieve":      (HID,     HID,     HID,   HID,    OK,       HID,        OK,        OK),
    "hidden-competitions-partial-update": (NOH,    NOH,     NOH,   NOH,    OK,       NOH,        OK,        OK),
    "hidden-competitions-standings":     (HID,     HID,     HID,   HID,    OK,       HID,        OK,        OK),
    "hidden-competitions-standings-csv": (HID,     HID,     HID,   HID,    OK,       HID,        OK,        OK),
    "hidden-competitions-archive":       (HID,     HID,     HID,   HID,    OK,       HID,        OK,        OK),
    "hidden-rounds-retrieve":            (HID,     HID,     HID,   HID,    OK,       HID,        OK,        OK),
    "hidden-rounds-publish":             (NOH,     NOH,     NOH,   NOH,    400,      NOH,        400,       400),
    "hidden-tables-retrieve":            (HID,     HID,     HID,   HID,    OK,       HID,        OK,        OK),
    "hidden-sheets-retrieve":            (HID,     HID,     HID,   HID,    OK,       HID,        OK,        OK),
    "hidden-sheets-export":              (HID,     HID,     HID,   HID,    OK,       HID,        OK,        OK),
    "hidden-sheets-lines-add":           (NOH,     NOH,     NOH,   NOH,    OK,       NOH,        OK,        OK),
    "hidden-penalties-retrieve":         (HID,     HID,     HID,   HID,    OK,       HID,        OK,        OK),
    "hidden-penalties-destroy":          (NOH,     NOH,     NOH,   NOH,    OK,       NOH,        OK,        OK),
}
# fmt: on

CELLS = [(name, role, outcome) for name, row in EXPECTED.items() for role, outcome in zip(ROLES, row, strict=True)]


def call(client: APIClient, world: World, endpoint: Endpoint) -> Any:
    url = API + endpoint.url(world)
    if endpoint.body is None:
        return getattr(client, endpoint.method)(url)
    return getattr(client, endpoint.method)(url, endpoint.body(world), format="json")


def acceptable(outcome: Any, role: str) -> set[int] | range:
    anonymous = role in ("anonymous", "captain")
    if outcome == OK:
        return range(200, 300)
    if outcome == NO:
        return {401, 403} if anonymous else {403}
    if outcome == HID:
        return {404}
    if outcome == NOH:
        return {401, 403, 404} if anonymous else {403, 404}
    return {outcome}


@pytest.mark.parametrize(("name", "role", "outcome"), CELLS, ids=[f"{n}-{r}" for n, r, _ in CELLS])
def test_each_role_gets_exactly_the_access_the_matrix_gives_it(
    world: World, name: str, role: str, outcome: Any
) -> None:
    response = call(client_for(world, role), world, ENDPOINTS[name])
    allowed = acceptable(outcome, role)
    assert response.status_code in allowed, (
        f"{ENDPOINTS[name].method.upper()} {ENDPOINTS[name].url(world)} as {role}: expected {outcome}, "
        f"got {response.status_code} {getattr(response, 'data', response.content)!r}"
    )


def test_every_row_has_a_request_and_every_request_a_row() -> None:
    assert set(EXPECTED) == set(ENDPOINTS)


def test_every_schema_operation_has_a_permission_row() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    methods = {"get", "post", "put", "patch", "delete"}
    in_schema = {
        (path.removeprefix(API), method)
        for path, item in schema["paths"].items()
        for method in item
        if method in methods
    }
    in_matrix = {(e.template, e.method) for e in ENDPOINTS.values()}
    assert in_schema, "the schema lists no operations"
    assert in_schema - in_matrix == set(), "operations without a permission row"
    assert in_matrix - in_schema == set(), "rows for operations the schema does not have"


# -- a non-public competition is absent from every list for those who may not see it -------------------------------

SEES_HIDDEN = {"organiser", "club_admin", "superuser"}
LISTS: dict[str, Callable[[World], tuple[str, int]]] = {
    # a list request filtered to the hidden competition where the API allows it, and the pk to look for
    "competitions": lambda w: ("/competitions/", w.hidden.pk),
    "rounds": lambda w: (f"/rounds/?competition={w.hidden.pk}", w.hidden_round.pk),
    "tables": lambda w: (f"/tables/?round__competition={w.hidden.pk}", w.hidden_sheet.table_id),
    "sheets": lambda w: (f"/sheets/?table__round__competition={w.hidden.pk}", w.hidden_sheet.pk),
    "penalties": lambda w: (f"/penalties/?competition={w.hidden.pk}", w.hidden_penalty.pk),
}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("listing", sorted(LISTS))
def test_a_hidden_competition_is_listed_only_for_those_who_run_it(world: World, listing: str, role: str) -> None:
    path, pk = LISTS[listing](world)
    response = client_for(world, role).get(API + path)
    assert response.status_code == 200
    listed = {item["id"] for item in response.data["results"]}
    assert (pk in listed) == (role in SEES_HIDDEN), f"{listing} as {role}: {sorted(listed)}"


@pytest.mark.parametrize("role", ROLES)
def test_the_public_competition_is_listed_for_everyone(world: World, role: str) -> None:
    response = client_for(world, role).get(f"{API}/competitions/")
    assert world.competition.pk in {item["id"] for item in response.data["results"]}


# -- tokens ---------------------------------------------------------------------------------------------------------


def test_a_token_from_the_token_endpoint_authenticates_with_the_users_roles(world: World) -> None:
    anonymous = APIClient()
    url = f"{API}/competitions/{world.competition.pk}/"

    issued = anonymous.post(f"{API}/token/", {"username": "clubadmin", "password": PASSWORD}, format="json")
    assert issued.status_code == 200
    admin = APIClient()
    admin.credentials(HTTP_AUTHORIZATION=f"Token {issued.data['token']}")
    assert admin.patch(url, {"name": "By token"}, format="json").status_code == 200
    assert Competition.objects.get(pk=world.competition.pk).name == "By token"
    assert admin.get(f"{API}/competitions/{world.hidden.pk}/").status_code == 200

    outsider_token = anonymous.post(f"{API}/token/", {"username": "outsider", "password": PASSWORD}, format="json")
    outsider = APIClient()
    outsider.credentials(HTTP_AUTHORIZATION=f"Token {outsider_token.data['token']}")
    assert outsider.patch(url, {"name": "Hijacked"}, format="json").status_code == 403
    assert outsider.get(f"{API}/competitions/{world.hidden.pk}/").status_code == 404

    forged = APIClient()
    forged.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    assert forged.get(url).status_code == 401


def test_the_token_endpoint_refuses_a_wrong_password(world: World) -> None:
    response = APIClient().post(f"{API}/token/", {"username": "clubadmin", "password": "wrong"}, format="json")
    assert response.status_code == 400
    assert "token" not in response.data


# -- what a player's page shows to whom -----------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["anonymous", "outsider", "player", "captain", "other_admin"])
def test_a_players_federation_id_is_not_shown_to_those_outside_their_club_administration(
    world: World, role: str
) -> None:
    Player.objects.filter(pk=world.member.pk).update(federation_id="BE-12345")
    client = client_for(world, role)
    detail = client.get(f"{API}/players/{world.member.pk}/")
    listing = client.get(f"{API}/players/")
    assert detail.status_code == 200 and listing.status_code == 200
    assert "BE-12345" not in detail.content.decode() + listing.content.decode()
    assert set(detail.data) == {"id", "name"}
