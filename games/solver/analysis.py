"""A board's analysis: for every contract that matters, the tricks its side takes against best defence.

The contracts, their sides, trumps and first leads are those of RULES.md §1-2: vraag for every pair of
positions (side by side or opposite) and alleen for every position, in the turned trump; abondance for every
position in each trump; solo slim (every trick, the declarer leads) for every position in each trump; troel
where a position holds three or four aces; miserie for every position, without trump, as the fewest tricks the
declarer can be held to (open miserie has the same figure: double dummy, every hand is already open).

By default a count is searched as far as some tariff reads it (``games.settlement``), and no further: a
miserie is made with no trick and fails the same with one or ten, so its question is "no trick?", and the count
of a miserie that fails is the range the cards alone give (≥ 1); an abondance in a suit other than the turned one
is made at 9 tricks or more (levels 9..12, and 13 doubles), so below 9 its count is a range (≤ 8). Those answers
are one search each and cost next to nothing; the full counts cost seconds to minutes a board. ``every_count``
searches them too, and ``deepen`` searches further the rows of an analysis already made: a worker's second pass,
after the board's fast one is stored. A failed miserie's count starts from a changed game that bounds it at a
fraction of the cost (``miserie_count``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from games.cards import SUITS, Suit, cards_of
from games.contracts import CONTRACTS
from games.duplicate.boards import Board, holder, troel_first_lead, troel_holder
from games.records import troel_partner_card
from games.solver.native import SearchArguments, bounds, miserie_ceiling, reaches

ALL_TRICKS = 13
ABONDANCE_TRICKS = min(CONTRACTS["abondance"].levels)
"""The fewest tricks an abondance is made with, at its lowest level: below it, every count fails alike."""
MISERIE_FIRST_LOOK = 1_000_000
"""Nodes the real game gets first for miserie's "no trick?": most answers are a quick yes (the miserie fails).
Past them the changed game, whose cards count only by gap, asks next: a no there is a no in the real game,
and on a miserie that is made (or nearly) it comes in well under a second where the real game's proof, every
combination of the three others' cards, may run for minutes."""
VRAAG_BUDGET_SHARE = 4
"""Vraag's searches get this many contracts' budgets each: three searches serve six pairs, and vraag is the
contract tables play most."""


@dataclass(frozen=True, slots=True)
class Solved:
    """One contract at one board: the tricks its side takes under best play (miserie: its declarer's), known to
    lie in ``low..high``. Exact (``low == high``) unless a node budget ran out first, or where no tariff reads
    the count (the module docstring): solo slim that cannot take every trick (``high`` 12), a miserie that fails
    (``low`` 1), an abondance below 9 (``high`` 8), each with the other end a bound that cost nothing."""

    contract: str
    declarers: tuple[int, ...]
    trump: Suit | None
    leader: int
    low: int
    high: int

    @property
    def exact(self) -> bool:
        return self.low == self.high

    @property
    def tricks(self) -> int | None:
        """The count when it is known, else None."""
        return self.low if self.low == self.high else None

    @property
    def settled(self) -> bool:
        """Whether the row says all a tariff reads of it: made or not, and the count where it pays by the trick."""
        if self.contract == "solo_slim":
            return self.exact or self.high < ALL_TRICKS
        if self.contract == "miserie":
            return self.exact or self.low >= 1
        if self.contract == "abondance":
            return self.exact or self.high < ABONDANCE_TRICKS
        return self.exact


def analyse(board: Board, *, budget: int | None = None, every_count: bool = False) -> list[Solved]:
    """Every contract of the module docstring at ``board``, in a fixed order (positions 0..3 = N, E, S, W).
    ``budget``: search nodes per question, ``VRAAG_BUDGET_SHARE`` times that for each vraag search (None: no
    limit: every count a tariff reads is exact). ``every_count``: also the counts no tariff reads (a failed
    miserie's tricks, an abondance's below 9)."""
    hands = board.hands
    turned = board.trump
    lead = board.leader
    rows = vraag_rows(board, budget=None if budget is None else budget * VRAAG_BUDGET_SHARE)
    alone: dict[tuple[int, Suit], tuple[int, int]] = {}
    for position in range(4):
        for suit in SUITS:
            alone[position, suit] = (
                bounds(hands, leader=lead, trump=suit.order, maximisers=(position,), budget=budget)
                if suit is turned or every_count
                else alone_from(board, position, suit, ABONDANCE_TRICKS, leader=lead, budget=budget)
            )
    rows.extend(Solved("alleen", (p,), turned, lead, *alone[p, turned]) for p in range(4))
    rows.extend(Solved("abondance", (p,), s, lead, *alone[p, s]) for p in range(4) for s in SUITS)
    for position in range(4):
        for suit in SUITS:
            rows.append(solo_slim(board, position, suit, budget))
    troel = troel_row(board, budget=budget)
    if troel is not None:
        rows.append(troel)
    rows.extend(miserie_row(board, position, budget, every_count=every_count) for position in range(4))
    return rows


def alone_from(
    board: Board, position: int, suit: Suit, tricks: int, *, leader: int, budget: int | None
) -> tuple[int, int]:
    """``position`` alone in ``suit``, ``leader`` leading: first whether it takes ``tricks`` (the fewest a tariff
    pays for), then, when it does, how many; when it does not, the range the cards alone give below ``tricks``,
    where every count pays alike."""
    hands, trump = board.hands, suit.order
    made = reaches(hands, tricks, leader=leader, trump=trump, maximisers=(position,), budget=budget)
    if made:
        return bounds(hands, leader=leader, trump=trump, maximisers=(position,), within=(tricks, 13), budget=budget)
    low, high = bounds(hands, leader=leader, trump=trump, maximisers=(position,), budget=0)
    return low, high if made is None else min(high, tricks - 1)


def miserie_row(board: Board, position: int, budget: int | None, *, every_count: bool = False) -> Solved:
    """Miserie for ``position``: first whether the three others can make it take a trick (the miserie fails: a
    quick look at the real game, then the changed game, then the real game with the whole budget), then, with
    ``every_count``, how many tricks at the fewest."""
    hands, lead = board.hands, board.leader
    search = miserie_search(position, lead)
    first_look = MISERIE_FIRST_LOOK if budget is None else min(budget, MISERIE_FIRST_LOOK)
    fails = reaches(hands, 1, **search, budget=first_look)
    if fails is None:
        if miserie_ceiling(hands, leader=lead, declarer=position, within=(0, 1), budget=budget) == 0:
            fails = False
        elif first_look != budget:
            fails = reaches(hands, 1, **search, budget=budget)
    if fails is False:
        return Solved("miserie", (position,), None, lead, 0, 0)
    within = (1, ALL_TRICKS) if fails else (0, ALL_TRICKS)
    if every_count:
        low, high = miserie_count(hands, position, leader=lead, within=within, budget=budget)
    else:
        low, high = bounds(hands, **search, within=within, budget=0)
    return Solved("miserie", (position,), None, lead, low, high)


def miserie_count(
    hands: Sequence[int], position: int, *, leader: int, within: tuple[int, int] = (0, ALL_TRICKS), budget: int | None
) -> tuple[int, int]:
    """The fewest tricks ``position`` can be held to in miserie, ``leader`` leading, within a range known to hold them:
    first the bound from above of the changed game (``miserie_ceiling``, the count on most boards), then the real
    game's question there, then halving. ``budget``: nodes for each of those searches (None: to the end)."""
    real = miserie_search(position, leader)
    low, high = within
    if low < high:
        high = miserie_ceiling(hands, leader=leader, declarer=position, within=within, budget=budget)
    if low < high:
        made = reaches(hands, high, **real, budget=budget)
        if made:
            low = high
        elif made is False:
            high -= 1
    if low < high:
        low, high = bounds(hands, **real, within=(low, high), budget=budget)
    return low, high


def miserie_search(position: int, leader: int) -> SearchArguments:
    """Miserie's search: no trump, the three others raising ``position``'s tricks."""
    others = tuple(p for p in range(4) if p != position)
    return SearchArguments(leader=leader, trump=None, maximisers=others, counted=(position,))


def vraag_rows(board: Board, *, budget: int | None = None) -> list[Solved]:
    """Vraag for every pair of positions in the turned trump, from three searches: the two pairs of a split of
    the table play one game (what one pair wins the other loses, under the same best play)."""
    turned, lead = board.trump, board.leader
    found: dict[tuple[int, ...], tuple[int, int]] = {}
    for pair in combinations(range(4), 2):
        if pair not in found:
            low, high = bounds(board.hands, leader=lead, trump=turned.order, maximisers=pair, budget=budget)
            found[pair] = (low, high)
            found[tuple(p for p in range(4) if p not in pair)] = (ALL_TRICKS - high, ALL_TRICKS - low)
    return [Solved("vraag", pair, turned, lead, *found[pair]) for pair in combinations(range(4), 2)]


def solo_slim(board: Board, position: int, suit: Suit, budget: int | None = None) -> Solved:
    """Solo slim for ``position`` in ``suit`` (the declarer leads): one question, every trick or not; the low
    end of a range that is not 13 is a bound that costs no search."""
    low, high = alone_from(board, position, suit, ALL_TRICKS, leader=position, budget=budget)
    return Solved("solo_slim", (position,), suit, position, low, high)


def troel_row(board: Board, *, budget: int | None = None) -> Solved | None:
    """Troel for the position with three aces (partner: the fourth ace's holder, who leads it; its suit is trump)
    or four (trump hearts; partner: the holder of the highest heart the declarer lacks), else None. ``budget``:
    search nodes, as for ``analyse``."""
    declarer = troel_holder(board)
    if declarer is None:
        return None
    hands = board.hands
    fourth = troel_first_lead(board)
    if fourth is not None:
        partner = holder(board, fourth)
        pair = tuple(sorted((declarer, partner)))
        low, high = bounds(
            hands, leader=partner, trump=fourth.suit.order, maximisers=pair, first_card=fourth.index, budget=budget
        )
        return Solved("troel", pair, fourth.suit, partner, low, high)
    pair = tuple(sorted((declarer, holder(board, troel_partner_card(cards_of(hands[declarer]))))))
    low, high = bounds(hands, leader=board.leader, trump=Suit.HEARTS.order, maximisers=pair, budget=budget)
    return Solved("troel", pair, Suit.HEARTS, board.leader, low, high)


def deepen(board: Board, rows: Sequence[Solved], *, budget: int | None) -> list[Solved]:
    """``rows`` (``analyse``'s, of ``board``) again, each range that is not one count searched further from what
    it already holds, with ``budget`` nodes a search (None: to the end; a row takes one, a failed miserie up to
    three): the counts no tariff reads and those an earlier budget left open. Exact rows come back as they are."""
    return [row if row.exact else _searched_further(board, row, budget) for row in rows]


def _searched_further(board: Board, row: Solved, budget: int | None) -> Solved:
    if row.contract == "miserie":
        low, high = miserie_count(
            board.hands, row.declarers[0], leader=row.leader, within=(row.low, row.high), budget=budget
        )
        return replace(row, low=low, high=high)
    low, high = bounds(board.hands, **question(board, row), within=(row.low, row.high), budget=budget)
    return replace(row, low=low, high=high)


def question(board: Board, row: Solved) -> SearchArguments:
    """The search that answers ``row``: its leader and trump, the seats that raise the count (miserie: the three
    others, counting the declarer's tricks) and the first lead troel forces (the fourth ace, led by its holder)."""
    if row.contract == "miserie":
        return miserie_search(row.declarers[0], row.leader)
    fourth = troel_first_lead(board) if row.contract == "troel" else None
    first_card = None if fourth is None else fourth.index
    trump = None if row.trump is None else row.trump.order
    return SearchArguments(leader=row.leader, trump=trump, maximisers=row.declarers, first_card=first_card)
