"""Suits (and, with part 2 of the engine, cards and decks)."""

from __future__ import annotations

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

    def __str__(self) -> str:
        return self.value


SUIT_LETTERS: frozenset[str] = frozenset(s.value for s in Suit)
