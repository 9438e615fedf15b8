"""A duplicate round's lines checked against its boards, before they are stored (``services.entry``).

Deal *k* of a duplicate round's sheet is the board the table plays as deal *k* (board *k* when all tables play at
once; a relay's order otherwise, ``tournaments.duplicate.movement``): what its cards decide (who may play troel
and with whom, the turned trump, who deals deal 1) is asked of the engine (``games.duplicate.validation``). A deal
the round has no board for is refused. Problems come back the way every refused line does (``EntryRejected``), so
the entry page, the API, the CSV import and offline sync all say the same; with them, the engine's own complaints
about the line, so that whoever typed it sees everything at once.

Only the deal the table is at, and the deals it has played, meet their boards. A line for a later deal is the
engine's to refuse (out of sequence): checked against its board, its errors would tell whoever holds the table's
code who was dealt three aces on a board not yet played, at this table or, in a relay, at the table before it.
"""

from __future__ import annotations

from typing import Any

from games import SessionSheet
from games.duplicate.validation import line_problems
from games.errors import FieldError, InvalidLine
from tournaments.duplicate.movement import board_for_deal
from tournaments.models import Board, ScoreSheet
from tournaments.services.errors import EntryRejected


def refuse_off_board(sheet: ScoreSheet, line: Any, engine: SessionSheet) -> None:
    """Raise ``EntryRejected`` if ``line`` (new or a correction) contradicts its board; nothing for other rounds.

    ``engine`` is the sheet's ``games.Sheet`` before the line, for the engine's own complaints about a new line;
    its rules (the competition's, as the caller read them) judge the board too. Two queries for a duplicate line,
    however many tables the round has: which board the table plays as the deal, and that board.
    """
    table = sheet.table
    competition = table.round.competition
    deal = line.get("deal") if isinstance(line, dict) else None
    if not competition.duplicate or type(deal) is not int or deal < 1:
        return  # not duplicate, or no deal number: the engine says what is wrong with it
    if deal > engine.next_deal:
        return  # a deal the table has not reached: the engine refuses it, and its board's cards stay unsaid
    number = board_for_deal(table.round, table.number, deal)
    board = None if number is None else Board.objects.filter(round_id=table.round_id, number=number).first()
    if board is None:
        problems = [
            FieldError(
                "no_board",
                "deal",
                f"round {table.round.number} has no board for deal {deal}: a duplicate deal is played from its board",
                values={"deal": deal} if number is None else {"deal": deal, "board": number},
            )
        ]
    else:
        problems = line_problems(line, board.engine_board(), engine.rules, table.size)
    if not problems:
        return
    raise EntryRejected(_with_engine_errors(problems, line, engine))


def _with_engine_errors(problems: list[FieldError], line: Any, engine: SessionSheet) -> list[FieldError]:
    """The engine's complaints about a new line first; the board's after them, on the fields the engine finds
    nothing wrong with (a troel line without declarers says so, not also that they lack the aces)."""
    own: list[FieldError] = []
    if line.get("deal") == engine.next_deal:
        try:
            engine.check(line)
        except InvalidLine as exc:
            own = list(exc.errors)
    fields = {error.field for error in own}
    return own + [problem for problem in problems if problem.field not in fields]
