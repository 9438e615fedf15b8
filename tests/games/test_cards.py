"""Cards and dealing (RULES.md §1): notation, bit sets, decks, seeded dealing, the turned card, the cut.

Expected hands are worked out by hand from the packet order: packets go clockwise from the
dealer's left, so with 4-4-5 at a table of four the dealer's left gets cards 0-3, 16-19 and 32-36
of the pack and the dealer cards 12-15, 28-31 and 47-51, the last of which is turned.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cards import CARDS, SUIT_MASKS, SUITS, Card, Suit, cards_of, deck, mask
from games.dealing import active_seats, cut, deal_packets, gather_and_cut, shuffled
from games.errors import GameError

RANK_TEXTS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
ALL_NOTATIONS = [rank + suit for suit in "CDHS" for rank in RANK_TEXTS]


def cards(*texts: str) -> list[Card]:
    return [Card.from_str(t) for t in texts]


# --- notation ------------------------------------------------------------------------------------------------------


def test_there_are_52_distinct_notations() -> None:
    assert len(set(ALL_NOTATIONS)) == 52
    assert len({Card.from_str(s) for s in ALL_NOTATIONS}) == 52


@pytest.mark.parametrize("text", ALL_NOTATIONS)
def test_every_card_notation_round_trips(text: str) -> None:
    assert str(Card.from_str(text)) == text


@pytest.mark.parametrize("text", ALL_NOTATIONS)
def test_lower_case_notation_reads_the_same_card(text: str) -> None:
    assert Card.from_str(text.lower()) is Card.from_str(text)


@pytest.mark.parametrize("suit", "CDHS")
def test_t_is_accepted_for_the_ten_and_written_back_as_10(suit: str) -> None:
    ten = Card.from_str("T" + suit)
    assert ten is Card.from_str("10" + suit)
    assert ten.rank == 10
    assert str(ten) == "10" + suit
    assert Card.from_str("t" + suit.lower()) is ten


def test_a_card_is_read_as_rank_then_suit() -> None:
    assert Card.from_str("AS").rank == 14 and Card.from_str("AS").suit is Suit.SPADES
    assert Card.from_str("KH").rank == 13 and Card.from_str("KH").suit is Suit.HEARTS
    assert Card.from_str("QD").rank == 12 and Card.from_str("QD").suit is Suit.DIAMONDS
    assert Card.from_str("JC").rank == 11 and Card.from_str("JC").suit is Suit.CLUBS
    assert Card.from_str("2C").rank == 2


@pytest.mark.parametrize(
    "text", ["", "A", "10", "S", "1S", "11H", "0D", "AX", "ASS", " AS", "AS ", "10 H", "1OH", "TT", "♠A", "ace"]
)
def test_an_unknown_card_raises_a_game_error(text: str) -> None:
    with pytest.raises(GameError, match="unknown card"):
        Card.from_str(text)


@pytest.mark.parametrize("value", [None, 14, 1.5, ["AS"], {"AS": 1}, b"AS"])
def test_a_card_that_is_not_text_raises_a_game_error(value: object) -> None:
    with pytest.raises(GameError):
        Card.from_str(value)  # type: ignore[arg-type]


def test_a_game_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        Card.from_str("ZZ")


@pytest.mark.parametrize("text", ["X", "", "CD", "spades"])
def test_an_unknown_suit_raises_a_game_error(text: str) -> None:
    with pytest.raises(GameError, match="unknown suit"):
        Suit.from_str(text)


def test_suits_read_in_either_case_and_are_ordered_c_d_h_s() -> None:
    assert [Suit.from_str(s) for s in "cdhs"] == list(SUITS)
    assert [s.order for s in SUITS] == [0, 1, 2, 3]
    assert [str(s) for s in SUITS] == ["C", "D", "H", "S"]


def test_each_card_is_a_single_interned_instance() -> None:
    assert Card.from_str("10H") is Card.from_str("TH") is Card.from_str("10h")
    assert CARDS[Card.from_str("QS").index] is Card.from_str("QS")


# --- bit sets ------------------------------------------------------------------------------------------------------


def test_card_indices_follow_suit_then_rank() -> None:
    # index = suit order * 13 + rank - 2
    assert Card.from_str("2C").index == 0
    assert Card.from_str("AC").index == 12
    assert Card.from_str("2D").index == 13
    assert Card.from_str("10H").index == 2 * 13 + 8
    assert Card.from_str("AS").index == 51
    assert [c.index for c in CARDS] == list(range(52))


def test_a_cards_bit_is_its_index() -> None:
    for card in CARDS:
        assert card.bit == 1 << card.index
        assert mask([card]) == card.bit


def test_suit_masks_hold_the_thirteen_cards_of_each_suit() -> None:
    for suit in SUITS:
        in_suit = cards_of(SUIT_MASKS[suit.order])
        assert len(in_suit) == 13
        assert {c.suit for c in in_suit} == {suit}


def test_mask_of_no_cards_is_zero_and_of_all_cards_is_52_bits() -> None:
    assert mask([]) == 0
    assert cards_of(0) == []
    assert mask(CARDS) == (1 << 52) - 1
    assert cards_of((1 << 52) - 1) == list(CARDS)


def test_mask_ignores_repeated_cards() -> None:
    assert mask(cards("AS", "AS", "2C")) == mask(cards("2C", "AS"))


def test_cards_of_lists_cards_in_index_order() -> None:
    assert cards_of(mask(cards("AS", "2C", "10H", "KD"))) == cards("2C", "KD", "10H", "AS")


@settings(max_examples=300, deadline=None)
@given(st.sets(st.sampled_from(CARDS)))
def test_mask_and_cards_of_round_trip_any_set_of_cards(chosen: set[Card]) -> None:
    bits = mask(chosen)
    assert bin(bits).count("1") == len(chosen)
    assert cards_of(bits) == sorted(chosen, key=lambda c: c.index)


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=(1 << 52) - 1))
def test_cards_of_and_mask_round_trip_any_bit_set(bits: int) -> None:
    assert mask(cards_of(bits)) == bits


# --- decks ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "lowest"), [(52, 2), (36, 6), (32, 7)])
def test_a_deck_has_every_suit_from_its_lowest_rank_to_the_ace(size: int, lowest: int) -> None:
    d = deck(size)
    assert len(d) == size == len(set(d))
    for suit in SUITS:
        assert sorted(c.rank for c in d if c.suit is suit) == list(range(lowest, 15))


def test_a_deck_comes_in_index_order() -> None:
    assert deck(52) == list(CARDS)
    assert [str(c) for c in deck(32)[:8]] == ["7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC"]


def test_each_call_gives_a_fresh_deck() -> None:
    first = deck(52)
    first.reverse()
    assert deck(52) == list(CARDS)


@pytest.mark.parametrize("size", [0, 24, 40, 48, 53])
def test_there_is_no_deck_of_other_sizes(size: int) -> None:
    with pytest.raises(GameError, match="no deck"):
        deck(size)


# --- dealing -------------------------------------------------------------------------------------------------------


def test_active_seats_start_left_of_the_dealer() -> None:
    assert active_seats(4, 0) == [1, 2, 3, 0]
    assert active_seats(4, 2) == [3, 0, 1, 2]
    # at a table of five the dealer sits out: the last seat dealt is on the dealer's right
    assert active_seats(5, 0) == [1, 2, 3, 4]
    assert active_seats(5, 2) == [3, 4, 0, 1]


def test_wiezen_deals_four_four_five_from_the_dealers_left_and_the_dealer_holds_the_turned_ace() -> None:
    # the deck in index order: 2C..AC, 2D..AD, 2H..AH, 2S..AS
    dealt = deal_packets(deck(52), 4, 0, (4, 4, 5))
    # seat 1: pack cards 0-3, 16-19, 32-36
    assert dealt.hands[1] == cards("2C", "3C", "4C", "5C", "5D", "6D", "7D", "8D", "8H", "9H", "10H", "JH", "QH")
    # seat 2: 4-7, 20-23, 37-41
    assert dealt.hands[2] == cards("6C", "7C", "8C", "9C", "9D", "10D", "JD", "QD", "KH", "AH", "2S", "3S", "4S")
    # seat 3: 8-11, 24-27, 42-46
    assert dealt.hands[3] == cards("10C", "JC", "QC", "KC", "KD", "AD", "2H", "3H", "5S", "6S", "7S", "8S", "9S")
    # the dealer: 12-15, 28-31, 47-51; the last card, AS, is turned and stays in the dealer's hand
    assert dealt.hands[0] == cards("AC", "2D", "3D", "4D", "4H", "5H", "6H", "7H", "10S", "JS", "QS", "KS", "AS")
    assert dealt.turned == Card.from_str("AS")
    assert dealt.turned_seat == 0


@pytest.mark.parametrize("dealer", range(4))
def test_four_four_five_positions_for_every_dealer(dealer: int) -> None:
    pack = shuffled(52, 11)
    dealt = deal_packets(pack, 4, dealer, (4, 4, 5))
    positions = {
        1: [0, 1, 2, 3, 16, 17, 18, 19, 32, 33, 34, 35, 36],
        2: [4, 5, 6, 7, 20, 21, 22, 23, 37, 38, 39, 40, 41],
        3: [8, 9, 10, 11, 24, 25, 26, 27, 42, 43, 44, 45, 46],
        4: [12, 13, 14, 15, 28, 29, 30, 31, 47, 48, 49, 50, 51],  # the dealer, fourth from the left
    }
    for offset, where in positions.items():
        assert dealt.hands[(dealer + offset) % 4] == [pack[i] for i in where]
    assert dealt.turned is pack[51]
    assert dealt.turned_seat == dealer
    assert pack[51] in dealt.hands[dealer]


def test_solo_whist_deals_three_three_three_three_one() -> None:
    pack = shuffled(52, 5)
    dealt = deal_packets(pack, 4, 1, (3, 3, 3, 3, 1))
    positions = {
        2: [0, 1, 2, 12, 13, 14, 24, 25, 26, 36, 37, 38, 48],
        3: [3, 4, 5, 15, 16, 17, 27, 28, 29, 39, 40, 41, 49],
        0: [6, 7, 8, 18, 19, 20, 30, 31, 32, 42, 43, 44, 50],
        1: [9, 10, 11, 21, 22, 23, 33, 34, 35, 45, 46, 47, 51],  # the dealer gets the last single card
    }
    for seat, where in positions.items():
        assert dealt.hands[seat] == [pack[i] for i in where]
    assert dealt.turned is pack[51]
    assert dealt.turned_seat == 1


def test_solo_whist_dealing_by_name_from_an_ordered_deck() -> None:
    dealt = deal_packets(deck(52), 4, 0, (3, 3, 3, 3, 1))
    # seat 1: cards 0-2, 12-14, 24-26, 36-38, 48
    assert dealt.hands[1] == cards("2C", "3C", "4C", "AC", "2D", "3D", "KD", "AD", "2H", "QH", "KH", "AH", "JS")
    assert dealt.turned == Card.from_str("AS")


@pytest.mark.parametrize("packets", [(4, 4, 5), (3, 3, 3, 3, 1)])
@pytest.mark.parametrize("dealer", range(5))
def test_at_a_table_of_five_the_dealer_gets_nothing_and_his_right_hand_neighbour_holds_the_turned_card(
    packets: tuple[int, ...], dealer: int
) -> None:
    pack = shuffled(52, 100 + dealer)
    dealt = deal_packets(pack, 5, dealer, packets)
    assert dealt.hands[dealer] == []
    right = (dealer - 1) % 5
    assert dealt.turned_seat == right
    assert dealt.turned is pack[51]
    assert pack[51] in dealt.hands[right]
    # the dealer's left neighbour is dealt first
    assert dealt.hands[(dealer + 1) % 5][: packets[0]] == pack[: packets[0]]
    for seat in range(5):
        if seat != dealer:
            assert len(dealt.hands[seat]) == 13


@pytest.mark.parametrize("players", [4, 5])
@pytest.mark.parametrize("packets", [(4, 4, 5), (3, 3, 3, 3, 1)])
def test_dealing_hands_out_every_card_once(players: int, packets: tuple[int, ...]) -> None:
    pack = shuffled(52, 3)
    dealt = deal_packets(pack, players, 0, packets)
    everything = [c for hand in dealt.hands for c in hand]
    assert sorted(everything, key=lambda c: c.index) == list(CARDS)


def test_packets_that_do_not_deal_the_whole_pack_are_refused() -> None:
    with pytest.raises(GameError, match="packets"):
        deal_packets(deck(52), 4, 0, (4, 4, 4))
    with pytest.raises(GameError, match="packets"):
        deal_packets(deck(32), 4, 0, (4, 4, 5))


def test_the_same_seed_shuffles_the_same_pack() -> None:
    assert shuffled(52, 7) == shuffled(52, 7)
    assert deal_packets(shuffled(52, 7), 4, 2, (4, 4, 5)) == deal_packets(shuffled(52, 7), 4, 2, (4, 4, 5))


def test_another_seed_shuffles_another_pack() -> None:
    assert shuffled(52, 7) != shuffled(52, 8)
    assert deal_packets(shuffled(52, 7), 4, 0, (4, 4, 5)).hands != deal_packets(shuffled(52, 8), 4, 0, (4, 4, 5)).hands


def test_a_shuffled_pack_holds_the_whole_deck() -> None:
    for size in (52, 36, 32):
        pack = shuffled(size, 1)
        assert sorted(pack, key=lambda c: c.index) == deck(size)
        assert pack != deck(size)


# --- cutting -------------------------------------------------------------------------------------------------------


def test_a_cut_puts_the_lifted_cards_under_the_rest() -> None:
    pack = deck(52)
    after = cut(pack, 10)
    assert after[:42] == pack[10:]
    assert after[42:] == pack[:10]
    assert after[0] == Card.from_str("QC")  # index 10
    assert after[-1] == Card.from_str("JC")  # index 9


@pytest.mark.parametrize("at", [0, 52, -1, 60])
def test_a_cut_lifts_at_least_one_card_and_leaves_at_least_one(at: int) -> None:
    with pytest.raises(GameError, match="cut"):
        cut(deck(52), at)


def is_rotation(before: list[Card], after: list[Card]) -> bool:
    return len(before) == len(after) and any(after == before[k:] + before[:k] for k in range(len(before)))


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10_000), at=st.integers(1, 51))
def test_cut_keeps_all_cards_and_only_rotates(seed: int, at: int) -> None:
    pack = shuffled(52, seed)
    after = cut(pack, at)
    assert sorted(after, key=lambda c: c.index) == list(CARDS)
    assert after != pack
    assert is_rotation(pack, after)
    assert after[(52 - at) % 52] is pack[0]


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10_000), at=st.integers(1, 51))
def test_gather_and_cut_keeps_the_played_order_and_only_rotates(seed: int, at: int) -> None:
    played = shuffled(52, seed)  # the cards in the order the last deal played them
    after = gather_and_cut(played, at)
    assert len(after) == 52 and set(after) == set(CARDS)
    assert after == played[at:] + played[:at]
    assert is_rotation(played, after)


def test_gather_and_cut_then_dealing_is_reproducible() -> None:
    played = shuffled(52, 42)
    first = deal_packets(gather_and_cut(played, 17), 4, 1, (4, 4, 5))
    second = deal_packets(gather_and_cut(played, 17), 4, 1, (4, 4, 5))
    assert first == second
    assert first.turned is played[16]  # the last card of the cut pack is the last card lifted


@pytest.mark.parametrize(
    "played",
    [
        deck(52)[:51],  # a card missing
        [*deck(52)[:51], deck(52)[0]],  # a card twice
        deck(32),
        [],
    ],
)
def test_gather_and_cut_needs_the_52_cards_of_the_last_deal(played: list[Card]) -> None:
    with pytest.raises(GameError, match="52"):
        gather_and_cut(played, 5)
