"""A board's analysis: for every contract that matters, the tricks its side takes against best defence.

The contracts, their sides, trumps and first leads are those of RULES.md §1-2: vraag for every pair of
positions (side by side or opposite) and alleen for every position, in the turned trump; abondance for every
position in each trump; solo slim (every trick, the declarer leads) for every position in each trump; troel
where a position holds three or four aces; miserie for every position, without trump, as the fewest tricks the
declarer can be held to (open miserie has the same figure: double dummy, every hand is already open).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from games.cards import SUIT_MASKS, SUITS, Suit, cards_of
from games.duplicate.boards import ACES, Board, holder, troel_holder
from games.solver.native import reaches, solve

ALL_TRICKS = 13


@dataclass(frozen=True, slots=True)
class Solved:
    """One contract at one board: ``tricks`` taken by its side under best play (miserie: by its declarer).

    ``exact`` is False for solo slim that cannot take every trick: it was asked one question, so ``tricks``
    (12) is only an upper bound there."""

    contract: str
    declarers: tuple[int, ...]
    trump: Suit | None
    leader: int
    tricks: int
    exact: bool = True


def analyse(board: Board) -> list[Solved]:
    """Every contract of the module docstring at ``board``, in a fixed order (positions 0..3 = N, E, S, W)."""
    hands = board.hands
    turned = board.trump
    lead = board.leader
    rows: list[Solved] = []
    for pair in combinations(range(4), 2):
        tricks = solve(hands, leader=lead, trump=turned.order, maximisers=pair)
        rows.append(Solved("vraag", pair, turned, lead, tricks))
    alone: dict[tuple[int, Suit], int] = {}
    for position in range(4):
        for suit in SUITS:
            alone[position, suit] = solve(hands, leader=lead, trump=suit.order, maximisers=(position,))
    rows.extend(Solved("alleen", (p,), turned, lead, alone[p, turned]) for p in range(4))
    rows.extend(Solved("abondance", (p,), s, lead, alone[p, s]) for p in range(4) for s in SUITS)
    for position in range(4):
        for suit in SUITS:
            made = reaches(hands, ALL_TRICKS, leader=position, trump=suit.order, maximisers=(position,))
            rows.append(
                Solved("solo_slim", (position,), suit, position, ALL_TRICKS if made else ALL_TRICKS - 1, exact=made)
            )
    troel = troel_row(board)
    if troel is not None:
        rows.append(troel)
    for position in range(4):
        others = tuple(p for p in range(4) if p != position)
        tricks = solve(hands, leader=lead, trump=None, maximisers=others, counted=(position,))
        rows.append(Solved("miserie", (position,), None, lead, tricks))
    return rows


def troel_row(board: Board) -> Solved | None:
    """Troel for the position with three aces (partner: the fourth ace's holder, who leads it; its suit is trump)
    or four (trump hearts; partner: the holder of the highest heart the declarer lacks), else None."""
    declarer = troel_holder(board)
    if declarer is None:
        return None
    hands = board.hands
    missing = [ace for ace in ACES if not hands[declarer] & ace.bit]
    if missing:
        fourth = missing[0]
        partner = holder(board, fourth)
        pair = tuple(sorted((declarer, partner)))
        tricks = solve(hands, leader=partner, trump=fourth.suit.order, maximisers=pair, first_card=fourth.index)
        return Solved("troel", pair, fourth.suit, partner, tricks)
    hearts = cards_of(SUIT_MASKS[Suit.HEARTS.order] & ~hands[declarer])
    pair = tuple(sorted((declarer, holder(board, hearts[-1]))))  # cards_of is low to high: the highest is last
    tricks = solve(hands, leader=board.leader, trump=Suit.HEARTS.order, maximisers=pair)
    return Solved("troel", pair, Suit.HEARTS, board.leader, tricks)
