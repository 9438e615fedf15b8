"""Cards, hands and compass positions as the reader reads them: suit symbols, rank letters and compass names in
the reader's language (the ace, king, queen and jack are A, H, V, B in Dutch and A, R, D, V in French), and
board numbers as a person writes them ("1–16")."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import pgettext

from games.cards import Card, Suit
from tournaments.line_text import SUIT_SYMBOLS

# Hand records list the suits as PBN and bridge do: spades, hearts, diamonds, clubs.
SUIT_ORDER: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
RED = frozenset({Suit.HEARTS, Suit.DIAMONDS})


def rank_text(rank: int) -> str:
    """14 → "A", 13 → "K" (Dutch "H", French "R"), 10 → "10", 7 → "7"."""
    faces = {
        14: pgettext("card rank: ace, one letter", "A"),
        13: pgettext("card rank: king, one letter", "K"),
        12: pgettext("card rank: queen, one letter", "Q"),
        11: pgettext("card rank: jack, one letter", "J"),
    }
    return faces.get(rank, str(rank))


def suit_name(suit: Suit) -> str:
    return {
        Suit.CLUBS: pgettext("suit", "clubs"),
        Suit.DIAMONDS: pgettext("suit", "diamonds"),
        Suit.HEARTS: pgettext("suit", "hearts"),
        Suit.SPADES: pgettext("suit", "spades"),
    }[suit]


def card_text(card: Card) -> str:
    """The ten of hearts → "♥10"; the king of spades → "♠K" (Dutch "♠H")."""
    return SUIT_SYMBOLS[card.suit.value] + rank_text(card.rank)


def compass_name(position: int) -> str:
    """0..3 → North, East, South, West in the reader's language."""
    return (
        pgettext("compass", "North"),
        pgettext("compass", "East"),
        pgettext("compass", "South"),
        pgettext("compass", "West"),
    )[position]


def compass_letter(position: int) -> str:
    """0..3 → N, E, S, W in the reader's language (Dutch N, O, Z, W; French N, E, S, O)."""
    return (
        pgettext("compass, one letter", "N"),
        pgettext("compass, one letter", "E"),
        pgettext("compass, one letter", "S"),
        pgettext("compass, one letter", "W"),
    )[position]


def spans(numbers: Sequence[int]) -> str:
    """1, 2, 3, 5, 7, 8 → "1–3, 5, 7–8": board numbers as a person writes them, in the order given."""
    parts: list[str] = []
    run: list[int] = []
    for number in numbers:
        if run and number == run[-1] + 1:
            run.append(number)
            continue
        if run:
            parts.append(_run(run))
        run = [number]
    if run:
        parts.append(_run(run))
    return ", ".join(parts)


def _run(run: list[int]) -> str:
    return str(run[0]) if len(run) == 1 else f"{run[0]}–{run[-1]}"
