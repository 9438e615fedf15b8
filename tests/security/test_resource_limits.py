"""Resource exhaustion (issue 14, class 5): bodies, idempotency keys, error listings and free text are bounded.

The findings: anonymous POSTs with a fresh ``Idempotency-Key`` each stored about 2.5 MB per request, for ever; a
9 MB CSV sheet import was parsed for 10 s and answered with a 93 MB error body; a line's ``note`` took 1 MB.

- Every route of the URL conf that takes a write (POST, PUT, PATCH), in every content type, refuses a body over
  its limit with 413 before reading it, and writes nothing (``config/body_limit.py``).
- Idempotency claims keep a digest of the body and a bounded response, expire after ``IDEMPOTENCY_TTL_HOURS``
  (a beat job deletes them), and none is kept for a request refused for who sent it.
- Error listings give the first ``ERROR_LIST_LIMIT`` problems and a count of the rest.
- Every text column of the models has a length limit, or is in the allow-list below with the reason it needs
  none; a line's ``note`` over ``NOTE_MAX_LENGTH`` is refused on every path.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.db import models
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.urls import NoReverseMatch, URLPattern, get_resolver, reverse
from django.utils import timezone
from rest_framework.test import APIClient

from config.body_limit import BodySizeLimitMiddleware
from config.celery import app as celery_app
from games.errors import FieldError
from games.lines import NOTE_MAX_LENGTH
from tests.factories import UserFactory, seated_competition
from tests.roles import make_roles
from tests.urlconf import walk
from tournaments.api.errors import errors_response
from tournaments.models import DealEntry, IdempotentRequest, Round, RoundEvent, ScoreSheet
from tournaments.services.errors import ServiceError
from tournaments.services.idempotency import purge_expired
from tournaments.services.transfer import CSV_COLUMNS, ImportRejected
from tournaments.text_limits import PENALTY_REASON_MAX_LENGTH, REASON_MAX_LENGTH

pytestmark = pytest.mark.django_db

API = "/api/v1"
KEY = "Idempotency-Key"
WRITES = ("post", "put", "patch")
CONTENT_TYPES = {
    "json": "application/json",
    "csv": "text/csv",
    "form": "application/x-www-form-urlencoded",
    "multipart": "multipart/form-data; boundary=XxBoundaryxX",
    "octet": "application/octet-stream",
}
SMALL_LIMIT = 4096  # the matrix runs with small limits, so a body over them is cheap to build
SMALL_ARCHIVE_LIMIT = 8192


# -- the URL conf's write routes ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WriteRoute:
    name: str  # the URL name, with its namespace
    url: str
    methods: tuple[str, ...]


def _write_methods(callback: Any) -> tuple[str, ...]:
    actions = getattr(callback, "actions", None)  # a DRF viewset route: its methods and their actions
    if actions is not None:
        return tuple(m for m in WRITES if m in actions)
    view_class = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
    if view_class is not None:
        return tuple(m for m in WRITES if hasattr(view_class, m))
    return ("post",)  # a function view (the admin's, the pages'): it may take a POST


ARGUMENTS = ("1", "a", "tournaments")  # an id, a slug, an app label: the cap is checked before any lookup


def _url(name: str, pattern: URLPattern) -> str | None:
    """A URL of the route, its arguments filled with the first of ``ARGUMENTS`` that fits."""
    params = set(pattern.pattern.regex.groupindex)
    if "format" in params:  # DRF's format-suffix twins of the same routes
        return None
    for value in ARGUMENTS:
        try:
            return reverse(name, kwargs=dict.fromkeys(params, value))
        except NoReverseMatch:
            continue
    raise AssertionError(f"no URL for {name}: add an argument that fits it to ARGUMENTS")


def write_routes() -> list[WriteRoute]:
    routes: dict[str, WriteRoute] = {}
    for _, name, pattern in walk(get_resolver().url_patterns):
        if not name:
            continue
        methods = _write_methods(pattern.callback)
        url = _url(name, pattern) if methods else None
        if url is not None and name not in routes:
            routes[name] = WriteRoute(name, url, methods)
    return sorted(routes.values(), key=lambda r: r.name)


ROUTES = write_routes()
CASES = [
    pytest.param(route, method, content_type, id=f"{route.name}-{method}-{kind}")
    for route in ROUTES
    for method in route.methods
    for kind, content_type in CONTENT_TYPES.items()
]


def test_the_enumeration_finds_the_routes_of_the_findings() -> None:
    names = {route.name for route in ROUTES}
    assert {"sheet-import-", "sheet-add-line", "competition-import-archive", "api-token", "login"} <= names
    assert any(name.startswith("admin:") for name in names)
    assert len(CASES) >= 5 * 40


def row_counts() -> dict[str, int]:
    counted = ("tournaments", "scoring", "auth", "axes", "authtoken", "sessions")
    return {m._meta.label: m.objects.count() for a in counted for m in apps.get_app_config(a).get_models()}


@pytest.fixture
def bytes_read(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many bytes each read of a request body took: "at once" means the refusal read none of them."""
    from django.test.client import FakePayload

    sizes: list[int] = []
    original = FakePayload.read

    def counted(self: FakePayload, *args: Any, **kwargs: Any) -> bytes:
        content: bytes = original(self, *args, **kwargs)
        sizes.append(len(content))
        return content

    monkeypatch.setattr(FakePayload, "read", counted)
    return sizes


@pytest.fixture
def world() -> Client:
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))  # even a superuser: the size comes first
    return client


@pytest.mark.parametrize(("route", "method", "content_type"), CASES)
def test_a_body_over_the_limit_gets_413_at_once_and_writes_nothing(
    world: Client, settings: Any, bytes_read: list[int], route: WriteRoute, method: str, content_type: str
) -> None:
    settings.REQUEST_BODY_MAX_BYTES = SMALL_LIMIT
    settings.REQUEST_BODY_LIMITS_BY_ROUTE = {"competition-import-archive": SMALL_ARCHIVE_LIMIT}
    limit = SMALL_ARCHIVE_LIMIT if route.name == "competition-import-archive" else SMALL_LIMIT
    before = row_counts()
    body = b'{"note": "' + b"x" * (limit + 1) + b'"}'

    response = world.generic(method.upper(), route.url, data=body, content_type=content_type, headers={KEY: "k-1"})

    assert response.status_code == 413, (response.status_code, response.content[:200])
    assert sum(bytes_read) == 0, "the body was read before it was refused"
    assert str(limit) in response.content.decode()
    if route.url.startswith("/api/"):
        assert response["Content-Type"] == "application/json"
        assert str(limit) in response.json()["detail"]
    else:
        assert response["Content-Type"].startswith("text/plain")
    assert row_counts() == before


def test_the_9_mb_csv_import_of_the_finding_is_refused_with_the_default_limit(bytes_read: list[int]) -> None:
    competition = seated_competition()
    roles = make_roles(competition)
    sheet = ScoreSheet.objects.filter(table__round__competition=competition).first()
    assert sheet is not None
    client = APIClient()
    client.force_authenticate(roles.organiser)
    rows = "deal,dealer,contract\n" + "1,0,nonsense\n" * (9 * 1024 * 1024 // 13)

    response = client.post(f"{API}/sheets/{sheet.pk}/import/", data=rows, content_type="text/csv")

    assert response.status_code == 413
    assert sum(bytes_read) == 0, "the 9 MB were read before they were refused"
    assert len(response.content) < 1000
    assert str(settings.REQUEST_BODY_MAX_BYTES) in response.json()["detail"]
    assert not DealEntry.objects.exists()


def test_the_defaults_are_1_mib_and_32_mib_for_a_competition_archive() -> None:
    assert settings.REQUEST_BODY_MAX_BYTES == 1024 * 1024
    assert settings.REQUEST_BODY_LIMITS_BY_ROUTE == {"competition-import-archive": 32 * 1024 * 1024}
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == 32 * 1024 * 1024


def _middleware_answer(body: bytes, *, content_length: str | None, limit: int = 100) -> tuple[Any, list[bytes]]:
    """The middleware's answer to a request whose stream is ``body`` as ASGI hands it (not bounded)."""
    seen: list[bytes] = []

    def view(request: Any) -> HttpResponse:
        seen.append(request.body)
        return HttpResponse("ok")

    request = RequestFactory().post("/api/v1/sheets/1/import/", data=b"", content_type="text/csv")
    request._stream = io.BytesIO(body)  # a chunked body or ASGI's: whatever the header says
    if content_length is None:
        request.META.pop("CONTENT_LENGTH", None)
    else:
        request.META["CONTENT_LENGTH"] = content_length
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(settings, "REQUEST_BODY_MAX_BYTES", limit)
        patch.setattr(settings, "REQUEST_BODY_LIMITS_BY_ROUTE", {})
        return BodySizeLimitMiddleware(view)(request), seen


@pytest.mark.parametrize("content_length", [None, "10"], ids=["chunked", "understated"])
def test_a_streamed_body_is_counted_as_it_is_read(content_length: str | None) -> None:
    response, seen = _middleware_answer(b"x" * 101, content_length=content_length)
    assert response.status_code == 413
    assert seen == []  # the view never ran

    response, seen = _middleware_answer(b"y" * 100, content_length=content_length)
    assert response.status_code == 200
    assert seen == [b"y" * 100]  # a body within the limit reaches the view whole


def test_a_content_length_that_is_not_a_size_gets_400() -> None:
    response, seen = _middleware_answer(b"", content_length="-5")
    assert response.status_code == 400 and seen == []


@pytest.mark.parametrize(
    ("env", "named"),
    [
        pytest.param({"REQUEST_BODY_MAX_BYTES": "12"}, "REQUEST_BODY_MAX_BYTES", id="body-under-1-kb"),
        pytest.param({"REQUEST_BODY_MAX_BYTES": "1MB"}, "REQUEST_BODY_MAX_BYTES", id="body-not-a-number"),
        pytest.param({"ARCHIVE_BODY_MAX_BYTES": "2048"}, "ARCHIVE_BODY_MAX_BYTES", id="archive-under-the-body-cap"),
        pytest.param({"IDEMPOTENCY_TTL_HOURS": "0"}, "IDEMPOTENCY_TTL_HOURS", id="ttl-zero"),
        pytest.param({"IDEMPOTENCY_MAX_RESPONSE_BYTES": "10"}, "IDEMPOTENCY_MAX_RESPONSE_BYTES", id="response-tiny"),
        pytest.param({"ERROR_LIST_LIMIT": "0"}, "ERROR_LIST_LIMIT", id="error-list-zero"),
    ],
)
def test_a_bad_limit_stops_the_process(tmp_path: Any, env: dict[str, str], named: str) -> None:
    from tests.test_settings import run_settings

    result = run_settings(tmp_path, **env)
    assert result.returncode != 0
    error = result.stderr.strip().splitlines()[-1]
    assert error.startswith("django.core.exceptions.ImproperlyConfigured"), result.stderr
    assert named in error


# -- idempotency keys -----------------------------------------------------------------------------------------------


@dataclass
class Sheet:
    sheet: ScoreSheet
    roles: Any

    @property
    def lines(self) -> str:
        return f"{API}/sheets/{self.sheet.pk}/lines/"

    def captain(self, code: str | None = None) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_X_TABLE_CODE=code if code is not None else self.sheet.captain_code)
        return client


@pytest.fixture
def table() -> Sheet:
    competition = seated_competition()
    roles = make_roles(competition)
    sheet = ScoreSheet.objects.filter(table__round__competition=competition).order_by("table__number").first()
    assert sheet is not None
    return Sheet(sheet, roles)


DEAL_1 = {"deal": 1, "dealer": 0, "contract": "pass"}
DEAL_2 = {"deal": 2, "dealer": 1, "contract": "pass"}


def test_a_claim_keeps_a_digest_of_the_body_not_the_body(table: Sheet) -> None:
    line = {**DEAL_1, "note": "n" * NOTE_MAX_LENGTH}
    response = table.captain().post(table.lines, line, format="json", headers={KEY: "k-digest"})
    assert response.status_code == 201, response.content
    claim = IdempotentRequest.objects.get()
    assert len(claim.fingerprint) == 64  # sha256 of method, path and body
    assert "n" * 50 not in claim.fingerprint


def test_a_response_over_the_limit_is_kept_as_its_status_and_a_note(table: Sheet, settings: Any) -> None:
    settings.IDEMPOTENCY_MAX_RESPONSE_BYTES = 256
    client = table.captain()
    line = {**DEAL_1, "note": "n" * NOTE_MAX_LENGTH}  # the answer echoes the line: over 256 bytes
    first = client.post(table.lines, line, format="json", headers={KEY: "k-big"})
    again = client.post(table.lines, line, format="json", headers={KEY: "k-big"})

    assert first.status_code == 201
    stored = IdempotentRequest.objects.get()
    assert len(json.dumps(stored.response)) <= 256
    assert again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "too large to keep" in again.json()["detail"]
    assert DealEntry.objects.count() == 1


def test_many_keys_store_a_bounded_amount_each(table: Sheet) -> None:
    client = table.captain()
    big = {**DEAL_1, "note": "n" * NOTE_MAX_LENGTH, "junk": ["x" * 1000] * 900}  # near the 1 MiB cap, refused
    for n in range(3):
        client.post(table.lines, big, format="json", headers={KEY: f"fresh-{n}"})
    stored = sum(len(json.dumps(c.response)) + len(c.key) + 200 for c in IdempotentRequest.objects.all())
    assert stored <= 3 * (settings.IDEMPOTENCY_MAX_RESPONSE_BYTES + 1024)


def test_expired_claims_are_deleted_by_the_beat_job(table: Sheet) -> None:
    client = table.captain()
    assert client.post(table.lines, DEAL_1, format="json", headers={KEY: "old"}).status_code == 201
    assert client.post(table.lines, DEAL_2, format="json", headers={KEY: "new"}).status_code == 201
    lifetime = timedelta(hours=settings.IDEMPOTENCY_TTL_HOURS)
    IdempotentRequest.objects.filter(key="old").update(created_at=timezone.now() - lifetime - timedelta(seconds=1))

    schedule = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "tournaments.tasks.purge_idempotency_keys" in schedule
    celery_app.loader.import_default_modules()
    celery_app.tasks["tournaments.tasks.purge_idempotency_keys"].delay()

    assert list(IdempotentRequest.objects.values_list("key", flat=True)) == ["new"]


def test_the_lifetime_is_24_hours_and_an_expired_key_is_a_new_request(table: Sheet) -> None:
    assert settings.IDEMPOTENCY_TTL_HOURS == 24
    client = APIClient()
    client.force_authenticate(table.roles.organiser)
    competition = table.sheet.table.round.competition
    player = competition.players.order_by("pk").first()
    assert player is not None
    penalty = {"competition": competition.pk, "player": player.pk, "points": 1, "reason": "late"}
    assert client.post(f"{API}/penalties/", penalty, format="json", headers={KEY: "reused"}).status_code == 201
    first = IdempotentRequest.objects.get()
    IdempotentRequest.objects.update(created_at=timezone.now() - timedelta(hours=25))

    later = client.post(f"{API}/penalties/", {**penalty, "points": 2}, format="json", headers={KEY: "reused"})

    assert later.status_code == 201, later.content  # not a 422 for "another request": the old claim expired
    assert "Idempotent-Replayed" not in later.headers
    assert IdempotentRequest.objects.get().fingerprint != first.fingerprint
    assert purge_expired() == 0


def api_post_routes() -> list[WriteRoute]:
    return [route for route in ROUTES if route.url.startswith(f"{API}/") and "post" in route.methods]


@pytest.mark.parametrize("route", api_post_routes(), ids=lambda r: r.name)
@pytest.mark.parametrize("sender", ["wrong-table-code", "no-credentials", "outsider"])
def test_a_refused_sender_leaves_no_idempotency_row(table: Sheet, route: WriteRoute, sender: str) -> None:
    url = route.url.replace("/1/", f"/{table.sheet.pk}/", 1) if "/sheets/" in route.url else route.url
    if sender == "wrong-table-code":
        client = table.captain("0" * len(table.sheet.captain_code))
    elif sender == "outsider":
        client = APIClient()
        client.force_authenticate(table.roles.outsider)
    else:
        client = APIClient()

    response = client.post(url, DEAL_1, format="json", headers={KEY: f"fresh-{sender}"})

    if response.status_code in (401, 403, 404, 429):
        assert not IdempotentRequest.objects.exists(), (response.status_code, response.content[:200])
    else:  # a request the sender may make (the calculators, a token request): never a row for a stranger's
        assert sender == "outsider" or not IdempotentRequest.objects.filter(user=None).exists(), response.status_code


def test_the_wrong_table_code_of_the_finding_leaves_no_row(table: Sheet) -> None:
    for n in range(3):
        response = table.captain("f" * 8).post(table.lines, DEAL_1, format="json", headers={KEY: f"fresh-{n}"})
        assert response.status_code == 403
    assert not IdempotentRequest.objects.exists()
    assert not DealEntry.objects.exists()


# -- error listings -------------------------------------------------------------------------------------------------


def test_an_error_listing_gives_the_first_problems_and_a_count_of_the_rest() -> None:
    errors = [(n, FieldError("wrong_type", "deal", f"row {n}")) for n in range(1, 1001)]
    body = errors_response(errors).data
    assert len(body["errors"]) == settings.ERROR_LIST_LIMIT == 50
    assert body["more_errors"] == 1000 - 50
    assert body["errors"][0]["line"] == 1

    short = errors_response(errors[:3]).data
    assert len(short["errors"]) == 3 and "more_errors" not in short


def test_an_import_keeps_only_the_first_problems() -> None:
    exc = ImportRejected((n, FieldError("wrong_type", "deal", "bad")) for n in range(1, 100_001))
    assert len(exc.errors) == settings.ERROR_LIST_LIMIT
    assert exc.omitted == 100_000 - settings.ERROR_LIST_LIMIT
    assert len(str(exc)) < 10_000


def test_a_csv_import_of_many_bad_rows_answers_a_short_listing(table: Sheet) -> None:
    client = APIClient()
    client.force_authenticate(table.roles.organiser)
    row = ",".join(["1"] * (len(CSV_COLUMNS) + 3))  # more cells than columns: every row is an error
    body = ",".join(CSV_COLUMNS) + "\n" + "\n".join([row] * 20_000)
    assert len(body) < settings.REQUEST_BODY_MAX_BYTES

    response = client.post(f"{API}/sheets/{table.sheet.pk}/import/", data=body, content_type="text/csv")

    assert response.status_code == 400
    data = response.json()
    assert len(data["errors"]) == settings.ERROR_LIST_LIMIT
    assert data["more_errors"] == 20_000 - settings.ERROR_LIST_LIMIT
    assert len(response.content) < 50_000


# -- free text ------------------------------------------------------------------------------------------------------

# Text columns without a length limit, each with why it needs none: nobody types them (computed, or a copy of
# what the services wrote), or what a user sends into them is checked field by field at the edge.
UNLIMITED_BY_DESIGN = {
    "tournaments.BoardAnalysis.rows": "the solver's answers, written by tournaments.duplicate.analysis",
    "tournaments.AuditEvent.before": "a copy of the object's fields, written by the services",
    "tournaments.AuditEvent.after": "a copy of the object's fields, written by the services",
    "tournaments.RuleSet.overrides": "engine options: known keys and typed values only (games.rulesets)",
    "tournaments.Competition.tie_breaks": "a list of known metric keys, checked by the serializer and the form",
    "tournaments.Competition.placement_points": "a list of numbers, checked against their range",
    "tournaments.Round.byes": "player ids, written by the seating service",
    "tournaments.IdempotentRequest.response": "bounded by IDEMPOTENCY_MAX_RESPONSE_BYTES",
    "tournaments.RoundEvent.detail": "counts and ids, written by the round services",
    "tournaments.DealEntry.line": "engine fields checked by games.lines; its note by NOTE_MAX_LENGTH",
    "tournaments.DealEntry.points": "computed by the engine",
    "scoring.Standing.explanation": "computed by the standings",
    "scoring.Statistics.data": "computed by the statistics",
    "scoring.Statistics.totals": "computed by the statistics",
    "scoring.SheetStatistics.contribution": "computed by the statistics",
}


def text_fields() -> list[Any]:
    fields = []
    for app in ("tournaments", "scoring"):
        for model in apps.get_app_config(app).get_models():
            for field in model._meta.get_fields():
                if isinstance(field, models.CharField | models.TextField | models.JSONField):
                    fields.append(pytest.param(field, id=f"{model._meta.label}.{field.name}"))
    return fields


@pytest.mark.parametrize("field", text_fields())
def test_every_text_column_has_a_length_limit_or_a_reason_to_have_none(field: Any) -> None:
    label = f"{field.model._meta.label}.{field.name}"
    if label in UNLIMITED_BY_DESIGN:
        assert not isinstance(field, models.CharField), f"{label} has a limit now: take it off the list"
        return
    assert isinstance(field, models.CharField), f"{label}: a text field without a length limit"
    assert field.max_length is not None and field.max_length <= 1000, label


def test_a_round_events_reason_is_limited_in_the_column_too() -> None:
    field = RoundEvent._meta.get_field("reason")
    assert isinstance(field, models.CharField) and field.max_length == REASON_MAX_LENGTH == 500


def test_a_note_over_the_limit_is_refused_on_every_path(table: Sheet) -> None:
    long_note = "n" * (NOTE_MAX_LENGTH + 1)
    captain = table.captain()
    api = captain.post(table.lines, {**DEAL_1, "note": long_note}, format="json")
    assert api.status_code == 400
    assert {(e["code"], e["field"]) for e in api.json()["errors"]} == {("too_long", "note")}

    imported = captain.post(
        f"{API}/sheets/{table.sheet.pk}/import/", {"lines": [{**DEAL_1, "note": long_note}]}, format="json"
    )
    assert imported.status_code == 400 and imported.json()["errors"][0]["code"] == "too_long"

    csv_body = "deal,dealer,contract,note\n" + f"1,0,pass,{long_note}\n"
    from_csv = captain.post(f"{API}/sheets/{table.sheet.pk}/import/", data=csv_body, content_type="text/csv")
    assert from_csv.status_code == 400 and from_csv.json()["errors"][0]["code"] == "too_long"
    assert not DealEntry.objects.exists()

    at_limit = captain.post(table.lines, {**DEAL_1, "note": "n" * NOTE_MAX_LENGTH}, format="json")
    assert at_limit.status_code == 201


def test_a_reason_over_the_limit_is_refused(table: Sheet) -> None:
    client = APIClient()
    client.force_authenticate(table.roles.organiser)
    round_ = Round.objects.get(competition=table.sheet.table.round.competition)
    players = list(round_.competition.registrations.values_list("player_id", flat=True))
    response = client.post(
        f"{API}/rounds/{round_.pk}/reseat/",
        {"players": players, "reason": "r" * (REASON_MAX_LENGTH + 1)},
        format="json",
    )
    assert response.status_code == 400
    assert not RoundEvent.objects.filter(action="reseated").exists()


def _reason_services() -> list[Any]:
    from tournaments.services import penalties, rounds, seasons, sheets

    def reseat(t: Sheet, reason: str) -> Any:
        round_ = t.sheet.table.round
        players = list(round_.competition.registrations.values_list("player_id", flat=True))
        return rounds.reseat_round(round_, players=players, reason=reason)

    def withdraw(t: Sheet, reason: str) -> Any:
        competition = t.sheet.table.round.competition
        player = competition.registrations.order_by("pk").first()
        assert player is not None
        return rounds.withdraw_player(competition, player.player_id, reason=reason)

    def reopen_round(t: Sheet, reason: str) -> Any:
        return rounds.reopen_round(t.sheet.table.round, reason=reason)

    def reopen_competition(t: Sheet, reason: str) -> Any:
        return seasons.reopen_competition(t.sheet.table.round.competition, reason=reason)

    def reject(t: Sheet, reason: str) -> Any:
        return sheets.reject_sheet(t.sheet, by=t.roles.organiser, reason=reason)

    def penalty(t: Sheet, reason: str) -> Any:
        competition = t.sheet.table.round.competition
        return penalties.give_penalty(competition, competition.players.order_by("pk")[0], 1, reason)

    return [
        pytest.param(reseat, REASON_MAX_LENGTH, id="reseat_round"),
        pytest.param(withdraw, REASON_MAX_LENGTH, id="withdraw_player"),
        pytest.param(reopen_round, REASON_MAX_LENGTH, id="reopen_round"),
        pytest.param(reopen_competition, REASON_MAX_LENGTH, id="reopen_competition"),
        pytest.param(reject, REASON_MAX_LENGTH, id="reject_sheet"),
        pytest.param(penalty, PENALTY_REASON_MAX_LENGTH, id="give_penalty"),
    ]


@pytest.mark.parametrize(("service", "limit"), _reason_services())
def test_every_service_taking_a_reason_refuses_one_over_its_limit(table: Sheet, service: Any, limit: int) -> None:
    """Whatever the path (page, API, admin action, command), the service refuses it before anything is written."""
    with pytest.raises(ServiceError, match=f"at most {limit}"):
        service(table, "r" * (limit + 1))


def test_a_tie_break_list_repeating_a_key_is_refused(table: Sheet) -> None:
    """Tie-breaks are known keys, each at most once: the JSON list cannot grow past the registry's size."""
    from django.core.exceptions import ValidationError

    competition = table.sheet.table.round.competition
    competition.tie_breaks = ["sessions_won"] * 10_000
    with pytest.raises(ValidationError) as invalid:
        competition.full_clean()
    assert "tie_breaks" in invalid.value.message_dict


def page_form_text_fields() -> list[Any]:
    from django import forms

    from tests.security.page_forms import page_form_classes

    found = []
    for form in page_form_classes():
        for field_name, field in form.base_fields.items():
            if isinstance(field, forms.CharField):
                found.append(pytest.param(field, id=f"{form.__module__}.{form.__name__}.{field_name}"))
    return found


def test_the_text_fields_found_include_every_capabilitys_forms() -> None:
    ids = {param.id for param in page_form_text_fields()}
    assert "tournaments.rule_editor.form.RulesForm.name" in ids and "tournaments.forms.entry.DealLineForm.seats" in ids


@pytest.mark.parametrize("field", page_form_text_fields())
def test_every_text_field_of_the_pages_forms_has_a_length_limit(field: Any) -> None:
    assert field.max_length is not None and field.max_length <= 10_000


# Serializers that only describe answers (the API schema's error and result bodies): nothing is read through them.
RESPONSE_ONLY_SERIALIZERS = {"DetailSerializer", "LineErrorSerializer", "ErrorsSerializer", "ScoreResultSerializer"}


def api_text_fields() -> list[Any]:
    import inspect

    from rest_framework import serializers

    from tournaments.api import serializers as api_serializers

    found = []
    for name, serializer in inspect.getmembers(api_serializers, inspect.isclass):
        if not issubclass(serializer, serializers.Serializer) or serializer.__module__ != api_serializers.__name__:
            continue
        if name in RESPONSE_ONLY_SERIALIZERS:
            continue
        for field_name, field in serializer().fields.items():
            if isinstance(field, serializers.CharField) and not field.read_only:
                found.append(pytest.param(field, id=f"{name}.{field_name}"))
    return found


@pytest.mark.parametrize("field", api_text_fields())
def test_every_text_field_the_api_reads_has_a_length_limit(field: Any) -> None:
    assert field.max_length is not None and field.max_length <= 10_000


def test_the_migration_cuts_stored_notes_so_their_sheets_still_take_lines(table: Sheet) -> None:
    """Stored lines are checked again when a line is added: a note stored before the limit must not block it."""
    import importlib

    migration = importlib.import_module("tournaments.migrations.0007_text_limits_and_idempotency_expiry")
    captain = table.captain()
    assert captain.post(table.lines, DEAL_1, format="json").status_code == 201
    DealEntry.objects.update(line={**DEAL_1, "note": "n" * 1_000_000})  # as the finding stored it
    assert captain.post(table.lines, DEAL_2, format="json").status_code == 400  # the stored line no longer fits

    migration.shorten_notes(apps, None)

    assert DealEntry.objects.get().line["note"] == "n" * NOTE_MAX_LENGTH
    assert captain.post(table.lines, DEAL_2, format="json").status_code == 201
