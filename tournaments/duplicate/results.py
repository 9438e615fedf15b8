"""What every table did on every board of a duplicate round, by compass position.

Each table plays the round's boards in the order its movement gives (``tournaments.duplicate.movement``: board *k*
as deal *k* when all tables play at once); the seat that dealt the line plays the board's dealer hand and the others
follow clockwise (``games.duplicate.seats``), so each seat's points on that line belong to one compass position.
Comparison (standings), the board pages and the luck-and-skill split all read this one shape: a table's current
line on a board with its points and players by position. A handful of queries for a whole round.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from games.duplicate import board_dealer, positions_by_seat
from tournaments.duplicate.movement import movement_of, orders_for
from tournaments.models import Board, DealEntry, Round, Seat, Table


@dataclass(frozen=True, slots=True)
class PlayedBoard:
    """One table's current line on one board: who held which compass position and what each scored."""

    board: int
    deal: int  # the deal of the table's sheet it was played as (the board's number when all tables play at once)
    table_id: int
    table_number: int
    line: dict[str, Any]
    contract: str
    seat_of: dict[int, int]  # compass position -> seat (0-based, as the line's declarers)
    player_of: dict[int, int]  # compass position -> player id
    points_of: dict[int, int]  # compass position -> points on this line


def played_boards(round_: Round, boards: int | None = None) -> dict[int, list[PlayedBoard]]:
    """{board number: the tables' lines on it, by table number} for the round's current lines.

    ``boards``: the round's board count (the competition's deals per session); lines past it (there should be
    none) are left out. A table that has not yet entered a board is simply absent from its list.
    """
    if boards is None:
        boards = round_.competition.deals_per_session or 0
    tables = {table.pk: table for table in Table.objects.filter(round=round_)}
    # a PBN file may give a board another dealer than the usual N, E, S, W turn: the board's own counts
    dealers = dict(Board.objects.filter(round=round_).values_list("number", "dealer"))
    orders = orders_for(movement_of(round_), (table.number for table in tables.values()), len(dealers))
    players: dict[int, dict[int, int]] = defaultdict(dict)
    for table_id, position, player_id in Seat.objects.filter(round=round_).values_list(
        "table_id", "position", "player_id"
    ):
        players[table_id][position] = player_id
    out: dict[int, list[PlayedBoard]] = defaultdict(list)
    entries = (
        DealEntry.objects.filter(sheet__table__round=round_, is_current=True, deal_number__lte=boards)
        .values_list("sheet__table_id", "deal_number", "line", "contract", "points")
        .order_by("deal_number", "sheet__table__number")
    )
    for table_id, deal, line, contract, points in entries:
        table: Table = tables[table_id]
        dealer = line.get("dealer") if isinstance(line, dict) else None
        order = orders.get(table.number, [])
        if type(dealer) is not int or not 0 <= dealer < table.size or deal > len(order):
            continue  # the engine refused such a line, or the round has no board for it; nothing stored has it
        board = order[deal - 1]
        seats = positions_by_seat(table.size, dealer, dealers.get(board, board_dealer(board)))
        seat_of = {position: seat for seat, position in seats.items()}
        out[board].append(
            PlayedBoard(
                board=board,
                deal=deal,
                table_id=table_id,
                table_number=table.number,
                line=line,
                contract=contract,
                seat_of=seat_of,
                player_of={p: players[table_id][s] for p, s in seat_of.items() if s in players[table_id]},
                points_of={p: int(points[s]) for p, s in seat_of.items()},
            )
        )
    return {board: sorted(played, key=lambda p: p.table_number) for board, played in sorted(out.items())}
