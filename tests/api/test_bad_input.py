"""Bad input through the API never gives a server error or a partial write (issue 9, "bad input").

Hypothesis generates score-sheet lines, corrections, CSV and JSON imports, competition archives, round requests
and calculator requests: wrong types, huge numbers, unicode (NUL, lone surrogates, byte order marks, line
separators), missing, extra and duplicated fields, wrong seats, deal numbers out of range, odd
``Idempotency-Key`` headers and nested garbage. Every request must answer below 500. A 2xx must have stored
exactly what it says, valid for the rules engine (the sheet's current lines replay to the stored points); a 4xx
must have changed nothing (lines, seat results, audit rows, ``entries_version``, rounds, seats...) and carry a
JSON body with a message.

Isolation: each test function builds its world once (a pytest fixture inside pytest-django's per-test
transaction); every hypothesis example then runs in a savepoint that is always rolled back (``rolled_back()``),
so each example meets the same world and sees nothing of the previous one. Rebuilding the world per example
(``hypothesis.extra.django.TestCase``) would cost a second an example; the savepoint costs nothing and also
recovers a PostgreSQL transaction aborted by a database error. ``on_commit`` callbacks never run here (standings
are not the subject). Examples are derandomised and not stored, so a run is repeatable.

Bugs found are pinned at the end by minimal, deterministic tests. While one is open its test is an
``xfail(strict=True)`` (``test_bug_*``) and the generators steer around exactly its inputs, so that the
properties keep guarding everything else; once it is fixed the xfail turns into a failure (XPASS, strict): the
marker goes, the test asserts the fix, and the generator covers those inputs again.

``--hypothesis-show-statistics`` shows how often each status came up (``event``); ``BAD_INPUT_FUZZ=20`` runs
twenty times the examples, randomly, for a longer hunt.
"""

from __future__ import annotations

import copy
import csv
import io
import itertools
import json
import os
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.db import transaction
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

import games
from games.generate import random_line, random_session
from scoring.models import Standing
from tests.factories import PlayerFactory, RuleSetFactory, UserFactory, seated_competition
from tests.roles import Roles, make_roles
from tournaments.models import (
    AuditEvent,
    Club,
    Competition,
    DealEntry,
    Membership,
    Penalty,
    Player,
    Registration,
    Round,
    RoundEvent,
    RuleSet,
    ScoreSheet,
    Seat,
    SeatingWish,
    SeatResult,
    Table,
)
from tournaments.seating import GENERATORS
from tournaments.services.competitions import create_competition, create_rule_set, register_players
from tournaments.services.entry import record_deal
from tournaments.services.errors import ServiceError
from tournaments.services.rounds import create_round, publish_round, reseat_round
from tournaments.services.transfer import CSV_COLUMNS

pytestmark = pytest.mark.django_db

API = "/api/v1"
ON_POSTGRESQL = django_settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


# BAD_INPUT_FUZZ=20 runs twenty times the examples, randomly (a longer hunt than CI's repeatable run).
FUZZ = int(os.environ.get("BAD_INPUT_FUZZ", "1"))


def fuzz(examples: int) -> Callable[[Any], Any]:
    return settings(
        max_examples=examples * FUZZ,
        deadline=None,
        derandomize=FUZZ == 1,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# --- what the generators draw from ---------------------------------------------------------------------------------


def weighted(*choices: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """``one_of`` with weights (``one_of`` drops a strategy repeated by identity: repeating one weighs nothing)."""
    bag = [strategy for weight, strategy in choices for _ in range(weight)]
    return st.sampled_from(bag).flatmap(lambda strategy: strategy)  # sampled_from picks evenly, integers() not


SURROGATES = "\ud800\udbff\udc00\udfff"
NASTY_CHARS = "\x00" + SURROGATES + "\ufeff\u2028\u2029\u202e\u200b\r\n\t\x7f\x1b\"',;\\/<>&é€😀\uffff"
any_char = st.one_of(st.characters(exclude_categories=()), st.sampled_from(NASTY_CHARS))

# fmt: off
EDGE_INTS = [
    -1, 0, 1, 2, 3, 4, 5, 9, 12, 13, 16, 17, 24, 25, 2**15 - 1, 2**15, 2**16, 2**31 - 1, 2**31, 2**53 + 1,
    2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**100,
]
# fmt: on
ints = st.one_of(st.integers(-3, 20), st.sampled_from(EDGE_INTS), st.integers())
WORDS = ["", " ", "0", "-1", "1e309", "NaN", "null", "true", "[]", "{}", "vraag", "pass", "S", "x" * 300]
nasty_text = st.one_of(st.text(any_char, max_size=12), st.sampled_from([*WORDS, *NASTY_CHARS]))
name_text = st.text(any_char, min_size=1, max_size=10)
scalars = st.one_of(st.none(), st.booleans(), ints, st.floats(allow_nan=False, allow_infinity=False), nasty_text)
# Object keys: any key may end up as a line's field name, echoed back raw.
json_values = st.recursive(
    scalars,
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(name_text, kids, max_size=4),
    max_leaves=10,
)

DEEP_JSON = b"[" * 100_000 + b"]" * 100_000  # past the recursion limit; 200 kB, under DATA_UPLOAD_MAX_MEMORY_SIZE
MALFORMED_JSON = [
    b"",
    b"{",
    b'{"deal": 1,}',
    b"[1, 2",
    b"NaN",
    b'{"deal": NaN}',
    b'{"deal": Infinity}',
    b'{"deal": 1e400}',
    b'{"deal": 1, "deal": 2}',
    b"\xef\xbb\xbf{}",
    b"\xff\xfe{\x00}\x00",
    b'{"deal": "\xed\xa0\x80"}',
    b'{"deal": ' + b"9" * 5000 + b"}",
    b"[" * 60 + b"]" * 60,
    b'"just a string"',
    b"null",
    b"\x00",
    b'{"deal": 1, "note": "\\u0000"}',
    b'{"deal": 1, "\\ud800": 1}',
    DEEP_JSON,
]


@dataclass(frozen=True)
class Body:
    """A request body as bytes, and what the server reads from it when it is JSON."""

    raw: bytes
    content_type: str = "application/json"
    payload: Any = None
    is_json: bool = False


def as_json(payload: Any) -> Body:
    text = json.dumps(payload)  # ensure_ascii: lone surrogates and NUL travel as \\u escapes, as JSON allows
    return Body(text.encode(), payload=json.loads(text), is_json=True)


def bodies(payloads: st.SearchStrategy[Any]) -> st.SearchStrategy[Body]:
    """Mostly JSON made from ``payloads``; sometimes malformed JSON, random bytes or another content type."""
    return weighted(
        (12, payloads.map(as_json)),
        (1, st.sampled_from(MALFORMED_JSON).map(Body)),
        (1, st.binary(max_size=40).map(Body)),
        (1, st.builds(Body, st.binary(max_size=20), st.sampled_from(["text/plain", "application/xml", "text/csv"]))),
        (
            1,
            st.dictionaries(st.text("abcdefghijklmnopqrstuvwxyz", max_size=8), st.text(max_size=8), max_size=4).map(
                lambda d: Body("&".join(f"{k}={v}" for k, v in d.items()).encode(), "application/x-www-form-urlencoded")
            ),
        ),
    )


# Idempotency-Key values: absent, empty, negative, zero, huge, over the 200-character limit, the world's key.
REPLAY_KEY = "retry-me"
idempotency_keys = weighted(
    (3, st.none()),
    (
        1,
        st.sampled_from(
            ["", "0", "-1", "-0", str(-(2**63)), str(2**64), "1e309", "9" * 200, "9" * 201, "k" * 1000, REPLAY_KEY]
        ),
    ),
    (1, st.text(st.characters(min_codepoint=0x21, max_codepoint=0xFF, exclude_categories=("Cc",)), max_size=30)),
)


# --- the sheets: lines computed by the engine alone, the same in every run -----------------------------------------

IWWA = games.find("iwwa")
ZWICKEN = games.find("zwicken")
PREFILLED = 3


@dataclass(frozen=True)
class Plan:
    """A sheet as the world holds it (``prefill``), and lines to throw at it."""

    rules: games.RuleSet
    players: int
    deals: int | None
    prefill: tuple[dict[str, Any], ...]
    rest: tuple[dict[str, Any], ...]  # a valid continuation, in order
    next_lines: tuple[dict[str, Any], ...]  # each a valid next line on its own
    corrections: tuple[dict[str, Any], ...]  # lines for deals already on the sheet (most of them valid)
    fields: tuple[str, ...]


WIEZEN_FIELDS = ("deal", "dealer", "contract", "declarers", "tricks", "level", "trump", "offender", "points", "note")
ZWICKEN_FIELDS = ("deal", "dealer", "played", "tricks", "cut", "duties_failed", "trump_ace", "chips", "pot", "note")


def _valid(rules: games.RuleSet, players: int, deals: int | None, lines: list[dict[str, Any]]) -> bool:
    try:
        games.sheet_from_lines(rules, lines, players, deals)
    except games.GameError:
        return False
    return True


def _with_points(rules: games.RuleSet, players: int, deals: int | None, before: list[Any], line: Any) -> Any:
    """``line`` with its points written on it, as a scorer would (Zwicken: the chips and the pot)."""
    settled = games.sheet_from_lines(rules, [*before, line], players, deals).results[-1]
    if rules.zwicken is not None:
        return {**line, "chips": list(settled.points), "pot": settled.pot}
    return {**line, "points": list(settled.points)}


def wiezen_plan(players: int, seed: int, prefilled: int = PREFILLED) -> Plan:
    session = random_session(IWWA, random.Random(seed), players, 16)
    prefill = session[:prefilled]
    sheet = games.sheet_from_lines(IWWA, prefill, players, 16)
    dealer = sheet.expected_dealer if sheet.expected_dealer is not None else 0
    nexts = [random_line(IWWA, random.Random(seed * 100 + n), sheet.next_deal, dealer, players) for n in range(24)]
    nexts += [_with_points(IWWA, players, 16, prefill, line) for line in nexts[:4]]
    corrections = [
        random_line(IWWA, random.Random(seed * 1000 + n), deal, prefill[deal - 1]["dealer"], players)
        for n in range(4)
        for deal in range(1, prefilled + 1)
    ]
    return Plan(
        IWWA, players, 16, tuple(prefill), tuple(session[prefilled:]), tuple(nexts), tuple(corrections), WIEZEN_FIELDS
    )


def _zwicken_candidates(deal: int, dealer: int) -> list[dict[str, Any]]:
    base = {"deal": deal, "dealer": dealer}
    lines: list[dict[str, Any]] = [{**base, "cut": "void"}, {**base, "cut": "belli"}]
    lines.append({**base, "played": [], "tricks": [0, 0, 0, 0]})
    for played, tricks in (
        ([0, 1, 2, 3], [1, 1, 1, 0]),
        ([1, 2], [0, 2, 1, 0]),
        ([2, 3], [0, 0, 3, 0]),
        ([0, 3], [1, 0, 0, 2]),
        ([1, 2, 3], [0, 1, 1, 1]),
    ):
        lines.append({**base, "played": played, "tricks": tricks})
        lines.append({**base, "played": played, "tricks": tricks, "duties_failed": played[:1]})
    return lines


def zwicken_plan() -> Plan:
    lines: list[dict[str, Any]] = []
    nexts: list[dict[str, Any]] = []
    for step in range(PREFILLED + 4):
        sheet = games.sheet_from_lines(ZWICKEN, lines, 4, None)
        dealer = sheet.expected_dealer if sheet.expected_dealer is not None else 0
        candidates = [c for c in _zwicken_candidates(sheet.next_deal, dealer) if _valid(ZWICKEN, 4, None, [*lines, c])]
        if step == PREFILLED:
            nexts = candidates + [_with_points(ZWICKEN, 4, None, lines, c) for c in candidates[:2]]
        lines.append(candidates[(step * 3 + 2) % len(candidates)])
    prefill = lines[:PREFILLED]
    corrections = [c for deal in (1, 2, 3) for c in _zwicken_candidates(deal, prefill[deal - 1]["dealer"])]
    return Plan(
        ZWICKEN, 4, None, tuple(prefill), tuple(lines[PREFILLED:]), tuple(nexts), tuple(corrections), ZWICKEN_FIELDS
    )


PLANS = {
    "five": wiezen_plan(5, seed=5),
    "four": wiezen_plan(4, seed=4),
    "draft": wiezen_plan(4, seed=7, prefilled=0),  # a sheet of a round still in draft: it takes no lines
    "zwicken": zwicken_plan(),
}
OPEN_SHEETS = ["five", "four", "zwicken"]
for _name, _plan in PLANS.items():  # the plans are what the tests assume: check them once, at import
    assert _valid(_plan.rules, _plan.players, _plan.deals, [*_plan.prefill, *_plan.rest]), _name
    assert _plan.next_lines and all(
        _valid(_plan.rules, _plan.players, _plan.deals, [*_plan.prefill, line]) for line in _plan.next_lines
    ), _name


def field_values(plan: Plan) -> dict[str, st.SearchStrategy[Any]]:
    """Near-miss values per field (wrong seats, out-of-range numbers, wrong shapes), each mixed with garbage."""
    n = plan.players
    seat = st.one_of(st.integers(-1, n), st.sampled_from(EDGE_INTS))
    seats = st.lists(seat, max_size=6)
    counts = st.one_of(st.integers(-1, 14), st.lists(st.integers(-1, 14), max_size=n + 1), st.sampled_from(EDGE_INTS))
    specific: dict[str, st.SearchStrategy[Any]] = {
        "deal": st.one_of(st.integers(-1, 26), st.sampled_from(EDGE_INTS)),
        "dealer": seat,
        "offender": seat,
        "trump_ace": seat,
        "contract": st.sampled_from([*games.CONTRACTS, "PASS", "vraag ", "", "zwicken"]),
        "declarers": seats,
        "played": seats,
        "duties_failed": seats,
        "tricks": counts,
        "level": st.one_of(st.integers(8, 13), st.sampled_from(EDGE_INTS)),
        "trump": st.sampled_from(["C", "D", "H", "S", "c", "X", "", "♠", "CD"]),
        "cut": st.sampled_from(["void", "belli", "VOID", "", "none"]),
        "points": st.lists(ints, min_size=n - 1, max_size=n + 1),
        "chips": st.lists(ints, min_size=n - 1, max_size=n + 1),
        "pot": ints,
        "note": nasty_text,
    }
    return {
        key: (value if key == "note" else weighted((2, value), (1, json_values))) for key, value in specific.items()
    }


@st.composite
def mutated(draw: st.DrawFn, bases: tuple[dict[str, Any], ...], plan: Plan) -> dict[str, Any]:
    """A valid line with up to three fields set to near misses or garbage, deleted, or added."""
    base = draw(st.sampled_from(bases))
    line = dict(base) if isinstance(base, dict) else {}
    values = field_values(plan)
    for _ in range(draw(st.sampled_from([0, 0, 1, 2, 3]))):
        key = draw(weighted((2, st.sampled_from(plan.fields)), (1, name_text)))
        if key in line and draw(st.booleans()):
            del line[key]
        else:
            line[key] = draw(values.get(key, json_values))
    return line


def lines_for(plan: Plan, bases: tuple[dict[str, Any], ...]) -> st.SearchStrategy[Any]:
    keys = st.one_of(st.sampled_from(plan.fields), name_text)
    return weighted((6, mutated(bases, plan)), (1, json_values), (1, st.dictionaries(keys, json_values)))


# --- helpers ---------------------------------------------------------------------------------------------------


@contextmanager
def rolled_back() -> Iterator[None]:
    """One example: a savepoint that is always rolled back, whatever happened inside."""
    with transaction.atomic():
        try:
            yield
        finally:
            transaction.set_rollback(True)


def snapshot() -> dict[str, Any]:
    """Everything a refused request must leave as it was (``IdempotentRequest`` rows excepted: a refusal is
    remembered for its replay, by design)."""
    return {
        "entries": sorted(DealEntry.objects.values_list("pk", "sheet_id", "deal_number", "version", "is_current")),
        "seat_results": sorted(
            SeatResult.objects.values_list("sheet_id", "position", "points", "deals", "contracts_bid", "contracts_made")
        ),
        "audit": AuditEvent.objects.count(),
        "competitions": sorted(Competition.objects.values_list("pk", "entries_version", "name", "slug")),
        "sheets": sorted(ScoreSheet.objects.values_list("pk", "state", "table_id")),
        "rounds": sorted(
            (pk, status, seed, method, str(byes))
            for pk, status, seed, method, byes in Round.objects.values_list("pk", "status", "seed", "method", "byes")
        ),
        "tables": sorted(Table.objects.values_list("pk", "round_id", "number", "size")),
        "seats": sorted(Seat.objects.values_list("table_id", "position", "player_id")),
        "round_events": RoundEvent.objects.count(),
        "counts": [
            model.objects.count()
            for model in (RuleSet, Player, Membership, Registration, Penalty, Standing, Club, SeatingWish)
        ],
    }


def error_messages(body: Any) -> list[str]:
    """Every message of an error body: ``{"errors": [...]}``, ``{"detail": ...}`` or DRF's field errors."""
    if isinstance(body, dict) and isinstance(body.get("errors"), list):
        return [e["message"] for e in body["errors"]]
    if isinstance(body, dict):
        return [m for value in body.values() for m in error_messages(value)]
    if isinstance(body, list):
        return [m for value in body for m in error_messages(value)]
    return [body] if isinstance(body, str) else []


def assert_refused(response: Any, before: dict[str, Any]) -> None:
    """A 4xx: a JSON body that says what is wrong, and nothing stored."""
    assert 400 <= response.status_code < 500, response.status_code
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    if response.status_code == 409 and isinstance(body, dict) and "version" in body:
        pass  # a stale correction: the answer is the deal's current line (version 0: none yet)
    else:
        messages = error_messages(body)
        assert messages, body
        assert all(isinstance(m, str) and m.strip() for m in messages), body
        if isinstance(body, dict) and "errors" in body:
            assert all(e["code"] for e in body["errors"]), body
    assert snapshot() == before, "a refused request changed the database"


def assert_consistent(sheet_id: int) -> list[DealEntry]:
    """The sheet's current lines are numbered 1..n, valid for the engine, with the engine's points and totals."""
    sheet = ScoreSheet.objects.select_related("table__round__competition__rule_set").get(pk=sheet_id)
    entries = list(sheet.entries.filter(is_current=True).order_by("deal_number"))
    assert [e.deal_number for e in entries] == list(range(1, len(entries) + 1))
    competition = sheet.table.round.competition
    rules = competition.rule_set.engine_rules()
    engine = games.sheet_from_lines(rules, [e.line for e in entries], sheet.table.size, competition.deals_per_session)
    assert [(e.points, e.contract, e.multiplier) for e in entries] == [
        (list(s.points), s.contract, s.multiplier) for s in engine.results
    ]
    if entries:
        totals = dict(SeatResult.objects.filter(sheet=sheet).values_list("position", "points"))
        assert totals == dict(enumerate(engine.totals))
    return entries


def entries_version(snap: dict[str, Any], competition_id: int) -> int:
    return next(version for pk, version, *_ in snap["competitions"] if pk == competition_id)


def headers(key: str | None) -> dict[str, str]:
    return {} if key is None else {"HTTP_IDEMPOTENCY_KEY": key}


# --- the world of the sheets ---------------------------------------------------------------------------------------

ROLES = ["captain", "other_captain", "club_admin", "director", "superuser"]
# mostly those who may write the sheet: the others get their 403 often enough
roles = st.sampled_from(["captain", "captain", "club_admin", "club_admin", *ROLES])


@dataclass
class World:
    competition: Competition
    roles: Roles
    director: Any
    sheets: dict[str, ScoreSheet]

    def client(self, role: str, sheet: ScoreSheet) -> APIClient:
        client = APIClient()
        if role == "captain":
            client.credentials(HTTP_X_TABLE_CODE=sheet.captain_code)
        elif role == "other_captain":
            other = next(s for s in self.sheets.values() if s.pk != sheet.pk)
            client.credentials(HTTP_X_TABLE_CODE=other.captain_code)
        else:
            user = {"club_admin": self.roles.club_admin, "director": self.director, "superuser": self.roles.organiser}
            client.force_authenticate(user[role])
        return client


@pytest.fixture
def world() -> World:
    """Round 1 of a 9-player competition (a table of five, one of four) with three lines each, round 2 in draft,
    and a Zwicken evening of the same club with three lines; the four-table's last line was entered with the
    club administrator's ``Idempotency-Key`` ``retry-me``."""
    competition = seated_competition(players=9)
    roles = make_roles(competition)
    director = UserFactory(username="director")
    competition.organisers.add(director)
    by_size = {t.size: t.sheet for t in competition.rounds.get(number=1).tables.select_related("sheet")}
    draft_round = create_round(competition)
    draft = next(t.sheet for t in draft_round.tables.select_related("sheet") if t.size == 4)

    rule_set = create_rule_set(name="Zwicken", game="zwicken", preset="zwicken", club=competition.club)
    evening = create_competition(club=competition.club, name="Zwickerabend", slug="zwick", rule_set=rule_set)
    register_players(evening, PlayerFactory.create_batch(4))
    publish_round(create_round(evening))
    zwicken = ScoreSheet.objects.get(table__round__competition=evening)

    sheets = {"five": by_size[5], "four": by_size[4], "draft": draft, "zwicken": zwicken}
    for name in OPEN_SHEETS:
        plan = PLANS[name]
        for number, line in enumerate(plan.prefill, start=1):
            key = f"user-{roles.club_admin.pk}:{REPLAY_KEY}" if (name, number) == ("four", PREFILLED) else None
            record_deal(sheets[name], line, by=roles.club_admin, idempotency_key=key)
    return World(competition, roles, director, sheets)


def _line_case(name: str) -> st.SearchStrategy[tuple[str, Body]]:
    plan = PLANS[name]
    bases = plan.next_lines + plan.prefill[-1:]  # the last line again: out of sequence, or a replay with its key
    return st.tuples(st.just(name), bodies(lines_for(plan, bases)))


line_cases = st.one_of([_line_case(name) for name in PLANS])


# --- POST /sheets/{id}/lines/ --------------------------------------------------------------------------------------


@fuzz(90)
@given(role=roles, case=line_cases, key=idempotency_keys)
@example(role="club_admin", case=("four", as_json(PLANS["four"].prefill[-1])), key=REPLAY_KEY)  # replayed: 200
@example(role="captain", case=("five", as_json(PLANS["five"].next_lines[0])), key=None)
@example(role="captain", case=("zwicken", as_json({**PLANS["zwicken"].next_lines[0], "note": "ß\u2028"})), key="0")
def test_a_posted_line_is_stored_whole_and_valid_or_refused_with_a_reason(
    world: World, role: str, case: tuple[str, Body], key: str | None
) -> None:
    name, body = case
    sheet = world.sheets[name]
    with rolled_back():
        before = snapshot()
        response = world.client(role, sheet).post(
            f"{API}/sheets/{sheet.pk}/lines/", data=body.raw, content_type=body.content_type, **headers(key)
        )
        event(f"HTTP {response.status_code}")  # --hypothesis-show-statistics: how often each outcome came up
        assert response.status_code < 500
        if response.status_code >= 300:
            assert_refused(response, before)
            return
        entries = assert_consistent(sheet.pk)
        after = snapshot()
        if response.status_code == 200 or response.get("Idempotent-Replayed"):
            assert after == before, "a replay stored something"
            return
        assert response.status_code == 201
        answer, deal = response.json(), response.json()["deal_number"]
        # one new version of the posted deal: the next one, or a correction of an earlier one (whose later deals
        # get a re-settled version when their points change)
        new = list(DealEntry.objects.exclude(pk__in=[pk for pk, *_ in before["entries"]]).order_by("deal_number"))
        assert [e.deal_number for e in new if e.source != DealEntry.Source.RESETTLE] == [deal]
        assert all(e.deal_number > deal for e in new if e.source == DealEntry.Source.RESETTLE)
        assert after["audit"] == before["audit"] + len(new)
        assert len(entries) == max(len(PLANS[name].prefill), deal)
        assert body.is_json
        assert entries[deal - 1].line == body.payload == answer["line"]
        assert entries[deal - 1].points == answer["points"]
        competition = sheet.table.round.competition_id
        assert entries_version(after, competition) == entries_version(before, competition) + 1


# --- PUT /sheets/{id}/lines/{deal}/ ----------------------------------------------------------------------------------


@st.composite
def correction_cases(draw: st.DrawFn) -> tuple[str, str, Body]:
    """A deal of the sheet, a line for it (another valid one, or spoiled) and a version (mostly the current one),
    at the deal's address or another."""
    name = draw(st.sampled_from(list(PLANS)))
    plan = PLANS[name]
    deal = draw(st.integers(1, max(1, len(plan.prefill))))
    bases = tuple(line for line in (*plan.prefill, *plan.corrections) if line["deal"] == deal) or plan.next_lines
    line = draw(weighted((1, st.sampled_from(bases)), (2, lines_for(plan, bases))))
    version = draw(weighted((3, st.just(1)), (1, st.integers(0, 3)), (1, ints), (1, json_values)))
    payload = draw(
        weighted(
            (6, st.just({"line": line, "version": version})),
            (1, st.fixed_dictionaries({"line": st.just(line)}, optional={"version": json_values, "junk": json_values})),
            (1, json_values),
        )
    )
    url_deal = draw(
        weighted(
            (6, st.just(str(deal))),
            (1, st.integers(0, 6).map(str)),
            (1, st.sampled_from(["00", f"0{deal}", str(2**15), str(2**63), "9" * 100, "9" * 4301])),
        )
    )
    return name, url_deal, draw(bodies(st.just(payload)))


@fuzz(80)
@given(role=roles, case=correction_cases())
@example(role="captain", case=("four", "2", as_json({"line": PLANS["four"].corrections[1], "version": 1})))
@example(role="club_admin", case=("four", "4", as_json({"line": PLANS["four"].next_lines[0], "version": 0})))
def test_a_correction_is_stored_as_a_new_version_or_refused_with_a_reason(
    world: World, role: str, case: tuple[str, str, Body]
) -> None:
    name, deal, body = case
    sheet = world.sheets[name]
    with rolled_back():
        before = snapshot()
        response = world.client(role, sheet).put(
            f"{API}/sheets/{sheet.pk}/lines/{deal}/", data=body.raw, content_type=body.content_type
        )
        event(f"HTTP {response.status_code}")
        assert response.status_code < 500
        if response.status_code >= 300:
            assert_refused(response, before)
            return
        assert response.status_code == 200
        entries = assert_consistent(sheet.pk)
        after = snapshot()
        answer = response.json()
        assert answer["deal_number"] == int(deal)
        assert entries[int(deal) - 1].line == answer["line"] == body.payload["line"]
        assert entries[int(deal) - 1].version == answer["version"]
        new = len(after["entries"]) - len(before["entries"])
        assert new >= 1
        assert after["audit"] - before["audit"] == new  # one audit row per stored version


# --- POST /sheets/{id}/import/: CSV and JSON, all or nothing ---------------------------------------------------------


def _cell(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return "" if value is None else str(value)


@st.composite
def csv_texts(draw: st.DrawFn, plan: Plan) -> bytes:
    """CSV text: a real continuation of the sheet with some cells, rows or columns spoiled, or plain garbage."""
    columns = [c for c in CSV_COLUMNS if c not in ("points",)]
    header = draw(
        weighted(
            (2, st.just(list(CSV_COLUMNS))),
            (2, st.just(columns)),
            (1, st.permutations(columns)),
            (1, st.lists(st.one_of(st.sampled_from(CSV_COLUMNS), nasty_text), max_size=8)),
        )
    )
    count = draw(weighted((5, st.integers(1, min(5, len(plan.rest)))), (1, st.just(0))))
    rows: list[list[str]] = [[_cell(line.get(c)) for c in header] for line in plan.rest[:count]]
    for _ in range(draw(st.integers(0, 3))):
        if not rows:
            break
        row = draw(st.integers(0, len(rows) - 1))
        what = draw(st.sampled_from(["cell", "cell", "shorter", "longer", "duplicate", "random"]))
        if what == "cell" and rows[row]:
            column = draw(st.integers(0, len(rows[row]) - 1))
            rows[row][column] = draw(st.one_of(nasty_text, ints.map(str)))
        elif what == "shorter":
            rows[row] = rows[row][: draw(st.integers(0, len(rows[row])))]
        elif what == "longer":
            rows[row] += draw(st.lists(nasty_text, min_size=1, max_size=3))  # refused whatever they hold
        elif what == "duplicate":
            rows.insert(row, list(rows[row]))  # a deal number twice
        else:
            rows[row] = draw(st.lists(nasty_text, max_size=len(header) + 1))
    out = io.StringIO()
    writer = csv.writer(
        out,
        quoting=draw(st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL])),
        lineterminator=draw(st.sampled_from(["\r\n", "\n", "\r"])),
    )
    writer.writerow(header)
    writer.writerows(rows)
    text = draw(st.sampled_from(["", "\ufeff"])) + out.getvalue()
    text = draw(weighted((8, st.just(text)), (1, st.text(any_char, max_size=60))))
    return text.encode("utf-8", "surrogatepass")  # lone surrogates arrive as bytes that are not UTF-8


def _import_case(name: str) -> st.SearchStrategy[tuple[str, Body]]:
    plan = PLANS[name]
    csv_bodies = csv_texts(plan).map(lambda raw: Body(raw, "text/csv"))
    slices = st.integers(0, min(5, len(plan.rest))).map(lambda n: list(plan.rest[:n]))

    @st.composite
    def json_lines(draw: st.DrawFn) -> Any:
        lines: list[Any] = draw(slices)
        for _ in range(draw(st.integers(0, 2))):
            if lines and draw(st.booleans()):
                at = draw(st.integers(0, len(lines) - 1))
                lines[at] = draw(lines_for(plan, (lines[at],)))
            else:
                lines.insert(draw(st.integers(0, len(lines))), draw(lines_for(plan, plan.rest)))
        return draw(weighted((4, st.just({"lines": lines})), (1, st.just(lines)), (1, json_values)))

    return st.tuples(st.just(name), weighted((1, csv_bodies), (1, bodies(json_lines()))))


@fuzz(90)
@given(role=st.sampled_from(["captain", "club_admin"]), case=st.one_of([_import_case(n) for n in PLANS]))
@example(
    role="captain", case=("four", Body(b"\xef\xbb\xbfdeal,dealer,contract\r\n4,3,pass\r\n4,3,pass\r\n", "text/csv"))
)
def test_an_import_stores_every_row_or_none(world: World, role: str, case: tuple[str, Body]) -> None:
    name, body = case
    sheet = world.sheets[name]
    with rolled_back():
        before = snapshot()
        response = world.client(role, sheet).post(
            f"{API}/sheets/{sheet.pk}/import/", data=body.raw, content_type=body.content_type
        )
        event(f"HTTP {response.status_code}")
        assert response.status_code < 500
        if response.status_code >= 300:
            assert_refused(response, before)
            return
        assert response.status_code == 201
        stored = response.json()
        entries = assert_consistent(sheet.pk)
        after = snapshot()
        assert stored, "an import of nothing is refused"
        assert len(after["entries"]) == len(before["entries"]) + len(stored)
        assert len(entries) == len(PLANS[name].prefill) + len(stored)
        assert [e.line for e in entries[-len(stored) :]] == [s["line"] for s in stored]
        assert after["audit"] == before["audit"] + len(stored)


# --- POST /competitions/import/: a real archive, mutated -------------------------------------------------------------


@dataclass
class ArchiveWorld:
    club: Club
    admin: Any
    archive: dict[str, Any]


@pytest.fixture
def archive_world() -> ArchiveWorld:
    """An 8-player competition: round 1 with three lines per table, round 2 published, a penalty, a seating wish;
    its archive."""
    competition = seated_competition(players=8, rounds=2)
    roles = make_roles(competition)
    first = competition.rounds.get(number=1)
    for seed, table in enumerate(first.tables.select_related("sheet").order_by("number")):
        for line in random_session(IWWA, random.Random(seed), table.size, 16)[:PREFILLED]:
            record_deal(table.sheet, line)
    player = competition.registrations.order_by("player_id").first()
    assert player is not None
    Penalty.objects.create(competition=competition, round=first, player=player.player, points=3, reason="late")
    other = competition.registrations.order_by("-player_id").first()
    assert other is not None
    SeatingWish.objects.create(competition=competition, player=player.player, other=other.player, kind="apart")
    client = APIClient()
    client.force_authenticate(roles.club_admin)
    response = client.get(f"{API}/competitions/{competition.pk}/archive/")
    assert response.status_code == 200
    return ArchiveWorld(competition.club, roles.club_admin, response.json())


def _paths(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield at
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*at, index))


@st.composite
def mutated_archives(draw: st.DrawFn, archive: dict[str, Any]) -> Any:
    """The archive with up to three values replaced (near misses, garbage, other values of the archive), entries
    deleted, duplicated, swapped or added."""
    archive = copy.deepcopy(archive)
    leaves = [v for path in _paths(archive) if not isinstance(v := _get(archive, path), dict | list)]
    for _ in range(draw(st.integers(0, 3))):
        paths = [p for p in _paths(archive) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent, last = _get(archive, path[:-1]), path[-1]
        what = draw(st.sampled_from(["replace", "replace", "replace", "delete", "duplicate", "swap", "add"]))
        if what == "replace":
            parent[last] = draw(st.one_of(st.sampled_from(leaves), ints, json_values, st.sampled_from(EDGE_INTS)))
        elif what == "delete":
            del parent[last]
        elif what == "duplicate" and isinstance(parent, list):
            parent.insert(last, copy.deepcopy(parent[last]))
        elif what == "swap" and isinstance(parent, list) and len(parent) > 1:
            other = draw(st.integers(0, len(parent) - 1))
            parent[last], parent[other] = parent[other], parent[last]
        elif isinstance(parent, dict):
            parent[draw(name_text)] = draw(json_values)
    return draw(weighted((8, st.just(archive)), (1, json_values)))


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


CLUB_PARAMS = ["", "abc", "-1", "0", "1.5", " 1", "1 ", str(2**64), "١", "²", "%C2%B2", "1e3", "%00"]


@fuzz(45)
@given(data=st.data())
def test_a_mutated_archive_imports_whole_or_not_at_all(archive_world: ArchiveWorld, data: st.DataObject) -> None:
    body = data.draw(bodies(mutated_archives(archive_world.archive)), label="body")
    club = data.draw(
        weighted((6, st.just(str(archive_world.club.pk))), (1, st.sampled_from(CLUB_PARAMS))),
        label="club",
    )
    client = APIClient()
    client.force_authenticate(archive_world.admin)
    with rolled_back():
        before = snapshot()
        competitions = set(Competition.objects.values_list("pk", flat=True))
        before_players = list(Player.objects.values_list("pk", flat=True))
        response = client.post(f"{API}/competitions/import/?club={club}", data=body.raw, content_type=body.content_type)
        event(f"HTTP {response.status_code}")
        assert response.status_code < 500
        if response.status_code >= 300:
            assert_refused(response, before)
            return
        assert response.status_code == 201
        (new,) = set(Competition.objects.values_list("pk", flat=True)) - competitions
        assert response.json()["id"] == new
        archive = body.payload
        rounds = Round.objects.filter(competition_id=new)
        assert rounds.count() == len(archive["rounds"])
        sheets = ScoreSheet.objects.filter(table__round__competition_id=new)
        stored = sum(len(assert_consistent(sheet.pk)) for sheet in sheets)
        assert stored == sum(len(t["sheet"]["lines"]) for r in archive["rounds"] for t in r["tables"])
        assert Penalty.objects.filter(competition_id=new).count() == len(archive.get("penalties", []))
        assert_seatings_valid(new)
        wishes = SeatingWish.objects.filter(competition_id=new)
        players = Player.objects.filter(registrations__competition_id=new).exclude(pk__in=before_players)
        for row in [
            Competition.objects.get(pk=new),
            *rounds,
            *sheets,
            *Penalty.objects.filter(competition_id=new),
            *wishes,
            *players,
        ]:
            row.full_clean()  # nothing stored that the models' own validation refuses


# --- rounds: create, redraw, swap, reseat, publish, finalise, reopen --------------------------------------------------


@dataclass
class RoundsWorld:
    competition: Competition
    other: Competition
    admin: Any
    rounds: dict[str, Round]
    players: list[int]


@pytest.fixture
def rounds_world() -> RoundsWorld:
    """11 players (byes every round): round 1 in play (one line), round 2 published, round 3 a draft; and a
    competition of another club."""
    competition = seated_competition(players=11, rounds=2)
    roles = make_roles(competition)
    first = competition.rounds.get(number=1)
    sheet = ScoreSheet.objects.filter(table__round=first).select_related("table").first()
    assert sheet is not None
    record_deal(sheet, random_line(IWWA, random.Random(1), 1, 0, sheet.table.size))
    create_round(competition)
    rounds = {
        status: competition.rounds.get(number=n) for n, status in ((1, "in_play"), (2, "published"), (3, "draft"))
    }
    players = sorted(competition.registrations.values_list("player_id", flat=True))
    return RoundsWorld(competition, seated_competition(players=4), roles.club_admin, rounds, players)


def assert_seatings_valid(competition_id: int) -> None:
    """Every round seats registered players once, at tables of 4 or 5 with their seats 0..size-1 and a sheet."""
    registered = set(Registration.objects.filter(competition_id=competition_id).values_list("player_id", flat=True))
    for round_ in Round.objects.filter(competition_id=competition_id):
        seated: list[int] = []
        for table in round_.tables.all():
            seats = list(table.seats.order_by("position").values_list("position", "player_id"))
            assert table.size in (4, 5)
            assert [p for p, _ in seats] == list(range(table.size))
            assert ScoreSheet.objects.filter(table=table).exists()
            seated += [player for _, player in seats]
        assert len(seated) == len(set(seated))
        assert set(seated) <= registered
        assert not set(seated) & set(round_.byes or [])


@st.composite
def round_requests(draw: st.DrawFn, world: RoundsWorld) -> tuple[str, Body]:
    """An action, a round (mostly one whose state allows it) and a body: well formed or garbage, field by field."""
    ids = world.players
    player = weighted((3, st.sampled_from(ids)), (1, ints))
    present = st.permutations(ids).flatmap(lambda p: st.integers(0, len(p)).map(lambda n: p[:n]))
    good: dict[str, st.SearchStrategy[Any]] = {
        "competition": st.sampled_from([world.competition.pk, world.competition.pk, world.other.pk]),
        "method": st.sampled_from(sorted(GENERATORS)),
        "seed": st.integers(0, 2**53),
        "players": present,
        "seating": st.permutations(ids).map(lambda p: [p[:4], p[4:8]]),
        "reason": nasty_text,
    }
    garbage: dict[str, st.SearchStrategy[Any]] = {
        "competition": json_values,
        "method": st.one_of(st.sampled_from(["", "MIXER", "manual "]), json_values),
        "seed": st.one_of(ints, json_values),
        "players": st.one_of(st.lists(player, max_size=14), json_values),
        "seating": st.one_of(st.lists(st.lists(player, min_size=3, max_size=6), max_size=4), json_values),
        "reason": st.one_of(nasty_text, json_values),
    }
    action = draw(st.sampled_from(["create", "create", "redraw", "swap", "reseat", "publish", "finalise", "reopen"]))
    wanted = {
        "create": ["competition", "method", "seed", "players", "seating"],
        "redraw": ["seed", "method", "seating"],
        "swap": ["players"],
        "reseat": ["players", "reason"],
        "reopen": ["reason"],
    }.get(action, [])
    if action == "swap":
        good["players"] = st.lists(st.sampled_from(ids), min_size=2, max_size=2, unique=True)
    fields = {key: weighted((3, good[key]), (1, garbage[key])) for key in wanted}
    required = {key: fields.pop(key) for key in ("competition",) if key in fields}  # a new round names it
    payload = draw(
        weighted(
            (3, st.fixed_dictionaries(required, optional=fields)),
            (1, st.fixed_dictionaries({}, optional=fields)),
            (2, st.fixed_dictionaries({**required, **fields})),
            (1, st.fixed_dictionaries({**required, **fields}, optional={"junk": json_values})),
            (1, json_values),
        )
    )
    if action == "create":
        return f"{API}/rounds/", draw(bodies(st.just(payload)))
    usual = {"redraw": "draft", "swap": "draft", "publish": "draft", "reseat": "published", "finalise": "in_play"}
    target = draw(
        weighted(
            (4, st.just(str(world.rounds[usual.get(action, "in_play")].pk))),
            (2, st.sampled_from([str(r.pk) for r in world.rounds.values()])),
            (1, st.sampled_from(["0", "x", str(2**64)])),
        )
    )
    return f"{API}/rounds/{target}/{action}/", draw(bodies(st.just(payload)))


@fuzz(90)
@given(data=st.data())
def test_round_requests_seat_validly_or_change_nothing(rounds_world: RoundsWorld, data: st.DataObject) -> None:
    url, body = data.draw(round_requests(rounds_world), label="request")
    client = APIClient()
    client.force_authenticate(rounds_world.admin)
    with rolled_back():
        before = snapshot()
        response = client.post(url, data=body.raw, content_type=body.content_type)
        event(f"HTTP {response.status_code}")
        assert response.status_code < 500
        if response.status_code >= 300:
            assert_refused(response, before)
            return
        assert response.status_code in (200, 201)
        assert_seatings_valid(rounds_world.competition.pk)
        assert snapshot()["entries"] == before["entries"]  # seating never touches lines


# --- the calculator --------------------------------------------------------------------------------------------------

PRESET_NAMES = [*games.names(), "kleurenwiezen", "1v3", "counter_clockwise", "x", "", "iwwa_", "IWWA"]
SESSION = tuple(random_session(IWWA, random.Random(3), 4, 16))


@st.composite
def score_requests(draw: st.DrawFn) -> tuple[str, Body]:
    name = draw(
        weighted(
            (4, st.sampled_from(games.names())),
            (2, st.lists(st.sampled_from(PRESET_NAMES), min_size=1, max_size=3).map("+".join)),
            (1, st.text("abcdefghijklmnopqrstuvwxyz0123456789_+", min_size=1, max_size=12)),
            (1, st.text(any_char.filter(lambda c: c not in "/?#%" and c.isprintable()), min_size=1, max_size=6)),
        )
    )
    plan = PLANS["four"]
    lines = list(SESSION[: draw(st.integers(0, len(SESSION)))])
    for _ in range(draw(st.integers(0, 2))):
        if lines:
            at = draw(st.integers(0, len(lines) - 1))
            lines[at] = draw(lines_for(plan, (lines[at],)))
    players = weighted((3, st.sampled_from([4, 5])), (1, st.integers(1, 6)), (1, json_values))
    deals = weighted((3, st.sampled_from([16, 24, None])), (1, ints), (1, json_values))
    payload = draw(
        weighted(
            (2, st.fixed_dictionaries({"lines": st.just(lines)}, optional={"players": players, "deals": deals})),
            (3, st.fixed_dictionaries({"lines": st.just(lines), "players": st.just(4)})),
            (1, json_values),
        )
    )
    return name, draw(bodies(st.just(payload)))


@fuzz(90)
@given(request=score_requests(), anonymous=st.booleans())
@example(request=("iwwa", as_json({"lines": list(SESSION)})), anonymous=True)
def test_the_calculator_scores_or_explains_and_stores_nothing(
    world: World, request: tuple[str, Body], anonymous: bool
) -> None:
    name, body = request
    client = APIClient()
    if not anonymous:
        client.force_authenticate(world.roles.club_admin)
    with rolled_back():
        before = snapshot()
        response = client.post(f"{API}/rulesets/presets/{name}/score/", data=body.raw, content_type=body.content_type)
        event(f"HTTP {response.status_code}")
        assert response.status_code < 500
        if response.status_code >= 300:
            assert_refused(response, before)
            return
        assert response.status_code == 200
        answer = response.json()
        assert snapshot() == before
        totals = [0] * len(answer["totals"])
        for result in answer["results"]:
            totals = [t + p for t, p in zip(totals, result["points"], strict=True)]
            assert result["totals"] == totals
        assert answer["totals"] == totals


def test_a_rule_sets_calculator_refuses_garbage_too(world: World) -> None:
    rule_set = RuleSetFactory(preset="flemish", club=world.competition.club)
    for raw in [b'{"lines": [{"deal": "1"}], "players": 5}', b'{"lines": 7}', b"[]", *MALFORMED_JSON]:
        before = snapshot()
        response = APIClient().post(f"{API}/rulesets/{rule_set.pk}/score/", data=raw, content_type="application/json")
        assert_refused(response, before)


# --- known bugs: each a minimal, deterministic case ------------------------------------------------------------------


def _admin(world: World) -> APIClient:
    return world.client("club_admin", world.sheets["four"])


def _next_line(name: str, **extra: Any) -> dict[str, Any]:
    return {**PLANS[name].next_lines[0], **extra}


UNSTORABLE = [
    pytest.param({"note": "\ud800"}, "note", id="surrogate-in-a-note"),
    pytest.param({"note": "a\x00b"}, "note", id="nul-in-a-note"),
    pytest.param({"\udfff": 1}, "a key of the body", id="surrogate-as-a-field-name"),
    pytest.param({"\x00": 1}, "a key of the body", id="nul-as-a-field-name"),
]


@pytest.mark.parametrize(("extra", "where"), UNSTORABLE)
@pytest.mark.parametrize("key", [None, "k1"])
def test_text_the_database_cannot_store_is_refused_saying_where(
    world: World, extra: dict[str, Any], where: str, key: str | None
) -> None:
    """A lone surrogate or a NUL, in a value or a key, is refused by the parser: it used to be stored (then the
    201 failed to render), a DataError on PostgreSQL's jsonb, or a DataError storing the 400 that names the field
    for the ``Idempotency-Key``'s replay (500s all)."""
    url = f"{API}/sheets/{world.sheets['four'].pk}/lines/"
    body = json.dumps(_next_line("four", **extra))
    before = snapshot()
    response = _admin(world).post(url, data=body, content_type="application/json", **headers(key))
    assert_refused(response, before)
    assert response.json()["detail"].startswith(f"{where}: text must not contain NUL (U+0000) or lone surrogates")
    if key is not None:  # the refusal is kept for the key's replay
        again = _admin(world).post(url, data=body, content_type="application/json", **headers(key))
        assert (again.status_code, again.json(), again["Idempotent-Replayed"]) == (400, response.json(), "true")


def test_json_nested_past_the_recursion_limit_is_refused_everywhere(world: World) -> None:
    """DRF's JSONParser let ``RecursionError`` through (it catches ValueError only): a 500 on every JSON endpoint."""
    sheet, draft = world.sheets["four"], world.sheets["draft"].table.round_id
    urls = [f"sheets/{sheet.pk}/lines/", f"sheets/{sheet.pk}/import/", f"rounds/{draft}/redraw/", "rounds/"]
    for url, body in itertools.product([*urls, "rulesets/presets/iwwa/score/", "rulesets/"], DEEP_BODIES):
        before = snapshot()
        response = _admin(world).post(f"{API}/{url}", data=body, content_type="application/json")
        assert_refused(response, before)
        assert response.json() == {"detail": "the body is nested too deeply to read (at most 32 levels)"}, url


# Past the parser's depth; and short of it, parsed: refused at once, before any recursive reader after the parser
# (the settings page's overrides nested 900 deep were a RecursionError there: tests/tournaments/test_settings_*)
DEEP_BODIES = [
    DEEP_JSON,
    '{"name": "x", "game": "wiezen", "preset": "iwwa", "overrides": ' + '{"a": ' * 900 + "1" + "}" * 901,
    "[" * 33 + "]" * 33,
]


def test_a_nul_in_an_imported_note_is_refused(world: World) -> None:
    """In CSV or JSON (it was a DataError on PostgreSQL's jsonb, 500; SQLite stored it)."""
    sheet = world.sheets["four"]
    line = {**PLANS["four"].rest[0], "contract": "pass", "note": "a\x00b"}
    text = f"deal,dealer,contract,note\n{line['deal']},{line['dealer']},pass,a\x00b\n"
    for body, content_type, where in [
        (text.encode(), "text/csv", "the body"),
        (json.dumps({"lines": [line]}).encode(), "application/json", "lines[0].note"),
    ]:
        before = snapshot()
        response = _admin(world).post(f"{API}/sheets/{sheet.pk}/import/", data=body, content_type=content_type)
        assert_refused(response, before)
        assert response.json()["detail"].startswith(f"{where}: text must not contain NUL")


def _finalise_round(sheet: ScoreSheet) -> None:
    Round.objects.filter(pk=sheet.table.round_id).update(status=Round.Status.FINALISED)


def _make_final(sheet: ScoreSheet) -> None:
    ScoreSheet.objects.filter(pk=sheet.pk).update(state=ScoreSheet.State.FINAL)


@pytest.mark.parametrize(
    ("name", "close", "code"),
    [
        ("draft", None, "round_draft"),
        ("four", _finalise_round, "round_finalised"),
        ("four", _make_final, "sheet_final"),
    ],
)
def test_importing_into_a_sheet_that_takes_no_lines_is_refused(
    world: World, name: str, close: Callable[[ScoreSheet], None] | None, code: str
) -> None:
    """A draft or finalised round, a final sheet: the rows pass the engine, then the entry service refuses the
    sheet (its EntryRejected was not caught by the import: 500)."""
    sheet = world.sheets[name]
    if close is not None:
        close(sheet)
    before = snapshot()
    body = json.dumps({"lines": [PLANS[name].rest[0]]})
    response = _admin(world).post(f"{API}/sheets/{sheet.pk}/import/", data=body, content_type="application/json")
    assert_refused(response, before)
    assert [e["code"] for e in response.json()["errors"]] == [code]


def test_importing_an_archive_into_club_superscript_two_is_a_404(world: World) -> None:
    """``?club=²``: a digit for str.isdigit, not for int (it was a ValueError, 500)."""
    response = _admin(world).post(
        f"{API}/competitions/import/?club=%C2%B2", data=b"{}", content_type="application/json"
    )
    assert response.status_code == 404


@pytest.mark.parametrize("deal", ["9" * 10, "9" * 4301])
def test_a_correction_address_past_nine_digits_is_not_found(world: World, deal: str) -> None:
    """No sheet has that many deals; int() refused 4301 digits (ValueError, 500). Behind gunicorn, whose request
    line holds 4094 bytes, so long an address never reaches Django."""
    sheet = world.sheets["four"]
    body = json.dumps({"line": PLANS["four"].prefill[0], "version": 1})
    before = snapshot()
    response = _admin(world).put(f"{API}/sheets/{sheet.pk}/lines/{deal}/", data=body, content_type="application/json")
    assert response.status_code == 404
    assert_refused(response, before)


@pytest.mark.parametrize("key", ["players", "penalties"])
def test_an_archive_with_entries_that_are_not_objects_is_refused(archive_world: ArchiveWorld, key: str) -> None:
    """``"players": ["x"]`` (it was an AttributeError, 500)."""
    before = snapshot()
    response = _post_archive(archive_world, lambda a: a.__setitem__(key, ["x"]))
    assert_refused(response, before)
    assert_names_the_place(response, f"{key}[0]")


def test_reseating_one_player_given_four_times_is_refused(rounds_world: RoundsWorld) -> None:
    """``[1, 1, 1, 1]`` passed as four players; the seating's SeatingError for one player was a 500."""
    client = APIClient()
    client.force_authenticate(rounds_world.admin)
    player = rounds_world.players[0]
    before = snapshot()
    response = client.post(
        f"{API}/rounds/{rounds_world.rounds['published'].pk}/reseat/",
        data=json.dumps({"players": [player] * 4}),
        content_type="application/json",
    )
    assert_refused(response, before)
    assert response.json() == {"players": [f"each player once: {player} given more than once"]}


def test_reseating_fewer_than_four_players_is_a_service_error(rounds_world: RoundsWorld) -> None:
    """The seating's SeatingError becomes a ServiceError, as when a round is seated (a withdrawal re-seats too)."""
    before = snapshot()
    with pytest.raises(ServiceError, match=r"At least 4 players are needed; there are 3\."):
        reseat_round(rounds_world.rounds["published"], players=rounds_world.players[:3])
    assert snapshot() == before


def _post_archive(world: ArchiveWorld, change: Callable[[dict[str, Any]], Any]) -> Any:
    archive = copy.deepcopy(world.archive)
    change(archive)
    client = APIClient()
    client.force_authenticate(world.admin)
    return client.post(
        f"{API}/competitions/import/?club={world.club.pk}", data=json.dumps(archive), content_type="application/json"
    )


def _first_table(archive: dict[str, Any]) -> dict[str, Any]:
    table: dict[str, Any] = archive["rounds"][0]["tables"][0]
    return table


def _place(path: tuple[Any, ...]) -> str:
    """How an import error names a place: ``("rounds", 0, "status")`` is ``rounds[0].status``."""
    return "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in path).lstrip(".")


def assert_names_the_place(response: Any, place: str) -> None:
    """An error message starts with the place in the archive that is wrong."""
    messages = error_messages(response.json())
    assert any(m.startswith(place) for m in messages), messages


@pytest.mark.parametrize("state", ["bogus", "x" * 17])
def test_an_archive_sheet_with_an_unknown_state_is_refused(archive_world: ArchiveWorld, state: str) -> None:
    """It was stored unchecked (201), or a DataError on PostgreSQL past 16 characters (500)."""
    before = snapshot()
    response = _post_archive(archive_world, lambda a: _first_table(a)["sheet"].update(state=state))
    assert_refused(response, before)


@pytest.mark.parametrize("method", ["bogus", "y" * 17])
def test_an_archive_round_with_an_unknown_method_is_refused(archive_world: ArchiveWorld, method: str) -> None:
    """It was stored unchecked (201; redrawing the round failed later), or a DataError on PostgreSQL (500)."""
    before = snapshot()
    response = _post_archive(archive_world, lambda a: a["rounds"][0].update(method=method))
    assert_refused(response, before)


def test_an_archive_bye_for_a_seated_player_is_refused(archive_world: ArchiveWorld) -> None:
    """The player would be at a table and on a bye in the same round (it was imported, 201)."""
    before = snapshot()
    response = _post_archive(archive_world, lambda a: a["rounds"][0].update(byes=[_first_table(a)["seats"][0]]))
    assert_refused(response, before)


def test_an_archive_listing_a_deal_twice_is_refused_not_taken_as_a_correction(archive_world: ArchiveWorld) -> None:
    """record_deal took the second deal-2 line as a correction: 4 lines became 3 deals, silently (201)."""

    def twice(archive: dict[str, Any]) -> None:
        lines = _first_table(archive)["sheet"]["lines"]
        lines.insert(2, dict(lines[1]))

    before = snapshot()
    response = _post_archive(archive_world, twice)
    assert_refused(response, before)


def test_an_archive_table_whose_seats_do_not_fill_it_is_refused(archive_world: ArchiveWorld) -> None:
    """A table of 4 with 3 seats was imported (201): an empty seat, its points nowhere."""
    before = snapshot()
    response = _post_archive(archive_world, lambda a: _first_table(a)["seats"].pop())
    assert_refused(response, before)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("rounds", 0, "number"), 2**63),
        (("rounds", 0, "seed"), 2**63),
        (("rounds", 0, "tables", 0, "number"), 2**63),
        pytest.param(("rounds", 0, "number"), 2**15, marks=pytest.mark.skipif(not ON_POSTGRESQL, reason="SQLite")),
        (("penalties", 0, "points"), 2**31),  # past the standings' penalty column on either database
    ],
)
def test_an_archive_number_beyond_its_column_is_refused(
    archive_world: ArchiveWorld, path: tuple[Any, ...], value: int
) -> None:
    """They went to the database unchecked: OverflowError on SQLite, DataError on PostgreSQL (500)."""
    before = snapshot()
    response = _post_archive(archive_world, lambda a: _get(a, path[:-1]).__setitem__(path[-1], value))
    assert_refused(response, before)
    assert_names_the_place(response, _place(path[:-1]))


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("players", 0, "first_name"), "x" * 81),
        (("players", 0, "last_name"), ""),
        (("players", 0, "display_name"), "a\x00b"),
        (("players", 0, "federation_id"), "f" * 33),
        (("penalties", 0, "reason"), "x" * 201),
    ],
)
def test_an_archive_player_or_penalty_text_their_model_refuses_is_refused(
    archive_world: ArchiveWorld, path: tuple[Any, ...], value: str
) -> None:
    """Too long, blank or holding a NUL, it was stored unchecked (201) or a DataError on PostgreSQL (500)."""
    before = snapshot()
    response = _post_archive(archive_world, lambda a: _get(a, path[:-1]).__setitem__(path[-1], value))
    assert_refused(response, before)
    assert_names_the_place(response, _place(path))


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("rule_set", "name"), "a\x00b"),
        (("competition", "name"), "a\x00b"),
        (("wishes", 0, "kind"), "k" * 9),
        (("rounds", 0, "status"), "s" * 17),
    ],
)
def test_archive_text_the_database_cannot_store_is_refused(
    archive_world: ArchiveWorld, path: tuple[Any, ...], value: str
) -> None:
    """A NUL (full_clean lets it through), a wish's kind or a round's status past its column: they were a
    DataError on PostgreSQL (500); SQLite stored some of them."""
    before = snapshot()
    response = _post_archive(archive_world, lambda a: _get(a, path[:-1]).__setitem__(path[-1], value))
    assert_refused(response, before)
    assert_names_the_place(response, _place(path))


@pytest.mark.parametrize(("field", "value"), [("evening_decay", 16), ("best_evenings", 0)])
def test_an_archive_whose_league_options_the_standings_refuse_is_refused_whole(
    archive_world: ArchiveWorld, field: str, value: Any
) -> None:
    """full_clean() accepts them; the standings, computed after the import's commit, raised ScoringError: 500 with
    the competition left imported."""
    before = snapshot()
    response = _post_archive(archive_world, lambda a: a["competition"].__setitem__(field, value))
    assert_refused(response, before)
    assert_names_the_place(response, f"competition.{field}")
