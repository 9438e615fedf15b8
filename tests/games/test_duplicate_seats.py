"""Which seat picks up which hand of a board: every position once, the dealer's hand to the seat that deals
(at a table of five, to the seat on the sitting-out dealer's right), clockwise after it; the same cards a table
of four would play, the turned card with the player who took it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.dealing import active_seats
from games.duplicate import board_dealer, deal_board, dealer_seat, hands_by_seat, positions_by_seat
from games.errors import GameError


def test_a_table_of_four_dealing_clockwise_from_seat_one_plays_seat_i_as_position_i_on_every_board() -> None:
    for number in range(1, 25):
        dealer = dealer_seat(number, 4)
        assert positions_by_seat(4, dealer, board_dealer(number)) == {0: 0, 1: 1, 2: 2, 3: 3}


def test_at_a_table_of_five_the_dealer_sits_out_and_the_seat_on_its_right_plays_the_dealer_hand() -> None:
    # board 1: North deals; seat 1 (index 0) deals and sits out, seat 5 (index 4) on its right plays North
    assert positions_by_seat(5, 0, 0) == {1: 1, 2: 2, 3: 3, 4: 0}
    # board 2: East deals; seat 2 sits out, seat 1 plays East, seats 3, 4, 5 play South, West, North
    assert positions_by_seat(5, dealer_seat(2, 5), board_dealer(2)) == {2: 2, 3: 3, 4: 0, 0: 1}


def test_a_counter_clockwise_rotation_moves_the_hands_with_the_deal() -> None:
    assert dealer_seat(2, 4, clockwise=False) == 3
    # seat 4 deals board 2 (East's deal): seat 4 plays East, seat 1 South
    assert positions_by_seat(4, 3, 1) == {3: 1, 0: 2, 1: 3, 2: 0}


@given(st.integers(1, 48), st.sampled_from([4, 5]), st.booleans(), st.integers(0, 2**31))
def test_every_seat_that_plays_holds_the_cards_the_engine_would_deal_it(
    number: int, players: int, clockwise: bool, seed: int
) -> None:
    board = deal_board(number, seed)
    dealer = dealer_seat(number, players, clockwise=clockwise)
    hands = hands_by_seat(board.hands, players, dealer, board.dealer)
    playing = active_seats(players, dealer)
    assert sorted(s for s, hand in enumerate(hands) if hand) == sorted(playing)
    assert sorted(hands) == sorted([*board.hands, *([0] if players == 5 else [])])
    # the last seat dealt (the dealer, or at five the seat on the dealer's right) holds the turned card
    assert hands[playing[-1]] & board.turned.bit
    # the first to lead (the dealer's left) holds the board's leader's hand
    assert hands[playing[0]] == board.hands[board.leader]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: board_dealer(0), "board number"),
        (lambda: dealer_seat(1, 6), "4 or 5"),
        (lambda: dealer_seat(0, 4), "deal number"),
        (lambda: positions_by_seat(4, 4, 0), "dealer's seat"),
        (lambda: positions_by_seat(3, 0, 0), "4 or 5"),
    ],
)
def test_impossible_tables_and_numbers_are_refused_in_words(call: object, message: str) -> None:
    with pytest.raises(GameError, match=message):
        call()  # type: ignore[operator]
