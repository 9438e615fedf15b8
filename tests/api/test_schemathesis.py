"""The OpenAPI contract, checked by schemathesis against the live schema, in-process.

Every operation of ``/api/schema/`` is called with generated requests (valid
and invalid ones), anonymously and as a superuser with a token, on a
database holding a seated competition with some lines. Each response must
not be a server error, must have a documented status code and content type,
and must match the documented response schema.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.db import transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from config.wsgi import application
from games.generate import random_session
from scoring.services import recompute_ratings
from tests.factories import CompetitionFactory, seated_competition
from tournaments.models import Competition, Penalty, Round, ScoreSheet
from tournaments.services.entry import record_deal
from tournaments.services.transfer import export_competition

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
SEED = 20260214
# ids that exist in every test's data (sequences are reset before each test): a few of each kind, plus one that doesn't
KNOWN_IDS = [1, 2, 3, 4]

schema = schemathesis.openapi.from_wsgi(
    "/api/schema/",
    application,
    config=schemathesis.Config.from_dict(
        {
            "seed": SEED,
            "generation": {"max-examples": 15, "deterministic": True},
            "suppress-health-check": ["too_slow", "filter_too_much", "data_too_large"],
        }
    ),
)


@schema.hook
def flatmap_path_parameters(ctx: Any, path_parameters: dict[str, Any] | None) -> Any:
    """Aim most generated ids at rows that exist, so the happy paths are exercised, not only 404s."""
    if not path_parameters:
        return st.just(path_parameters)
    known = {
        key: st.one_of(st.sampled_from(KNOWN_IDS), st.just(value))
        for key, value in path_parameters.items()
        if key in ("id", "deal") and isinstance(value, int)
    }
    if not known:
        return st.just(path_parameters)
    return st.fixed_dictionaries(known).map(lambda drawn: {**path_parameters, **drawn})


HYPOTHESIS = settings(
    max_examples=15,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
        # the data fixture is made once per operation on purpose: examples may build on each other's writes
        HealthCheck.function_scoped_fixture,
    ],
    database=None,
)


@pytest.fixture
def data() -> None:
    """A public competition of 9 players (tables of 5 and 4) with lines, a penalty and ratings; a private one."""
    with transaction.atomic():  # one commit: the standings are computed once
        _competition()
    recompute_ratings()


def _competition() -> Competition:
    competition = seated_competition(players=9, rounds=1)
    rules = competition.rule_set.engine_rules()
    rng = random.Random(SEED)
    for sheet in ScoreSheet.objects.filter(table__round__competition=competition).select_related("table"):
        for line in random_session(rules, rng, sheet.table.size, 16)[:4]:
            record_deal(sheet, line)
    first = competition.registrations.order_by("player_id").first()
    assert first is not None
    Penalty.objects.create(competition=competition, player=first.player, points=5, reason="late")
    Round.objects.filter(competition=competition).update(status=Round.Status.PUBLISHED)
    CompetitionFactory(is_public=False, club=competition.club)
    return competition


@pytest.fixture
def superuser_token() -> str:
    # no password: hashing one costs more than the requests of an operation, and the token is all we use
    user = get_user_model().objects.create(username="root", is_staff=True, is_superuser=True)
    return Token.objects.create(user=user).key


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@schema.parametrize()
@HYPOTHESIS
def test_anonymous(case: Any, data: None) -> None:
    case.call_and_validate(checks=CHECKS)


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@schema.parametrize()
@HYPOTHESIS
def test_superuser(case: Any, data: None, superuser_token: str) -> None:
    case.call_and_validate(headers={"Authorization": f"Token {superuser_token}"}, checks=CHECKS)


# Responses random data seldom reaches (a valid next line, a replay, a stale correction, a whole archive), made on
# purpose and held to the same checks. Sheet 1 is round 1's table of five and holds 4 lines; competition 1 is public.


def _next_line(deal: int) -> dict[str, Any]:
    sheet = ScoreSheet.objects.select_related("table").get(pk=1)
    last = sheet.entries.get(is_current=True, deal_number=deal - 1).line
    return {"deal": deal, "dealer": (last["dealer"] + 1) % sheet.table.size, "contract": "pass"}


def _requests(name: str) -> list[tuple[str, str, dict[str, Any], int]]:
    """(method, schema path, case arguments, expected status) in order, for the request named ``name``."""
    line = _next_line(5)
    add_line = {"path_parameters": {"id": 1}, "body": line, "media_type": "application/json"}
    keyed = {**add_line, "headers": {"Idempotency-Key": "tablet-1"}}
    sheet_import = {"path_parameters": {"id": 1}}
    archive = export_competition(Competition.objects.get(pk=1))
    requests: dict[str, list[tuple[str, str, dict[str, Any], int]]] = {
        "next-line": [("POST", "/sheets/{id}/lines/", add_line, 201)],
        "line-replayed": [("POST", "/sheets/{id}/lines/", keyed, 201)] * 2,
        "key-reused-for-another-line": [
            ("POST", "/sheets/{id}/lines/", keyed, 201),
            ("POST", "/sheets/{id}/lines/", {**keyed, "body": {**line, "note": "other"}}, 422),
        ],
        "stale-correction": [
            (
                "PUT",
                "/sheets/{id}/lines/{deal}/",
                {
                    "path_parameters": {"id": 1, "deal": 1},
                    "body": {"line": ScoreSheet.objects.get(pk=1).entries.get(deal_number=1).line, "version": 7},
                    "media_type": "application/json",
                },
                409,
            )
        ],
        "correction-of-a-deal-not-entered": [
            (
                "PUT",
                "/sheets/{id}/lines/{deal}/",
                {
                    "path_parameters": {"id": 1, "deal": 5},
                    "body": {"line": line, "version": 3},
                    "media_type": "application/json",
                },
                409,
            )
        ],
        "import-csv": [
            (
                "POST",
                "/sheets/{id}/import/",
                {**sheet_import, "body": f"deal,dealer,contract\n5,{line['dealer']},pass\n", "media_type": "text/csv"},
                201,
            )
        ],
        "import-csv-bad-rows": [
            (
                "POST",
                "/sheets/{id}/import/",
                {**sheet_import, "body": "deal,dealer,contract\n5,x,pass\n6,0,piccolo\n", "media_type": "text/csv"},
                400,
            )
        ],
        "import-json": [
            (
                "POST",
                "/sheets/{id}/import/",
                {**sheet_import, "body": {"lines": [line]}, "media_type": "application/json"},
                201,
            )
        ],
        "penalty-of-no-points": [
            (
                "POST",
                "/penalties/",
                {"body": {"competition": 1, "player": 1, "points": 0, "reason": "x"}, "media_type": "application/json"},
                400,
            )
        ],
        "penalty": [
            (
                "POST",
                "/penalties/",
                {"body": {"competition": 1, "player": 1, "points": 2, "reason": "x"}, "media_type": "application/json"},
                201,
            )
        ],
        "export-csv": [("GET", "/sheets/{id}/export/", {"path_parameters": {"id": 1}, "query": {"fmt": "csv"}}, 200)],
        "standings-csv": [
            ("GET", "/competitions/{id}/standings/", {"path_parameters": {"id": 1}, "query": {"fmt": "csv"}}, 200)
        ],
        "archive": [("GET", "/competitions/{id}/archive/", {"path_parameters": {"id": 1}}, 200)],
        "archive-import": [
            (
                "POST",
                "/competitions/import/",
                {"query": {"club": 1}, "body": archive, "media_type": "application/json"},
                201,
            )
        ],
        "archive-import-malformed": [
            (
                "POST",
                "/competitions/import/",
                {"query": {"club": 1}, "body": {**archive, "rounds": "three"}, "media_type": "application/json"},
                400,
            )
        ],
    }
    return requests[name]


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize(
    "name",
    [
        "next-line",
        "line-replayed",
        "key-reused-for-another-line",
        "stale-correction",
        "correction-of-a-deal-not-entered",
        "import-csv",
        "import-csv-bad-rows",
        "import-json",
        "penalty-of-no-points",
        "penalty",
        "export-csv",
        "standings-csv",
        "archive",
        "archive-import",
        "archive-import-malformed",
    ],
)
def test_responses_random_data_seldom_reaches_conform_too(name: str, data: None, superuser_token: str) -> None:
    for method, path, arguments, expected in _requests(name):
        case = schema[f"/api/v1{path}"][method].Case(**arguments)
        response = case.call_and_validate(headers={"Authorization": f"Token {superuser_token}"}, checks=CHECKS)
        assert response.status_code == expected, response.text
