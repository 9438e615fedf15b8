"""A duplicate round's boards through the double-dummy solver, one board a job, and the par read from it.

When a round's boards are dealt or read from a PBN file (``services.deal_round_boards`` /
``import_round_boards``), the commit queues ``queue_round``: every board gets a ``BoardAnalysis`` (pending) and
one Celery job (``tasks.analyse_board``), so the workers share a round's boards. A job claims its row with a
conditional update (pending → running), so two workers never analyse one board twice, asks
``games.solver.analysis.analyse`` with the node budget ``settings.WIEZEN_SOLVER_BUDGET`` (a count the budget
cannot settle keeps the bounds it proved), and stores the rows; a failure is stored with its reason. Boards
replaced take their analyses with them (cascade) and the new ones are queued in turn.

A board whose rows are not all single counts (a failed miserie's tricks, an abondance's below 9, what the budget
left open) then gets a second job (``tasks.deepen_board``, on a queue of its own, ``deep``, so that no first pass
waits behind it): ``deepen`` searches those rows further with ``settings.WIEZEN_SOLVER_DEEP_BUDGET`` nodes a search and
narrows the stored ranges to what it proved. Until then, and where that budget does not reach, the pages show
the ranges ("≥1"). ``deep_queued_at`` and ``deepened_at`` say where a board's second pass is (a first pass that
leaves every count known ends it at once). Two second passes of one board do no harm: each only narrows, and one
that finds the pass ended does nothing.

``reconcile`` (periodic, ``tasks.reconcile_board_analyses``) repairs what a lost message or a dead worker left:
boards with no analysis get one, failed analyses are tried again a few times, runs that never finished and
pending rows queued long ago are queued again (the claim makes a second message harmless); with a second pass
configured, a done board whose second pass never ended is queued for it, once more after ``DEEP_STALE``.

The analysis is a hand record: nothing here decides who sees it (``public_views`` does, after the round).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from games.cards import CARDS, Suit
from games.duplicate.par import Par, Row, par, row_from_json
from games.rulesets import RuleSet
from games.solver import analysis as solver
from tournaments.contract_names import contract_name
from tournaments.duplicate.cards import SUIT_ORDER, compass_letter, compass_name
from tournaments.duplicate.results import PlayedBoard, played_boards
from tournaments.line_text import SUIT_SYMBOLS, describe_line
from tournaments.models import Board, BoardAnalysis, Round, Seat
from tournaments.services.privacy import shown_name

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 3  # a board whose analysis failed this often stays failed: the error is a bug to read, not to retry
RUNNING_STALE = timedelta(hours=1)  # a run this old without an end died with its worker
PENDING_STALE = timedelta(minutes=15)  # a pending row queued this long ago lost its message (or the queue is long)
DEEP_STALE = timedelta(hours=6)  # a second pass queued this long ago and not ended was lost (a round's queue: hours)

Status = BoardAnalysis.Status


def solver_rows(solved: Sequence[solver.Solved]) -> list[dict[str, Any]]:
    """The solver's answers as the JSON ``BoardAnalysis.rows`` keeps: the trump as its letter, or null."""
    return [
        {
            "contract": row.contract,
            "declarers": list(row.declarers),
            "trump": None if row.trump is None else str(row.trump),
            "leader": row.leader,
            "low": row.low,
            "high": row.high,
        }
        for row in solved
    ]


def stored_rows(analysis: BoardAnalysis) -> list[Row]:
    """A finished analysis' rows read back (``games.duplicate.par.Row``); what cannot be read is left out."""
    rows = []
    for data in analysis.rows if isinstance(analysis.rows, list) else []:
        try:
            rows.append(row_from_json(data))
        except ValueError:
            log.warning("board analysis %s: unreadable row %r", analysis.pk, data)
    return rows


def budget() -> int | None:
    """The node budget per question (``settings.WIEZEN_SOLVER_BUDGET``; 0 means none)."""
    value = int(settings.WIEZEN_SOLVER_BUDGET)
    return value or None


def deep_budget() -> int:
    """The second pass's node budget per search (``settings.WIEZEN_SOLVER_DEEP_BUDGET``; 0: no second pass)."""
    return int(settings.WIEZEN_SOLVER_DEEP_BUDGET)


def solved(row: Row) -> solver.Solved:
    """A stored row as the solver's ``Solved``, to search it further."""
    trump = None if row.trump is None else Suit(row.trump)
    return solver.Solved(row.contract, row.declarers, trump, row.leader, row.low, row.high)


# -- queueing ---------------------------------------------------------------------------------------------------------


def ensure_analyses(round_id: int | None = None) -> int:
    """A pending ``BoardAnalysis`` for every board (of ``round_id``, or of every round) that has none; how many."""
    boards = Board.objects.filter(analysis__isnull=True)
    if round_id is not None:
        boards = boards.filter(round_id=round_id)
    made = BoardAnalysis.objects.bulk_create(
        [BoardAnalysis(board_id=pk) for pk in boards.values_list("pk", flat=True)], ignore_conflicts=True
    )
    return len(made)


def queue(analysis_ids: Sequence[int]) -> int:
    """One job per analysis, each marked queued first (a broker that refuses leaves it to ``reconcile``)."""
    from tournaments.duplicate import tasks  # the tasks call this module: imported when needed

    queued = 0
    for pk in analysis_ids:
        BoardAnalysis.objects.filter(pk=pk, status=Status.PENDING).update(queued_at=timezone.now())
        try:
            tasks.analyse_board.delay(pk)
        except Exception:  # broker down: reconcile queues it again
            log.exception("could not queue the analysis of board analysis %s", pk)
            continue
        queued += 1
    return queued


def queue_round(round_id: int) -> int:
    """After the round's boards are stored (``transaction.on_commit``): analyse each board that is not yet."""
    ensure_analyses(round_id)
    pending = BoardAnalysis.objects.filter(board__round_id=round_id, status=Status.PENDING).order_by("board__number")
    return queue(list(pending.values_list("pk", flat=True)))


# -- one job ----------------------------------------------------------------------------------------------------------


def claim(analysis_id: int) -> BoardAnalysis | None:
    """Take a pending analysis for this worker (pending → running), or None when another took it or it is gone."""
    now = timezone.now()
    taken = BoardAnalysis.objects.filter(pk=analysis_id, status=Status.PENDING).update(
        status=Status.RUNNING, started_at=now, finished_at=None, error="", attempts=F("attempts") + 1
    )
    if not taken:
        return None
    return BoardAnalysis.objects.select_related("board").filter(pk=analysis_id).first()


def run(analysis_id: int) -> bool:
    """Claim and analyse one board; whether this call stored an answer (done or failed)."""
    analysis = claim(analysis_id)
    if analysis is None:
        return False
    used = budget()
    mine = BoardAnalysis.objects.filter(pk=analysis.pk, status=Status.RUNNING, started_at=analysis.started_at)
    try:
        rows = solver_rows(solver.analyse(analysis.board.engine_board(), budget=used))
    except Exception as exc:  # the solver's bug or a missing library: stored for the organiser, not raised at them
        log.exception("board analysis %s failed", analysis.pk)
        reason = f"{type(exc).__name__}: {exc}"[: BoardAnalysis._meta.get_field("error").max_length]
        return bool(mine.update(status=Status.FAILED, finished_at=timezone.now(), error=reason or "failed"))
    done = _done(rows, used)
    stored = bool(mine.update(**done))
    if stored and done["deepened_at"] is None and deep_budget():
        queue_deepening(analysis.pk)
    return stored


def _done(rows: list[dict[str, Any]], used: int | None) -> dict[str, Any]:
    """A finished analysis' fields: its rows, and the second pass marked ended at once when no row is a range."""
    finished = timezone.now()
    ranges = any(row["low"] != row["high"] for row in rows)
    return {
        "status": Status.DONE,
        "rows": rows,
        "budget": used,
        "finished_at": finished,
        "deepened_at": None if ranges else finished,
    }


def analyse_now(board: Board) -> list[Row]:
    """Analyse ``board`` in this process and store it done, for a command that needs the answer at once (the demo
    plays each board's par): the rows a worker would store, with the same budget. A second pass, where one is
    configured, is left to ``reconcile``: queued from inside the caller's transaction, it would find nothing."""
    used, started = budget(), timezone.now()
    rows = solver_rows(solver.analyse(board.engine_board(), budget=used))
    fields = {**_done(rows, used), "started_at": started, "attempts": 1, "error": "", "deep_queued_at": None}
    BoardAnalysis.objects.update_or_create(board=board, defaults=fields)
    return [row_from_json(row) for row in rows]


def queue_deepening(analysis_id: int) -> bool:
    """The second pass of a board, on its own queue, marked queued first (a broker that refuses leaves it to
    ``reconcile``; meanwhile the pages show "≥1"); whether it was queued."""
    from tournaments.duplicate import tasks

    BoardAnalysis.objects.filter(pk=analysis_id, status=Status.DONE).update(deep_queued_at=timezone.now())
    try:
        tasks.deepen_board.delay(analysis_id)
    except Exception:
        log.exception("could not queue the second pass of board analysis %s", analysis_id)
        return False
    return True


RowKey = tuple[str, tuple[int, ...], Suit | None, int]


def _key(row: solver.Solved) -> RowKey:
    return row.contract, row.declarers, row.trump, row.leader


def _narrower(row: solver.Solved, found: dict[RowKey, solver.Solved]) -> solver.Solved:
    """``row`` within what the second pass found for its contract (both hold the count, so they overlap)."""
    better = found.get(_key(row))
    if better is None:
        return row
    low, high = max(row.low, better.low), min(row.high, better.high)
    return replace(row, low=low, high=high) if low <= high else row


def deepen(analysis_id: int) -> bool:
    """Search the rows of a done analysis that are ranges further (``deep_budget`` nodes a search) and narrow the
    stored ones to what it proved; whether a range narrowed. The search runs outside any transaction; the store
    locks the row and keeps, for each contract, the narrower of what is stored now and what was found. The pass
    is marked ended whatever it found (a range the budget did not close stays one: searching again would not
    close it); a second message for a pass that ended does nothing."""
    done = BoardAnalysis.objects.filter(pk=analysis_id, status=Status.DONE, deepened_at__isnull=True)
    analysis = done.select_related("board").first()
    nodes = deep_budget()
    if analysis is None or not nodes:
        return False
    rows = [solved(row) for row in stored_rows(analysis)]
    if all(row.exact for row in rows):
        done.update(deepened_at=timezone.now())
        return False
    found = {_key(row): row for row in solver.deepen(analysis.board.engine_board(), rows, budget=nodes)}
    with transaction.atomic():
        current = BoardAnalysis.objects.select_for_update().filter(pk=analysis.pk, status=Status.DONE).first()
        if current is None:
            return False
        current.deepened_at = timezone.now()
        now = [solved(row) for row in stored_rows(current)]
        narrowed = [_narrower(row, found) for row in now]
        # a row it cannot read would be lost by storing: left as it is, for a person
        changed = len(now) == len(current.rows) and narrowed != now
        if changed:
            current.rows = solver_rows(narrowed)
        current.save(update_fields=["rows", "deepened_at"] if changed else ["deepened_at"])
    return changed


# -- reconciliation ---------------------------------------------------------------------------------------------------


def reconcile() -> int:
    """Give every board an analysis and queue what was lost; how many jobs were queued."""
    ensure_analyses()
    now = timezone.now()
    BoardAnalysis.objects.filter(status=Status.FAILED, attempts__lt=MAX_ATTEMPTS).update(
        status=Status.PENDING, started_at=None, finished_at=None, error="", queued_at=None
    )
    BoardAnalysis.objects.filter(status=Status.RUNNING, started_at__lt=now - RUNNING_STALE).update(
        status=Status.PENDING, started_at=None, queued_at=None
    )
    lost = BoardAnalysis.objects.filter(status=Status.PENDING).filter(
        Q(queued_at__isnull=True) | Q(queued_at__lt=now - PENDING_STALE)
    )
    queued = queue(list(lost.order_by("pk").values_list("pk", flat=True)))
    if deep_budget():
        unfinished = BoardAnalysis.objects.filter(status=Status.DONE, deepened_at__isnull=True).filter(
            Q(deep_queued_at__isnull=True) | Q(deep_queued_at__lt=now - DEEP_STALE)
        )
        queued += sum(queue_deepening(pk) for pk in unfinished.order_by("pk").values_list("pk", flat=True))
    return queued


# -- reading ----------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Analysed:
    """A board's analysis as the pages read it: its state, its rows and its par (None until done)."""

    status: str
    rows: list[Row]
    par: Par | None

    @property
    def done(self) -> bool:
        return self.status == Status.DONE

    @property
    def exact(self) -> bool:
        return all(row.exact for row in self.rows)


def board_par(rows: Sequence[Row], rules: RuleSet, turned: str) -> Par:
    return par(rows, rules, turned=turned, trumps=[row.trump for row in rows])


def read(board: Board, analysis: BoardAnalysis | None, rules: RuleSet) -> Analysed:
    """What the pages show of ``board``'s analysis under the competition's ``rules``."""
    if analysis is None:
        return Analysed(Status.PENDING, [], None)
    if analysis.status != Status.DONE:
        return Analysed(analysis.status, [], None)
    rows = stored_rows(analysis)
    return Analysed(analysis.status, rows, board_par(rows, rules, str(CARDS[board.turned].suit)))


# -- the board pages ---------------------------------------------------------------------------------------------------
# What ``public_views`` renders: the solver's table by position, the par, each table's result beside it, and per
# player over the round the split of their score into the cards they held (par) and their play (the rest).

ONE_AGAINST_THREE = ("alleen", "abondance", "solo_slim", "miserie")
PAIRS = ("vraag", "troel")


def bounds_text(low: int, high: int) -> str:
    """A trick count as the solver knows it: "7", or "≥7", "≤3", "7–9" when its budget left a range; "0–13" when
    it proved nothing ("≥0" would read as a finding)."""
    if low == high:
        return str(low)
    if low > 0 and high >= 13:
        return f"≥{low}"
    if low <= 0 < high < 13:
        return f"≤{high}"
    return f"{low}–{high}"


@dataclass(frozen=True)
class Cell:
    text: str
    exact: bool


@dataclass(frozen=True)
class SolverLine:
    """One contract (in one trump) of the solver's table: a cell per position N E S W, or one for a pair."""

    contract: str  # the contract's name, with its trump's symbol
    red: bool  # the trump is hearts or diamonds
    cells: list[Cell | None]


@dataclass(frozen=True)
class PairLine:
    contract: str
    red: bool
    side: str  # "N + S"
    cell: Cell


@dataclass(frozen=True)
class TableResult:
    """One table's line on the board: in words, who held each position, and the points by position."""

    table: int
    text: str
    players: list[tuple[str, str]]  # by position, N E S W: (the position's letter, the player's name)
    points: list[int | None]  # by position
    against_par: list[int | None]  # points minus what the position scores at par (ParView.result), when known


@dataclass(frozen=True)
class ParView:
    text: str  # the par contract in words, or that nothing makes
    result: list[int]  # what each position scores when the par contract is played, N E S W
    points: list[int]  # each position's own par: the best contract it could declare, N E S W
    bound: bool


@dataclass(frozen=True)
class BoardPage:
    number: int
    status: str
    status_text: str
    solo: list[SolverLine]
    pairs: list[PairLine]
    par: ParView | None
    tables: list[TableResult]
    exact: bool


def _contract_label(contract: str, trump: str | None, level: int | None = None) -> tuple[str, bool]:

    name = contract_name(contract) if level is None else f"{contract_name(contract)} {level}"
    if trump is None:
        return name, False
    return f"{name} {SUIT_SYMBOLS[trump]}", trump in ("H", "D")


def _solver_lines(rows: Sequence[Row]) -> tuple[list[SolverLine], list[PairLine]]:

    suit_rank = {suit.value: i for i, suit in enumerate(SUIT_ORDER)}
    solo: dict[tuple[str, str | None], list[Cell | None]] = {}
    pairs: list[PairLine] = []
    for row in rows:
        cell = Cell(bounds_text(row.low, row.high), row.exact)
        if row.contract in ONE_AGAINST_THREE and len(row.declarers) == 1:
            solo.setdefault((row.contract, row.trump), [None] * 4)[row.declarers[0]] = cell
        elif row.contract in PAIRS:
            label, red = _contract_label(row.contract, row.trump)
            side = " + ".join(compass_letter(p) for p in row.declarers)
            pairs.append(PairLine(label, red, side, cell))

    def order(key: tuple[str, str | None]) -> tuple[int, int]:
        contract, trump = key
        return ONE_AGAINST_THREE.index(contract), -1 if trump is None else suit_rank.get(trump, 9)

    lines = [
        SolverLine(*_contract_label(contract, trump), cells)
        for (contract, trump), cells in sorted(solo.items(), key=lambda item: order(item[0]))
    ]
    return lines, pairs


def _par_view(result: Par) -> ParView:

    line = result.line
    if line is None:
        text = gettext("Nothing makes: at par every position passes.")
    else:
        contract, _red = _contract_label(line.contract, None, line.level)
        text = ngettext(
            "%(contract)s by %(declarers)s, %(tricks)s trick",
            "%(contract)s by %(declarers)s, %(tricks)s tricks",
            line.tricks,
        ) % {
            "contract": contract,
            "declarers": " + ".join(compass_name(p) for p in line.declarers),
            "tricks": line.tricks,
        }
    return ParView(text, list(result.result), list(result.points), result.bound)


def _status_text(status: str) -> str:

    return {
        Status.PENDING: gettext("This board is being analysed: the solver's table comes shortly."),
        Status.RUNNING: gettext("This board is being analysed: the solver's table comes shortly."),
        Status.FAILED: gettext("The solver could not analyse this board."),
        Status.DONE: "",
    }.get(status, "")


@dataclass
class RoundData:
    """What the round's board pages read once: boards, analyses, lines, the players' names, the rule set."""

    boards: list[Board]
    analysed: dict[int, Analysed]  # board number -> its analysis as read (only the one asked for, if any)
    played: dict[int, list[PlayedBoard]]  # board number -> ``results.PlayedBoard`` lines
    names: dict[int, str]  # player id -> name as this viewer may see it
    seat_names: dict[int, list[str]]  # table id -> names by seat
    rules: RuleSet


def round_data(round_: Round, *, full_names: bool, board_number: int | None = None) -> RoundData:
    """Everything the board pages of ``round_`` show, in a fixed number of queries. With ``board_number``, only
    that board's analysis is read and settled (its page needs the other boards' numbers alone)."""
    rules = round_.competition.rule_set.engine_rules()
    boards = list(Board.objects.filter(round=round_).select_related("analysis").order_by("number"))
    analysed = {
        board.number: read(board, getattr(board, "analysis", None), rules)
        for board in boards
        if board_number is None or board.number == board_number
    }
    played = played_boards(round_)
    names: dict[int, str] = {}
    seat_names: dict[int, list[str]] = {}
    for seat in Seat.objects.filter(round=round_).select_related("player", "table").order_by("table", "position"):
        name = shown_name(seat.player, full_names)
        names[seat.player_id] = name
        seats = seat_names.setdefault(seat.table_id, ["—"] * seat.table.size)
        if seat.position < len(seats):
            seats[seat.position] = name
    return RoundData(boards, analysed, played, names, seat_names, rules)


@dataclass
class BoardRow:
    """A board as the round's list shows it: its par, or why there is none yet."""

    number: int
    status_text: str
    par: ParView | None


def board_row(data: RoundData, board: Board) -> BoardRow:
    """``board`` for the round's list, without its tables' results: at a championship's 59 tables, wording every
    table's line of every board took most of the list's time, for nothing it shows."""
    analysed = data.analysed[board.number]
    par = _par_view(analysed.par) if analysed.par is not None else None
    return BoardRow(number=board.number, status_text=_status_text(analysed.status), par=par)


def board_page(data: RoundData, board: Board) -> BoardPage:
    """One board's page: the solver's table, the par, every table's result on it."""
    analysed = data.analysed[board.number]
    solo, pairs = _solver_lines(analysed.rows) if analysed.done else ([], [])
    at_par = list(analysed.par.result) if analysed.par is not None else None
    letters = [compass_letter(p) for p in range(4)]
    tables = []
    for line in data.played.get(board.number, []):
        points: list[int | None] = [line.points_of.get(p) for p in range(4)]
        tables.append(
            TableResult(
                table=line.table_number,
                text=describe_line(line.line, data.seat_names.get(line.table_id, []), "wiezen", data.rules),
                players=[(letters[p], data.names.get(line.player_of.get(p, -1), "—")) for p in range(4)],
                points=points,
                against_par=[
                    None if at_par is None or pts is None else pts - at_par[p] for p, pts in enumerate(points)
                ],
            )
        )
    return BoardPage(
        number=board.number,
        status=analysed.status,
        status_text=_status_text(analysed.status),
        solo=solo,
        pairs=pairs,
        par=_par_view(analysed.par) if analysed.par is not None else None,
        tables=tables,
        exact=analysed.exact,
    )


@dataclass
class LuckAndSkill:
    """One player over the round: points on the analysed boards = cards (what the hands held score at par) + play."""

    player_id: int
    name: str
    boards: int
    points: int
    cards: int
    play: int


def luck_and_skill(data: RoundData) -> list[LuckAndSkill]:
    """Per player, over the boards whose analysis is done: what each position they held scores at par, the board's
    par contract played (cards), and their points minus it (play), summed; best play first. Par results add up to
    0 at a table as its points do, so a table that plays the par contract to its count plays 0 against par."""
    rows: dict[int, LuckAndSkill] = {}
    for number, lines in data.played.items():
        analysed = data.analysed.get(number)
        if analysed is None or analysed.par is None:
            continue
        for line in lines:
            for position, player_id in line.player_of.items():
                if position not in line.points_of:
                    continue
                entry = rows.setdefault(player_id, LuckAndSkill(player_id, data.names.get(player_id, "—"), 0, 0, 0, 0))
                cards = analysed.par.result[position]
                entry.boards += 1
                entry.points += line.points_of[position]
                entry.cards += cards
                entry.play += line.points_of[position] - cards
    return sorted(rows.values(), key=lambda row: (-row.play, row.name))
