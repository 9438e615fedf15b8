"""Which board each table of a duplicate round plays as each deal, by the competition's movement.

The engine decides (``games.duplicate.movement``); this module knows the round: its boards, its tables in table
number order (the first table is the movement's table 0, so a relay hands the boards from table 1 to table 2, and
from the last table back to table 1). Entry checks, comparison, the board pages and the table card all ask here,
so a line on deal *k* is judged, compared and printed as the same board everywhere.
"""

from __future__ import annotations

from games.duplicate.movement import Movement, board_order, groups, relay_fits, sets_needed
from games.errors import GameError
from tournaments.models import Board, Round, Table


def movement_of(round_: Round) -> Movement:
    return Movement(round_.competition.movement)


def _boards(round_: Round) -> int:
    return Board.objects.filter(round=round_).count()


def board_orders(round_: Round) -> dict[int, list[int]]:
    """{table number: the board numbers it plays, deal by deal} (empty lists when the round has no boards)."""
    numbers = list(Table.objects.filter(round=round_).order_by("number").values_list("number", flat=True))
    boards = _boards(round_)
    if not boards or not numbers:
        return {number: [] for number in numbers}
    movement = movement_of(round_)
    try:
        return {n: board_order(movement, boards, len(numbers), i) for i, n in enumerate(numbers)}
    except GameError:  # boards that no relay divides (a PBN file of another count): every table plays them in order
        return {n: list(range(1, boards + 1)) for n in numbers}


def board_for_deal(round_: Round, table_number: int, deal: int) -> int | None:
    """The board a table plays as deal ``deal`` (None past the round's boards)."""
    order = board_orders(round_).get(table_number, [])
    return order[deal - 1] if 1 <= deal <= len(order) else None


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
    """A relay's hand-overs after every fourth deal: {table number: (hands its boards to, takes the next from)},
    ``None`` meaning the relay table at the side (the organiser's); empty unless the round is a relay.

    Table *t* plays group (t + s) mod G in stanza *s*, so its boards go to table t - 1 next and its next boards come
    from table t + 1. The first table's boards go to the side and the last table's next ones come from there,
    except where the tables are a whole number of groups' worth: the first and the last table then hand over
    directly.
    """
    if movement_of(round_) is not Movement.RELAY:
        return {}
    numbers = list(Table.objects.filter(round=round_).order_by("number").values_list("number", flat=True))
    boards = _boards(round_)
    if not numbers or not relay_fits(boards):
        return {}
    count, closed = len(numbers), len(numbers) % groups(boards) == 0 and len(numbers) > 1
    out: dict[int, tuple[int | None, int | None]] = {}
    for index, number in enumerate(numbers):
        gives = numbers[index - 1] if index > 0 else (numbers[-1] if closed else None)
        takes = numbers[index + 1] if index < count - 1 else (numbers[0] if closed else None)
        out[number] = (gives, takes)
    return out
