"""Issue 14, class 9: nobody confirms a sheet whose current lines they entered, whatever the paths.

A code holder who entered every line through the API could confirm the same sheet on the page: API lines carried
no mark of who sent them. Now every line records its device (``tournaments.devices``: a token the server hands out
on first use of the code, sent back as a cookie or ``X-Device``) besides its account. Matrix: every path that
enters lines (the page with the code or signed in, the API with the code with or without a device token or with
an account, the sheet import) x every way to confirm (the page with the code from the same device or another,
signed in as the same or another account). Lines from a device that never identified itself may be anyone's:
then only an account confirms.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.test import Client
from django.urls import get_resolver, reverse
from rest_framework.test import APIClient

from tests.factories import UserFactory, seated_competition
from tests.urlconf import walk
from tournaments.devices import COOKIE, HEADER, KNOWN, ONE_OFF, digest
from tournaments.models import DealEntry, ScoreSheet
from tournaments.services.entry import record_deal
from tournaments.services.errors import ServiceError
from tournaments.services.sheets import confirm_sheet

pytestmark = pytest.mark.django_db

API = "/api/v1"


def line(deal: int) -> dict[str, Any]:
    return {"deal": deal, "dealer": (deal - 1) % 4, "contract": "pass"}


@dataclass
class World:
    sheet: ScoreSheet
    filler: Any  # the organiser who entered deals 1 to 14 (a known enterer, and not a confirmer here)
    enterer: Any  # the organiser who enters deals 15 and 16 on the account paths
    checker: Any  # another organiser, who entered nothing
    clients: dict[str, Any] = field(default_factory=dict)

    def url(self, name: str = "sheet-entry") -> str:
        table = self.sheet.table
        return reverse(name, args=[table.round.competition.slug, table.round.number, table.number])


@pytest.fixture
def world() -> World:
    competition = seated_competition(players=4)
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    filler, enterer, checker = UserFactory(), UserFactory(), UserFactory()
    competition.organisers.add(filler, enterer, checker)
    for deal in range(1, 15):
        record_deal(sheet, line(deal), by=filler, entered_in=KNOWN + digest("the filler's laptop"))
    return World(sheet, filler, enterer, checker)


def browser_with_code(world: World, token: str | None = None) -> Client:
    """A phone at the table that opened the sheet with its code (``token``: the device it is, if known)."""
    client = Client()
    if token is not None:
        client.cookies[COOKIE] = token
    assert client.get(world.url(), {"code": world.sheet.captain_code}).status_code == 302
    return client


def code_api(world: World, token: str | None) -> APIClient:
    client = APIClient()
    device = {"HTTP_X_DEVICE": token} if token else {}
    client.credentials(HTTP_X_TABLE_CODE=world.sheet.captain_code, **device)
    return client


# -- the ways deals 15 and 16 get entered; each returns the enterer's device token, if it has one ------------------


def page_with_code(world: World) -> str | None:
    client = browser_with_code(world)
    for deal in (15, 16):
        assert client.post(world.url(), {**line(deal), "version": 0}).status_code == 302
    return client.cookies[COOKIE].value


def page_signed_in(world: World) -> str | None:
    client = Client()
    client.force_login(world.enterer)
    for deal in (15, 16):
        assert client.post(world.url(), {**line(deal), "version": 0}).status_code == 302
    return client.cookies[COOKIE].value


def _api_lines(world: World, token: str | None, *, account: bool = False) -> None:
    for deal in (15, 16):
        client = code_api(world, token)  # a new client each line: nothing kept between them but ``token``
        if account:
            client = APIClient()
            client.force_authenticate(world.enterer)
        response = client.post(f"{API}/sheets/{world.sheet.pk}/lines/", line(deal), format="json")
        assert response.status_code == 201, response.content
        assert response[HEADER]  # the device token comes with the answer, for next time


def api_with_code_and_device(world: World) -> str | None:
    token = browser_with_code(world).cookies[COOKIE].value  # the same phone's token, sent as X-Device
    _api_lines(world, token)
    return token


def api_with_code_no_device(world: World) -> str | None:
    _api_lines(world, None)  # a fresh client each line, sending back no token: the finding
    return None


def api_signed_in(world: World) -> str | None:
    _api_lines(world, None, account=True)
    return None


def _import(world: World, token: str | None) -> None:
    client = code_api(world, token)
    response = client.post(f"{API}/sheets/{world.sheet.pk}/import/", {"lines": [line(15), line(16)]}, format="json")
    assert response.status_code == 201, response.content


def import_with_code_and_device(world: World) -> str | None:
    token = browser_with_code(world).cookies[COOKIE].value
    _import(world, token)
    return token


def import_with_code_no_device(world: World) -> str | None:
    _import(world, None)
    return None


ENTRY_PATHS: dict[str, Callable[[World], str | None]] = {
    "page-with-code": page_with_code,
    "page-signed-in": page_signed_in,
    "api-with-code-and-device": api_with_code_and_device,
    "api-with-code-without-device": api_with_code_no_device,
    "api-signed-in": api_signed_in,
    "import-with-code-and-device": import_with_code_and_device,
    "import-with-code-without-device": import_with_code_no_device,
}
SIGNED_IN = {"page-signed-in", "api-signed-in"}
KNOWN_DEVICE = {"page-with-code", "page-signed-in", "api-with-code-and-device", "import-with-code-and-device"}


# -- the ways to confirm -------------------------------------------------------------------------------------------


def _confirmed(world: World, client: Client) -> bool:
    client.post(world.url("sheet-confirm"))
    world.sheet.refresh_from_db()
    return world.sheet.state == ScoreSheet.State.CONFIRMED


def same_device_with_code(world: World, token: str | None) -> bool:
    """The enterer's device again (with no token kept, any phone may be it: a fresh one)."""
    return _confirmed(world, browser_with_code(world, token))


def another_device_with_code(world: World, token: str | None) -> bool:
    return _confirmed(world, browser_with_code(world))


def same_account(world: World, token: str | None) -> bool:
    client = Client()
    client.force_login(world.enterer)
    return _confirmed(world, client)


def another_account(world: World, token: str | None) -> bool:
    client = Client()
    client.force_login(world.checker)
    return _confirmed(world, client)


CONFIRM_PATHS: dict[str, Callable[[World, str | None], bool]] = {
    "same-device-with-code": same_device_with_code,
    "another-device-with-code": another_device_with_code,
    "same-account-signed-in": same_account,
    "another-account-signed-in": another_account,
}


def expected(entry: str, confirm: str) -> bool:
    if confirm == "another-account-signed-in":
        return True  # a second pair of eyes that entered nothing
    if confirm == "same-account-signed-in":
        return entry not in SIGNED_IN  # that account entered nothing on the code paths
    if confirm == "same-device-with-code":
        return False
    # another device with the code: only if every line came from a known device (an account's included)
    return entry in KNOWN_DEVICE


@pytest.mark.parametrize("confirm", CONFIRM_PATHS)
@pytest.mark.parametrize("entry", ENTRY_PATHS)
def test_only_someone_who_entered_none_of_the_current_lines_confirms(world: World, entry: str, confirm: str) -> None:
    token = ENTRY_PATHS[entry](world)
    world.sheet.refresh_from_db()
    assert world.sheet.state == ScoreSheet.State.ENTERED
    assert CONFIRM_PATHS[confirm](world, token) is expected(entry, confirm)


def test_every_line_records_its_device_on_every_path(world: World) -> None:
    for entry in ENTRY_PATHS:
        assert entry in KNOWN_DEVICE | SIGNED_IN | {"api-with-code-without-device", "import-with-code-without-device"}
    token = page_with_code(world)
    assert token is not None
    marks = set(DealEntry.objects.filter(sheet=world.sheet, deal_number__gte=15).values_list("entered_in", flat=True))
    assert len(marks) == 1 and next(iter(marks)).startswith(KNOWN)


def test_an_api_client_that_sends_its_token_back_makes_its_first_line_its_own(world: World) -> None:
    """The first line comes before the token (a one-off mark); sending the token with the next makes both known."""
    client = code_api(world, None)
    first = client.post(f"{API}/sheets/{world.sheet.pk}/lines/", line(15), format="json")
    assert DealEntry.objects.get(sheet=world.sheet, deal_number=15).entered_in.startswith(ONE_OFF)
    client = code_api(world, first[HEADER])
    client.post(f"{API}/sheets/{world.sheet.pk}/lines/", line(16), format="json")
    marks = set(DealEntry.objects.filter(sheet=world.sheet, deal_number__gte=15).values_list("entered_in", flat=True))
    assert len(marks) == 1 and next(iter(marks)).startswith(KNOWN)
    assert not _confirmed(world, browser_with_code(world, first[HEADER]))  # not the phone that entered…
    assert _confirmed(world, browser_with_code(world))  # …an opponent's


def test_the_service_refuses_the_enterers_device_whatever_the_caller(world: World) -> None:
    token = api_with_code_and_device(world)
    assert token is not None
    device = browser_with_code(world, token)
    mark = DealEntry.objects.get(sheet=world.sheet, deal_number=16).entered_in
    with pytest.raises(ServiceError, match="you entered lines"):
        confirm_sheet(world.sheet, by=None, entered_in=mark)
    with pytest.raises(ServiceError, match="you entered lines"):  # signed in, on the device that entered
        confirm_sheet(world.sheet, by=world.checker, entered_in=mark)
    assert "confirm-sheet" not in device.get(world.url()).content.decode()  # the page offers no button either


def test_a_sheet_of_lines_from_unidentified_devices_tells_the_code_holder_why(world: World) -> None:
    api_with_code_no_device(world)
    shown = browser_with_code(world).get(world.url()).content.decode()
    assert "confirm-sheet" not in shown and "did not identify itself" in shown


def _route_names() -> set[str]:
    return {pattern.name for _, _, pattern in walk(get_resolver().url_patterns) if pattern.name}


def test_the_page_is_the_only_route_that_confirms_a_sheet() -> None:
    """No API endpoint confirms (the service's rule would hold there too): a new one must join CONFIRM_PATHS."""
    assert {name for name in _route_names() if "confirm" in name.lower()} == {"sheet-confirm"}
