"""The pure standings calculator."""

from scoring.standings import PenaltyRecord, SeatResult, compute_standings


def test_it_sums_points_over_sessions_and_ranks_the_highest_first() -> None:
    rows = compute_standings(
        [SeatResult(1, 10, 16), SeatResult(2, -4, 16), SeatResult(1, -3, 16), SeatResult(2, 12, 16)]
    )
    assert [(r.rank, r.player_id, r.points, r.deals, r.sessions) for r in rows] == [
        (1, 2, 8, 32, 2),
        (2, 1, 7, 32, 2),
    ]


def test_equal_totals_share_a_rank_and_the_next_rank_is_skipped() -> None:
    rows = compute_standings([SeatResult(1, 5, 16), SeatResult(2, 5, 16), SeatResult(3, -10, 16), SeatResult(4, 0, 16)])
    assert [(r.player_id, r.rank) for r in rows] == [(1, 1), (2, 1), (4, 3), (3, 4)]


def test_penalties_are_deducted_and_shown() -> None:
    rows = compute_standings([SeatResult(1, 5, 16), SeatResult(2, 3, 16)], [PenaltyRecord(1, 4)])
    by_player = {r.player_id: r for r in rows}
    assert by_player[1].points == 1 and by_player[1].penalty_points == 4
    assert rows[0].player_id == 2


def test_registered_players_without_results_are_listed_with_zero() -> None:
    rows = compute_standings([SeatResult(1, -2, 16)], players=[1, 9])
    assert [(r.player_id, r.points, r.deals, r.rank) for r in rows] == [(9, 0, 0, 1), (1, -2, 16, 2)]
