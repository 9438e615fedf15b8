"""The demo's duplicate evening: 13 players at tables of 4, 4 and 5 play the same 16 boards, and the round is over.

The boards travel in a relay (one set for the three tables: each plays them four at a time, in its own order).
Each board's contract is its par (``games.duplicate.par``, from the board's analysis, made as the demo loads),
with the tricks the cards give it, so the results and the board pages agree as at a club where
people bid and play well; a board where nothing makes is passed. Every table plays that contract with its seats
mapped by ``games.duplicate.seats`` (a table of five's dealer sits out), most tables taking the same tricks, some
one more or one fewer, and now and then a table playing another contract drawn by the engine's generator: the
comparison then has ties, tops and bottoms to show. Every line goes through the entry service, so the board's
checks (troel by the holder of the aces, the turned trump) judge the demo like any typed line; a drawn line the
board refuses is drawn again. The boards are dealt from the demo's seed (a real round's are dealt from a secret one),
so the demo is the same every time.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.cards import CARDS
from games.contracts import CONTRACTS, Side, TrumpRule
from games.duplicate import dealer_seat, seats_by_position
from games.duplicate.par import ALSO, safe_tricks
from games.generate import random_line
from games.rulesets import RuleSet as EngineRules
from tournaments.duplicate.analysis import analyse_now, board_par
from tournaments.duplicate.movement import movement_of, orders_for
from tournaments.models import Board, Club, Competition, DealEntry, Player, Round, RuleSet, ScoreSheet
from tournaments.services.competitions import create_competition, create_rule_set, register_players
from tournaments.services.entry import record_deal
from tournaments.services.errors import EntryRejected
from tournaments.services.rounds import create_round, finalise_round, publish_round
from tournaments.services.sheets import confirm_sheet

DUPLICATE_SLUG = "demo-duplicate"
DEALS = 16
PLAYERS = 13  # tables of 4, 4 and 5: every board is compared at three tables, one of them of five
TRIES = 50  # draws per line before the demo gives up (it never needs more than a few)


def load_duplicate_evening(club: Club, players: Sequence[Player], organiser: Any, seed: int) -> Competition:
    """A finalised duplicate round of ``DEALS`` boards for the first ``PLAYERS`` of ``players``."""
    rule_set = create_rule_set(name="IWWA (duplicate demo)", game="wiezen", preset="iwwa", club=club)
    competition = create_competition(
        club=club,
        name="Demo duplicate evening",
        slug=DUPLICATE_SLUG,
        rule_set=rule_set,
        deals_per_session=DEALS,
        duplicate=True,
        movement=Competition.Movement.RELAY,
        standings_method="matchpoints",
    )
    register_players(competition, list(players[:PLAYERS]))
    # the boards from the demo's own seed, not a round's secret one
    round_ = publish_round(create_round(competition, seed=seed, board_seed=seed))
    _play(round_, rule_set, random.Random(seed))
    for sheet in ScoreSheet.objects.filter(table__round=round_):
        confirm_sheet(sheet, by=organiser)
    finalise_round(round_, by=organiser)
    return competition


def _play(round_: Round, rule_set: RuleSet, rng: random.Random) -> None:
    rules = rule_set.engine_rules()
    sheets = list(ScoreSheet.objects.filter(table__round=round_).select_related("table").order_by("table__number"))
    boards = {board.number: board for board in Board.objects.filter(round=round_)}
    orders = orders_for(movement_of(round_), (sheet.table.number for sheet in sheets), len(boards))
    base: dict[int, dict[str, Any]] = {}  # each board's contract, by its positions, once drawn
    for deal in range(1, DEALS + 1):  # the evening as it goes: deal by deal, every table at its own board
        for sheet in sheets:
            board = boards[orders[sheet.table.number][deal - 1]]
            if board.number not in base:
                base[board.number] = par_line(board, rules)
            for _ in range(TRIES):
                other = rng.random() < 0.15  # a table that bid otherwise
                drawn = random_line(rules, rng, board.number, board.dealer, 4) if other else base[board.number]
                line = _at_table(_varied(drawn, rng), board, deal, sheet.table.size)
                try:
                    record_deal(sheet, line, source=DealEntry.Source.DEMO)
                    break
                except EntryRejected:  # the board refuses it (troel without the aces, say): draw the board's again
                    base[board.number] = random_line(rules, rng, board.number, board.dealer, 4)
            else:  # pragma: no cover - the generator's lines fit a board within a few draws
                raise RuntimeError(f"no line fits board {board.number} at table {sheet.table.number}")


def par_line(board: Board, rules: EngineRules) -> dict[str, Any]:
    """``board``'s par contract as a line by its positions, with the tricks the cards give it (the safe end of the
    solver's range); a pass when nothing makes. Analyses the board now (``analyse_now``): the pages show the same."""
    rows = analyse_now(board)
    outcome = board_par(rows, rules, str(CARDS[board.turned].suit)).line
    line: dict[str, Any] = {"deal": board.number, "dealer": board.dealer, "contract": "pass"}
    if outcome is None:
        return line
    each_alone = CONTRACTS[outcome.contract].side is Side.EACH_ALONE
    line.update(
        contract=outcome.contract,
        declarers=list(outcome.declarers),
        tricks=[outcome.tricks] * len(outcome.declarers) if each_alone else outcome.tricks,
    )
    if outcome.level is not None:
        line["level"] = outcome.level
    if rules.trump_rule(outcome.contract) is TrumpRule.CHOSEN:
        line["trump"] = next(
            row.trump
            for row in rows
            if outcome.contract in (row.contract, *ALSO.get(row.contract, ()))
            and row.declarers == outcome.declarers
            and safe_tricks(row.contract, row.low, row.high) == outcome.tricks
        )
    return line


def _varied(line: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The same contract, one trick more or fewer now and then."""
    tricks = line.get("tricks")
    if type(tricks) is not int or rng.random() < 0.55:
        return line
    return {**line, "tricks": max(0, min(13, tricks + rng.choice((-1, 1))))}


def _at_table(line: dict[str, Any], board: Board, deal: int, size: int) -> dict[str, Any]:
    """A line written by the board's positions (a table of four whose seat *i* is position *i*) as a table of
    ``size`` plays it as deal ``deal``: that deal's dealer and each declarer's seat there."""
    dealer = dealer_seat(deal, size)
    seat_of = seats_by_position(size, dealer, board.dealer)
    out = {**line, "deal": deal, "dealer": dealer}
    if "declarers" in line:
        out["declarers"] = [seat_of[p] for p in line["declarers"]]
    if "offender" in line:
        out["offender"] = seat_of[line["offender"]]
    return out
