"""Which seat of a table picks up which hand of a board.

A board's hands are by compass position (0..3 = N, E, S, W, clockwise) and its dealer is position
``(number - 1) % 4``; a table's seats are numbered clockwise too (``games.dealing``). In a duplicate round
board *k* is deal *k* of every sheet, and deal 1 is dealt by seat 1, so the table card can say in advance who
takes which hand. The rule that places the hands: the seat that deals a board plays the board's dealer hand and
the others follow clockwise, exactly as if the cards had been dealt there. At a table of five the dealer sits
out: the active seat on the dealer's right plays the board's dealer hand (it took the turned card) and the
seats from the dealer's left play the positions after it (``games.duplicate.boards``).

So at a table of four with the usual clockwise rotation seat *i* plays position *i* on every board; a table of
five, or a rule set whose deal passes counter-clockwise, gives each board its own mapping, printed per board.
"""

from __future__ import annotations

from games.errors import GameError

POSITIONS = 4


def board_dealer(number: int) -> int:
    """The dealer's compass position of board ``number``: N deals board 1, E board 2, and so on."""
    if number < 1:
        raise GameError(f"a board number is 1 or more, not {number!r}")
    return (number - 1) % POSITIONS


def dealer_seat(deal: int, players: int, *, clockwise: bool = True) -> int:
    """The seat (0-based) that deals deal ``deal`` of a duplicate sheet: seat 1 deals deal 1, then the rotation."""
    if players not in (4, 5):
        raise GameError(f"a table seats 4 or 5 players, not {players!r}")
    if deal < 1:
        raise GameError(f"a deal number is 1 or more, not {deal!r}")
    step = 1 if clockwise else -1
    return (step * (deal - 1)) % players


def positions_by_seat(players: int, dealer: int, board_dealer_position: int) -> dict[int, int]:
    """{seat: compass position} for a deal dealt by seat ``dealer`` on a board dealt from ``board_dealer_position``.

    A table of five's dealer has no position (it sits out); everyone else has exactly one.
    """
    if players not in (4, 5):
        raise GameError(f"a table seats 4 or 5 players, not {players!r}")
    if not 0 <= dealer < players:
        raise GameError(f"the dealer's seat is 0..{players - 1}, not {dealer!r}")
    offsets = range(POSITIONS) if players == 4 else range(1, POSITIONS + 1)
    return {(dealer + j) % players: (board_dealer_position + j) % POSITIONS for j in offsets}


def seats_by_position(players: int, dealer: int, board_dealer_position: int) -> dict[int, int]:
    """{compass position: seat}: ``positions_by_seat`` read the other way."""
    return {position: seat for seat, position in positions_by_seat(players, dealer, board_dealer_position).items()}


def hands_by_seat(hands: tuple[int, int, int, int], players: int, dealer: int, board_dealer_position: int) -> list[int]:
    """A board's hands (by position) laid out by seat: the bit set each seat holds, 0 for a five-table's dealer."""
    out = [0] * players
    for seat, position in positions_by_seat(players, dealer, board_dealer_position).items():
        out[seat] = hands[position]
    return out
