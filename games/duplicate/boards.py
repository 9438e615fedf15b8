"""Boards: Wiezen deals fixed in advance, so that every table of a round plays the same cards.

A board holds four hands by compass position (0..3 = N, E, S, W, clockwise), the
dealer and the turned card: the dealer's last card, dealt face up, whose suit is
the turned trump and which the dealer keeps. Positions are the board's, not the
table's seats: the table card says which seat plays which position.

A table of five plays the same board. There the dealer sits out and deals to the
four others, clockwise from the left; the last card dealt (the turned one) goes
to the active seat on the real dealer's right, and the first lead is from the
real dealer's left. So the board's ``dealer`` position is played by the active
seat on the real dealer's right, and the other positions follow clockwise from
the real dealer's left: the four hands, the turned card and the lead are exactly
those of a table of four.

Generated boards are reproducible: board ``n`` of seed ``s`` is shuffled with
``s * 1000003 + n`` and dealt 4-4-5 by ``games.dealing``. That formula is part of
the contract: changing it changes every board set already printed or published.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.cards import ACE, CARDS, Card, Suit, cards_of, mask
from games.dealing import deal_packets, shuffled
from games.errors import GameError
from games.records import troel_partner_card

COMPASS = "NESW"  # position 0..3, clockwise
FULL_DECK = (1 << 52) - 1
WIEZEN_PACKETS = (4, 4, 5)
SEED_STRIDE = 1000003  # a prime above any board count: seed * SEED_STRIDE + number never collides for seeds >= 0


@dataclass(frozen=True, slots=True)
class Board:
    """One deal fixed in advance: ``hands`` are bit sets by position (``games.cards.mask``)."""

    number: int
    dealer: int
    hands: tuple[int, int, int, int]
    turned: Card

    def __post_init__(self) -> None:
        problem = board_problem(self.number, self.dealer, self.hands, self.turned)
        if problem:
            raise GameError(problem)

    @property
    def trump(self) -> Suit:
        """The turned trump: the suit of the turned card."""
        return self.turned.suit

    @property
    def leader(self) -> int:
        """The position on the dealer's left, who leads first in most contracts."""
        return (self.dealer + 1) % 4

    def cards(self, position: int) -> list[Card]:
        """The cards of a position, in index order."""
        return cards_of(self.hands[position])


def board_problem(number: object, dealer: object, hands: object, turned: object) -> str:
    """Why these values make no board, in English ("" when they do): checked before any other use."""
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        return f"a board number is 1 or more, not {number!r}"
    where = f"board {number}: "
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer <= 3:
        return where + f"the dealer is a position 0..3 (N, E, S, W), not {dealer!r}"
    if not isinstance(turned, Card):
        return where + f"the turned card must be a Card, not {turned!r}"
    if not isinstance(hands, tuple) or len(hands) != 4:
        return where + f"a board has 4 hands, not {hands!r}"
    seen = 0
    for position, hand in enumerate(hands):
        name = COMPASS[position]
        if not isinstance(hand, int) or isinstance(hand, bool) or hand < 0 or hand & ~FULL_DECK:
            return where + f"the hand of {name} is not a set of cards (a bit set of games.cards.mask): {hand!r}"
        count = hand.bit_count()
        if count != 13:
            return where + f"the hand of {name} has {count} cards, not 13"
        shared = seen & hand
        if shared:
            listed = ", ".join(str(card) for card in cards_of(shared))
            return where + f"{listed} dealt twice (again to {name})"
        seen |= hand
    if not hands[dealer] & turned.bit:
        return (
            where + f"the turned card {turned} is not in the dealer's hand ({COMPASS[dealer]}): "
            "the dealer takes the turned card"
        )
    return ""


def deal_board(number: int, seed: int) -> Board:
    """Board ``number`` of the set made from ``seed``: dealer rotating N, E, S, W as in bridge, dealt 4-4-5."""
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise GameError(f"a board number is 1 or more, not {number!r}")
    dealer = (number - 1) % 4
    dealt = deal_packets(shuffled(52, seed * SEED_STRIDE + number), 4, dealer, WIEZEN_PACKETS)
    h = [mask(hand) for hand in dealt.hands]
    return Board(number, dealer, (h[0], h[1], h[2], h[3]), dealt.turned)


def deal_boards(count: int, seed: int) -> list[Board]:
    """Boards 1..count of the set made from ``seed``."""
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise GameError(f"a set of boards has 1 board or more, not {count!r}")
    return [deal_board(number, seed) for number in range(1, count + 1)]


def holder(board: Board, card: Card) -> int:
    """The position that holds ``card``."""
    for position, hand in enumerate(board.hands):
        if hand & card.bit:
            return position
    raise AssertionError(f"board {board.number} has no {card}")  # a valid board holds all 52 cards


ACES: tuple[Card, ...] = tuple(card for card in CARDS if card.rank == ACE)
ACES_MASK = mask(ACES)


def aces_held(board: Board) -> tuple[int, int, int, int]:
    """How many aces each position holds."""
    a, b, c, d = ((hand & ACES_MASK).bit_count() for hand in board.hands)
    return (a, b, c, d)


def troel_holder(board: Board) -> int | None:
    """The position holding three or four aces (who must announce troel), or None."""
    for position, count in enumerate(aces_held(board)):
        if count >= 3:
            return position
    return None


def troel_first_lead(board: Board) -> Card | None:
    """The card troel's first trick must be led with: the ace the holder of three lacks, led by its holder (the
    partner). None without troel, or with four aces in one hand (the usual leader leads what they like)."""
    declarer = troel_holder(board)
    if declarer is None or aces_held(board)[declarer] == 4:
        return None
    return troel_partner_card(cards_of(board.hands[declarer]))
