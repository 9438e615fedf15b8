"""Cards, suits and decks.

Notation round-trips: ``AS``, ``10H`` (``TH`` accepted), ``7D``; ``str(card)``
always writes ``10`` for the ten. Each of the 52 cards is one interned
``Card`` with an ``index`` (``suit * 13 + rank - 2``), so a hand can be a bit
set: ``mask(cards)`` has bit ``card.index`` set for each card.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from games.errors import GameError


class Suit(StrEnum):
    """The four suits, written with their English initial as on score sheets."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @classmethod
    def from_str(cls, text: str) -> Suit:
        try:
            return cls(text.upper())
        except (ValueError, AttributeError):
            raise GameError(f"unknown suit {text!r}: expected one of C, D, H, S") from None

    @property
    def order(self) -> int:
        """0..3 in the order C, D, H, S."""
        return _SUIT_INDEX[self]

    def __str__(self) -> str:
        return self.value


SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
SUIT_LETTERS: frozenset[str] = frozenset(s.value for s in Suit)

ACE, KING, QUEEN, JACK, TEN = 14, 13, 12, 11, 10
_RANK_TEXT = {
    2: "2",
    3: "3",
    4: "4",
    5: "5",
    6: "6",
    7: "7",
    8: "8",
    9: "9",
    10: "10",
    11: "J",
    12: "Q",
    13: "K",
    14: "A",
}


@dataclass(frozen=True, slots=True)
class Card:
    """A card: ``rank`` 2..14 (ace high) and ``suit``. One instance per card: ``Card.from_str`` or ``CARDS``."""

    rank: int
    suit: Suit
    index: int = field(compare=False)  # suit order * 13 + rank - 2: the card's bit in a hand's bit set

    @property
    def bit(self) -> int:
        return 1 << self.index

    @classmethod
    def from_str(cls, text: str) -> Card:
        card = _BY_TEXT.get(text.upper()) if isinstance(text, str) else None
        if card is None:
            raise GameError(f"unknown card {text!r}: write rank then suit, e.g. AS, 10H (or TH), 7D")
        return card

    def __str__(self) -> str:
        return _RANK_TEXT[self.rank] + self.suit.value

    def __repr__(self) -> str:
        return f"Card({self})"


CARDS: tuple[Card, ...] = tuple(
    Card(rank, suit, i * 13 + rank - 2) for i, suit in enumerate(SUITS) for rank in range(2, 15)
)
_BY_TEXT: dict[str, Card] = {}
for _card in CARDS:
    _BY_TEXT[str(_card)] = _card
    if _card.rank == 10:
        _BY_TEXT["T" + _card.suit.value] = _card
CARD_BY_TEXT: dict[str, Card] = dict(_BY_TEXT)  # upper-case text -> card, for hot loops

SUIT_MASKS: tuple[int, ...] = tuple(((1 << 13) - 1) << (13 * i) for i in range(4))


def mask(cards: Iterable[Card]) -> int:
    """A bit set of cards."""
    bits = 0
    for card in cards:
        bits |= 1 << card.index
    return bits


def cards_of(bits: int) -> list[Card]:
    """The cards of a bit set, in index order."""
    return [card for card in CARDS if bits >> card.index & 1]


def deck(size: int = 52) -> list[Card]:
    """A fresh deck in index order: 52 cards, 36 (6 to ace) or 32 (7 to ace)."""
    lowest = {52: 2, 36: 6, 32: 7}.get(size)
    if lowest is None:
        raise GameError(f"no deck of {size} cards: 52, 36 or 32")
    return [card for card in CARDS if card.rank >= lowest]
