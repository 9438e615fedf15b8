"""A league's decay (ageing weights) under every standings method, with values worked out by hand.

Decay 0.5 over three evenings weighs evening 1 by 1/4, evening 2 by 1/2 and evening 3 by 1. Penalties
count in full; placement does not see them, combined sees them through its total.
"""

from collections import defaultdict
from fractions import Fraction

from hypothesis import given, settings

from scoring.methods import Combined, MethodOptions, Placement, PointsPerDeal, TotalPoints
from scoring.ranking import LeagueOptions, RankedRow, rank, season_table
from scoring.records import Penalty, SessionResult
from tests.scoring.tables import competitions, sessions_of, table

HALF = LeagueOptions(decay=0.5)
WEIGHTS = {1: Fraction(1, 4), 2: Fraction(1, 2), 3: Fraction(1)}
THREE_TWO = MethodOptions(placement_points=(3, 1))

# evening 1: places 1, 2, 3 for players 1, 2, 3; evening 2: player 2 beats player 3; evening 3: player 3 beats 1
SEASON = sessions_of(
    table(1, 1, [(1, 12), (2, 4), (3, -16)], deals=16),
    table(2, 2, [(2, 6), (3, -6)], deals=20),
    table(3, 3, [(3, 8), (1, -8)], deals=24),
)
PENALTIES = [Penalty(2, 3, evening=2)]


def own(player_id: int, records: list[SessionResult] = SEASON) -> list[SessionResult]:
    return [r for r in records if r.player_id == player_id]


def own_penalties(player_id: int) -> list[Penalty]:
    return [p for p in PENALTIES if p.player_id == player_id]


def ranked(method_key: str, method_options: MethodOptions | None = None) -> list[tuple[int, int, object]]:
    rows = rank([], SEASON, PENALTIES, method_key, options=HALF, method_options=method_options)
    return [(r.rank, r.player_id, r.value) for r in rows]


def by_player(rows: list[RankedRow]) -> dict[int, RankedRow]:
    return {row.player_id: row for row in rows}


# points per deal


def test_points_per_deal_weighs_both_points_and_deals_but_deducts_penalties_in_full() -> None:
    # player 2: (4/4 + 6/2 - 3) / (16/4 + 20/2)
    assert PointsPerDeal().value(own(2), own_penalties(2), weights=WEIGHTS) == Fraction(1, 14)
    # player 1: (12/4 - 8) / (16/4 + 24); player 3: (-16/4 - 6/2 + 8) / (16/4 + 20/2 + 24)
    assert PointsPerDeal().value(own(1), [], weights=WEIGHTS) == Fraction(-5, 28)
    assert PointsPerDeal().value(own(3), [], weights=WEIGHTS) == Fraction(1, 38)


def test_points_per_deal_under_a_league_decay() -> None:
    assert ranked("points_per_deal") == [(1, 2, Fraction(1, 14)), (2, 3, Fraction(1, 38)), (3, 1, Fraction(-5, 28))]
    rows = by_player(rank([], SEASON, PENALTIES, "points_per_deal", options=HALF))
    assert rows[2].explanation == "0.071 points per deal"


def test_points_per_deal_with_equal_weights_is_unchanged_by_the_weight() -> None:
    # one evening weighted 1/2 alone: the weight cancels between points and deals, the penalty does not
    records = table(1, 1, [(1, 8), (9, -8)], deals=16)
    assert PointsPerDeal().value(own(1, records), [Penalty(1, 2)], weights={1: Fraction(1, 2)}) == Fraction(4 - 2, 8)
    assert PointsPerDeal().value(own(1, records), [], weights={1: Fraction(1, 2)}) == Fraction(8, 16)


# placement


def test_placement_weighs_each_evenings_placement_points_and_ignores_penalties() -> None:
    # player 1: 4/4 + 2; player 2: 2/4 + 4/2; player 3: 1/4 + 2/2 + 4
    assert Placement().value(own(1), [], weights=WEIGHTS) == 3
    assert Placement().value(own(2), own_penalties(2), weights=WEIGHTS) == Fraction(5, 2)
    assert Placement().value(own(3), [], weights=WEIGHTS) == Fraction(21, 4)


def test_placement_under_a_league_decay_reorders_players_level_without_it() -> None:
    unweighted = by_player(rank([], SEASON, PENALTIES, "placement"))
    assert unweighted[1].value == unweighted[2].value == 6 and unweighted[1].shared
    assert ranked("placement") == [(1, 3, Fraction(21, 4)), (2, 1, 3), (3, 2, Fraction(5, 2))]
    rows = by_player(rank([], SEASON, PENALTIES, "placement", options=HALF))
    assert rows[3].explanation == "5.25 placement points"
    assert rows[1].explanation == "3 placement points"


def test_placement_with_a_custom_scale_under_a_league_decay() -> None:
    # scale 3, 1: player 1: 3/4 + 1; player 2: 1/4 + 3/2; player 3: 0 + 1/2 + 3
    assert Placement().value(own(3), [], THREE_TWO, WEIGHTS) == Fraction(7, 2)
    rows = ranked("placement", THREE_TWO)
    assert rows[0] == (1, 3, Fraction(7, 2))
    assert sorted(rows[1:]) == [(2, 1, Fraction(7, 4)), (2, 2, Fraction(7, 4))]


# combined


def test_combined_weighs_placement_and_total_alike_and_deducts_penalties_from_the_total_only() -> None:
    assert Combined().value(own(2), own_penalties(2), weights=WEIGHTS) == (Fraction(5, 2), 1)  # total: 4/4 + 6/2 - 3
    assert Combined().value(own(1), [], weights=WEIGHTS) == (3, -5)
    assert Combined().value(own(3), [], weights=WEIGHTS) == (Fraction(21, 4), 1)


def test_combined_under_a_league_decay() -> None:
    assert ranked("combined") == [(1, 3, (Fraction(21, 4), 1)), (2, 1, (3, -5)), (3, 2, (Fraction(5, 2), 1))]
    rows = by_player(rank([], SEASON, PENALTIES, "combined", options=HALF))
    assert rows[3].explanation == "5.25 placement points, 1 point"


def test_combined_with_a_custom_placement_scale_under_a_league_decay() -> None:
    # unweighted on scale 3, 1 everyone has 4 placement points and the totals (4, 7, -14) decide: 2, 1, 3;
    # weighted: player 3 leads on 7/2, players 1 and 2 are level on 7/4 and the weighted total (-5 vs 1) decides
    unweighted = rank([], SEASON, PENALTIES, "combined", method_options=THREE_TWO)
    assert [(r.player_id, r.value) for r in unweighted] == [(2, (4, 7)), (1, (4, 4)), (3, (4, -14))]
    assert ranked("combined", THREE_TWO) == [
        (1, 3, (Fraction(7, 2), 1)),
        (2, 2, (Fraction(7, 4), 1)),
        (3, 1, (Fraction(7, 4), -5)),
    ]
    rows = by_player(rank([], SEASON, PENALTIES, "combined", options=HALF, method_options=THREE_TWO))
    assert rows[3].explanation == "3.5 placement points, 1 point"
    assert rows[1].explanation == "1.75 placement points, -5 points"


def test_season_table_with_combined_custom_scale_and_decay_moves_players_by_the_weighted_tables() -> None:
    # after evening 2 the weights were 1/2 (evening 1) and 1 (evening 2), the penalty dated evening 2 already counts:
    # player 1: (3/2, 6), player 2: (1/2 + 3, 2 + 6 - 3), player 3: (0 + 1, -8 - 6), so 2, 1, 3 then; 3, 2, 1 now
    rows = season_table(SEASON, PENALTIES, options=HALF, method_key="combined", method_options=THREE_TWO)
    assert [(r.player_id, r.rank, r.total, r.movement) for r in rows] == [
        (3, 1, (Fraction(7, 2), 1), 2),
        (2, 2, (Fraction(7, 4), 1), -1),
        (1, 3, (Fraction(7, 4), -5), -1),
    ]
    assert {r.player_id: r.per_evening for r in rows}[3] == {1: -16, 2: -6, 3: 8}  # per evening stays unweighted


def test_best_n_and_decay_together_under_placement() -> None:
    # best 2 evenings by session points: player 1 keeps evenings 1 (12) and 3 (-8): 4/4 + 2
    rows = by_player(rank([], SEASON, PENALTIES, "placement", options=LeagueOptions(best_n=2, decay=0.5)))
    assert rows[1].value == 3
    assert rows[3].value == Fraction(2, 2) + 4  # evenings 2 (-6) and 3 (8), not evening 1 (-16)


# every method, on random competitions: the weighted value is the weighted sum of each evening's value


@settings(max_examples=60, deadline=None)
@given(competitions())
def test_weighted_values_are_sums_of_each_evenings_value_times_its_weight(
    competition: tuple[list[int], list[SessionResult], list[Penalty]],
) -> None:
    _, records, penalties = competition
    evenings = sorted({r.evening for r in records})
    weights = {e: Fraction(9, 10) ** (evenings[-1] - e) for e in evenings}
    options = MethodOptions(placement_points=(5, 3, 0))
    for pid in {r.player_id for r in records}:
        mine = own(pid, records)
        fines = sum(p.points for p in penalties if p.player_id == pid)
        per_evening: dict[int, list[SessionResult]] = defaultdict(list)
        for r in mine:
            per_evening[r.evening].append(r)
        total = sum(weights[e] * TotalPoints().value(s, []) for e, s in per_evening.items()) - fines
        placement = sum(weights[e] * Placement().value(s, [], options) for e, s in per_evening.items())
        deals = sum(weights[r.evening] * r.deals for r in mine)
        mine_fined = [p for p in penalties if p.player_id == pid]
        assert TotalPoints().value(mine, mine_fined, options, weights) == total
        assert Placement().value(mine, mine_fined, options, weights) == placement
        assert Combined().value(mine, mine_fined, options, weights) == (placement, total)
        assert PointsPerDeal().value(mine, mine_fined, options, weights) == (total / deals if deals else 0)
