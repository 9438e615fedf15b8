"""PBN export and import of duplicate boards: the dealing machines' format, with the turned card in its own tag.

The hand-written deal below is built so that each hand is read at a glance: every
position has AKQ2, JT9, 876 and 543 in different suits.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.cards import SUIT_MASKS, SUITS, Card, mask
from games.duplicate import TURNED_TAG, Board, deal_boards, from_pbn, to_pbn
from games.duplicate.pbn import card_from_pbn, card_to_pbn, hand_to_pbn
from games.errors import GameError

NORTH = "AKQ2.JT9.876.543"
EAST = "JT9.AKQ2.543.876"
SOUTH = "876.543.AKQ2.JT9"
WEST = "543.876.JT9.AKQ2"
DEAL_FROM_EAST = f"E:{EAST} {SOUTH} {WEST} {NORTH}"

MACHINE_FILE = f"""% PBN 2.1
% EXPORT
%Creator: a dealing machine
[Event "Club \\"night\\" ]"]
[Site "Hemiksem"]
[Board "7"]
[West "Ann"]
[Dealer "S"]
[Vulnerable "Both"]
[Deal "{DEAL_FROM_EAST}"]
[{TURNED_TAG} "D2"]
{{A comment about the board,
over two lines [Deal "N:nonsense"]}}
[Auction "S"]
Pass Pass ; nobody bids
[Contract "Pass"]

[Board "8"]
[Dealer "w"]
[Deal "n:akq2.jt9.876.543 jt9.akq2.543.876 876.543.akq2.jt9 543.876.jt9.akq2"]
[{TURNED_TAG} "cq"]
"""


SUIT = {suit.value: SUIT_MASKS[suit.order] for suit in SUITS}


def card(text: str) -> Card:
    return Card.from_str(text)


def hand(*texts: str) -> int:
    return mask(card(t) for t in texts)


NORTH_CARDS = hand("AS", "KS", "QS", "2S", "JH", "10H", "9H", "8D", "7D", "6D", "5C", "4C", "3C")
EAST_CARDS = hand("JS", "10S", "9S", "AH", "KH", "QH", "2H", "5D", "4D", "3D", "8C", "7C", "6C")
SOUTH_CARDS = hand("8S", "7S", "6S", "5H", "4H", "3H", "AD", "KD", "QD", "2D", "JC", "10C", "9C")
WEST_CARDS = hand("5S", "4S", "3S", "8H", "7H", "6H", "JD", "10D", "9D", "AC", "KC", "QC", "2C")


def one_board(**tags: str | None) -> str:
    """A one-board file; a tag given as None is left out."""
    values: dict[str, str | None] = {
        "Board": "7",
        "Dealer": "S",
        "Deal": f"N:{NORTH} {EAST} {SOUTH} {WEST}",
        TURNED_TAG: "D2",
    }
    values.update(tags)
    return "\n".join(f'[{name} "{value}"]' for name, value in values.items() if value is not None) + "\n"


# --- import of a known deal ------------------------------------------------------------------------------------------


def test_a_machine_file_imports_to_the_hands_it_describes() -> None:
    first, second = from_pbn(MACHINE_FILE)
    assert first == Board(7, 2, (NORTH_CARDS, EAST_CARDS, SOUTH_CARDS, WEST_CARDS), card("2D"))
    assert first.trump.value == "D" and first.leader == 3
    assert second == Board(8, 3, (NORTH_CARDS, EAST_CARDS, SOUTH_CARDS, WEST_CARDS), card("QC"))


def test_crlf_line_ends_read_the_same() -> None:
    assert from_pbn(MACHINE_FILE.replace("\n", "\r\n")) == from_pbn(MACHINE_FILE)


def test_a_deal_may_start_from_any_compass() -> None:
    hands = [NORTH, EAST, SOUTH, WEST]
    expected = from_pbn(one_board())
    for first in range(4):
        rotated = " ".join(hands[(first + i) % 4] for i in range(4))
        assert from_pbn(one_board(Deal="NESW"[first] + ":" + rotated)) == expected


def test_a_void_may_be_written_empty_or_as_a_dash_and_the_ten_as_10() -> None:
    """N holds the spades, E the hearts, S the diamonds, W the clubs: three voids each."""
    expected = [Board(7, 2, (SUIT["S"], SUIT["H"], SUIT["D"], SUIT["C"]), card("2D"))]
    dashed = "N:AKQJT98765432.-.-.- -.AKQJT98765432.-.- -.-.AKQJT98765432.- -.-.-.AKQJT98765432"
    empty = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJ1098765432"
    assert from_pbn(one_board(Deal=dashed)) == expected
    assert from_pbn(one_board(Deal=empty)) == expected


def test_the_dealer_tag_may_be_left_out_the_turned_cards_holder_deals() -> None:
    assert from_pbn(one_board(Dealer=None))[0].dealer == 2


@pytest.mark.parametrize("text", ["HT", "H10", "ht", "TH", "10H", "th", " HT "])
def test_the_turned_card_is_read_in_pbn_and_engine_notation(text: str) -> None:
    assert card_from_pbn(text) is card("10H")


def test_the_turned_card_is_written_suit_then_rank() -> None:
    assert [card_to_pbn(card(t)) for t in ("10H", "7S", "AC", "2D")] == ["HT", "S7", "CA", "D2"]


def test_a_file_without_boards_gives_none_and_tags_about_the_event_only_are_skipped() -> None:
    assert from_pbn("") == []
    assert from_pbn("% PBN 2.1\n\n") == []
    assert len(from_pbn('[Event "Club night"]\n[Site "Boom"]\n\n' + one_board())) == 1


def test_boards_without_a_blank_line_between_them_are_still_told_apart() -> None:
    boards = from_pbn(one_board() + one_board(Board="8"))
    assert [b.number for b in boards] == [7, 8]


# --- export ----------------------------------------------------------------------------------------------------------


def test_export_writes_the_tags_of_each_board() -> None:
    board = Board(7, 2, (NORTH_CARDS, EAST_CARDS, SOUTH_CARDS, WEST_CARDS), card("2D"))
    text = to_pbn([board], event='Club "night"')
    assert text.startswith("% PBN 2.1\n")
    assert text.endswith(
        '[Event "Club \\"night\\""]\n'
        '[Board "7"]\n'
        '[Dealer "S"]\n'
        '[Vulnerable "None"]\n'
        f'[Deal "N:{NORTH} {EAST} {SOUTH} {WEST}"]\n'
        f'[{TURNED_TAG} "D2"]\n'
    )


def test_a_hand_lists_spades_hearts_diamonds_clubs_high_to_low_with_empty_voids() -> None:
    assert hand_to_pbn(hand("2S", "AS", "10S", "KD", "3D", "QD", "9S", "5S", "4S", "3S", "6S", "7S", "8S")) == (
        "AT98765432..KQ3."
    )


def test_boards_are_separated_by_a_blank_line() -> None:
    text = to_pbn(deal_boards(3, 5))
    assert text.count("\n\n") == 3  # after the header, and between the three boards


@given(st.integers(min_value=0, max_value=2**40), st.integers(min_value=1, max_value=12))
def test_export_then_import_gives_the_same_boards(seed: int, count: int) -> None:
    boards = deal_boards(count, seed)
    assert from_pbn(to_pbn(boards, event="Round 1")) == boards
    assert from_pbn(to_pbn(boards).replace("\n", "\r\n")) == boards


# --- malformed files -------------------------------------------------------------------------------------------------

NO_13 = f"N:{NORTH} {EAST} {SOUTH} 543.876.JT9.AKQ"
TWICE = f"N:{NORTH} {EAST} {SOUTH} 543.876.JT9.AKQA"


@pytest.mark.parametrize(
    ("tags", "message"),
    [
        ({"Deal": None}, r'board 7: no \[Deal "\.\.\."\] tag'),
        ({TURNED_TAG: None}, rf'board 7: no \[{TURNED_TAG} "\.\.\."\] tag: a Wiezen board needs the turned card'),
        ({TURNED_TAG: "X9"}, rf"board 7: {TURNED_TAG}: unknown card 'X9'"),
        ({TURNED_TAG: "2H"}, r"board 7: the turned card 2H is in the hand of E, not of the dealer S"),
        ({"Dealer": "Q"}, r"board 7: the dealer is N, E, S or W, not 'Q'"),
        ({"Dealer": "North"}, r"board 7: the dealer is N, E, S or W, not 'North'"),
        ({"Deal": NO_13}, r"board 7: the hand of W has 12 cards, not 13"),
        ({"Deal": f"N:AKQ.JT92.876.543 {EAST} {SOUTH} {WEST}"}, r"board 7: 2H is dealt twice, to N and to E"),
        ({"Deal": TWICE}, r"board 7: the hand of W: AC is written twice"),
        ({"Deal": f"N:{NORTH} {EAST} {SOUTH} 543.876.JT9.AKQX"}, r"board 7: the hand of W: unknown card 'X' in clubs"),
        ({"Deal": f"N:{NORTH} {EAST} {SOUTH} 543.876.JT9.AKQ1"}, r"board 7: the hand of W: unknown card '1'"),
        ({"Deal": f"N:{NORTH} {EAST} {SOUTH}"}, r"board 7: the Deal has 3 hands, not 4"),
        ({"Deal": f"N:{NORTH} {EAST} {SOUTH} -"}, r"board 7: the hand of W is not given"),
        ({"Deal": f"N:{NORTH} {EAST} {SOUTH} 543.876.JT9AKQ2"}, r"board 7: the hand of W is written as four suits"),
        ({"Deal": f"{NORTH} {EAST} {SOUTH} {WEST}"}, r"board 7: the Deal starts with a compass and a colon"),
        ({"Deal": f"X:{NORTH} {EAST} {SOUTH} {WEST}"}, r"board 7: the Deal's first compass is N, E, S or W"),
        ({"Board": None}, r'PBN game 1: no \[Board "\.\.\."\] tag'),
        ({"Board": "0"}, r"PBN game 1: the board number is 1 or more, not '0'"),
        ({"Board": "seven"}, r"PBN game 1: the board number is 1 or more, not 'seven'"),
    ],
)
def test_a_malformed_board_is_refused_naming_it(tags: dict[str, str | None], message: str) -> None:
    with pytest.raises(GameError, match=message):
        from_pbn(one_board(**tags))


def test_the_second_malformed_board_is_named_not_the_first() -> None:
    with pytest.raises(GameError, match="board 9: the hand of W has 12 cards"):
        from_pbn(one_board() + "\n" + one_board(Board="9", Deal=NO_13))


def test_a_board_number_given_twice_is_refused() -> None:
    with pytest.raises(GameError, match="board 7 is given twice in the PBN file"):
        from_pbn(one_board() + "\n" + one_board())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (one_board() + "{ never closed\n", r"PBN line 5: a commentary opened with \{ is never closed"),
        ("\n[Board 7]\n", r'PBN line 2: a tag pair is written \[Name "value"\]'),
        ('[Board "7"\n', r"PBN line 1: the tag pair Board is not closed"),
        ('[Board "7', r"PBN line 1: the tag pair Board is not closed"),
    ],
)
def test_a_file_that_is_not_pbn_is_refused_naming_the_line(text: str, message: str) -> None:
    with pytest.raises(GameError, match=message):
        from_pbn(text)
