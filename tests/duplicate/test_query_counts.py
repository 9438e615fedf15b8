"""A duplicate round's hot paths read the movement once, in a fixed number of queries however many tables play:
the comparison (``played_boards``) orders the boards from the tables and boards it has already read, and a line
previewed or saved at one table counts the round's tables and boards (one query) instead of reading every table's
order."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import UserFactory, seated_competition
from tournaments.duplicate.movement import board_at, board_for_deal, board_orders, movement_of, orders_for
from tournaments.duplicate.results import played_boards
from tournaments.models import Board, Round, ScoreSheet, Table
from tournaments.services.entry import record_deal
from tournaments.services.errors import EntryRejected
from tournaments.services.preview import preview_deal

pytestmark = pytest.mark.django_db

TABLES = [3, 6]  # tables of four
MOVEMENTS = ["all_at_once", "relay"]
PASS_1 = {"deal": 1, "dealer": 0, "contract": "pass"}
PASS_2 = {"deal": 2, "dealer": 1, "contract": "pass"}

# played_boards: the tables, the boards' dealers, the seats, the current lines
PLAYED_BOARDS_QUERIES = 4
# preview: the sheet's current lines; which board the table plays (one count); that board
PREVIEW_QUERIES = 3
# record_deal: savepoint, the locked sheet, its lines, which board, the board, the line, its audit row,
# the seat results (one query), the competition's version, release
RECORD_QUERIES = 10


def duplicate_round(tables: int, movement: str) -> Round:
    competition = seated_competition(players=4 * tables, duplicate=True, movement=movement, deals_per_session=16)
    round_ = Round.objects.get(competition=competition)
    assert Table.objects.filter(round=round_).count() == tables
    return round_


def sheet_of(round_: Round, number: int) -> ScoreSheet:
    """A sheet as the entry page holds it: its table, round, competition and rule set read with it."""
    return ScoreSheet.objects.select_related("table__round__competition__rule_set").get(
        table__round=round_, table__number=number
    )


@pytest.mark.parametrize("movement", MOVEMENTS)
@pytest.mark.parametrize("tables", TABLES)
def test_the_comparison_reads_a_round_in_the_same_queries_however_many_tables(
    django_assert_num_queries: Any, tables: int, movement: str
) -> None:
    round_ = duplicate_round(tables, movement)
    for sheet in ScoreSheet.objects.filter(table__round=round_):
        record_deal(sheet, PASS_1)
    round_ = Round.objects.select_related("competition").get(pk=round_.pk)

    with django_assert_num_queries(PLAYED_BOARDS_QUERIES):
        boards = played_boards(round_)

    assert sum(len(played) for played in boards.values()) == tables  # every table's line, each on its board
    orders = board_orders(round_)
    assert {(p.table_number, p.board) for ps in boards.values() for p in ps} == {(n, o[0]) for n, o in orders.items()}


@pytest.mark.parametrize("movement", MOVEMENTS)
@pytest.mark.parametrize("tables", TABLES)
def test_previewing_a_line_takes_the_same_queries_however_many_tables(
    django_assert_num_queries: Any, tables: int, movement: str
) -> None:
    round_ = duplicate_round(tables, movement)
    sheet = sheet_of(round_, 2)
    record_deal(sheet, PASS_1)

    with django_assert_num_queries(PREVIEW_QUERIES):
        preview = preview_deal(sheet, PASS_2)
    assert preview.valid

    with django_assert_num_queries(PREVIEW_QUERIES - 2):  # a deal not reached yet: no board is read
        refused = preview_deal(sheet, {**PASS_2, "deal": 17})
    assert [error.code for error in refused.errors] == ["deal_out_of_sequence"]

    Board.objects.filter(round=round_).delete()
    with django_assert_num_queries(PREVIEW_QUERIES - 1):  # the round has no board for the next deal: none to read
        refused = preview_deal(sheet, PASS_2)
    assert [error.code for error in refused.errors] == ["no_board"]


@pytest.mark.parametrize("movement", MOVEMENTS)
@pytest.mark.parametrize("tables", TABLES)
def test_saving_a_line_takes_the_same_queries_however_many_tables(
    django_assert_num_queries: Any, tables: int, movement: str
) -> None:
    round_ = duplicate_round(tables, movement)
    sheet = sheet_of(round_, tables)  # the last table: the relay's order there is not the first table's
    record_deal(sheet, PASS_1)

    with django_assert_num_queries(RECORD_QUERIES):
        record_deal(sheet, PASS_2)

    assert sheet.entries.filter(is_current=True).count() == 2


def test_the_entry_page_preview_takes_the_same_queries_for_three_tables_as_for_six(client: Client) -> None:
    client.force_login(UserFactory(is_staff=True, is_superuser=True))  # the organiser, who runs both
    counts = []
    for tables in TABLES:
        round_ = duplicate_round(tables, "relay")
        sheet = sheet_of(round_, 2)
        record_deal(sheet, PASS_1)
        address = reverse("sheet-entry-preview", args=[round_.competition.slug, round_.number, 2])
        with CaptureQueriesContext(connection) as queries:
            response = client.post(address, {"deal": 2, "dealer": 1, "contract": "pass", "version": 0})
        assert response.status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


# -- the one-table answer is the whole round's ------------------------------------------------------------------


@pytest.mark.parametrize("movement", MOVEMENTS)
def test_one_table_s_board_is_the_one_the_round_s_orders_give_it(django_assert_num_queries: Any, movement: str) -> None:
    round_ = Round.objects.select_related("competition").get(pk=duplicate_round(3, movement).pk)
    orders = board_orders(round_)
    for number, order in orders.items():
        for deal in range(0, 18):
            with django_assert_num_queries(1):
                board = board_for_deal(round_, number, deal)
            assert board == (order[deal - 1] if 1 <= deal <= len(order) else None)
    assert board_for_deal(round_, 99, 1) is None  # a table the round does not have plays no board


def test_boards_no_relay_divides_are_played_in_order_at_every_table_by_the_pure_helpers_too() -> None:
    round_ = duplicate_round(3, "relay")
    Board.objects.filter(round=round_, number=16).delete()  # 15 boards: no groups of four

    assert board_orders(round_) == {n: list(range(1, 16)) for n in (1, 2, 3)}
    assert orders_for(movement_of(round_), [3, 1, 2], 15) == board_orders(round_)
    assert board_for_deal(round_, 3, 15) == 15 and board_for_deal(round_, 3, 16) is None
    assert board_at(movement_of(round_), 15, 3, 2, 1) == 1


def test_a_line_off_its_board_is_refused_with_the_same_words_at_any_table_count() -> None:
    round_ = duplicate_round(6, "all_at_once")
    Board.objects.filter(round=round_, number=1).delete()
    with pytest.raises(EntryRejected) as exc:
        record_deal(sheet_of(round_, 6), PASS_1)
    (error,) = exc.value.errors
    assert (error.code, error.field) == ("no_board", "deal")
    assert error.message == "round 1 has no board for deal 1: a duplicate deal is played from its board"
