"""Movements: which board a table plays as each deal of its sheet, and how many sets of boards a round needs.

Players stay at their table for the whole session (their seating is the round's, from the seating generator);
only the boards move.

- ``all_at_once``: every table plays board *k* as deal *k*. Every table needs a set of its own: as many sets as
  tables, each board played at every table.
- ``relay``: the boards are cut into groups of four (1-4, 5-8, ...: each group dealt by N, E, S, W in turn, so a
  table of four keeps seat *i* on position *i*). In stanza *s* (deals 4s+1..4s+4) table *t* (counted from 0)
  plays group (t + s) mod G, G being the number of groups; after each stanza a table hands its group to the
  next table. Every table still plays every board, but one set serves G tables: ⌈tables / G⌉ sets in all
  (16 boards: one set for up to four tables; 24 boards: up to six). A group that no table holds in a stanza
  waits on the side (bridge's relay stand).
"""

from __future__ import annotations

from enum import StrEnum

from games.errors import GameError

RELAY_GROUP = 4  # boards a table plays before handing them on: one round of dealers, N, E, S, W


class Movement(StrEnum):
    ALL_AT_ONCE = "all_at_once"
    RELAY = "relay"


def _check(boards: int, tables: int, table: int | None = None) -> None:
    if boards < 1:
        raise GameError(f"a round has 1 board or more, not {boards!r}")
    if tables < 1:
        raise GameError(f"a round has 1 table or more, not {tables!r}")
    if table is not None and not 0 <= table < tables:
        raise GameError(f"table index {table!r} is not one of the round's {tables} tables (0..{tables - 1})")


def relay_fits(boards: int) -> bool:
    """A relay cuts the boards into groups of four: 16 and 24 boards do, any multiple of four does."""
    return boards >= RELAY_GROUP and boards % RELAY_GROUP == 0


def groups(boards: int) -> int:
    return boards // RELAY_GROUP


def board_order(movement: Movement, boards: int, tables: int, table: int) -> list[int]:
    """The board numbers table ``table`` (0-based) plays, deal by deal: ``order[k - 1]`` is deal *k*'s board."""
    _check(boards, tables, table)
    if movement is Movement.ALL_AT_ONCE:
        return list(range(1, boards + 1))
    if not relay_fits(boards):
        raise GameError(f"a relay hands boards on in groups of {RELAY_GROUP}: {boards} boards do not divide")
    count = groups(boards)
    order: list[int] = []
    for stanza in range(count):
        group = (table + stanza) % count
        order.extend(range(group * RELAY_GROUP + 1, (group + 1) * RELAY_GROUP + 1))
    return order


def sets_needed(movement: Movement, boards: int, tables: int) -> int:
    """How many copies of the round's boards must be dealt for its tables to play at the same time."""
    _check(boards, tables)
    if movement is Movement.ALL_AT_ONCE:
        return tables
    return -(-tables // groups(boards))
