"""Tie-breaks, each on a hand-checked example; higher is always better."""

import math
from fractions import Fraction

import pytest

from scoring.records import Penalty, UnknownTieBreak
from scoring.tiebreaks import (
    TIEBREAKS,
    BestSession,
    ContractsMadeRatio,
    FewerPenalties,
    HeadToHead,
    Points,
    SessionsWon,
    find_tiebreak,
)
from tests.scoring.tables import sessions_of, table

# Player 1 wins session 1 outright, shares the top of session 2, loses session 3.
RECORDS = sessions_of(
    table(1, 1, [(1, 9), (2, 3), (3, -5), (4, -7)], contracts={1: (2, 2), 2: (1, 0)}),
    table(2, 1, [(5, 4), (1, 4), (6, -3), (7, -5)], contracts={1: (1, 0)}),
    table(3, 2, [(1, -6), (3, 10), (5, -1), (8, -3)], contracts={1: (1, 1), 3: (2, 1)}),
)
PENALTIES = [Penalty(1, 2), Penalty(1, 1, evening=2), Penalty(3, 4)]


def test_points_is_the_players_total_net_of_penalties() -> None:
    assert Points().value(1, RECORDS, PENALTIES) == 9 + 4 - 6 - 2 - 1
    assert Points().value(3, RECORDS, PENALTIES) == -5 + 10 - 4


def test_a_session_won_outright_or_shared_at_the_top_counts_as_won() -> None:
    assert SessionsWon().value(1, RECORDS, []) == 2
    assert SessionsWon().value(5, RECORDS, []) == 1  # shared the top of session 2 with player 1
    assert SessionsWon().value(2, RECORDS, []) == 0


def test_best_session_is_the_highest_single_session() -> None:
    assert BestSession().value(1, RECORDS, []) == 9
    assert BestSession().value(8, RECORDS, []) == -3


def test_a_player_without_sessions_has_no_best_session_and_is_below_any_score() -> None:
    none = BestSession().value(99, RECORDS, [])
    assert none == -math.inf and none < -1000
    assert BestSession().describe(none) == "none"


def test_head_to_head_counts_only_sessions_shared_with_another_tied_player() -> None:
    # 1 met 3 only in session 1 (9) and session 3 (-6); met 5 in sessions 2 (4) and 3 (-6)
    assert HeadToHead().value(1, RECORDS, [], tied={1, 3}) == 9 - 6
    assert HeadToHead().value(1, RECORDS, [], tied={1, 5}) == 4 - 6


def test_head_to_head_in_a_three_way_tie_counts_a_session_against_either_other_player_once() -> None:
    assert HeadToHead().value(1, RECORDS, [], tied={1, 3, 5}) == 9 + 4 - 6
    assert HeadToHead().value(3, RECORDS, [], tied={1, 3, 5}) == -5 + 10
    assert HeadToHead().value(5, RECORDS, [], tied={1, 3, 5}) == 4 - 1


def test_head_to_head_outside_a_tie_is_zero() -> None:
    assert HeadToHead().value(1, RECORDS, [], tied={1}) == 0
    assert HeadToHead().value(1, RECORDS, []) == 0


def test_contracts_made_ratio_is_made_over_bid_across_sessions() -> None:
    assert ContractsMadeRatio().value(1, RECORDS, []) == Fraction(3, 4)
    assert ContractsMadeRatio().value(3, RECORDS, []) == Fraction(1, 2)
    assert ContractsMadeRatio().value(2, RECORDS, []) == 0


def test_contracts_made_ratio_is_zero_for_a_player_who_bid_nothing() -> None:
    assert ContractsMadeRatio().value(4, RECORDS, []) == 0


def test_fewer_penalties_ranks_the_less_penalised_player_higher() -> None:
    assert FewerPenalties().value(1, RECORDS, PENALTIES) == -3
    assert FewerPenalties().value(3, RECORDS, PENALTIES) == -4
    assert FewerPenalties().value(2, RECORDS, PENALTIES) == 0
    assert FewerPenalties().describe(-3) == "3 penalty points"
    assert FewerPenalties().describe(-1) == "1 penalty point"  # the number decides the unit, as elsewhere


def test_the_registry_holds_every_tiebreak_under_its_key() -> None:
    assert list(TIEBREAKS) == [
        "points",
        "sessions_won",
        "best_session",
        "head_to_head",
        "contracts_made_ratio",
        "fewer_penalties",
    ]
    assert all(find_tiebreak(key).key == key and find_tiebreak(key).name for key in TIEBREAKS)


def test_an_unknown_tiebreak_is_a_user_error_naming_the_known_keys() -> None:
    with pytest.raises(UnknownTieBreak, match=r"'coin_toss'.*points, sessions_won"):
        find_tiebreak("coin_toss")
