"""Zwicken's card order (001): the trump ace, the Belli, the Sechser-Belli, then the trump suit.

Plain suits rank A K Q J 10 9 8 7 (6). The trumps rank: the trump ace, then
the 7♦ (*Belli*, second-highest trump whatever the trump suit), then with
``sechser_belli`` (Styrian Zwicken) the 6♦ (third trump), then K Q J 10 9 8 7
(6) of the trump suit. The Belli and the Sechser-Belli *are* trumps: they
follow a trump lead, they answer the must-trump rule, and they never count
as diamonds when diamonds are not trump (a player whose only "diamond" is
the 7♦ cannot follow a diamond lead, so must trump, and the Belli does).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.cards import ACE, CARD_BY_TEXT, CARDS, Card, Suit

BELLI: Card = CARD_BY_TEXT["7D"]
SECHSER_BELLI: Card = CARD_BY_TEXT["6D"]

# Strength of a trump: far above any plain card, in the order above.
_TRUMP_ACE, _BELLI, _SECHSER, _TRUMP_BASE = 200, 199, 198, 100


class TrumpOrder:
    """The order of one deal's cards, given its trump suit.

    Tables are indexed by ``Card.index`` so trick-taking is a few list lookups.
    """

    __slots__ = ("_strength", "_suit", "sechser_belli", "trump")

    def __init__(self, trump: Suit, sechser_belli: bool = False) -> None:
        self.trump = trump
        self.sechser_belli = sechser_belli
        self._suit: list[Suit] = []
        self._strength: list[int] = []
        for card in CARDS:
            special = card is BELLI or (sechser_belli and card is SECHSER_BELLI)
            if card.suit is trump or special:
                self._suit.append(trump)
                if card.rank == ACE and card.suit is trump:
                    strength = _TRUMP_ACE
                elif card is BELLI:
                    strength = _BELLI
                elif special:
                    strength = _SECHSER
                else:
                    strength = _TRUMP_BASE + card.rank
                self._strength.append(strength)
            else:
                self._suit.append(card.suit)
                self._strength.append(card.rank)

    @property
    def ace(self) -> Card:
        """The trump ace."""
        return CARD_BY_TEXT["A" + self.trump.value]

    def is_trump(self, card: Card) -> bool:
        return self._suit[card.index] is self.trump

    def suit_of(self, card: Card) -> Suit:
        """The suit a card belongs to in play: the trump suit for the Belli (and Sechser-Belli)."""
        return self._suit[card.index]

    def strength(self, card: Card) -> int:
        """Higher wins within a suit; every trump is stronger than every plain card."""
        return self._strength[card.index]

    def winner(self, trick: Sequence[Card]) -> int:
        """Position in ``trick`` (led card first) of the card that takes it."""
        led = self._suit[trick[0].index]
        trump = self.trump
        best, best_key = 0, -1
        for i, card in enumerate(trick):
            suit = self._suit[card.index]
            if suit is trump or suit is led:
                key = self._strength[card.index]
                if key > best_key:
                    best, best_key = i, key
        return best

    def legal(self, hand: Sequence[Card], led: Suit | None) -> list[Card]:
        """The cards of ``hand`` that may be played to a trick led in ``led`` (``None``: leading, anything)."""
        if led is None:
            return list(hand)
        follow = [c for c in hand if self._suit[c.index] is led]
        if follow:
            return follow
        trumps = [c for c in hand if self._suit[c.index] is self.trump]
        return trumps or list(hand)

    def trumps(self, deck: Sequence[Card]) -> list[Card]:
        """The trumps of ``deck``, highest first."""
        return sorted((c for c in deck if self.is_trump(c)), key=self.strength, reverse=True)
