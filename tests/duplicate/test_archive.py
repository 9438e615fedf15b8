"""A duplicate competition's archive keeps its boards: exported with every round, imported before the round's
lines (which are checked against them), refused in words when a board is missing or is no deal."""

from __future__ import annotations

import copy

import pytest

from tests.factories import ClubFactory, seated_competition
from tournaments.models import Board, Round, Table
from tournaments.services.entry import record_deal
from tournaments.services.transfer import ImportRejected, export_competition, import_competition

pytestmark = pytest.mark.django_db


def _played_duplicate() -> tuple[Round, dict[str, object]]:
    competition = seated_competition(players=8, duplicate=True, deals_per_session=16)
    round_ = Round.objects.get(competition=competition)
    for table in Table.objects.filter(round=round_):
        record_deal(table.sheet, {"deal": 1, "dealer": 0, "contract": "pass"})
        record_deal(table.sheet, {"deal": 2, "dealer": 1, "contract": "vraag", "declarers": [1, 3], "tricks": 9})
    return round_, export_competition(competition)


def test_an_archive_of_a_duplicate_competition_imports_with_the_same_boards_and_lines() -> None:
    round_, archive = _played_duplicate()

    copy_ = import_competition(archive, club=ClubFactory(), slug="dup-copy")

    assert copy_.duplicate
    imported = Round.objects.get(competition=copy_)
    stored = list(Board.objects.filter(round=round_).values_list("number", "dealer", "deal", "turned", "seed"))
    assert list(Board.objects.filter(round=imported).values_list("number", "dealer", "deal", "turned", "seed")) == (
        stored
    )
    assert len(stored) == 16
    for table in Table.objects.filter(round=imported):
        assert table.sheet.entries.filter(is_current=True).count() == 2


def test_a_duplicate_round_without_its_boards_is_refused_and_nothing_is_stored() -> None:
    _, archive = _played_duplicate()
    broken = copy.deepcopy(archive)
    del broken["rounds"][0]["boards"][5:]  # type: ignore[index]

    with pytest.raises(ImportRejected, match=r"rounds\[0\]\.boards: a duplicate round has boards 1 to 16"):
        import_competition(broken, club=ClubFactory(), slug="dup-broken")
    assert not Round.objects.filter(competition__slug="dup-broken").exists()


def test_a_board_that_is_no_deal_is_refused_with_its_place_in_the_archive() -> None:
    _, archive = _played_duplicate()
    broken = copy.deepcopy(archive)
    board = broken["rounds"][0]["boards"][3]  # type: ignore[index]
    board["deal"] = "N" * 14 + board["deal"][14:]  # North holds more than thirteen cards

    with pytest.raises(ImportRejected, match=r"rounds\[0\]\.boards\[3\]"):
        import_competition(broken, club=ClubFactory(), slug="dup-broken")
