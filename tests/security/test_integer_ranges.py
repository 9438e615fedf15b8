"""Issue 14, class 6: numbers out of range.

A penalty of 9223372036854775807 points was accepted (the standings then failed with ``OverflowError`` and stayed
frozen), and ``POST /api/v1/rounds/{id}/swap/`` with ``{"players": [99999999999999999999, 1]}`` answered 500.
Every number that enters has a range (``tournaments.limits``), checked at the edge with a 400 that says so and
by the database behind it. The matrices here are generated:

- every number column of the models users can reach carries its range as validators and a check constraint the
  database enforces (the rest are listed as computed, with the reason);
- every writable number of every API serializer has a minimum and a maximum;
- every integer in every API request body (from the OpenAPI schema), sent huge or negative: a 400 naming it;
- every integer query parameter and path parameter, huge: never a 500 (pages too, from the URL conf);
- every number an archive carries into a checked column, one past its range: the import is refused there;
- every number field of the page forms has a minimum and a maximum; the commands' number options too.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from django import forms as django_forms
from django.apps import apps
from django.core.management import CommandError, call_command
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import IntegrityError, models, transaction
from django.test import Client
from django.urls import get_resolver
from rest_framework import serializers
from rest_framework.test import APIClient

from scoring.models import Standing
from scoring.services import recompute_standings
from tests.factories import UserFactory, seated_competition
from tests.security.api_schema import Operation, body_with, integer_places, operations, request_body
from tests.security.page_forms import page_form_classes
from tests.urlconf import routes
from tournaments import limits
from tournaments.api.urls import router
from tournaments.models import CheckIn, Competition, Penalty, Round, ScoreSheet, Seat, Table
from tournaments.services.entry import record_deal
from tournaments.services.errors import ServiceError
from tournaments.services.penalties import give_penalty

HUGE = 99999999999999999999  # the number: past 2^64
OUT_OF_RANGE = {"huge": HUGE, "2^63": 2**63, "minus-one": -1, "below-bigint": -(2**63) - 1}

# Number columns nobody types: computed by the engine or the services from checked input, or bookkeeping.
COMPUTED = {
    "tournaments.BoardAnalysis.budget": "copied from settings.WIEZEN_SOLVER_BUDGET (board_analysis_budget_range)",
    "tournaments.BoardAnalysis.attempts": "a counter the analysis jobs bump (board_analysis_attempts_range)",
    "tournaments.AuditEvent.competition_id": "copied from the object the event is about",
    "tournaments.AuditEvent.user_id": "copied from the signed-in user",
    "tournaments.Competition.entries_version": "a counter the entry service bumps",
    "tournaments.DealEntry.multiplier": "settled by the engine from a checked line",
    "tournaments.IdempotentRequest.status_code": "the status of our own response",
    "tournaments.SeatResult.position": "a seat of the sheet's table (itself checked)",
    "tournaments.Board.dealer": "dealt by games.duplicate or read from a checked PBN file; held to 0..3 and, with "
    "the turned card, to the hand that holds it (board_turned_card_is_the_dealers): not a range alone",
    "tournaments.Board.turned": "dealt by games.duplicate or read from a checked PBN file; held to 0..51 and to "
    "a card of the dealer's hand (board_turned_card_is_the_dealers): not a range alone",
    "tournaments.SeatResult.points": "summed by the entry service from engine-settled lines",
    "tournaments.SeatResult.deals": "counted by the entry service",
    "tournaments.SeatResult.contracts_bid": "counted by the entry service",
    "tournaments.SeatResult.contracts_made": "counted by the entry service",
    "scoring.StandingsState.computed_version": "a copy of Competition.entries_version",
    "scoring.StandingsState.computations": "a counter",
    "scoring.Standing.rank": "computed standings",
    "scoring.Standing.points": "computed standings (session points within range, penalties capped)",
    "scoring.Standing.deals_played": "computed standings",
    "scoring.Standing.sessions_played": "computed standings",
    "scoring.Standing.penalty_points": "computed standings (at most limits.PENALTY_TOTAL_MAX)",
    "scoring.Rating.mu": "computed ratings",
    "scoring.Rating.sigma": "computed ratings",
    "scoring.Rating.ordinal": "computed ratings",
    "scoring.Rating.deals_rated": "computed ratings",
    "scoring.JobState.runs": "a counter",
    "scoring.RatedRound.position": "the ratings ledger's order, written by scoring.rating_ledger",
    "scoring.RatingStep.position": "a copy of RatedRound.position",
    "scoring.RatingStep.mu": "computed ratings",
    "scoring.RatingStep.sigma": "computed ratings",
    "scoring.RatingStep.deals": "computed ratings",
}


def _number_fields() -> list[tuple[type[models.Model], models.Field[Any, Any]]]:
    found = []
    for app in ("tournaments", "scoring"):
        for model in apps.get_app_config(app).get_models():
            for field in model._meta.concrete_fields:
                numeric = isinstance(field, models.IntegerField | models.FloatField | models.DecimalField)
                if numeric and not field.primary_key and not isinstance(field, models.AutoField):
                    found.append((model, field))
    return found


def _label(model: type[models.Model], field: models.Field[Any, Any]) -> str:
    return f"{model._meta.label}.{field.name}"


NUMBER_FIELDS = _number_fields()
CHECKED = [(m, f) for m, f in NUMBER_FIELDS if _label(m, f) not in COMPUTED]


def _bounds(field: models.Field[Any, Any]) -> tuple[Any, Any]:
    low = [v.limit_value for v in field.validators if isinstance(v, MinValueValidator)]
    high = [v.limit_value for v in field.validators if isinstance(v, MaxValueValidator)]
    assert low and high, f"{field} has no range: give it limits.<RANGE>.validators() and a check constraint"
    return low[0], high[0]


def test_the_computed_list_names_only_fields_that_exist() -> None:
    assert set(COMPUTED) <= {_label(m, f) for m, f in NUMBER_FIELDS}


@pytest.mark.parametrize(("model", "field"), CHECKED, ids=[_label(m, f) for m, f in CHECKED])
def test_a_number_column_users_reach_has_a_range(model: type[models.Model], field: models.Field[Any, Any]) -> None:
    low, high = _bounds(field)
    assert low <= high


@pytest.fixture
def world() -> dict[str, Any]:
    """A competition of 8 with a line entered and a penalty, and a duplicate one with its boards: a row of every
    model with a checked column."""
    competition = seated_competition(players=8, kind="league", best_evenings=3)
    sheet = ScoreSheet.objects.filter(table__round__competition=competition).order_by("pk").first()
    assert sheet is not None
    record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [0, 1], "tricks": 8})
    player = competition.registrations.order_by("player_id").first()
    assert player is not None
    give_penalty(competition, player.player, 3, "late")
    CheckIn.objects.create(registration=player, round_number=2, via=CheckIn.Via.CODE)  # here for the next evening
    seated_competition(players=4, duplicate=True)  # its round's boards (tournaments.Board)
    organiser = UserFactory(username="organiser", is_superuser=True, is_staff=True)
    return {"competition": competition, "sheet": sheet, "organiser": organiser}


def _stores(model: type[models.Model], field: models.Field[Any, Any], value: Any) -> bool:
    """Whether the database takes ``value`` in that column of an existing row (rolled back either way)."""
    row = model._default_manager.order_by("pk").first()
    assert row is not None, f"the world has no {model.__name__}"
    try:
        with transaction.atomic():
            model._default_manager.filter(pk=row.pk).update(**{field.attname: value})
            transaction.set_rollback(True)
        return True
    except IntegrityError:
        return False


@pytest.mark.django_db
@pytest.mark.parametrize(("model", "field"), CHECKED, ids=[_label(m, f) for m, f in CHECKED])
def test_the_database_refuses_a_number_past_its_range(
    world: dict[str, Any], model: type[models.Model], field: models.Field[Any, Any]
) -> None:
    low, high = _bounds(field)
    step = 1 if isinstance(low, int) else 0.5
    assert _stores(model, field, high)
    assert not _stores(model, field, high + step)
    assert not _stores(model, field, low - step)


# --- the API's serializers -------------------------------------------------------------------------------------

# Serializers that only describe responses: nothing is read through them (ratings: a list-only viewset).
RESPONSE_ONLY = {
    "RatingSerializer",
    "LineErrorSerializer",
    "ErrorsSerializer",
    "DetailSerializer",
    "ScoreResultSerializer",
    "ScoreResponseSerializer",
}


def _all_subclasses(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_all_subclasses(sub)]
    return found


def _api_serializers() -> list[type[serializers.BaseSerializer[Any]]]:
    """The viewsets' serializers and every serializer the API's modules define (actions use their own)."""
    import tournaments.api.views_history  # noqa: F401  (defines RestoreSerializer)

    found = {
        viewset.serializer_class for _, viewset, _ in router.registry if getattr(viewset, "serializer_class", None)
    }
    found |= {
        cls
        for cls in _all_subclasses(serializers.BaseSerializer)
        if cls.__module__.startswith("tournaments.api") and not cls.__name__.startswith("Inline")
    }
    return sorted((c for c in found if c.__name__ not in RESPONSE_ONLY), key=lambda c: c.__name__)


def _number_fields_of(field: Any, place: str) -> list[tuple[str, Any]]:
    if getattr(field, "read_only", False):
        return []
    if isinstance(field, serializers.ListSerializer):
        return _number_fields_of(field.child, place + "[]")
    if isinstance(field, serializers.BaseSerializer) and hasattr(field, "fields"):
        return [found for name, child in field.fields.items() for found in _number_fields_of(child, f"{place}.{name}")]
    if isinstance(field, serializers.ListField | serializers.DictField):
        return _number_fields_of(field.child, place + "[]")
    if isinstance(field, serializers.IntegerField | serializers.FloatField | serializers.DecimalField):
        return [(place, field)]
    return []


SERIALIZER_NUMBERS = [
    (f"{cls.__name__}{place}", field) for cls in _api_serializers() for place, field in _number_fields_of(cls(), "")
]


def test_the_api_serializers_are_found() -> None:
    names = {name for name, _ in SERIALIZER_NUMBERS}
    assert {"SwapSerializer.players[]", "PenaltySerializer.points", "RoundSerializer.seating[][]"} <= names


@pytest.mark.parametrize(("place", "field"), SERIALIZER_NUMBERS, ids=[p for p, _ in SERIALIZER_NUMBERS])
def test_every_number_an_api_serializer_reads_has_a_range(place: str, field: Any) -> None:
    assert field.min_value is not None and field.max_value is not None, f"{place}: give it limits.<RANGE>.kwargs()"


# --- API request bodies, from the schema ------------------------------------------------------------------------

WRITES = [op for op in operations() if op.method in ("post", "put", "patch") and request_body(op)]
BODY_CASES = [
    (op, place, name, value)
    for op in WRITES
    for place, _ in integer_places(request_body(op))
    for name, value in OUT_OF_RANGE.items()
]


def test_the_body_enumeration_reaches_the_instances() -> None:
    cases = {(str(op), place) for op, place, _, _ in BODY_CASES}
    assert ("POST /api/v1/rounds/{id}/swap/", ("players", 0)) in cases
    assert ("POST /api/v1/penalties/", ("points",)) in cases


def _path_values(op: Operation, world: dict[str, Any]) -> dict[str, Any]:
    competition, sheet = world["competition"], world["sheet"]
    draft = Round.objects.filter(competition=competition, status=Round.Status.DRAFT).first()
    by_resource = {
        "competitions": competition.pk,
        "rounds": (draft or sheet.table.round).pk,
        "sheets": sheet.pk,
        "rulesets": competition.rule_set_id,
        "penalties": Penalty.objects.filter(competition=competition).values_list("pk", flat=True).first(),
        "players": competition.registrations.values_list("player_id", flat=True).first(),
        "clubs": competition.club_id,
        "tables": sheet.table_id,
    }
    return {"id": by_resource.get(op.resource, 1), "deal": 1, "name": "iwwa"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("op", "place", "value"),
    [(op, place, value) for op, place, _, value in BODY_CASES],
    ids=[f"{op}:{'.'.join(map(str, place))}={name}" for op, place, name, _ in BODY_CASES],
)
def test_an_integer_out_of_range_in_a_body_is_a_400_naming_it(
    world: dict[str, Any], op: Operation, place: tuple[Any, ...], value: int
) -> None:
    client = APIClient()
    client.force_authenticate(world["organiser"])
    url = op.url(**_path_values(op, world))

    response = getattr(client, op.method)(
        url, data=json.dumps(body_with(place, value)), content_type="application/json"
    )

    assert response.status_code == 400, (response.status_code, response.content[:300])
    assert str(place[0]) in response.content.decode()


# --- query and path parameters ------------------------------------------------------------------------------------

QUERY_CASES = [
    (op, parameter["name"])
    for op in operations()
    if op.method == "get"
    for parameter in op.spec.get("parameters", [])
    if parameter.get("in") == "query" and parameter.get("schema", {}).get("type") == "integer"
]


@pytest.mark.django_db
@pytest.mark.parametrize(("op", "parameter"), QUERY_CASES, ids=[f"{op}?{parameter}" for op, parameter in QUERY_CASES])
@pytest.mark.parametrize("value", [HUGE, -1], ids=["huge", "minus-one"])
def test_an_integer_query_parameter_out_of_range_is_never_a_server_error(
    world: dict[str, Any], op: Operation, parameter: str, value: int
) -> None:
    client = APIClient()
    client.force_authenticate(world["organiser"])

    response = client.get(op.url(**_path_values(op, world)), {parameter: value})

    assert response.status_code in (200, 400, 404), response.content[:300]


INT_ROUTES = sorted(
    {route.lstrip("^").rstrip("$") for route, _ in routes(get_resolver().url_patterns) if "<int:" in route}
)


def test_the_routes_with_numbers_include_the_api_and_the_pages() -> None:
    assert any(r.startswith("api/") for r in INT_ROUTES) and any(not r.startswith("api/") for r in INT_ROUTES)


@pytest.mark.django_db
@pytest.mark.parametrize("route", INT_ROUTES)
@pytest.mark.parametrize("method", ["get", "post"])
def test_a_huge_number_in_an_address_is_not_found_never_a_server_error(
    world: dict[str, Any], route: str, method: str
) -> None:
    path = "/" + re.sub(r"<int:\w+>", str(HUGE), route)
    path = re.sub(r"<(?:slug|str):\w+>", world["competition"].slug, path)
    client = Client()
    client.force_login(world["organiser"])

    response = getattr(client, method)(path)

    assert response.status_code < 500, (path, response.status_code)


ID_OPS = [op for op in operations() if "{id}" in op.path]


@pytest.mark.django_db
@pytest.mark.parametrize("op", ID_OPS, ids=str)
def test_an_api_object_named_by_a_huge_id_is_not_found_never_a_server_error(
    world: dict[str, Any], op: Operation
) -> None:
    client = APIClient()
    client.force_authenticate(world["organiser"])
    url = op.url(**{**_path_values(op, world), "id": HUGE})

    if op.method == "get":
        response = client.get(url)
    else:
        response = getattr(client, op.method)(url, data="{}", content_type="application/json")

    assert response.status_code == 404, (response.status_code, response.content[:300])


# --- the instances ---------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("points", [9223372036854775807, limits.PENALTY_POINTS.high + 1, 0])
def test_a_penalty_out_of_range_is_refused_and_the_standings_still_compute(world: dict[str, Any], points: int) -> None:
    competition = world["competition"]
    client = APIClient()
    client.force_authenticate(world["organiser"])
    player = competition.registrations.values_list("player_id", flat=True).first()

    response = client.post(
        "/api/v1/penalties/",
        {"competition": competition.pk, "player": player, "points": points, "reason": "huge"},
        format="json",
    )

    assert response.status_code == 400
    assert f"{limits.PENALTY_POINTS.high}" in response.json()["points"][0]
    assert not Penalty.objects.filter(points=points).exists()
    assert recompute_standings(competition.pk, claim=False) is not False


@pytest.mark.django_db
@pytest.mark.parametrize("other", [HUGE, 2**63, 0, -1])
def test_swapping_with_a_player_id_no_player_can_have_is_a_400(world: dict[str, Any], other: int) -> None:
    competition = world["competition"]
    from tournaments.services.rounds import create_round

    draft = create_round(competition)
    seated = Seat.objects.filter(round=draft).values_list("player_id", flat=True).first()
    client = APIClient()
    client.force_authenticate(world["organiser"])

    response = client.post(f"/api/v1/rounds/{draft.pk}/swap/", {"players": [other, seated]}, format="json")

    assert response.status_code == 400
    assert response.json() == {"players": {"0": ["no such player"]}}


@pytest.mark.django_db
def test_the_standings_hold_the_most_penalties_a_player_may_get(world: dict[str, Any]) -> None:
    competition = world["competition"]
    registration = competition.registrations.order_by("-player_id").first()
    assert registration is not None
    most = limits.PENALTY_POINTS.high
    for _ in range(limits.PENALTY_TOTAL_MAX // most):
        give_penalty(competition, registration.player, most, "again")

    with pytest.raises(ServiceError):
        give_penalty(competition, registration.player, 1, "one more")
    recompute_standings(competition.pk, claim=False)

    standing = Standing.objects.get(competition=competition, player=registration.player)
    assert standing.penalty_points == limits.PENALTY_TOTAL_MAX


@pytest.mark.django_db
def test_a_rule_set_tariff_past_its_range_is_refused(world: dict[str, Any]) -> None:
    """A tariff of 10^20 settled into points no column (and no standings) can hold."""
    client = APIClient()
    client.force_authenticate(world["organiser"])
    overrides = {"tariffs": {"miserie": {"base": 10**20}}}

    response = client.post(
        "/api/v1/rulesets/",
        {
            "name": "huge",
            "club": world["competition"].club_id,
            "game": "wiezen",
            "preset": "iwwa",
            "overrides": overrides,
        },
        format="json",
    )

    assert response.status_code == 400
    assert "tariffs.miserie.base" in response.json()["overrides"][0]


# --- archives ----------------------------------------------------------------------------------------------------

ARCHIVE_PLACES: dict[type[models.Model], tuple[Any, ...]] = {
    Competition: ("competition",),
    Round: ("rounds", 0),
    Table: ("rounds", 0, "tables", 0),
    Penalty: ("penalties", 0),
}
ARCHIVE_CASES = [
    (ARCHIVE_PLACES[model], field.name, side)
    for model, field in CHECKED
    if model in ARCHIVE_PLACES
    for side in ("above", "below")
]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("where", "name", "side"), ARCHIVE_CASES, ids=[f"{'.'.join(map(str, w))}.{n}-{s}" for w, n, s in ARCHIVE_CASES]
)
def test_an_archive_number_past_its_range_is_refused_naming_the_place(
    world: dict[str, Any], where: tuple[Any, ...], name: str, side: str
) -> None:
    competition = world["competition"]
    client = APIClient()
    client.force_authenticate(world["organiser"])
    archive = client.get(f"/api/v1/competitions/{competition.pk}/archive/").json()
    node = archive
    for step in where:
        node = node[step]
    if name not in node:
        pytest.fail(f"the archive carries no {name} at {where}: drop it from ARCHIVE_PLACES or export it")
    model = next(m for m, w in ARCHIVE_PLACES.items() if w == where)
    low, high = _bounds(model._meta.get_field(name))
    step = 1 if isinstance(low, int) else 0.5
    changed = copy.deepcopy(archive)
    target = changed
    for step_ in where:
        target = target[step_]
    target[name] = high + step if side == "above" else low - step
    before = Competition.objects.count()

    response = client.post(
        f"/api/v1/competitions/import/?club={competition.club_id}",
        data=json.dumps(changed),
        content_type="application/json",
    )

    assert response.status_code == 400, response.content[:300]
    place = "".join(f"[{s}]" if isinstance(s, int) else f".{s}" for s in (*where, name)).lstrip(".")
    assert place in response.content.decode()
    assert Competition.objects.count() == before


# --- page forms and commands -------------------------------------------------------------------------------------


def _form_number_fields() -> list[tuple[str, Any]]:
    found = []
    for cls in page_form_classes():
        for field_name, field in cls.base_fields.items():
            if isinstance(field, django_forms.IntegerField | django_forms.FloatField):
                found.append((f"{cls.__module__}.{cls.__name__}.{field_name}", field))
    return found


FORM_NUMBERS = _form_number_fields()


def test_the_form_enumeration_finds_the_penalty_form() -> None:
    names = {name for name, _ in FORM_NUMBERS}
    assert "tournaments.forms.entry.PenaltyForm.points" in names
    assert "tournaments.display.forms.StartClockForm.minutes" in names  # a capability's own forms too


@pytest.mark.parametrize(("name", "field"), FORM_NUMBERS, ids=[n for n, _ in FORM_NUMBERS])
def test_every_number_a_page_form_reads_has_a_range(name: str, field: Any) -> None:
    assert field.min_value is not None and field.max_value is not None, f"{name}: give it limits.<RANGE>.kwargs()"


@pytest.mark.parametrize(
    "arguments",
    [
        ["seating", "--players", str(HUGE), "--rounds", "1"],
        ["seating", "--players", "8", "--rounds", str(HUGE)],
        ["seating", "--players", "8", "--rounds", "1", "--seed", "-1"],
        ["anonymise_player", str(HUGE)],
        ["anonymise_player", "0"],
    ],
    ids=["players", "rounds", "seed", "player-id-huge", "player-id-zero"],
)
def test_a_command_refuses_a_number_out_of_range(arguments: list[str]) -> None:
    with pytest.raises(CommandError, match="outside"):
        call_command(*arguments)


def test_seating_through_call_command_checks_the_range_too() -> None:
    with pytest.raises(CommandError):
        call_command("seating", players=limits.PLAYERS_MAX + 1, rounds=1)


@pytest.mark.django_db
def test_a_sheet_stops_at_the_most_deals_a_session_may_have(world: dict[str, Any]) -> None:
    """An open-ended Zwicken session stops at limits.DEAL_NUMBER: the next line is refused, not a server error."""
    from tournaments.services import transfer

    with pytest.raises(transfer.ImportRejected, match="at most"):  # one line is on the sheet already
        transfer.import_lines(world["sheet"], [{"deal": 2}] * limits.DEAL_NUMBER.high)


@pytest.mark.django_db
def test_the_migration_brings_numbers_stored_past_the_new_ranges_into_them_and_audits_it(world: dict[str, Any]) -> None:
    """The API took any penalty and the league form 32767 evenings: such rows must not stop the upgrade."""
    import importlib

    from django.db import connection

    from tournaments.models import AuditEvent

    migration = importlib.import_module("tournaments.migrations.0006_integer_ranges")
    competition = world["competition"]
    penalty = Penalty.objects.get(competition=competition)
    with connection.cursor() as cursor:  # as before the constraints (rolled back with the test)
        if connection.vendor == "sqlite":
            cursor.execute("PRAGMA ignore_check_constraints = ON")
        else:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no pending foreign-key checks: the table can be altered
            cursor.execute("ALTER TABLE tournaments_penalty DROP CONSTRAINT penalty_points_range")
            cursor.execute("ALTER TABLE tournaments_competition DROP CONSTRAINT competition_min_evenings_range")
        Penalty.objects.filter(pk=penalty.pk).update(points=2**31 - 1)
        Competition.objects.filter(pk=competition.pk).update(min_evenings=32767)
        if connection.vendor == "sqlite":
            cursor.execute("PRAGMA ignore_check_constraints = OFF")

    migration.numbers_into_range(apps, None)

    assert Penalty.objects.get(pk=penalty.pk).points == limits.PENALTY_POINTS.high
    assert Competition.objects.get(pk=competition.pk).min_evenings == limits.EVENINGS.high
    audited = AuditEvent.objects.filter(username="migration 0006").order_by("model")
    assert [(e.model, e.before, e.after) for e in audited] == [
        ("competition", {"min_evenings": 32767}, {"min_evenings": limits.EVENINGS.high}),
        ("penalty", {"points": 2**31 - 1}, {"points": limits.PENALTY_POINTS.high}),
    ]
