"""Issue 18, the server's side of offline entry: the address a kept deal is sent to (``…/entry/queued/``), the
service worker's script, and what the page tells its offline scripts.

The queue sends the form's fields as the page posted them; the answer is JSON the page reads: saved (with the
server's points to compare with those settled offline), a conflict with the server's line, or the reasons of a
refusal in the table's words (seats numbered from 1, no codes).
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import seated_competition
from tournaments.models import DealEntry, ScoreSheet
from tournaments.services.entry import record_deal

pytestmark = pytest.mark.django_db

ALLEEN = {"deal": "1", "dealer": "0", "contract": "alleen", "seats": "3", "tricks": "6"}


@pytest.fixture
def sheet() -> ScoreSheet:
    competition = seated_competition(players=4)
    return ScoreSheet.objects.get(table__round__competition=competition, table__number=1)


def url(sheet: ScoreSheet, name: str) -> str:
    table = sheet.table
    return reverse(name, args=[table.round.competition.slug, table.round.number, table.number])


@pytest.fixture
def table(sheet: ScoreSheet) -> Client:
    client = Client()
    client.get(url(sheet, "sheet-entry"), {"code": sheet.captain_code})
    return client


def send(client: Client, sheet: ScoreSheet, fields: dict[str, str], **more: str) -> Any:
    data = {"version": "0", "idempotency_key": uuid.uuid4().hex, **fields, **more}
    return client.post(url(sheet, "sheet-entry-queued"), data)


def test_a_kept_deal_is_stored_once_however_often_it_is_sent(sheet: ScoreSheet, table: Client) -> None:
    key = uuid.uuid4().hex
    first = send(table, sheet, ALLEEN, idempotency_key=key)
    again = send(table, sheet, ALLEEN, idempotency_key=key)  # its answer was lost: the page sends it again
    assert first.status_code == again.status_code == 200
    assert first.json()["state"] == "saved" and first.json()["replayed"] is False
    assert again.json()["replayed"] is True
    entry = DealEntry.objects.get(sheet=sheet)
    assert first.json()["points"] == list(entry.points) == again.json()["points"]
    assert first.json()["points_text"].startswith("1 ")  # seats as on the card


def test_a_deal_saved_by_someone_else_meanwhile_is_a_conflict_with_their_line(sheet: ScoreSheet, table: Client) -> None:
    theirs = record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [0, 2], "tricks": 9})
    response = send(table, sheet, ALLEEN)  # typed offline as deal 1 (version 0: a new deal)
    assert response.status_code == 409
    body = response.json()
    assert body["state"] == "conflict"
    assert body["theirs"]["version"] == theirs.entry.version and body["theirs"]["deal"] == 1
    assert body["theirs"]["fields"]["seats"] == "13"  # the form's own fields, to correct from
    assert body["theirs"]["words"] and "vraag" not in body["theirs"]["words"].split()  # players' words, no codes
    assert DealEntry.objects.filter(sheet=sheet).count() == 1  # nothing of ours stored


def test_a_refused_deal_says_why_beside_the_fields_label_in_the_tables_words(sheet: ScoreSheet, table: Client) -> None:
    response = send(table, sheet, {**ALLEEN, "tricks": "14"})
    assert response.status_code == 422
    errors = response.json()["errors"]
    assert [e["field"] for e in errors] == ["tricks"] and errors[0]["label"] == "Tricks"
    assert "[" not in errors[0]["message"] and "_" not in errors[0]["message"]  # no lists, no codes
    assert not DealEntry.objects.filter(sheet=sheet).exists()


@pytest.mark.parametrize("who", ["stranger", "wrong-code"])
def test_without_the_tables_code_nothing_is_stored(sheet: ScoreSheet, who: str) -> None:
    client = Client()
    if who == "wrong-code":
        client.get(url(sheet, "sheet-entry"), {"code": "0000-0000-0000-0000"})
    response = send(client, sheet, ALLEEN)
    assert response.status_code == 401 and response.json()["state"] == "signed_out"
    assert not DealEntry.objects.filter(sheet=sheet).exists()


def test_the_worker_may_control_the_competitions_pages_and_is_checked_on_every_visit() -> None:
    response = Client().get(reverse("offline-worker"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/c/"
    assert response["Cache-Control"] == "no-cache"
    head = response.content.decode().split("\n", 1)[0]
    settings = json.loads(head.removeprefix("const WORKER = ").removesuffix(";"))
    assert "/static/pyodide/pyodide.asm.wasm" in settings["keep"] and reverse("offline-engine") in settings["keep"]
    assert len(settings["version"]) == 16


def test_the_page_gives_its_offline_scripts_the_stored_lines_and_each_deals_fields(
    sheet: ScoreSheet, table: Client
) -> None:
    line = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6}
    record_deal(sheet, line)
    page = table.get(url(sheet, "sheet-entry")).content.decode()
    spec = json.loads(page.split('<script id="engine-spec" type="application/json">', 1)[1].split("</script>", 1)[0])
    assert spec["lines"] == [line]
    assert spec["stored"]["1"] == {
        "version": 1,
        "fields": {"deal": "1", "dealer": "0", "contract": "alleen", "seats": "3", "tricks": "6"},
    }
    assert spec["sync"] == url(sheet, "sheet-entry-queued") and spec["players"] == 4
    words = json.loads(page.split('<script id="offline-words" type="application/json">', 1)[1].split("</script>")[0])
    assert (
        words["offline_kept"]["other"] == "Offline: %(n)s deals kept on this device, sent when the connection returns."
    )
