"""What a duplicate board decides about a score-sheet line, and about a full deal record.

In a duplicate round deal *k* of every sheet is board *k*: its cards are known before anyone plays, so a line
can be checked against them, beyond what the rule set and the sheet check (``games.lines``, ``games.sheet``).
The hands are laid out by seat from the line's dealer (``games.duplicate.seats``: the seat that deals plays the
board's dealer hand, the others follow clockwise; at a table of five the dealer sits out). Deal 1 is dealt by
seat 1; later deals follow the rule set's rotation, which the sheet checks.

``line_problems`` only looks at what it can read: a line the engine refuses for its shape (a dealer that is no
seat, declarers that are not a list) gets no word from here, the engine says why. What it refuses, with
certainty, from the cards:

- ``dealer_not_boards``: deal 1 dealt by another seat than seat 1 (the hands would not be the board's);
- ``declarer_sits_out``: a declarer at a table of five who deals, so holds no hand of the board;
- ``troel_without_three_aces``: troel by a pair neither of whom holds three (or four) aces;
- ``four_aces_not_troel``: troel by a holder of all four aces, where the rule set does not count that as troel
  (``RuleSet.four_aces_troel``);
- ``troel_wrong_partner``: troel with another partner than the fourth ace's holder (with four aces: the holder
  of the highest heart the declarer lacks);
- ``trump_not_turned``: a trump given for a contract played in the turned trump, other than the board's turned
  suit;
- ``trump_not_troel``: a trump given for troel other than troel's (the fourth ace's suit; hearts with four).

A trump the declarer chooses is the declarer's: nothing on the board contradicts it.

``record_problems`` compares a full deal record (``games.records``: hands by seat, turned card, dealer) with the
board: ``hand_not_boards`` for each seat whose hand is not the board's hand that seat takes, ``turned_not_boards``
for another turned card, and ``dealer_not_boards`` for deal 1 dealt by another seat than seat 1.

Every error is a ``FieldError`` whose message names seats as the table card does (seat 1, 2...) and whose
``seats`` and ``values`` say what it is about, for ``tournaments.line_errors`` to word it for people.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from games.cards import ACE, SUIT_LETTERS, Card, cards_of, mask
from games.contracts import CONTRACTS, TrumpRule
from games.duplicate.boards import COMPASS, Board
from games.duplicate.seats import dealer_seat, hands_by_seat, positions_by_seat
from games.errors import FieldError, GameError
from games.lines import is_int, seat_text
from games.play import parse_card
from games.records import contract_trump, troel_errors, troel_partner, troel_partner_card
from games.rulesets import RuleSet

__all__ = ["line_problems", "record_problems", "seat_hands"]

FIRST_DEAL = 1


def seat_hands(board: Board, players: int, dealer: int) -> list[list[Card]]:
    """The board's hands laid out by seat for a deal dealt by seat ``dealer`` (empty for a five-table's dealer)."""
    return [cards_of(hand) for hand in hands_by_seat(board.hands, players, dealer, board.dealer)]


def line_problems(line: object, board: Board, rules: RuleSet, players: int) -> list[FieldError]:
    """What ``board`` contradicts in score-sheet ``line``: the deal of a duplicate sheet played from it (deal *k* is
    board *k* when all tables play at once; a relay gives each table its own order, ``games.duplicate.movement``).

    ``players`` is the table's size (4 or 5). Empty when the cards allow the line; parts of the line the engine
    cannot read are left to the engine (``games.lines.check_line``).
    """
    if players not in (4, 5):
        raise GameError(f"a table seats 4 or 5 players, not {players!r}")
    if not isinstance(line, Mapping):
        return []
    deal, dealer = line.get("deal"), line.get("dealer")
    if type(deal) is not int or type(dealer) is not int or not 0 <= dealer < players:
        return []
    problem = _first_dealer(deal, dealer, players, board)
    if problem is not None:
        return [problem]  # the hands are not where the board puts them: nothing more to say from the cards
    errors: list[FieldError] = []
    contract = line.get("contract")
    if not isinstance(contract, str) or contract not in CONTRACTS or contract not in rules.compiled:
        return errors  # a pass or a penalty: no cards played; a contract the rule set lacks: the engine says so
    declarers = _declarers(line.get("declarers"), players)
    if players == 5 and dealer in declarers:
        errors.append(
            FieldError(
                "declarer_sits_out",
                "declarers",
                f"the declarer at {seat_text(dealer)} is the dealer at a table of five and sits this deal out:"
                f" they hold no hand of board {board.number}",
                (dealer,),
            )
        )
        return errors
    hands = seat_hands(board, players, dealer)
    seats = sorted(positions_by_seat(players, dealer, board.dealer))
    rule = rules.trump_rule(contract)
    trump = line.get("trump")
    if contract == "troel" and len(declarers) == 2:
        errors += _troel_problems(declarers, hands, seats, rules, board)
        if not errors and rule is TrumpRule.FOURTH_ACE and trump in SUIT_LETTERS:
            errors += _troel_trump(str(trump), declarers, hands, rules, board)
    elif rule is TrumpRule.TURNED and trump in SUIT_LETTERS:  # anything else is no suit: the engine says so
        found: list[FieldError] = []
        contract_trump(contract, rules, board.turned, trump, list(declarers), hands, found)
        errors += [_on_board(error, board) for error in found]
    return errors


def _first_dealer(deal: int, dealer: int, players: int, board: Board) -> FieldError | None:
    if deal != FIRST_DEAL:
        return None  # later deals follow the rotation: the sheet checks it
    expected = dealer_seat(FIRST_DEAL, players)
    if dealer == expected:
        return None
    return FieldError(
        "dealer_not_boards",
        "dealer",
        f"deal 1 of a duplicate sheet is dealt by {seat_text(expected)}, who plays board {board.number}'s dealer"
        f" hand ({COMPASS[board.dealer]}), not by {seat_text(dealer)}",
        (dealer, expected),
        {"deal": deal, "board": board.number},
    )


def _declarers(value: Any, players: int) -> tuple[int, ...]:
    """The line's declarers if they are distinct seats of the table, else () (the engine says what is wrong)."""
    if not isinstance(value, list) or not all(is_int(v) and 0 <= v < players for v in value):
        return ()
    if len(set(value)) != len(value):
        return ()
    return tuple(value)


def _aces(hands: list[list[Card]]) -> dict[int, int]:
    return {seat: sum(1 for card in hand if card.rank == ACE) for seat, hand in enumerate(hands)}


def _troel_problems(
    declarers: tuple[int, ...], hands: list[list[Card]], seats: list[int], rules: RuleSet, board: Board
) -> list[FieldError]:
    aces = _aces(hands)
    holders = [seat for seat in seats if aces[seat] >= 3]  # three aces in one hand leave one for the others
    holder = holders[0] if holders else None
    if holder is not None and aces[holder] == 4 and not rules.four_aces_troel and holder in declarers:
        return [
            FieldError(
                "four_aces_not_troel",
                "declarers",
                f"{seat_text(holder)} holds all four aces on board {board.number}, which is not troel"
                f" under {rules.name!r}",
                (holder,),
                {"board": board.number},
            )
        ]
    # the side's seats in the order ``troel_errors`` reads them: the aces' holder first, the partner after
    ordered = sorted(declarers, key=lambda seat: (-aces[seat], declarers.index(seat)))
    partners = {seat: troel_partner(hands, seat, seats) for seat in seats if aces[seat] >= 3}
    out: list[FieldError] = []
    for error in troel_errors(ordered, partners, aces):
        if error.code == "troel_without_three_aces":
            values: dict[str, int | str] = {"board": board.number}
            if holder is not None:
                values["holder"] = holder  # who does hold them at this table
            error = FieldError(
                error.code,
                error.field,
                f"neither of {seat_text(ordered)} holds three aces on board {board.number}"
                + (f" ({seat_text(holder)} does)" if holder is not None else " (nobody does)")
                + ": troel is played by the player dealt three aces",
                tuple(ordered),
                values,
            )
        elif error.code == "troel_wrong_partner":
            error = replace(
                error,
                values={**error.values, "board": board.number, "card": str(troel_partner_card(hands[ordered[0]]))},
            )
        out.append(error)
    return out


def _troel_trump(
    value: str, declarers: tuple[int, ...], hands: list[list[Card]], rules: RuleSet, board: Board
) -> list[FieldError]:
    aces = _aces(hands)
    holder = max(declarers, key=lambda seat: aces[seat])
    trump = contract_trump("troel", rules, board.turned, None, [holder], hands, [])
    if trump is None or value == trump.value:
        return []
    return [
        FieldError(
            "trump_not_troel",
            "trump",
            f"troel is played in the suit of the fourth ace ({trump.value}; hearts when one player holds all four),"
            f" not {value}",
            (holder,),
            {"contract": "troel", "trump": trump.value, "given": value, "aces": aces[holder], "board": board.number},
        )
    ]


def _on_board(error: FieldError, board: Board) -> FieldError:
    return replace(
        error,
        message=f"{error.message} (board {board.number}'s turned card is {board.turned})",
        values={**error.values, "board": board.number},
    )


def record_problems(record: object, board: Board, players: int | None = None) -> list[FieldError]:
    """Where a full deal record (``games.records``) differs from ``board``: hands, turned card, first dealer.

    ``players`` defaults to the record's own (4 unless it says 5). Parts of the record that cannot be read are
    left to ``games.records.check_record``.
    """
    if not isinstance(record, Mapping):
        return []
    size = record.get("players", 4) if players is None else players
    dealer = record.get("dealer")
    if type(size) is not int or size not in (4, 5) or type(dealer) is not int or not 0 <= dealer < size:
        return []
    deal = record.get("deal", board.number)
    if is_int(deal) and deal != board.number:
        raise GameError(f"deal {deal} is checked against board {deal}, not board {board.number}")
    problem = _first_dealer(board.number, dealer, size, board)
    if problem is not None:
        return [problem]
    errors: list[FieldError] = []
    expected = hands_by_seat(board.hands, size, dealer, board.dealer)
    positions = positions_by_seat(size, dealer, board.dealer)
    given = record.get("hands")
    if isinstance(given, list) and len(given) == size:
        for seat, raw in enumerate(given):
            cards = [parse_card(text) for text in raw] if isinstance(raw, list) else [None]
            if any(card is None for card in cards):
                continue  # not cards: check_record says which
            held = mask(card for card in cards if card is not None)
            if held == expected[seat]:
                continue
            errors.append(_hand_problem(seat, held, expected[seat], positions.get(seat), board))
    turned = parse_card(record.get("turned"))
    if turned is not None and turned != board.turned:
        errors.append(
            FieldError(
                "turned_not_boards",
                "turned",
                f"the turned card is {turned}, but board {board.number}'s turned card is {board.turned}",
                values={"board": board.number, "turned": str(board.turned), "given": str(turned)},
            )
        )
    return errors


def _hand_problem(seat: int, held: int, expected: int, position: int | None, board: Board) -> FieldError:
    missing = ", ".join(str(card) for card in cards_of(expected & ~held))
    extra = ", ".join(str(card) for card in cards_of(held & ~expected))
    if position is None:
        what = f"{seat_text(seat)} deals at a table of five and holds no hand of board {board.number}"
    else:
        what = f"{seat_text(seat)} takes board {board.number}'s {COMPASS[position]} hand"
    details = "; ".join(
        part for part in (f"it lacks {missing}" if missing else "", f"not in it: {extra}" if extra else "") if part
    )
    return FieldError(
        "hand_not_boards",
        f"hands[{seat}]",
        f"{what}: {details}",
        (seat,),
        {"board": board.number, **({"position": COMPASS[position]} if position is not None else {})},
    )
