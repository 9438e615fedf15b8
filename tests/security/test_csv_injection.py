"""Issue 14, class 8: CSV formula injection.

A display name ``=HYPERLINK("http://evil.example","Marie")`` and a line note ``=cmd|' /C calc'!A0`` came out of
the standings and sheet CSV exports unchanged, for a spreadsheet to run. Every CSV export (enumerated from the
API schema: every operation answering ``text/csv``) x every dangerous first character: no cell starts with one
(a ``'`` goes in front), numbers stay numbers (-12 is still -12), and what an export wrote imports back as it
was typed. Every CSV writer in the code is ``tournaments.csv_cells.write_csv`` (a source check), so a new export
cannot forget it.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.test import APIClient

from scoring.services import recompute_standings
from tests.factories import UserFactory, seated_competition
from tests.security.api_schema import Operation, csv_exports
from tournaments.csv_cells import DANGEROUS, neutralise, restore, write_csv
from tournaments.models import Competition, DealEntry, Player, ScoreSheet
from tournaments.services.competitions import import_players_csv
from tournaments.services.entry import record_deal

PREFIXES = {"equals": "=", "plus": "+", "minus": "-", "at": "@", "tab": "\t", "carriage-return": "\r"}
NAME = 'HYPERLINK("http://evil.example","Marie")'
NOTE = "cmd|' /C calc'!A0"
EXPORTS = csv_exports()
# A line the declarers lose: negative points in the sheet and, with nothing else played, in the standings.
LOST = {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [0, 1], "tricks": 3}
NUMBERS = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?(?: [+-]?[0-9]+(?:\.[0-9]+)?)*")


def test_the_api_has_csv_exports_to_check() -> None:
    """The enumeration finds the two known exports (and any new one)."""
    assert {str(op) for op in EXPORTS} >= {
        "GET /api/v1/competitions/{id}/standings/",
        "GET /api/v1/sheets/{id}/export/",
    }


def _world(prefix: str) -> tuple[Competition, ScoreSheet]:
    """A public competition of 8 (two tables): a player named ``prefix + NAME``, a line noted ``prefix + NOTE``."""
    competition = seated_competition(players=8)
    sheet = ScoreSheet.objects.filter(table__round__competition=competition).order_by("table__number").first()
    assert sheet is not None
    entry = record_deal(sheet, LOST, source=DealEntry.Source.API).entry
    # stored as it is, whichever path let it in (an older row, an import): the export alone must be safe
    DealEntry.objects.filter(pk=entry.pk).update(line={**entry.line, "note": prefix + NOTE})
    first_seat = sheet.table.seats.get(position=0)
    Player.objects.filter(pk=first_seat.player_id).update(display_name=prefix + NAME)
    recompute_standings(competition.pk, claim=False)
    return competition, sheet


def _url(op: Operation, competition: Competition, sheet: ScoreSheet) -> str:
    objects = {"competitions": competition.pk, "sheets": sheet.pk, "rounds": sheet.table.round_id}
    assert op.resource in objects, f"{op}: say which object of the world this export is about"
    return op.url(id=objects[op.resource]) + "?fmt=csv"


def _cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


@pytest.mark.django_db
@pytest.mark.parametrize("prefix", PREFIXES.values(), ids=PREFIXES.keys())
@pytest.mark.parametrize("op", EXPORTS, ids=str)
def test_an_export_neutralises_every_cell_a_spreadsheet_would_run(op: Operation, prefix: str) -> None:
    competition, sheet = _world(prefix)
    organiser = UserFactory(username="organiser", is_superuser=True, is_staff=True)
    client = APIClient()
    client.force_authenticate(organiser)

    response = client.get(_url(op, competition, sheet))

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    _header, *rows = _cells(response.content.decode())
    cells = [cell for row in rows for cell in row]
    runnable = [cell for cell in cells if cell.startswith(DANGEROUS) and not NUMBERS.fullmatch(cell)]
    assert runnable == []
    assert {"'" + prefix + NAME, "'" + prefix + NOTE} & set(cells), "the hostile text is exported, neutralised"
    # numbers stay numbers: a lost deal's negative points are written as they are
    assert any(cell.startswith("-") and NUMBERS.fullmatch(cell) for cell in cells)
    assert not [cell for cell in cells if cell.startswith("'") and NUMBERS.fullmatch(cell[1:])]


@pytest.mark.django_db
@pytest.mark.parametrize("prefix", PREFIXES.values(), ids=PREFIXES.keys())
def test_an_exported_sheet_imports_back_with_its_note_as_typed(prefix: str) -> None:
    competition, sheet = _world(prefix)
    other = ScoreSheet.objects.filter(table__round__competition=competition).exclude(pk=sheet.pk).get()
    organiser = UserFactory(username="organiser", is_superuser=True, is_staff=True)
    client = APIClient()
    client.force_authenticate(organiser)
    exported = client.get(f"/api/v1/sheets/{sheet.pk}/export/?fmt=csv").content.decode()

    response = client.post(f"/api/v1/sheets/{other.pk}/import/", exported, content_type="text/csv")

    assert response.status_code == 201, response.content
    assert other.entries.get(deal_number=1, is_current=True).line["note"] == prefix + NOTE


@pytest.mark.django_db
@pytest.mark.parametrize("prefix", ["=", "+", "-", "@"], ids=["equals", "plus", "minus", "at"])
def test_a_players_list_written_like_an_export_imports_the_names_as_typed(prefix: str) -> None:
    competition = seated_competition(players=4, rounds=0)
    names = [{"first_name": prefix + NAME, "last_name": prefix + "Peeters"}]
    text = write_csv(["first_name", "last_name"], names)
    assert _cells(text)[1] == ["'" + prefix + NAME, "'" + prefix + "Peeters"]

    import_players_csv(competition, text)

    assert Player.objects.filter(first_name=prefix + NAME, last_name=prefix + "Peeters").exists()


@given(st.text(max_size=30))
def test_restore_undoes_neutralise_for_any_text(text: str) -> None:
    assert restore(str(neutralise(text))) == text


@given(st.text(max_size=30))
def test_a_neutralised_text_never_starts_like_a_formula(text: str) -> None:
    cell = str(neutralise(text))
    assert not cell.startswith(DANGEROUS) or NUMBERS.fullmatch(cell)


@pytest.mark.parametrize("number", [-12, 0, 7, -3.5, "-12", "+4", "-10 10 0 0"])
def test_numbers_are_written_as_they_are(number: Any) -> None:
    assert neutralise(number) == number


def test_every_csv_writer_is_the_one_that_neutralises() -> None:
    """``csv.writer``/``DictWriter`` and ``text/csv`` answers appear only in the helpers that neutralise cells."""
    allowed = {Path("tournaments/csv_cells.py"), Path("tournaments/api/errors.py")}  # writer; csv_response
    base = Path(settings.BASE_DIR)
    found = []
    for package in ("tournaments", "scoring", "config", "games"):
        for path in (base / package).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if re.search(r"csv\.(writer|DictWriter)\(|content_type\s*=\s*[\"']text/csv", text):
                found.append(path.relative_to(base))
    assert sorted(set(found) - allowed) == []
