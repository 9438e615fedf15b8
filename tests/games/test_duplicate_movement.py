"""Movements: every table plays every board once; a relay hands groups of four boards on, so that a board is
never wanted at more tables at once than there are sets, and deal k is always dealt from the position that deals
board k's group (N, E, S, W): a table of four keeps seat i on position i."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.duplicate.movement import Movement, board_order, relay_fits, sets_needed
from games.errors import GameError


def test_all_at_once_every_table_plays_the_boards_in_number_order_and_needs_its_own_set() -> None:
    assert board_order(Movement.ALL_AT_ONCE, 16, 3, 2) == list(range(1, 17))
    assert sets_needed(Movement.ALL_AT_ONCE, 16, 3) == 3


def test_a_relay_of_16_boards_at_three_tables_hands_groups_of_four_on_and_needs_one_set() -> None:
    assert board_order(Movement.RELAY, 16, 3, 0) == list(range(1, 17))
    assert board_order(Movement.RELAY, 16, 3, 1) == [*range(5, 17), *range(1, 5)]
    assert board_order(Movement.RELAY, 16, 3, 2) == [*range(9, 17), *range(1, 9)]
    assert sets_needed(Movement.RELAY, 16, 3) == 1
    assert sets_needed(Movement.RELAY, 16, 5) == 2  # tables 1 and 5 hold boards 1-4 at the same time
    assert sets_needed(Movement.RELAY, 24, 6) == 1


@given(st.sampled_from([4, 8, 16, 24, 32]), st.integers(1, 40), st.sampled_from(list(Movement)))
def test_every_table_plays_every_board_once_and_never_more_tables_want_a_board_than_there_are_sets(
    boards: int, tables: int, movement: Movement
) -> None:
    orders = [board_order(movement, boards, tables, t) for t in range(tables)]
    for order in orders:
        assert sorted(order) == list(range(1, boards + 1))
        assert all((board - 1) % 4 == deal % 4 for deal, board in enumerate(order))  # the dealer's position
    for deal in range(boards):
        at_once = Counter(order[deal] for order in orders)
        assert max(at_once.values()) <= sets_needed(movement, boards, tables)


def test_a_relay_needs_the_boards_in_groups_of_four_and_real_tables() -> None:
    assert relay_fits(16) and relay_fits(24) and not relay_fits(18) and not relay_fits(2)
    with pytest.raises(GameError, match="groups of 4"):
        board_order(Movement.RELAY, 18, 3, 0)
    with pytest.raises(GameError, match="table index 3"):
        board_order(Movement.RELAY, 16, 3, 3)
    with pytest.raises(GameError, match="1 table or more"):
        sets_needed(Movement.RELAY, 16, 0)
