"""``games.duplicate.validation``: what a duplicate board decides about a line and a full deal record.

The boards are made by hand, so that who holds the aces (and so who plays troel, with whom) is known.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games.cards import CARDS, Card, mask
from games.duplicate import Board, board_dealer, deal_board, dealer_seat, positions_by_seat, troel_holder
from games.duplicate.validation import line_problems, record_problems, seat_hands
from games.rulesets import RuleSet

IWWA = games.find("iwwa")
NO_FOUR_ACES = IWWA.with_(name="iwwa-no-four-aces", four_aces_troel=False)


def make_board(number: int, placed: dict[str, int], turned: str | None = None) -> Board:
    """Board ``number`` with the cards of ``placed`` ("AS": position) where said, the rest dealt N, E, S, W in
    index order up to 13 a hand; the turned card is ``turned`` or the dealer's first card that is no ace."""
    hands: list[list[Card]] = [[], [], [], []]
    for text, position in placed.items():
        hands[position].append(Card.from_str(text))
    rest = [card for card in CARDS if str(card) not in placed]
    for position in range(4):
        while len(hands[position]) < 13:
            hands[position].append(rest.pop(0))
    dealer = board_dealer(number)
    card = Card.from_str(turned) if turned else next(c for c in hands[dealer] if c.rank != 14)
    h = [mask(hand) for hand in hands]
    return Board(number, dealer, (h[0], h[1], h[2], h[3]), card)


def troel(deal: int, dealer: int, declarers: list[int], **more: Any) -> dict[str, Any]:
    return {"deal": deal, "dealer": dealer, "contract": "troel", "declarers": declarers, "tricks": 9, **more}


def codes(errors: list[games.FieldError]) -> list[str]:
    return [error.code for error in errors]


# East (seat 2 at a table of four on board 1) holds three aces, South the ace of spades.
THREE_ACES_EAST = make_board(1, {"AC": 1, "AD": 1, "AH": 1, "AS": 2})


def test_troel_by_the_holder_of_three_aces_and_the_fourth_aces_holder_fits_the_board() -> None:
    assert line_problems(troel(1, 0, [1, 2]), THREE_ACES_EAST, IWWA, 4) == []
    assert line_problems(troel(1, 0, [2, 1]), THREE_ACES_EAST, IWWA, 4) == []  # the order of the seats is free


def test_troel_by_seats_without_three_aces_is_refused_naming_them_and_who_holds_them() -> None:
    (error,) = line_problems(troel(1, 0, [0, 2]), THREE_ACES_EAST, IWWA, 4)
    assert error.code == "troel_without_three_aces"
    assert error.field == "declarers"
    assert error.seats == (2, 0)  # the one with more aces first
    assert error.values["holder"] == 1
    assert "seat 2 does" in error.message and "seats 3 and 1" in error.message


def test_troel_with_another_partner_than_the_fourth_ace_s_holder_is_refused() -> None:
    (error,) = line_problems(troel(1, 0, [1, 3]), THREE_ACES_EAST, IWWA, 4)
    assert error.code == "troel_wrong_partner"
    assert error.seats == (1, 3, 2)  # the holder, the partner named, the right partner
    assert error.values["card"] == "AS"
    assert "seat 3" in error.message and "seat 4" in error.message


def test_troel_on_a_board_where_nobody_holds_three_aces_is_refused() -> None:
    spread = make_board(1, {"AC": 0, "AD": 1, "AH": 2, "AS": 3})
    (error,) = line_problems(troel(1, 0, [0, 1]), spread, IWWA, 4)
    assert error.code == "troel_without_three_aces"
    assert "holder" not in error.values and "nobody does" in error.message


FOUR_ACES_WEST = make_board(1, {"AC": 3, "AD": 3, "AH": 3, "AS": 3, "KH": 2, "QH": 0})


def test_with_four_aces_the_partner_holds_the_highest_heart_the_declarer_lacks() -> None:
    assert line_problems(troel(1, 0, [3, 2]), FOUR_ACES_WEST, IWWA, 4) == []
    (error,) = line_problems(troel(1, 0, [3, 0]), FOUR_ACES_WEST, IWWA, 4)
    assert error.code == "troel_wrong_partner"
    assert error.values["card"] == "KH" and error.seats == (3, 0, 2)


def test_four_aces_is_no_troel_where_the_rule_set_says_so() -> None:
    (error,) = line_problems(troel(1, 0, [3, 2]), FOUR_ACES_WEST, NO_FOUR_ACES, 4)
    assert error.code == "four_aces_not_troel"
    assert error.seats == (3,)


def test_troel_s_trump_is_the_fourth_ace_s_suit_and_hearts_with_four_aces() -> None:
    assert line_problems(troel(1, 0, [1, 2], trump="S"), THREE_ACES_EAST, IWWA, 4) == []
    (error,) = line_problems(troel(1, 0, [1, 2], trump="H"), THREE_ACES_EAST, IWWA, 4)
    assert error.code == "trump_not_troel" and error.field == "trump"
    assert error.values["trump"] == "S" and error.values["given"] == "H"
    assert line_problems(troel(1, 0, [3, 2], trump="H"), FOUR_ACES_WEST, IWWA, 4) == []
    (error,) = line_problems(troel(1, 0, [3, 2], trump="C"), FOUR_ACES_WEST, IWWA, 4)
    assert error.code == "trump_not_troel" and error.values["aces"] == 4


def test_a_trump_given_for_a_turned_trump_contract_must_be_the_board_s_turned_suit() -> None:
    board = make_board(1, {}, turned="5C")  # North deals board 1 and holds the clubs
    vraag = {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [0, 2], "tricks": 8}
    assert line_problems(vraag, board, IWWA, 4) == []
    assert line_problems({**vraag, "trump": "C"}, board, IWWA, 4) == []
    (error,) = line_problems({**vraag, "trump": "H"}, board, IWWA, 4)
    assert error.code == "trump_not_turned" and error.field == "trump"
    assert error.values["trump"] == "C" and error.values["turned"] == "5C"
    assert "5C" in error.message


def test_a_chosen_trump_is_the_declarer_s() -> None:
    board = make_board(1, {}, turned="5C")
    for trump in "CDHS":
        line = {"deal": 1, "dealer": 0, "contract": "abondance", "declarers": [1], "tricks": 9, "level": 9}
        assert line_problems({**line, "trump": trump}, board, IWWA, 4) == []


def test_deal_one_of_a_duplicate_sheet_is_dealt_by_seat_one() -> None:
    (error,) = line_problems(troel(1, 2, [1, 2]), THREE_ACES_EAST, IWWA, 4)
    assert error.code == "dealer_not_boards" and error.field == "dealer"
    assert error.seats == (2, 0)
    assert "seat 1" in error.message and "seat 3" in error.message


def test_later_deals_lay_the_hands_out_from_the_line_s_dealer() -> None:
    # board 2: East deals. Counter-clockwise, deal 2 is dealt by seat 4, who plays East: seat 1 plays South.
    board = make_board(2, {"AC": 2, "AD": 2, "AH": 2, "AS": 3})
    dealer = dealer_seat(2, 4, clockwise=False)
    assert dealer == 3
    assert positions_by_seat(4, dealer, board.dealer) == {3: 1, 0: 2, 1: 3, 2: 0}
    ccw = IWWA.with_(name="iwwa-ccw", rotation=games.rulesets.Rotation.COUNTER_CLOCKWISE)
    assert line_problems(troel(2, dealer, [0, 1]), board, ccw, 4) == []
    assert codes(line_problems(troel(2, dealer, [2, 3]), board, ccw, 4)) == ["troel_without_three_aces"]
    # clockwise, deal 2 is dealt by seat 2, and seat i plays position i
    assert line_problems(troel(2, 1, [2, 3]), board, IWWA, 4) == []


def test_at_a_table_of_five_the_dealer_holds_no_hand_and_the_seat_on_its_right_plays_the_dealer_s() -> None:
    # board 1: North deals. Seat 1 deals and sits out; seat 5 plays North, seats 2, 3, 4 East, South, West.
    board = make_board(1, {"AC": 0, "AD": 0, "AH": 0, "AS": 2})
    hands = seat_hands(board, 5, 0)
    assert hands[0] == [] and mask(hands[4]) == board.hands[0]
    assert line_problems(troel(1, 0, [4, 2]), board, IWWA, 5) == []
    (error,) = line_problems(troel(1, 0, [0, 2]), board, IWWA, 5)
    assert error.code == "declarer_sits_out" and error.seats == (0,)
    assert codes(line_problems(troel(1, 0, [1, 2]), board, IWWA, 5)) == ["troel_without_three_aces"]


def test_what_the_engine_cannot_read_is_left_to_the_engine() -> None:
    for line in (
        None,
        [],
        {"deal": 1},
        {"deal": 1, "dealer": 9, "contract": "troel"},
        {"deal": 1, "dealer": "0", "contract": "troel"},
        {"deal": 1, "dealer": 0, "contract": "nonsense", "declarers": [0, 2]},
        {"deal": 1, "dealer": 0, "contract": "troel", "declarers": "1,2"},
        {"deal": 1, "dealer": 0, "contract": "troel", "declarers": [0, 0]},
        {"deal": 1, "dealer": 0, "contract": "troel", "declarers": [0]},
        {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [0, 2], "trump": "x"},
        {"deal": 1, "dealer": 0, "contract": "pass"},
    ):
        assert line_problems(line, THREE_ACES_EAST, IWWA, 4) == []


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=10**6),
    number=st.integers(min_value=1, max_value=24),
    players=st.sampled_from([4, 5]),
    clockwise=st.booleans(),
)
def test_on_any_board_troel_fits_exactly_its_holder_and_partner(
    seed: int, number: int, players: int, clockwise: bool
) -> None:
    board = deal_board(number, seed)
    rules: RuleSet = IWWA if clockwise else IWWA.with_(rotation=games.rulesets.Rotation.COUNTER_CLOCKWISE)
    dealer = dealer_seat(number, players, clockwise=clockwise)
    seat_of = {position: seat for seat, position in positions_by_seat(players, dealer, board.dealer).items()}
    holder = troel_holder(board)
    active = sorted(seat_of.values())
    fitting = []
    for i, a in enumerate(active):
        for b in active[i + 1 :]:
            if not line_problems(troel(number, dealer, [a, b]), board, rules, players):
                fitting.append({a, b})
    if holder is None:
        assert fitting == []
    else:
        (pair,) = fitting
        assert seat_of[holder] in pair
        partner = (pair - {seat_of[holder]}).pop()
        hand = board.hands[holder]
        aces = [card for card in CARDS if card.rank == 14]
        if sum(1 for ace in aces if hand & ace.bit) == 3:
            fourth = next(ace for ace in aces if not hand & ace.bit)
            assert mask(seat_hands(board, players, dealer)[partner]) & fourth.bit


# -- full deal records ---------------------------------------------------------------------------------------------


def record_of(board: Board, players: int, dealer: int) -> dict[str, Any]:
    return {
        "rules": "iwwa",
        "players": players,
        "dealer": dealer,
        "deal": board.number,
        "turned": str(board.turned),
        "hands": [[str(card) for card in hand] for hand in seat_hands(board, players, dealer)],
    }


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**6), number=st.integers(1, 16), players=st.sampled_from([4, 5]))
def test_a_record_dealt_as_the_board_fits_it(seed: int, number: int, players: int) -> None:
    board = deal_board(number, seed)
    assert record_problems(record_of(board, players, dealer_seat(number, players)), board) == []


def test_a_record_with_other_hands_or_another_turned_card_is_refused() -> None:
    board = THREE_ACES_EAST
    record = record_of(board, 4, 0)
    record["hands"][1], record["hands"][2] = record["hands"][2], record["hands"][1]
    errors = record_problems(record, board)
    assert codes(errors) == ["hand_not_boards", "hand_not_boards"]
    assert [e.field for e in errors] == ["hands[1]", "hands[2]"]
    assert "seat 2 takes board 1's E hand" in errors[0].message
    other = record_of(board, 4, 0)
    other["turned"] = next(str(c) for c in CARDS if c != board.turned)
    (error,) = record_problems(other, board)
    assert error.code == "turned_not_boards" and error.field == "turned"
    moved = record_of(board, 4, 1)
    assert codes(record_problems(moved, board)) == ["dealer_not_boards"]


def test_a_record_dealt_from_the_board_is_a_valid_deal_record() -> None:
    board = deal_board(3, 42)
    record = {**record_of(board, 4, dealer_seat(3, 4)), "bids": [], "plays": []}
    record["line"] = {"contract": "pass"}
    del record["bids"]
    assert games.check_record(record).line["contract"] == "pass"
