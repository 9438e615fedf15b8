"""Boards of duplicate Wiezen: deals fixed in advance, reproducible from a seed, checked on construction."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.cards import SUIT_MASKS, Card, Suit, cards_of, mask
from games.dealing import deal_packets, shuffled
from games.duplicate import Board, aces_held, deal_board, deal_boards, holder, troel_first_lead, troel_holder
from games.errors import GameError

CLUBS, DIAMONDS, HEARTS, SPADES = SUIT_MASKS
# N holds the clubs, E the diamonds, S the hearts, W the spades: easy to read, easy to break.
BY_SUIT = (CLUBS, DIAMONDS, HEARTS, SPADES)


def card(text: str) -> Card:
    return Card.from_str(text)


def by_suit(**changes: object) -> Board:
    values: dict[str, object] = {"number": 1, "dealer": 0, "hands": BY_SUIT, "turned": card("7C")} | changes
    return Board(**values)  # type: ignore[arg-type]


def assert_valid(board: Board) -> None:
    assert [hand.bit_count() for hand in board.hands] == [13, 13, 13, 13]
    assert board.hands[0] | board.hands[1] | board.hands[2] | board.hands[3] == (1 << 52) - 1
    assert sum(board.hands) == (1 << 52) - 1  # disjoint: no bit counted twice
    assert board.hands[board.dealer] & board.turned.bit


# --- a board ---------------------------------------------------------------------------------------------------------


def test_a_board_knows_its_trump_and_its_first_leader() -> None:
    board = by_suit(dealer=2, turned=card("QH"))
    assert board.trump is Suit.HEARTS
    assert board.leader == 3
    assert by_suit(dealer=3, hands=(CLUBS, DIAMONDS, SPADES, HEARTS), turned=card("2H")).leader == 0


def test_a_board_lists_the_cards_of_a_position() -> None:
    assert by_suit().cards(1) == cards_of(DIAMONDS)
    assert {c.suit for c in by_suit().cards(3)} == {Suit.SPADES}


def test_a_board_is_frozen_and_compares_by_value() -> None:
    assert by_suit() == by_suit()
    assert by_suit() != by_suit(number=2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        by_suit().dealer = 1  # type: ignore[misc]


def test_holder_finds_the_position_of_a_card() -> None:
    board = by_suit()
    assert [holder(board, card(t)) for t in ("AC", "2D", "10H", "KS")] == [0, 1, 2, 3]


def test_aces_held_and_the_troel_holder() -> None:
    assert aces_held(by_suit()) == (1, 1, 1, 1)
    assert troel_holder(by_suit()) is None
    # N takes AD from E and AH from S, and gives them 2C and 3C: N holds AC AD AH, W still AS.
    north = CLUBS ^ mask([card("2C"), card("3C")]) | mask([card("AD"), card("AH")])
    east = DIAMONDS ^ card("AD").bit | card("2C").bit
    south = HEARTS ^ card("AH").bit | card("3C").bit
    board = Board(1, 0, (north, east, south, SPADES), card("AC"))
    assert aces_held(board) == (3, 0, 0, 1)
    assert troel_holder(board) == 0


def test_troel_s_first_lead_is_the_ace_the_holder_of_three_lacks_and_there_is_none_with_four() -> None:
    assert troel_first_lead(by_suit()) is None  # one ace each: no troel
    # N takes AD from E and AH from S (three aces, W keeps AS); then AS from W too (four).
    north = CLUBS ^ mask([card("2C"), card("3C")]) | mask([card("AD"), card("AH")])
    east = DIAMONDS ^ card("AD").bit | card("2C").bit
    south = HEARTS ^ card("AH").bit | card("3C").bit
    assert troel_first_lead(Board(1, 0, (north, east, south, SPADES), card("AC"))) == card("AS")
    four = north ^ card("4C").bit | card("AS").bit
    west = SPADES ^ card("AS").bit | card("4C").bit
    board = Board(1, 0, (four, east, south, west), card("AC"))
    assert aces_held(board) == (4, 0, 0, 0)
    assert troel_first_lead(board) is None


# --- invalid boards --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"number": 0}, "board number is 1 or more, not 0"),
        ({"number": True}, "board number is 1 or more"),
        ({"dealer": 4}, r"board 1: the dealer is a position 0\.\.3 \(N, E, S, W\), not 4"),
        ({"dealer": -1}, "the dealer is a position"),
        ({"hands": (CLUBS, DIAMONDS, HEARTS)}, "board 1: a board has 4 hands"),
        ({"hands": (CLUBS, DIAMONDS, HEARTS, SPADES ^ (1 << 51))}, "board 1: the hand of W has 12 cards, not 13"),
        ({"hands": (CLUBS, DIAMONDS, HEARTS, SPADES | 1 << 52)}, "the hand of W is not a set of cards"),
        ({"hands": (CLUBS, DIAMONDS, HEARTS, -1)}, "the hand of W is not a set of cards"),
        ({"hands": (CLUBS, CLUBS, HEARTS, SPADES)}, r"board 1: 2C, 3C, .*AC dealt twice \(again to E\)"),
        ({"turned": card("7D")}, r"board 1: the turned card 7D is not in the dealer's hand \(N\)"),
        ({"turned": "7C"}, "the turned card must be a Card"),
    ],
)
def test_an_impossible_board_raises_a_readable_game_error(changes: dict[str, object], message: str) -> None:
    with pytest.raises(GameError, match=message):
        by_suit(**changes)


def test_two_hands_sharing_a_card_are_refused_even_when_each_has_thirteen() -> None:
    east = DIAMONDS ^ card("2D").bit | card("2C").bit  # 2C twice, 2D nowhere
    with pytest.raises(GameError, match=r"board 3: 2C dealt twice \(again to E\)"):
        Board(3, 0, (CLUBS, east, HEARTS, SPADES), card("AC"))


# --- dealing boards --------------------------------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_boards() -> None:
    assert deal_boards(16, 2024) == deal_boards(16, 2024)
    assert deal_board(5, 2024) == deal_boards(16, 2024)[4]


def test_different_seeds_give_different_boards() -> None:
    first, second = deal_boards(8, 1), deal_boards(8, 2)
    assert all(a.hands != b.hands for a, b in zip(first, second, strict=True))


def test_boards_of_one_set_are_different_deals() -> None:
    boards = deal_boards(32, 7)
    assert len({board.hands for board in boards}) == 32


def test_the_dealer_rotates_n_e_s_w_as_in_bridge() -> None:
    boards = deal_boards(9, 3)
    assert [board.number for board in boards] == list(range(1, 10))
    assert [board.dealer for board in boards] == [0, 1, 2, 3, 0, 1, 2, 3, 0]


def test_a_board_is_dealt_four_four_five_from_the_derived_seed() -> None:
    """The seed formula is published: a board set printed today is dealt the same way tomorrow."""
    board = deal_board(6, 11)
    dealt = deal_packets(shuffled(52, 11 * 1000003 + 6), 4, 1, (4, 4, 5))
    assert board.dealer == 1
    assert board.hands == tuple(mask(hand) for hand in dealt.hands)
    assert board.turned is dealt.turned
    assert dealt.turned_seat == 1


@pytest.mark.parametrize("count", [0, -1])
def test_a_set_has_at_least_one_board(count: int) -> None:
    with pytest.raises(GameError, match="1 board or more"):
        deal_boards(count, 1)


def test_a_board_number_starts_at_one() -> None:
    with pytest.raises(GameError, match="board number is 1 or more, not 0"):
        deal_board(0, 1)


@given(st.integers(min_value=0, max_value=2**40), st.integers(min_value=1, max_value=200))
def test_every_dealt_board_is_valid(seed: int, number: int) -> None:
    board = deal_board(number, seed)
    assert_valid(board)
    assert board.number == number
    assert board.dealer == (number - 1) % 4
    assert holder(board, board.turned) == board.dealer
    assert sum(aces_held(board)) == 4


@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=0, max_value=4))
def test_a_table_of_five_dealt_from_the_same_pack_gets_the_boards_hands(seed: int, real_dealer: int) -> None:
    """The module's claim: at a five-table the dealer deals the four others, the last card (turned) going to the
    seat on the dealer's right, which therefore plays the board's dealer position, the others following clockwise."""
    pack = shuffled(52, seed)
    board_dealer = 2
    four = deal_packets(pack, 4, board_dealer, (4, 4, 5))
    five = deal_packets(pack, 5, real_dealer, (4, 4, 5))
    on_the_right = (real_dealer + 4) % 5
    assert five.turned_seat == on_the_right and five.turned is four.turned
    assert five.hands[real_dealer] == []
    for k in range(1, 5):  # clockwise from the dealer's left: k = 4 is the board's dealer and the real dealer's right
        assert five.hands[(real_dealer + k) % 5] == four.hands[(board_dealer + k) % 4]
