"""Issue 14, class 7: table codes cannot be guessed, and wrong guesses lock out no other table.

Codes were 8 hex characters (32 bits), guessing through the API was not throttled, the entry page locked out an
address (a venue behind one NAT, right codes included) and the comparison was not constant-time. Now a code is
16 characters of Crockford's base 32 (80 bits, ``XXXX-XXXX-XXXX-XXXX``), typed in any case with or without its
dashes; every route that takes a code (enumerated from the URL conf) goes through one check,
``permissions.table_code_opens``, which compares with ``hmac.compare_digest``; and nothing counts wrong codes per
address, so the right code of any table at the venue always opens its sheet.
"""

from __future__ import annotations

import hmac
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import get_resolver, reverse
from rest_framework.test import APIClient

from tests.factories import seated_competition
from tests.urlconf import walk
from tournaments.api.views_results import ScoreSheetViewSet
from tournaments.models import DealEntry, ScoreSheet
from tournaments.models.sheets import TABLE_CODE_ALPHABET, format_table_code, new_table_code
from tournaments.services.entry import record_deal
from tournaments.views import entry as views_entry

pytestmark = pytest.mark.django_db

API = "/api/v1"
DEAL_1 = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6}
DEAL_2 = {"deal": 2, "dealer": 1, "contract": "pass"}


@dataclass
class World:
    sheet: ScoreSheet
    other: ScoreSheet  # another table of the same round: the same venue


@pytest.fixture
def world() -> World:
    competition = seated_competition(players=8)
    first, second = ScoreSheet.objects.filter(table__round__competition=competition).order_by("table__number")
    return World(first, second)


def entry_args(sheet: ScoreSheet) -> list[Any]:
    return [sheet.table.round.competition.slug, sheet.table.round.number, sheet.table.number]


# The ways a holder may type the right code, and codes that must open nothing.
RIGHT = {
    "as-printed": lambda code: code,
    "lower-case-without-dashes": lambda code: code.replace("-", "").lower(),
    "with-spaces": lambda code: code.replace("-", " "),
    "O-and-I-for-0-and-1": lambda code: code.replace("0", "O").replace("1", "I"),
}
WRONG: dict[str, Callable[[World], str]] = {
    "one-character-off": lambda w: w.sheet.captain_code[:-1] + ("0" if w.sheet.captain_code[-1] != "0" else "1"),
    "another-tables-code": lambda w: w.other.captain_code,
    "empty": lambda w: "",
    "the-first-half": lambda w: w.sheet.captain_code[:9],
}


def test_a_new_code_holds_80_random_bits_in_an_alphabet_without_look_alikes() -> None:
    codes = {new_table_code() for _ in range(2000)}
    assert len(codes) == 2000
    assert all(re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}", code) for code in codes)
    assert len(set(TABLE_CODE_ALPHABET)) == 32 and not set("ILOU") & set(TABLE_CODE_ALPHABET)
    bits = 16 * math.log2(len(TABLE_CODE_ALPHABET))
    assert bits >= 64
    # README, "Security": at 1,000 guesses a second, half the space takes about 2^79 / 1000 s, over 10^13 years
    assert 2 ** (bits - 1) / 1000 / (365 * 24 * 3600) > 1e13


def test_a_sheet_gets_such_a_code_and_the_column_holds_it(world: World) -> None:
    assert re.fullmatch(r"[0-9A-Z]{4}(-[0-9A-Z]{4}){3}", world.sheet.captain_code)
    assert ScoreSheet._meta.get_field("captain_code").max_length >= len(world.sheet.captain_code)


@pytest.mark.parametrize(
    "typed", ["7kq2m9xd4htb0wzc", " 7KQ2-M9XD 4HTB-0WZC ", "7kq2-m9xd-4htb-owzc", "7KQ2M9XD4HTB0WZC"]
)
def test_a_code_is_read_in_one_form_whatever_the_typing(typed: str) -> None:
    assert format_table_code(typed) == "7KQ2-M9XD-4HTB-0WZC"


# -- every route that takes a table code, from the URL conf ---------------------------------------------------------


def code_routes() -> list[str]:
    """The entry pages (the code opens them) and the API's sheet writes (``X-Table-Code``), by name."""
    names: list[str] = []
    for _, _, pattern in walk(get_resolver().url_patterns):
        callback: Any = pattern.callback
        # the entry page's views, and whatever else lives under its address (offline entry's kept lines...)
        if getattr(callback, "__module__", "") == views_entry.__name__ or "/entry/" in str(pattern.pattern):
            names.append(f"page:{pattern.name}")
        elif getattr(callback, "cls", None) is ScoreSheetViewSet:
            actions = getattr(callback, "actions", {}) or {}
            names.extend(f"api:{name}" for method, name in actions.items() if method in ("post", "put", "patch"))
    return sorted(set(names))


def _page(route: str) -> Callable[[World, Client], Any]:
    def call(world: World, client: Client) -> Any:
        url = reverse(route, args=entry_args(world.sheet))
        if route == "sheet-entry":
            return client.get(url)
        return client.post(url, {**DEAL_2, "reason": "checking", "points": 1, "position": 0})

    return call


def _api(action: str) -> Callable[[World, APIClient], Any]:
    def call(world: World, client: APIClient) -> Any:
        sheet = world.sheet.pk
        if action == "add_line":
            return client.post(f"{API}/sheets/{sheet}/lines/", DEAL_2, format="json")
        if action == "correct_line":
            return client.put(f"{API}/sheets/{sheet}/lines/1/", {"version": 1, "line": DEAL_1}, format="json")
        return client.post(f"{API}/sheets/{sheet}/import/", {"lines": [DEAL_2]}, format="json")

    return call


# What each route answers the table that holds the right code (a route only organisers use refuses it too).
OPENS = {
    "page:sheet-entry": True,
    "page:sheet-entry-preview": True,
    "page:sheet-entry-queued": True,  # a deal kept offline, sent when the connection returns
    "page:sheet-confirm": True,
    "page:sheet-stop": True,  # a Zwicken table says it stopped playing
    "page:sheet-reject": True,
    "page:sheet-penalty": False,  # organisers only, code or not
    "api:add_line": True,
    "api:correct_line": True,
    "api:import_": True,
}


def test_every_route_that_takes_a_table_code_is_in_the_matrix() -> None:
    assert set(code_routes()) == set(OPENS)


def _refused(response: Any) -> bool:
    if response.status_code in (401, 403, 404):
        return True
    return response.status_code == 302 and "login" in response.get("Location", "")


def _request(world: World, route: str, typed: str) -> Any:
    kind, name = route.split(":")
    if kind == "api":
        client = APIClient()
        client.credentials(HTTP_X_TABLE_CODE=typed)
        return _api(name)(world, client)
    client = Client()
    client.get(reverse("sheet-entry", args=entry_args(world.sheet)), {"code": typed})
    return _page(name)(world, client)


@pytest.fixture
def entered(world: World) -> World:
    record_deal(world.sheet, DEAL_1)
    return world


@pytest.mark.parametrize("typing", RIGHT)
@pytest.mark.parametrize("route", sorted(OPENS))
def test_the_right_code_as_typed_opens_every_route_through_the_constant_time_check(
    entered: World, route: str, typing: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    compared: list[bytes] = []
    real = hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        compared.append(b)
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", spy)
    response = _request(entered, route, RIGHT[typing](entered.sheet.captain_code))
    assert _refused(response) is not OPENS[route], (route, response.status_code)
    assert entered.sheet.captain_code.encode() in compared  # the one check, in constant time


@pytest.mark.parametrize("wrong", WRONG)
@pytest.mark.parametrize("route", sorted(OPENS))
def test_a_wrong_code_opens_no_route_and_stores_nothing(entered: World, route: str, wrong: str) -> None:
    before = list(DealEntry.objects.values_list("pk", "version"))
    state = ScoreSheet.objects.get(pk=entered.sheet.pk).state
    response = _request(entered, route, WRONG[wrong](entered))
    assert _refused(response), (route, response.status_code)
    assert list(DealEntry.objects.values_list("pk", "version")) == before
    assert ScoreSheet.objects.get(pk=entered.sheet.pk).state == state


def test_many_wrong_codes_from_one_address_lock_out_no_table_of_the_venue(world: World) -> None:
    """Issue 14: the page locked out the venue's address after 10 wrong codes, right codes included."""
    page, api = Client(), APIClient()
    for _ in range(60):
        wrong = new_table_code()
        assert page.get(reverse("sheet-entry", args=entry_args(world.sheet)), {"code": wrong}).status_code == 403
        api.credentials(HTTP_X_TABLE_CODE=wrong)
        assert api.post(f"{API}/sheets/{world.sheet.pk}/lines/", DEAL_1, format="json").status_code == 403
    for sheet in (world.other, world.sheet):  # another table at the same venue, and the attacked one itself
        opened = page.get(reverse("sheet-entry", args=entry_args(sheet)), {"code": sheet.captain_code})
        assert opened.status_code == 302 and "login" not in opened["Location"]
        api.credentials(HTTP_X_TABLE_CODE=sheet.captain_code)
        assert api.post(f"{API}/sheets/{sheet.pk}/lines/", DEAL_1, format="json").status_code == 201
