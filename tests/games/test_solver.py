"""The solver against an exhaustive minimax on small endings, for every shape of Wiezen's sides, and against a
bridge solver (DDS through ``endplay``) on full deals where bridge and Wiezen share the shape."""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations

import pytest

from games.cards import SUIT_MASKS, Card, Suit
from games.duplicate import deal_boards
from games.duplicate.boards import ACES, Board, troel_holder
from games.duplicate.pbn import hand_to_pbn
from games.errors import GameError
from games.solver import analyse, bounds, deepen, reaches, solve
from games.solver.analysis import question, vraag_rows

SUIT = 0x1FFF


def minimax(hands: tuple[int, ...], leader: int, trump: int, maximisers: int, counted: int, first: int | None) -> int:
    """Every card of every hand tried, by the rules of play (follow suit, highest trump else highest of the led
    suit wins, the winner leads); memoised on the whole state, which changes no result."""

    @cache
    def trick(hands: tuple[int, ...], leader: int) -> int:
        return 0 if hands[leader] == 0 else play(hands, leader, (), None)

    def play(hands: tuple[int, ...], leader: int, cards: tuple[int, ...], forced: int | None) -> int:
        k = len(cards)
        seat = (leader + k) % 4
        hand = hands[seat]
        if forced is not None:
            legal = 1 << forced
        elif k:
            follow = hand & (SUIT << (13 * (cards[0] // 13)))
            legal = follow or hand
        else:
            legal = hand
        values = []
        rest = legal
        while rest:
            card = (rest & -rest).bit_length() - 1
            rest &= rest - 1
            after = tuple(h & ~(1 << card) if s == seat else h for s, h in enumerate(hands))
            played = (*cards, card)
            if k == 3:
                best = 0
                for i in range(1, 4):
                    a, b = played[i], played[best]
                    if (a // 13 == b // 13 and a > b) or (a // 13 == trump and b // 13 != trump):
                        best = i
                winner = (leader + best) % 4
                values.append((counted >> winner & 1) + trick(after, winner))
            else:
                values.append(play(after, leader, played, None))
        return max(values) if maximisers >> seat & 1 else min(values)

    return play(hands, leader, (), first)


SHAPES = {
    "opposite pair": lambda rng: ((0, 2), None),
    "pair side by side": lambda rng: (rng.choice([(0, 1), (1, 2), (2, 3), (0, 3)]), None),
    "one against three": lambda rng: ((rng.randrange(4),), None),
    "miserie": lambda rng: miserie(rng.randrange(4)),
    "troel (forced first lead)": lambda rng: ((0, 2), None),
}


def miserie(declarer: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple(p for p in range(4) if p != declarer), (declarer,)


def random_ending(rng: random.Random, size: int) -> list[int]:
    cards = rng.sample(range(52), 4 * size)
    return [sum(1 << c for c in cards[i * size : (i + 1) * size]) for i in range(4)]


@pytest.mark.parametrize("shape", SHAPES)
def test_agrees_with_exhaustive_minimax_on_endings_of_up_to_four_cards(shape: str) -> None:
    rng = random.Random(f"endings {shape}")
    for case in range(2_000):  # 5 shapes: 10,000 endings
        size = 1 + case % 4
        hands = random_ending(rng, size)
        leader = rng.randrange(4)
        trump = None if shape == "miserie" else rng.choice([None, 0, 1, 2, 3])
        maximisers, counted = SHAPES[shape](rng)
        first = None
        if shape.startswith("troel"):
            first = rng.choice([c for c in range(52) if hands[leader] >> c & 1])
        expected = minimax(
            tuple(hands),
            leader,
            -1 if trump is None else trump,
            sum(1 << p for p in maximisers),
            sum(1 << p for p in (counted or maximisers)),
            first,
        )
        got = solve(hands, leader=leader, trump=trump, maximisers=maximisers, counted=counted, first_card=first)
        assert got == expected, (shape, hands, leader, trump, maximisers, counted, first)
        target = rng.randint(0, size)
        assert reaches(
            hands, target, leader=leader, trump=trump, maximisers=maximisers, counted=counted, first_card=first
        ) == (expected >= target)
        budget = rng.choice([0, 1, 5, 20, 100])
        low, high = bounds(
            hands, leader=leader, trump=trump, maximisers=maximisers, counted=counted, first_card=first, budget=budget
        )
        assert low <= expected <= high, (shape, hands, leader, trump, maximisers, counted, first, budget)
        answer = reaches(
            hands,
            target,
            leader=leader,
            trump=trump,
            maximisers=maximisers,
            counted=counted,
            first_card=first,
            budget=budget,
        )
        assert answer is None or answer == (expected >= target)


# DDS (endplay.dds.solve_board) gives, for the side on lead, the most tricks it can take: declarer's side takes
# the rest. Denominations: S H D C NT (endplay.types.Denom); ours: C D H S (games.cards) or None.
BRIDGE_DEALS = 1_000


def test_agrees_with_a_bridge_solver_where_the_sides_sit_opposite() -> None:
    pytest.importorskip("endplay.dds", reason="endplay is a test dependency (requirements.txt)")
    from endplay import _dds
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player

    _dds.SetMaxThreads(1)
    rng = random.Random("bridge")
    for number in range(BRIDGE_DEALS):
        hands = random_ending(rng, 13)
        trump = rng.choice([None, 0, 1, 2, 3])
        declarer = rng.randrange(4)
        leader = (declarer + 1) % 4
        deal = Deal("N:" + " ".join(hand_to_pbn(h) for h in hands))
        deal.trump = Denom(4 if trump is None else 3 - trump)
        deal.first = Player(leader)
        defence = max(tricks for _card, tricks in solve_board(deal, SolveMode.OptimalOne))
        ours = solve(hands, leader=leader, trump=trump, maximisers=(declarer, (declarer + 2) % 4))
        assert ours == 13 - defence, (number, hands, trump, declarer)


def test_a_node_budget_gives_a_range_that_holds_the_exact_count_on_full_deals() -> None:
    rng = random.Random("budget")
    for _ in range(3):
        hands = random_ending(rng, 13)
        trump = rng.choice([None, 0, 1, 2, 3])
        declarer = rng.randrange(4)
        position = {"leader": (declarer + 1) % 4, "trump": trump, "maximisers": (declarer, (declarer + 2) % 4)}
        exact = solve(hands, **position)  # type: ignore[arg-type]
        assert bounds(hands, **position, budget=None) == (exact, exact)  # type: ignore[arg-type]
        widths = []
        for budget in (0, 100, 10_000, 1_000_000):
            low, high = bounds(hands, **position, budget=budget)  # type: ignore[arg-type]
            assert low <= exact <= high, (hands, trump, declarer, budget)
            widths.append(high - low)
            assert solve(hands, **position, budget=budget) in (None, exact)  # type: ignore[arg-type]
        assert widths[0] >= widths[-1]


def test_a_budget_of_no_nodes_still_answers_what_costs_no_search() -> None:
    # North holds every spade and leads, spades trump: 13 tricks on sight, whatever the budget
    hands = [SUIT_MASKS[3], SUIT_MASKS[2], SUIT_MASKS[1], SUIT_MASKS[0]]
    assert bounds(hands, leader=0, trump=3, maximisers=(0,), budget=0) == (13, 13)
    assert reaches(hands, 13, leader=0, trump=3, maximisers=(0,), budget=0) is True
    assert solve(hands, leader=1, trump=None, maximisers=(0, 2), budget=0) == 0  # East cashes 13 hearts
    deal = random_ending(random.Random("no nodes"), 13)
    assert solve(deal, leader=1, trump=None, maximisers=(0, 2), budget=0) is None
    assert reaches(deal, 7, leader=1, trump=None, maximisers=(0, 2), budget=0) is None
    with pytest.raises(GameError, match="node budget"):
        bounds(hands, leader=0, trump=3, maximisers=(0,), budget=-1)


def test_a_miserie_whose_declarer_follows_under_every_lead_costs_no_search() -> None:
    # West holds the 2, 3 and 4 of every suit and the 5 of clubs: whatever the others lead, West follows under,
    # and a player who never wins a trick never leads
    low = [sum(1 << (13 * suit + rank) for rank in range(3)) for suit in range(4)]
    west = sum(low) | 1 << 3
    rest = [card for card in range(52) if not west >> card & 1]
    hands = [sum(1 << c for c in rest[seat::3]) for seat in range(3)] + [west]
    miserie_for_west = {"trump": None, "maximisers": (0, 1, 2), "counted": (3,)}
    assert reaches(hands, 1, leader=0, **miserie_for_west, budget=0) is False  # type: ignore[arg-type]
    assert solve(hands, leader=0, **miserie_for_west) == 0  # type: ignore[arg-type]
    # on lead, West's first card is a search; so it is with the ace of clubs in place of the 5, a card the
    # others can make West win once their clubs are gone
    assert reaches(hands, 1, leader=3, **miserie_for_west, budget=0) is None  # type: ignore[arg-type]
    ace = 1 << 12
    holder = next(seat for seat in range(3) if hands[seat] & ace)
    hands[holder] = hands[holder] & ~ace | 1 << 3
    hands[3] = hands[3] & ~(1 << 3) | ace
    assert reaches(hands, 1, leader=0, **miserie_for_west, budget=0) is None  # type: ignore[arg-type]


def test_the_solver_refuses_hands_that_cannot_be_played() -> None:
    with pytest.raises(GameError, match="four hands of equal size"):
        solve([0b1, 0b10, 0b100, 0b11000], leader=0, trump=None, maximisers=(0,))
    with pytest.raises(GameError, match="four hands of equal size"):
        solve([0b1, 0b1, 0b100, 0b1000], leader=0, trump=None, maximisers=(0,))
    with pytest.raises(GameError, match="first lead"):
        solve([0b1, 0b10, 0b100, 0b1000], leader=0, trump=None, maximisers=(0,), first_card=1)


def suit_board(dealer: int = 0) -> Board:
    """North holds every spade, East every heart, South every diamond, West every club."""
    hands = (SUIT_MASKS[3], SUIT_MASKS[2], SUIT_MASKS[1], SUIT_MASKS[0])
    turned = {0: "2S", 1: "2H", 2: "2D", 3: "2C"}[dealer]
    return Board(1, dealer, hands, Card.from_str(turned))


def test_a_board_of_one_suit_a_hand_is_solved_as_a_person_sees_it() -> None:
    rows = {(r.contract, r.declarers, r.trump): r for r in analyse(suit_board(), every_count=True)}
    # North leads... no: East (the dealer's left) leads hearts, and North's spades are trump
    assert rows["alleen", (0,), Suit.SPADES].tricks == 13
    assert rows["abondance", (1,), Suit.HEARTS].tricks == 13
    assert rows["abondance", (1,), Suit.SPADES].tricks == 0  # North ruffs every heart and cashes spades
    assert rows["solo_slim", (2,), Suit.DIAMONDS].tricks == 13 and rows["solo_slim", (2,), Suit.DIAMONDS].exact
    assert rows["vraag", (0, 1), Suit.SPADES].tricks == 13
    # without trump every trick is won by its leader's suit: East leads hearts and keeps the lead
    assert rows["miserie", (1,), None].tricks == 13
    assert rows["miserie", (0,), None].tricks == 0
    assert not any(r.contract == "troel" for r in rows.values())
    assert all(r.exact == (r.low == r.high) and r.tricks == (r.low if r.exact else None) for r in rows.values())


@pytest.mark.parametrize("dealer", range(4))
def test_by_default_a_count_is_searched_as_far_as_a_tariff_reads_it(dealer: int) -> None:
    board = suit_board(dealer)
    full = analyse(board, every_count=True)
    default = analyse(board)
    assert [(r.contract, r.declarers, r.trump) for r in default] == [(r.contract, r.declarers, r.trump) for r in full]
    for row, known in zip(default, full, strict=True):
        assert known.exact and row.settled, (row, known)
        assert row.low <= known.low <= row.high, (row, known)
        # open exactly where no tariff reads further: a failed miserie, an abondance below 9 off the turned suit
        left_open = (
            (row.contract == "miserie" and known.low >= 1)
            or (row.contract == "abondance" and row.trump is not board.trump and known.low < 9)
            or (row.contract == "solo_slim" and known.low < 13)
        )
        assert row.exact == (not left_open or row.low == row.high == known.low), (row, known)
    by_key = {(r.contract, r.declarers, r.trump): r for r in default}
    lead = board.leader
    own_suit = [Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS]  # of each seat, N E S W
    assert by_key["abondance", (lead,), own_suit[lead]].tricks == 13  # the leader runs its suit
    other = (lead + 2) % 4
    assert by_key["miserie", (other,), None].tricks == 0  # made: the one count a miserie pays by
    failed = by_key["miserie", (lead,), None]  # the leader keeps the lead: failed, however badly
    assert (failed.low, failed.settled, failed.exact) == (1, True, False)


def test_without_a_budget_every_row_says_what_a_tariff_reads_on_random_boards() -> None:
    for board in deal_boards(2, 23):
        rows = analyse(board)
        assert all(row.settled for row in rows), [row for row in rows if not row.settled]
        for row in rows:
            if row.contract == "miserie":
                others = tuple(p for p in range(4) if p not in row.declarers)
                fails = reaches(
                    board.hands, 1, leader=board.leader, trump=None, maximisers=others, counted=row.declarers
                )
                assert (row.low, row.high) == ((1, row.high) if fails else (0, 0)), row
            elif row.contract == "abondance" and row.trump is not board.trump:
                assert row.trump is not None
                alone = {"leader": board.leader, "trump": row.trump.order, "maximisers": row.declarers}
                made = reaches(board.hands, 9, **alone)  # type: ignore[arg-type]
                assert (row.low >= 9 and row.exact) if made else (row.high <= 8), row


def test_a_known_range_starts_the_search_and_one_the_cards_rule_out_is_refused() -> None:
    hands = suit_board().hands
    position = {"leader": 1, "trump": None, "maximisers": (0, 2, 3), "counted": (1,)}
    assert bounds(hands, **position, within=(1, 13), budget=None) == (13, 13)  # type: ignore[arg-type]
    assert bounds(hands, **position, within=(1, 13), budget=0) == (1, 13)  # type: ignore[arg-type]
    # North alone in spades takes every trick: the quick tricks alone say so, and a range below is refused
    with pytest.raises(GameError, match=r"cannot lie in 0\.\.8"):
        bounds(hands, leader=0, trump=3, maximisers=(0,), within=(0, 8), budget=None)
    with pytest.raises(GameError, match="from 0 to 13"):
        bounds(hands, leader=0, trump=3, maximisers=(0,), within=(9, 14), budget=None)


def test_an_analysis_on_a_budget_gives_ranges_that_hold_the_exact_counts() -> None:
    exact = analyse(suit_board(2))
    for budget in (0, 10, 1_000):
        bounded = analyse(suit_board(2), budget=budget)
        assert [(r.contract, r.declarers, r.trump, r.leader) for r in bounded] == [
            (r.contract, r.declarers, r.trump, r.leader) for r in exact
        ]
        for rough, known in zip(bounded, exact, strict=True):
            assert rough.low <= known.low <= known.high <= rough.high, (budget, rough, known)


def test_each_vraag_pair_takes_what_its_opponents_pair_leaves() -> None:
    # analyse solves one game per split of the four seats into two pairs: every pair's row must be what that
    # pair's own search finds
    for board in deal_boards(2, 19):
        rows = {r.declarers: r for r in vraag_rows(board)}
        assert [r for r in analyse(board, budget=0) if r.contract == "vraag"] == [
            r for r in vraag_rows(board, budget=0)
        ]
        assert sorted(rows) == list(combinations(range(4), 2))
        for pair, row in rows.items():
            exact = solve(board.hands, leader=board.leader, trump=board.trump.order, maximisers=pair)
            assert (row.low, row.high) == (exact, exact), (board, pair)
            opponents = tuple(p for p in range(4) if p not in pair)
            assert row.low + rows[opponents].low == 13


@pytest.mark.parametrize("dealer", range(4))
def test_a_second_pass_finds_every_count_the_first_left_open(dealer: int) -> None:
    board = suit_board(dealer)
    first = analyse(board)
    assert any(not row.exact for row in first)  # a failed miserie, abondances below 9: ranges
    deeper = deepen(board, first, budget=None)
    assert deeper == analyse(board, every_count=True)
    assert all(row.exact for row in deeper)
    assert [row for row in deeper if row in first] == [row for row in first if row.exact]


def test_a_second_pass_on_a_budget_only_narrows_and_keeps_what_was_exact() -> None:
    board = deal_boards(1, 31)[0]
    first = analyse(board)
    deeper = deepen(board, first, budget=200_000)
    assert [(r.contract, r.declarers, r.trump, r.leader) for r in deeper] == [
        (r.contract, r.declarers, r.trump, r.leader) for r in first
    ]
    for rough, fine in zip(first, deeper, strict=True):
        assert rough.low <= fine.low <= fine.high <= rough.high, (rough, fine)
        if rough.exact:
            assert fine is rough
    failed = [(r, f) for r, f in zip(first, deeper, strict=True) if r.contract == "miserie" and r.low >= 1]
    assert failed and all(f.low > 1 for _, f in failed), failed  # random hands fail miserie by several tricks
    assert sum(r.exact for r in deeper) > sum(r.exact for r in first)


def three_aces_board() -> Board:
    """The first random board where a position holds three aces (troel with a forced first lead)."""
    for board in deal_boards(400, 41):
        declarer = troel_holder(board)
        if declarer is not None and any(not board.hands[declarer] & ace.bit for ace in ACES):
            return board
    raise AssertionError("no board with three aces in one hand among 400")


def test_each_row_is_answered_by_the_search_of_its_own_contract() -> None:
    """The second pass asks each row its own question again: the leader, trump, sides and troel's forced lead the
    first pass used, so a range it narrows is the same contract's."""
    troel = three_aces_board()
    assert any(row.contract == "troel" and row.exact for row in analyse(troel))
    for board in (troel, deal_boards(1, 43)[0]):
        for row in analyse(board):
            if row.contract == "miserie":
                assert reaches(board.hands, 1, **question(board, row)) is (row.low >= 1), row
            elif row.exact:
                assert bounds(board.hands, **question(board, row), budget=None) == (row.low, row.high), row
