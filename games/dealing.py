"""Dealing as the games deal: packets clockwise from the dealer's left, the turned card.

Seeded and reproducible: the same seed gives the same deal. Traditional
Wiezen does not shuffle between deals: ``gather_and_cut`` picks up the
previous deal's cards in the order they were played and only cuts.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from games.cards import Card, deck
from games.errors import GameError


class Dealt(NamedTuple):
    hands: list[list[Card]]  # by seat; empty for a seat that sits out
    turned: Card
    turned_seat: int  # who took the turned card into their hand (the dealer, or at a five-table the last seat dealt)


def active_seats(players: int, dealer: int) -> list[int]:
    """The seats that play a deal, clockwise from the dealer's left; at a table of five the dealer sits out."""
    order = [(dealer + i) % players for i in range(1, players + 1)]
    return [s for s in order if not (players == 5 and s == dealer)]


def shuffled(size: int, seed: int) -> list[Card]:
    cards = deck(size)
    random.Random(seed).shuffle(cards)
    return cards


def cut(cards: Sequence[Card], at: int) -> list[Card]:
    """Lift ``at`` cards off the top and put them under the rest."""
    if not 0 < at < len(cards):
        raise GameError(f"a cut lifts between 1 and {len(cards) - 1} cards, not {at}")
    return [*cards[at:], *cards[:at]]


def deal_packets(cards: Sequence[Card], players: int, dealer: int, packets: Sequence[int]) -> Dealt:
    """Deal every card in ``packets`` (Wiezen 4-4-5, Solo whist 3-3-3-3-1); the last card dealt is turned."""
    seats = active_seats(players, dealer)
    if sum(packets) * len(seats) != len(cards):
        raise GameError(f"packets {list(packets)} for {len(seats)} players do not deal {len(cards)} cards")
    hands: list[list[Card]] = [[] for _ in range(players)]
    position = 0
    for size in packets:
        for seat in seats:
            hands[seat].extend(cards[position : position + size])
            position += size
    return Dealt(hands, cards[-1], seats[-1])


def gather_and_cut(played: Sequence[Card], at: int) -> list[Card]:
    """The next deck of a traditional Wiezen table: the last deal's cards as they lie, cut once."""
    if len(played) != 52 or len(set(played)) != 52:
        raise GameError("a redeal gathers the 52 cards of the last deal")
    return cut(played, at)
