"""Which board each table of a duplicate round plays as each deal, by the competition's movement.

The engine decides (``games.duplicate.movement``); this module knows the round: its boards, its tables in table
number order (the first table is the movement's table 0, so a relay hands the boards from table 1 to table 2, and
from the last table back to table 1). Entry checks, comparison, the board pages and the table card all ask here,
so a line on deal *k* is judged, compared and printed as the same board everywhere. A caller that has already read
the round's tables and boards asks the pure ``orders_for`` / ``hand_overs_for`` with them rather than have them read
again; the entry check asks ``board_for_deal``, which counts (one query) rather than reads every table.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Count, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce

from games.duplicate.movement import Movement, board_order, groups, relay_fits, sets_needed
from games.errors import GameError
from tournaments.models import Board, Round, Table


def movement_of(round_: Round) -> Movement:
    return Movement(round_.competition.movement)


def _boards(round_: Round) -> int:
    return Board.objects.filter(round=round_).count()


def _count(rows: QuerySet[Any]) -> Coalesce:
    """``COUNT(*)`` of ``rows`` (filtered on the outer round) as a subquery: 0 when there are none."""
    counted = rows.order_by().values("round").annotate(count=Count("pk")).values("count")
    return Coalesce(Subquery(counted), 0)


def order_at(movement: Movement, boards: int, tables: int, index: int) -> list[int]:
    """The board numbers the ``index``-th table (0-based, by table number) of ``tables`` plays, deal by deal
    (empty when the round has no boards)."""
    if not boards or not tables:
        return []
    try:
        return board_order(movement, boards, tables, index)
    except GameError:  # boards that no relay divides (a PBN file of another count): every table plays them in order
        return list(range(1, boards + 1))


def orders_for(movement: Movement, table_numbers: Iterable[int], boards: int) -> dict[int, list[int]]:
    """{table number: the board numbers it plays, deal by deal} for a round of these tables and ``boards``
    boards: what the caller has already read, no query. The lowest table number is the movement's table 0."""
    numbers = sorted(table_numbers)
    return {number: order_at(movement, boards, len(numbers), index) for index, number in enumerate(numbers)}


def board_orders(round_: Round) -> dict[int, list[int]]:
    """{table number: the board numbers it plays, deal by deal} (empty lists when the round has no boards)."""
    numbers = Table.objects.filter(round=round_).values_list("number", flat=True)
    return orders_for(movement_of(round_), numbers, _boards(round_))


def board_in(order: list[int], deal: int | None) -> int | None:
    """The board played as ``deal`` by a table whose order is ``order`` (None past it, or for no deal)."""
    return order[deal - 1] if deal is not None and 1 <= deal <= len(order) else None


def board_at(movement: Movement, boards: int, tables: int, index: int, deal: int) -> int | None:
    """The board the ``index``-th table (0-based) of ``tables`` plays as deal ``deal`` (None past the boards)."""
    if not 0 <= index < tables:
        return None
    return board_in(order_at(movement, boards, tables, index), deal)


def board_for_deal(round_: Round, table_number: int, deal: int) -> int | None:
    """The board a table plays as deal ``deal`` (None past the round's boards, or for a table the round has not).

    One query, however many tables: the round's tables, those numbered before this one and its boards, counted.
    """
    before = Table.objects.filter(round=OuterRef("pk"), number__lt=table_number)
    counts = (
        Round.objects.filter(pk=round_.pk)
        .annotate(
            table_count=_count(Table.objects.filter(round=OuterRef("pk"))),
            tables_before=_count(before),
            table_here=_count(Table.objects.filter(round=OuterRef("pk"), number=table_number)),
            board_count=_count(Board.objects.filter(round=OuterRef("pk"))),
        )
        .values_list("table_count", "tables_before", "table_here", "board_count")
        .first()
    )
    if counts is None or not counts[2]:
        return None
    tables, index, _present, boards = counts
    return board_at(movement_of(round_), boards, tables, index, deal)


def sets_to_deal(round_: Round) -> int:
    """How many copies of the round's boards its tables need to play at the same time."""
    tables = Table.objects.filter(round=round_).count()
    boards = _boards(round_)
    if not tables or not boards:
        return 0
    try:
        return sets_needed(movement_of(round_), boards, tables)
    except GameError:
        return tables


def relay_hand_overs(round_: Round) -> dict[int, tuple[int | None, int | None]]:
    """A relay's hand-overs after every fourth deal (``hand_overs_for``); empty unless the round is a relay."""
    movement = movement_of(round_)
    if movement is not Movement.RELAY:
        return {}
    numbers = Table.objects.filter(round=round_).values_list("number", flat=True)
    return hand_overs_for(movement, numbers, _boards(round_))


def hand_overs_for(
    movement: Movement, table_numbers: Iterable[int], boards: int
) -> dict[int, tuple[int | None, int | None]]:
    """A relay's hand-overs after every fourth deal: {table number: (hands its boards to, takes the next from)},
    ``None`` meaning the relay table at the side (the organiser's); empty unless the round is a relay. No query:
    the caller gives the round's table numbers and board count.

    Table *t* plays group (t + s) mod G in stanza *s*, so its boards go to table t - 1 next and its next boards come
    from table t + 1. The first table's boards go to the side and the last table's next ones come from there,
    except where the tables are a whole number of groups' worth: the first and the last table then hand over
    directly.
    """
    if movement is not Movement.RELAY:
        return {}
    numbers = sorted(table_numbers)
    if not numbers or not relay_fits(boards):
        return {}
    count, closed = len(numbers), len(numbers) % groups(boards) == 0 and len(numbers) > 1
    out: dict[int, tuple[int | None, int | None]] = {}
    for index, number in enumerate(numbers):
        gives = numbers[index - 1] if index > 0 else (numbers[-1] if closed else None)
        takes = numbers[index + 1] if index < count - 1 else (numbers[0] if closed else None)
        out[number] = (gives, takes)
    return out
