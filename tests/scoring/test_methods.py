"""Standings methods: total points, points per deal, placement points, combined; the records they read."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.methods import (
    METHODS,
    Combined,
    MethodOptions,
    Placement,
    PointsPerDeal,
    TotalPoints,
    find_method,
    format_number,
    placement_points,
)
from scoring.records import Penalty, ScoringError, SessionResult, UnknownMethod
from tests.scoring.tables import sessions_of, table


def own(player_id: int, records: list[SessionResult]) -> list[SessionResult]:
    return [r for r in records if r.player_id == player_id]


def placements(seats: list[tuple[int, int]], options: MethodOptions | None = None) -> dict[int, Fraction]:
    records = table(1, 1, seats)
    return {r.player_id: Placement().value([r], [], options) for r in records}


# total points


def test_total_points_sums_every_session_and_deducts_penalties() -> None:
    records = sessions_of(
        table(1, 1, [(1, 10), (2, -4), (3, -6), (4, 0)]),
        table(2, 2, [(5, 5), (1, -3), (6, -2), (7, 0)]),
    )
    assert TotalPoints().value(own(1, records), [Penalty(1, 2)]) == 5


def test_total_points_of_a_player_who_only_has_a_penalty_is_negative() -> None:
    assert TotalPoints().value([], [Penalty(9, 3), Penalty(9, 1, evening=2)]) == -4


def test_total_points_weights_each_evening_but_deducts_penalties_in_full() -> None:
    records = sessions_of(table(1, 1, [(1, 10), (2, -10)]), table(2, 2, [(1, 4), (2, -4)]))
    value = TotalPoints().value(
        own(1, records), [Penalty(1, 1, evening=1)], weights={1: Fraction(1, 2), 2: Fraction(1)}
    )
    assert value == Fraction(10, 2) + 4 - 1


# points per deal


def test_points_per_deal_is_an_exact_fraction_over_deals_actually_played() -> None:
    # a table of five with 20 deals: each seat sits out 4, so player 1 played 16; then a 24-deal table of four
    five = table(1, 1, [(1, 12), (2, 3), (3, -5), (4, -6), (5, -4)], deals=[16, 16, 16, 16, 16])
    four = table(2, 2, [(1, -2), (6, 2), (7, 0), (8, 0)], deals=24)
    value = PointsPerDeal().value(own(1, five + four), [Penalty(1, 2)])
    assert value == Fraction(12 - 2 - 2, 16 + 24) == Fraction(1, 5)
    assert isinstance(value, Fraction)


def test_points_per_deal_favours_the_same_points_over_fewer_deals() -> None:
    full = table(1, 1, [(1, 8), (2, -8)], deals=[20, 20])
    sat_out = table(2, 1, [(3, 8), (4, -8)], deals=[16, 20])
    assert PointsPerDeal().value(own(3, sat_out), []) > PointsPerDeal().value(own(1, full), [])


def test_points_per_deal_is_zero_without_deals_even_when_penalised() -> None:
    bye = table(1, 1, [(1, 0)], deals=0)
    assert PointsPerDeal().value(own(1, bye), [Penalty(1, 5)]) == 0
    assert PointsPerDeal().value([], []) == 0


# placement


def test_placement_gives_four_two_one_nothing_by_rank_at_the_table() -> None:
    assert placements([(1, -3), (2, 10), (3, -12), (4, 5)]) == {1: 1, 2: 4, 3: 0, 4: 2}


def test_two_players_sharing_first_and_second_split_four_and_two() -> None:
    assert placements([(1, 8), (2, -4), (3, 8), (4, -12)]) == {1: 3, 2: 1, 3: 3, 4: 0}


def test_players_sharing_last_places_split_what_those_places_earn() -> None:
    assert placements([(1, 6), (2, 0), (3, -3), (4, -3)]) == {1: 4, 2: 2, 3: Fraction(1, 2), 4: Fraction(1, 2)}


def test_three_players_sharing_first_split_the_top_three_places() -> None:
    assert placements([(1, 2), (2, 2), (3, 2), (4, -6)]) == {
        1: Fraction(7, 3),
        2: Fraction(7, 3),
        3: Fraction(7, 3),
        4: 0,
    }


def test_a_table_of_five_gives_the_fifth_place_nothing() -> None:
    assert placements([(1, 10), (2, 5), (3, 0), (4, -7), (5, -8)]) == {1: 4, 2: 2, 3: 1, 4: 0, 5: 0}
    shared = placements([(1, 9), (2, 3), (3, -4), (4, -4), (5, -4)])
    assert shared[3] == shared[4] == shared[5] == Fraction(1, 3)


def test_placement_uses_the_organisers_scale_and_pays_places_beyond_it_nothing() -> None:
    options = MethodOptions(placement_points=(3, 1))
    assert placements([(1, 5), (2, 5), (3, 0), (4, -10)], options) == {1: 2, 2: 2, 3: 0, 4: 0}


def test_placement_sums_over_sessions_and_ignores_penalties() -> None:
    records = sessions_of(
        table(1, 1, [(1, 10), (2, 5), (3, -3), (4, -12)]),
        table(2, 1, [(5, 9), (1, 9), (6, 0), (7, -18)]),
    )
    assert Placement().value(own(1, records), [Penalty(1, 50)]) == 4 + 3


@given(
    st.lists(st.integers(-5, 5), min_size=1, max_size=5),
    st.lists(st.integers(0, 6), min_size=1, max_size=5).map(lambda v: tuple(sorted(v, reverse=True))),
)
@settings(max_examples=200, deadline=None)
def test_split_ties_still_hand_out_exactly_the_places_points_of_the_table(scores: list[int], scale: tuple[int]) -> None:
    handed_out = sum(placement_points(scores, own, scale) for own in scores)
    assert handed_out == sum(scale[: len(scores)])


def test_the_placement_scale_may_not_pay_a_lower_place_more() -> None:
    with pytest.raises(ScoringError, match="must not increase"):
        MethodOptions(placement_points=(4, 2, 3))
    with pytest.raises(ScoringError, match="first place"):
        MethodOptions(placement_points=())


# combined


def test_combined_is_placement_points_then_total_points() -> None:
    records = sessions_of(
        table(1, 1, [(1, 1), (2, 0), (3, -1), (4, 0)]),
        table(2, 2, [(1, 2), (2, 40), (3, -42), (4, 0)]),
    )
    assert Combined().value(own(1, records), [Penalty(1, 1)]) == (4 + 2, 1 + 2 - 1)
    assert Combined().value(own(2, records), []) == (Fraction(3, 2) + 4, 40)


def test_combined_ranks_placement_before_points() -> None:
    steady = sessions_of(table(1, 1, [(1, 1), (9, -1)]), table(2, 1, [(1, 1), (9, -1)]))
    one_big_win = sessions_of(table(3, 1, [(2, 60), (8, -60)]), table(4, 1, [(2, -1), (8, 1)]))
    assert Combined().value(own(1, steady), []) > Combined().value(own(2, one_big_win), [])
    assert TotalPoints().value(own(1, steady), []) < TotalPoints().value(own(2, one_big_win), [])


def test_combined_breaks_equal_placement_by_total_points() -> None:
    records = sessions_of(table(1, 1, [(1, 10), (9, 0)]), table(2, 1, [(2, 3), (8, 0)]))
    assert Combined().value(own(1, records), []) > Combined().value(own(2, records), [])


def test_each_method_describes_its_value_in_words() -> None:
    assert TotalPoints().describe(12) == "12 points"
    assert TotalPoints().describe(1) == "1 point"
    assert PointsPerDeal().describe(Fraction(5, 4)) == "1.25 points per deal"
    assert Placement().describe(Fraction(7, 3)) == "2.333 placement points"
    assert Combined().describe((Fraction(6), -3)) == "6 placement points, -3 points"


def test_numbers_print_as_integers_or_at_most_three_decimals() -> None:
    assert [format_number(v) for v in (3, Fraction(8, 2), Fraction(1, 3), Fraction(1, 2), float("-inf"))] == [
        "3",
        "4",
        "0.333",
        "0.5",
        "none",
    ]


# registry and records


def test_the_registry_holds_every_method_under_its_key() -> None:
    assert list(METHODS) == ["total_points", "points_per_deal", "placement", "combined", "matchpoints", "cross_imps"]
    assert all(find_method(key).key == key and find_method(key).name for key in METHODS)


def test_an_unknown_method_is_a_user_error_naming_the_known_keys() -> None:
    with pytest.raises(
        UnknownMethod, match=r"'goals'.*total_points, points_per_deal, placement, combined, matchpoints, cross_imps"
    ):
        find_method("goals")
    assert issubclass(UnknownMethod, ValueError)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"points": 7}, "differ from the player's table points 5"),
        ({"player_id": 3}, "not among the table players"),
        ({"table_points": (5,)}, "1 table points for 2 table players"),
        ({"table_players": (1, 1), "player_id": 1}, "sits twice"),
        ({"deals": -1}, "must not be negative"),
        ({"contracts_bid": 1, "contracts_made": 2}, "contracts made 2"),
    ],
)
def test_a_self_contradicting_session_record_is_rejected(changes: dict[str, object], message: str) -> None:
    fields: dict[str, object] = {
        "player_id": 1,
        "session_id": 4,
        "evening": 1,
        "points": 5,
        "deals": 16,
        "table_points": (5, -5),
        "table_players": (1, 2),
    }
    with pytest.raises(ScoringError, match=message):
        SessionResult(**{**fields, **changes})  # type: ignore[arg-type]
