"""Issue 14, class 3: adding a line never overwrites a deal that is already on the sheet.

Three POSTs of the same next deal (with the table code, no ``Idempotency-Key``) all answered 201 and stored
versions 1-3. Now every path that adds lines (the API's POST, the entry page's form, the sheet import as JSON and
as CSV) refuses a deal that is already there, with the current line, and stores nothing; so do N racing POSTs
(exactly one 201). Corrections name the version they replace (PUT, or the page opened on that version).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test import Client
from django.urls import get_resolver, reverse
from rest_framework.test import APIClient

from tests.factories import seated_competition
from tests.urlconf import walk
from tournaments.api.views_results import ScoreSheetViewSet
from tournaments.models import DealEntry, ScoreSheet
from tournaments.services.entry import record_deal
from tournaments.services.errors import StaleVersion
from tournaments.services.transfer import sheet_csv

API = "/api/v1"
ON_POSTGRESQL = django_settings.DATABASES["default"]["ENGINE"].endswith("postgresql")

DEAL_1 = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6}
OTHER_DEAL_1 = {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [1, 3], "tricks": 10}


def versions(sheet: ScoreSheet) -> list[tuple[int, int, bool, Any]]:
    return list(
        DealEntry.objects.filter(sheet=sheet)
        .order_by("deal_number", "version")
        .values_list("deal_number", "version", "is_current", "line")
    )


def entry_url(sheet: ScoreSheet) -> str:
    table = sheet.table
    return reverse("sheet-entry", args=[table.round.competition.slug, table.round.number, table.number])


def captain_api(sheet: ScoreSheet) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_X_TABLE_CODE=sheet.captain_code)
    return client


def captain_page(sheet: ScoreSheet) -> Client:
    client = Client()
    assert client.get(entry_url(sheet), {"code": sheet.captain_code}).status_code == 302
    return client


@dataclass(frozen=True)
class Refusal:
    refused: bool
    shows: Any  # what the refusal shows of the deal's current line (its version, its contract)


def _api_post(sheet: ScoreSheet, line: dict[str, Any]) -> Refusal:
    response = captain_api(sheet).post(f"{API}/sheets/{sheet.pk}/lines/", line, format="json")
    body = response.json()
    return Refusal(response.status_code == 409, (body.get("version"), body.get("line")))


def _page_post(version: int | None) -> Callable[[ScoreSheet, dict[str, Any]], Refusal]:
    def post(sheet: ScoreSheet, line: dict[str, Any]) -> Refusal:
        data = {**line, "idempotency_key": ""} | ({} if version is None else {"version": version})
        response = captain_page(sheet).post(entry_url(sheet), data)
        text = response.content.decode()
        return Refusal(response.status_code == 200 and "Someone else saved deal 1" in text, "version 1" in text)

    return post


def _import_json(sheet: ScoreSheet, line: dict[str, Any]) -> Refusal:
    response = captain_api(sheet).post(f"{API}/sheets/{sheet.pk}/import/", {"lines": [line]}, format="json")
    return Refusal(response.status_code == 400, True)


def _import_csv(sheet: ScoreSheet, line: dict[str, Any]) -> Refusal:
    text = sheet_csv(sheet)  # the sheet's own export: its deal 1 again
    response = captain_api(sheet).post(f"{API}/sheets/{sheet.pk}/import/", data=text.encode(), content_type="text/csv")
    return Refusal(response.status_code == 400, True)


# Every path that adds lines to a sheet. ``True`` in the second place: it shows the current line when it refuses.
WRITERS: dict[str, Callable[[ScoreSheet, dict[str, Any]], Refusal]] = {
    "api-post-lines": _api_post,
    "page-post-without-version": _page_post(None),
    "page-post-as-a-new-deal": _page_post(0),
    "api-import-json": _import_json,
    "api-import-csv": _import_csv,
}
# The ScoreSheetViewSet actions that write lines, and the writer (or the reason) that covers each.
SHEET_WRITE_ACTIONS = {
    "add_line": "api-post-lines",
    "import_": "api-import-json",
    "correct_line": "a PUT names the version it corrects: tests/api/test_lines_api.py",
}
SITUATIONS = {"the-same-line-again": DEAL_1, "another-line-for-the-same-deal": OTHER_DEAL_1}


@pytest.fixture
def sheet() -> ScoreSheet:
    competition = seated_competition(players=4)
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    record_deal(sheet, DEAL_1)  # deal 1 is on the sheet, version 1
    return sheet


@pytest.mark.django_db
@pytest.mark.parametrize("situation", SITUATIONS)
@pytest.mark.parametrize("writer", WRITERS)
def test_adding_a_deal_that_is_already_on_the_sheet_is_refused_and_changes_nothing(
    sheet: ScoreSheet, writer: str, situation: str
) -> None:
    before = versions(sheet)
    refusal = WRITERS[writer](sheet, SITUATIONS[situation])
    assert refusal.refused
    assert refusal.shows == (1, DEAL_1) or refusal.shows is True
    assert versions(sheet) == before


@pytest.mark.django_db
def test_three_posts_of_the_same_next_deal_store_one_version(sheet: ScoreSheet) -> None:
    """The finding: three POSTs of deal 2 answered 201, 201, 201 and stored versions 1 to 3."""
    deal_2 = {"deal": 2, "dealer": 1, "contract": "pass"}
    client = captain_api(sheet)
    answers = [client.post(f"{API}/sheets/{sheet.pk}/lines/", deal_2, format="json") for _ in range(3)]
    assert [a.status_code for a in answers] == [201, 409, 409]
    assert answers[1].json()["version"] == 1 and answers[1].json()["line"] == deal_2
    assert DealEntry.objects.filter(sheet=sheet, deal_number=2).count() == 1


@pytest.mark.django_db
def test_the_service_refuses_a_line_for_an_existing_deal_without_the_version_it_corrects(sheet: ScoreSheet) -> None:
    with pytest.raises(StaleVersion) as stale:
        record_deal(sheet, OTHER_DEAL_1)
    assert stale.value.current.version == 1 and "already on this sheet" in str(stale.value)
    corrected = record_deal(sheet, OTHER_DEAL_1, expected_version=1).entry  # naming the version corrects it
    assert corrected.version == 2 and corrected.line == OTHER_DEAL_1


def _sheet_write_actions() -> set[str]:
    actions: set[str] = set()
    for _, _, pattern in walk(get_resolver().url_patterns):
        callback: Any = pattern.callback
        if getattr(callback, "cls", None) is ScoreSheetViewSet:
            mapped = getattr(callback, "actions", {}) or {}
            actions.update(name for method, name in mapped.items() if method in ("post", "put", "patch"))
    return actions


def test_every_sheet_write_action_of_the_api_is_covered_here() -> None:
    """A new endpoint that writes a sheet's lines must be added to WRITERS (or say why it cannot overwrite)."""
    assert _sheet_write_actions() == set(SHEET_WRITE_ACTIONS)
    assert {"add_line", "import_"} <= set(SHEET_WRITE_ACTIONS)
    assert all(v in WRITERS or "version" in v for v in SHEET_WRITE_ACTIONS.values())


@pytest.mark.skipif(not ON_POSTGRESQL, reason="racing transactions need PostgreSQL (CI runs on it)")
@pytest.mark.django_db(transaction=True)
def test_racing_posts_of_the_same_deal_store_exactly_one() -> None:
    competition = seated_competition(players=4)
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    racers = 6
    start = threading.Barrier(racers)
    answers: list[int] = []
    lock = threading.Lock()

    def post(n: int) -> None:
        try:
            client = captain_api(sheet)
            start.wait()
            line = DEAL_1 if n % 2 else OTHER_DEAL_1
            status = client.post(f"{API}/sheets/{sheet.pk}/lines/", line, format="json").status_code
            with lock:
                answers.append(status)
        finally:
            connection.close()  # each thread has its own connection

    threads = [threading.Thread(target=post, args=(n,)) for n in range(racers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [201] + [409] * (racers - 1)
    assert DealEntry.objects.filter(sheet=sheet).count() == 1
