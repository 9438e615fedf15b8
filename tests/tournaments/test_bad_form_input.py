"""Garbage posted to the sheet entry page never gives a server error and never stores half a deal (issue 9).

Hypothesis posts the entry form (``tournaments.views.entry.sheet_entry``) of a Wiezen sheet and of a Zwicken sheet
with fields spoiled one by one or wholesale: wrong types, huge numbers, unknown choices, several values for one
field, unknown fields, unicode (NUL, lone surrogates sent as bytes that are not UTF-8, byte order marks), odd
idempotency keys. Posted by the club administrator or by the table with its code, the page answers either a
redirect back to itself with exactly one new deal stored, valid for the engine, or 200 with every error shown
beside its field (or above the form) and nothing stored. Others are turned away, storing nothing.

Isolation as in ``tests/api/test_bad_input.py``: the world is built once per test function; each example runs in
a savepoint that is always rolled back. Examples
are derandomised and not stored; ``BAD_INPUT_FUZZ=20`` runs twenty times as many, randomly.

Bugs found are pinned at the end by minimal, deterministic tests: an ``xfail(strict=True)`` while open, with
the generators steering around exactly its inputs; once fixed, a test of the fix, and the generators cover those
inputs again.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import pytest
from django.conf import settings as django_settings
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils.html import escape
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

import games
from games.generate import random_line, random_session
from tests.factories import PlayerFactory, seated_competition
from tests.roles import make_roles
from tournaments.models import AuditEvent, Competition, DealEntry, Round, ScoreSheet, SeatResult
from tournaments.services.competitions import create_competition, create_rule_set, register_players
from tournaments.services.entry import record_deal
from tournaments.services.rounds import create_round, publish_round

pytestmark = pytest.mark.django_db

ON_POSTGRESQL = django_settings.DATABASES["default"]["ENGINE"].endswith("postgresql")
FUZZ = int(os.environ.get("BAD_INPUT_FUZZ", "1"))


def fuzz(examples: int) -> Callable[[Any], Any]:
    return settings(
        max_examples=examples * FUZZ,
        deadline=None,
        derandomize=FUZZ == 1,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def weighted(*choices: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """``one_of`` with weights (``one_of`` drops a strategy repeated by identity: repeating one weighs nothing)."""
    bag = [strategy for weight, strategy in choices for _ in range(weight)]
    return st.sampled_from(bag).flatmap(lambda strategy: strategy)


# --- values ----------------------------------------------------------------------------------------------------------

NASTY_CHARS = "\x00\ud800\udfff\ufeff\u2028\u202e\u200b\r\n\t\x7f\"'<>&;,=%+é€😀\uffff"
any_char = st.one_of(st.characters(exclude_categories=()), st.sampled_from(NASTY_CHARS))
EDGE_NUMBERS = ["-1", "0", "1", "3", "4", "5", "12", "13", "16", "17", str(2**15), str(2**31), str(2**63), "9" * 30]
NEAR_NUMBERS = ["", " ", "1.0", "1e3", "0x1", "+1", "١", "1,2", "0,1,", " , ", "1;2", "-0", "NaN", "∞", "None"]
garbage = weighted(
    (2, st.text(any_char, max_size=12)),
    (2, st.sampled_from(EDGE_NUMBERS)),
    (1, st.sampled_from(NEAR_NUMBERS)),
    (1, st.sampled_from(["vraag", "pass", "penalty", "piccolo", "S", "s", "void", "belli", "x" * 300])),
)
# The hidden idempotency key is stored with the deal (at most 255 characters): longer ones, and NULs, are refused.
keys = weighted(
    (3, st.uuids().map(lambda u: u.hex)),
    (1, st.sampled_from(["", "0", "-1", str(2**64), "k" * 255, "k" * 256, "k" * 5000, "form-key"])),
    (1, st.text(any_char, max_size=20)),
)


FORM = "application/x-www-form-urlencoded"


def encode(pairs: list[tuple[str, str]]) -> bytes:
    """An urlencoded body; lone surrogates become bytes that are not UTF-8 (Django reads them as U+FFFD)."""
    return "&".join(
        f"{quote(k.encode('utf-8', 'surrogatepass'))}={quote(v.encode('utf-8', 'surrogatepass'))}" for k, v in pairs
    ).encode()


# --- the sheets and their next lines, from the engine alone -------------------------------------------------------

IWWA = games.find("iwwa")
ZWICKEN = games.find("zwicken")
PREFILLED = 3
WIEZEN_PREFILL = tuple(random_session(IWWA, random.Random(11), 4, 16)[:PREFILLED])
_wiezen = games.sheet_from_lines(IWWA, WIEZEN_PREFILL, 4, 16)
WIEZEN_NEXT = tuple(
    random_line(IWWA, random.Random(n), _wiezen.next_deal, _wiezen.expected_dealer or 0, 4) for n in range(30)
)
ZWICKEN_PREFILL = (
    {"deal": 1, "dealer": 0, "played": [1, 2, 3], "tricks": [0, 2, 1, 0]},
    {"deal": 2, "dealer": 1, "cut": "void"},
    {"deal": 3, "dealer": 1, "played": [0, 1], "tricks": [2, 1, 0, 0]},
)
_zwicken = games.sheet_from_lines(ZWICKEN, ZWICKEN_PREFILL, 4, None)
_z = {"deal": _zwicken.next_deal, "dealer": _zwicken.expected_dealer}
ZWICKEN_NEXT = (
    {**_z, "cut": "void"},
    {**_z, "cut": "belli"},
    {**_z, "played": [], "tricks": [0, 0, 0, 0]},
    {**_z, "played": [0, 1, 2, 3], "tricks": [1, 1, 1, 0]},
    {**_z, "played": [1, 3], "tricks": [0, 2, 0, 1]},
    {**_z, "played": [0, 2], "tricks": [3, 0, 0, 0], "duties_failed": [2]},
)
for _line in ZWICKEN_NEXT:  # what the tests assume, checked once at import
    games.sheet_from_lines(ZWICKEN, [*ZWICKEN_PREFILL, _line], 4, None)
for _line in WIEZEN_NEXT:
    games.sheet_from_lines(IWWA, [*WIEZEN_PREFILL, _line], 4, 16)


def wiezen_fields(line: dict[str, Any]) -> list[tuple[str, str]]:
    pairs = [("deal", str(line["deal"])), ("dealer", str(line["dealer"])), ("contract", line["contract"])]
    pairs += [("declarers", str(seat)) for seat in line.get("declarers", [])]
    tricks = line.get("tricks")
    if tricks is not None:
        pairs.append(("tricks", ",".join(map(str, tricks)) if isinstance(tricks, list) else str(tricks)))
    pairs += [(key, str(line[key])) for key in ("level", "trump", "offender") if key in line]
    return pairs


def zwicken_fields(line: dict[str, Any]) -> list[tuple[str, str]]:
    pairs = [("deal", str(line["deal"])), ("dealer", str(line["dealer"])), ("cut", line.get("cut", ""))]
    pairs += [("played", str(seat)) for seat in line.get("played", [])]
    pairs += [("duties_failed", str(seat)) for seat in line.get("duties_failed", [])]
    pairs += [(f"tricks_{seat}", str(n)) for seat, n in enumerate(line.get("tricks", []))]
    return pairs


FORMS = {
    "wiezen": (tuple(wiezen_fields(line) for line in WIEZEN_NEXT), wiezen_fields(WIEZEN_PREFILL[-1])),
    "zwicken": (tuple(zwicken_fields(line) for line in ZWICKEN_NEXT), zwicken_fields(ZWICKEN_PREFILL[-1])),
}
FIELD_NAMES = {
    "wiezen": ["deal", "dealer", "contract", "declarers", "tricks", "level", "trump", "offender", "idempotency_key"],
    "zwicken": ["deal", "dealer", "cut", "played", "duties_failed", "tricks_0", "tricks_1", "tricks_2", "tricks_3"],
}
OTHER_NAMES = ["idempotency_key", "version", "tricks_4", "note", "points", "csrfmiddlewaretoken", "deal[]", ""]


@st.composite
def posts(draw: st.DrawFn, game: str) -> list[tuple[str, str]]:
    """A valid form with up to four changes: a value spoiled, a field dropped, added or given twice."""
    bases, _ = FORMS[game]
    pairs = list(draw(st.sampled_from(bases)))
    pairs.append(("idempotency_key", draw(keys)))
    pairs.append(("version", draw(st.sampled_from(["0", "0", "1", "2", ""]))))  # the page sends 0 for a new deal
    names = st.sampled_from(FIELD_NAMES[game] + OTHER_NAMES)
    for _ in range(draw(st.sampled_from([0, 0, 1, 1, 2, 3, 4]))):
        what = draw(st.sampled_from(["spoil", "spoil", "drop", "add", "twice"]))
        if what == "spoil" and pairs:
            at = draw(st.integers(0, len(pairs) - 1))
            pairs[at] = (pairs[at][0], draw(garbage))
        elif what == "drop" and pairs:
            del pairs[draw(st.integers(0, len(pairs) - 1))]
        elif what == "add":
            pairs.append((draw(weighted((4, names), (1, st.text(any_char, max_size=8)))), draw(garbage)))
        elif pairs:
            pairs.append((draw(st.sampled_from(pairs))[0], draw(garbage)))
    return pairs


# --- the world -----------------------------------------------------------------------------------------------------


@dataclass
class EntryWorld:
    urls: dict[str, str]
    sheets: dict[str, ScoreSheet]
    clients: dict[str, Client]


def _entry_url(sheet: ScoreSheet) -> str:
    table = sheet.table
    kwargs = {"slug": table.round.competition.slug, "round_number": table.round.number, "table_number": table.number}
    return reverse("sheet-entry", kwargs=kwargs)


@pytest.fixture
def world() -> EntryWorld:
    """A Wiezen table of four and a Zwicken evening of the same club, three deals each (the Wiezen sheet's last one
    saved with the form's idempotency key ``form-key``); an administrator, the tables' captains, a mere member and
    an anonymous visitor."""
    competition = seated_competition(players=4)
    roles = make_roles(competition)
    wiezen = ScoreSheet.objects.get(table__round__competition=competition)
    rule_set = create_rule_set(name="Zwicken", game="zwicken", preset="zwicken", club=competition.club)
    evening = create_competition(club=competition.club, name="Zwickerabend", slug="zwick", rule_set=rule_set)
    register_players(evening, PlayerFactory.create_batch(4))
    publish_round(create_round(evening))
    zwicken = ScoreSheet.objects.get(table__round__competition=evening)
    for number, line in enumerate(WIEZEN_PREFILL, start=1):
        record_deal(wiezen, line, by=roles.club_admin, idempotency_key="form-key" if number == PREFILLED else None)
    for line in ZWICKEN_PREFILL:
        record_deal(zwicken, line, by=roles.club_admin)
    sheets = {"wiezen": wiezen, "zwicken": zwicken}
    urls = {game: _entry_url(sheet) for game, sheet in sheets.items()}

    admin, member, anonymous = Client(), Client(), Client()
    admin.force_login(roles.club_admin)
    member.force_login(roles.player)
    clients = {"club_admin": admin, "member": member, "anonymous": anonymous}
    for game, sheet in sheets.items():
        captain = Client()
        opened = captain.get(f"{urls[game]}?code={sheet.captain_code}")
        assert opened.status_code == 302, opened.status_code
        clients[f"captain_{game}"] = captain
    return EntryWorld(urls, sheets, clients)


@contextmanager
def rolled_back() -> Iterator[None]:
    """One example: a savepoint that is always rolled back, whatever happened inside."""
    with transaction.atomic():
        try:
            yield
        finally:
            transaction.set_rollback(True)


def snapshot() -> dict[str, Any]:
    return {
        "entries": sorted(DealEntry.objects.values_list("pk", "sheet_id", "deal_number", "version", "is_current")),
        "seat_results": sorted(SeatResult.objects.values_list("sheet_id", "position", "points", "deals")),
        "audit": AuditEvent.objects.count(),
        "competitions": sorted(Competition.objects.values_list("pk", "entries_version")),
        "sheets": sorted(ScoreSheet.objects.values_list("pk", "state")),
        "rounds": sorted(Round.objects.values_list("pk", "status")),
    }


def assert_consistent(sheet_id: int) -> list[DealEntry]:
    """The sheet's current lines are numbered 1..n, valid for the engine, with the engine's points and totals."""
    sheet = ScoreSheet.objects.select_related("table__round__competition__rule_set").get(pk=sheet_id)
    entries = list(sheet.entries.filter(is_current=True).order_by("deal_number"))
    assert [e.deal_number for e in entries] == list(range(1, len(entries) + 1))
    competition = sheet.table.round.competition
    rules = competition.rule_set.engine_rules()
    engine = games.sheet_from_lines(rules, [e.line for e in entries], sheet.table.size, competition.deals_per_session)
    assert [(e.points, e.contract) for e in entries] == [(list(s.points), s.contract) for s in engine.results]
    totals = dict(SeatResult.objects.filter(sheet=sheet).values_list("position", "points"))
    assert totals == dict(enumerate(engine.totals))
    return entries


def _field_region(html: str, name: str) -> str:
    """The ``<div class="field">`` of the field called ``name``."""
    at = html.index(f'name="{name}"')
    start = html.rindex('<div class="field"', 0, at)
    ends = [i for i in (html.find('<div class="field"', at), html.find("</form>", at)) if i != -1]
    return html[start : min(ends)]


def assert_errors_shown(html: str, form: Any) -> None:
    """Every error of the form is on the page: a visible field's in that field's box, the others (the form's own,
    the hidden fields') above the fields."""
    form_html = html[html.index('<form method="post" class="entry"') :]
    above = form_html[: form_html.find('<div class="field"')]
    for name, messages in form.errors.items():
        on_top = name == "__all__" or form[name].is_hidden
        region = above if on_top else _field_region(form_html, form[name].html_name)
        for message in messages:
            assert escape(message) in region, (name, message)


def _entries_version(snap: dict[str, Any], competition_id: int) -> int:
    return dict(snap["competitions"])[competition_id]


# --- posting the form ----------------------------------------------------------------------------------------------

ROLES = [*["club_admin"] * 3, *["captain"] * 3, "member", "anonymous"]  # mostly those who may enter
cases = st.sampled_from(list(FORMS)).flatmap(lambda game: st.tuples(st.just(game), posts(game)))


@fuzz(150)
@given(role=st.sampled_from(ROLES), case=cases)
@example(role="captain", case=("wiezen", [*FORMS["wiezen"][0][0], ("idempotency_key", "k1")]))
@example(role="captain", case=("wiezen", [*FORMS["wiezen"][1], ("version", "1")]))  # deal 3 corrected
@example(role="club_admin", case=("zwicken", [*FORMS["zwicken"][0][3], ("idempotency_key", "")]))
@example(role="club_admin", case=("wiezen", [*FORMS["wiezen"][1], ("idempotency_key", "form-key")]))  # replayed
@example(role="club_admin", case=("wiezen", [*FORMS["wiezen"][0][1], ("idempotency_key", "form-key")]))  # reused
def test_the_entry_form_saves_one_valid_deal_or_shows_every_error_and_saves_nothing(
    world: EntryWorld, role: str, case: tuple[str, list[tuple[str, str]]]
) -> None:
    game, pairs = case
    client = world.clients[f"captain_{game}" if role == "captain" else role]
    url, sheet = world.urls[game], world.sheets[game]
    with rolled_back():
        before = snapshot()
        response = client.post(url, data=encode(pairs), content_type=FORM)
        event(f"{role.split('_')[0]} {game}: HTTP {response.status_code}")  # see --hypothesis-show-statistics
        assert response.status_code < 500
        after = snapshot()
        if role in ("member", "anonymous"):
            assert response.status_code in (302, 403, 404)
            if response.status_code == 302:
                assert "login" in response["Location"]
            assert after == before
            return
        if response.status_code == 302:  # saved (or replayed): back to the empty form
            assert response["Location"] == url
            entries = assert_consistent(sheet.pk)
            new = list(DealEntry.objects.exclude(pk__in=[pk for pk, *_ in before["entries"]]))
            if not new:
                assert ("idempotency_key", "form-key") in pairs and after == before  # a replay stores nothing again
                return
            # one new version of one deal: the next one, or a correction (later deals re-settled if need be)
            (deal,) = [e.deal_number for e in new if e.source != DealEntry.Source.RESETTLE]
            assert all(e.deal_number > deal for e in new if e.source == DealEntry.Source.RESETTLE)
            assert len(entries) == max(PREFILLED, deal)
            assert after["audit"] == before["audit"] + len(new)
            competition = sheet.table.round.competition_id
            assert _entries_version(after, competition) == _entries_version(before, competition) + 1
            return
        assert response.status_code == 200
        form = response.context["form"]
        assert form.errors, "a 200 to a post is the form again, with its errors"
        assert_errors_shown(response.content.decode(), form)
        assert after == before


# --- opening the page: the deal to correct, the table code --------------------------------------------------------


deal_params = weighted(
    (2, st.sampled_from(["1", "3", "4", "0", "-1", "01", "", "x", "1.0", str(2**64), "١", "٣", "²", "9" * 4301])),
    (2, st.text(any_char.filter(lambda c: not "\ud800" <= c <= "\udfff"), max_size=8)),
)


@fuzz(40)
@given(deal=deal_params, role=st.sampled_from(["club_admin", "captain"]), game=st.sampled_from(list(FORMS)))
def test_opening_the_form_on_any_deal_shows_it_and_stores_nothing(
    world: EntryWorld, deal: str, role: str, game: str
) -> None:
    client = world.clients[f"captain_{game}" if role == "captain" else role]
    with rolled_back():
        before = snapshot()
        response = client.get(world.urls[game], {"deal": deal})
        assert response.status_code == 200
        assert snapshot() == before


@fuzz(30)
@given(
    code=st.text(any_char.filter(lambda c: not "\ud800" <= c <= "\udfff"), max_size=16),
    game=st.sampled_from(list(FORMS)),
)
def test_a_wrong_table_code_opens_nothing(world: EntryWorld, code: str, game: str) -> None:
    client = Client()
    with rolled_back():
        before = snapshot()
        response = client.get(world.urls[game], {"code": code})
        if code == world.sheets[game].captain_code:
            assert response.status_code == 302
        else:
            assert response.status_code == 403
            assert client.post(world.urls[game], data=encode(FORMS[game][0][0]), content_type=FORM).status_code == 302
        assert snapshot() == before


# --- bugs found: each a minimal, deterministic case ----------------------------------------------------------------


def _post(world: EntryWorld, pairs: list[tuple[str, str]]) -> Any:
    return world.clients["club_admin"].post(world.urls["wiezen"], data=encode(pairs), content_type=FORM)


def test_an_idempotency_key_longer_than_its_column_is_refused_on_the_page(world: EntryWorld) -> None:
    """A valid deal with a 256-character key: the form refuses the key, shown above the fields (it reached the
    255-character column: a DataError on PostgreSQL, 500)."""
    before = snapshot()
    response = _post(world, [*FORMS["wiezen"][0][0], ("idempotency_key", "k" * 256)])
    assert response.status_code == 200
    assert snapshot() == before
    assert response.context["form"].errors["idempotency_key"] == [
        "Ensure this value has at most 255 characters (it has 256)."
    ]
    assert_errors_shown(response.content.decode(), response.context["form"])


def test_an_error_of_the_hidden_key_is_announced_above_the_fields(world: EntryWorld) -> None:
    """A NUL in the hidden key: its error is shown above the fields, in an alert that describes the form (the
    template rendered hidden fields without their errors: the form came back with no visible reason)."""
    before = snapshot()
    response = _post(world, [*FORMS["wiezen"][0][0], ("idempotency_key", "a\x00b")])
    assert response.status_code == 200
    assert snapshot() == before
    form, html = response.context["form"], response.content.decode()
    assert form.errors["idempotency_key"] == ["Null characters are not allowed."]
    assert_errors_shown(html, form)
    form_tag = html[html.index('<form method="post" class="entry"') :]
    assert 'aria-describedby="entry-errors"' in form_tag[: form_tag.index(">")]
    alert = html[html.index('<div id="entry-errors" role="alert">') :]
    assert "Null characters are not allowed." in alert[: alert.index("</div>")]


@pytest.mark.parametrize("deal", ["²", "١", "9" * 10, "9" * 4301])
def test_a_deal_in_the_address_that_is_not_a_short_ascii_number_opens_the_next_deal(
    world: EntryWorld, deal: str
) -> None:
    """``?deal=²`` (str.isdigit() is true, int() refuses it) or 4301 digits (past int()'s limit) was a ValueError,
    500; ``١`` is a digit int() reads as 1. None of them names a deal: the page opens on the next one."""
    response = world.clients["club_admin"].get(world.urls["wiezen"], {"deal": deal})
    assert response.status_code == 200
    assert response.context["form"].initial["deal"] == PREFILLED + 1
