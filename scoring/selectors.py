"""Read what the standings calculator needs, as plain records."""

from __future__ import annotations

from collections import defaultdict

from games import sitting_out
from scoring.standings import PenaltyRecord, SeatResult
from tournaments.models import Competition, DealEntry, Penalty, Seat


def competition_seat_results(competition_id: int) -> list[SeatResult]:
    """One ``SeatResult`` per seat of every sheet: points summed over the current lines."""
    seats: dict[int, dict[int, int]] = defaultdict(dict)  # table id -> position -> player id
    sizes: dict[int, int] = {}
    for table_id, size, position, player_id in Seat.objects.filter(round__competition_id=competition_id).values_list(
        "table_id", "table__size", "position", "player_id"
    ):
        seats[table_id][position] = player_id
        sizes[table_id] = size
    points: dict[tuple[int, int], int] = defaultdict(int)
    deals: dict[tuple[int, int], int] = defaultdict(int)
    rules = Competition.objects.select_related("rule_set").get(pk=competition_id).rule_set.engine_rules()
    entries = DealEntry.objects.filter(sheet__table__round__competition_id=competition_id, is_current=True)
    for table_id, line, line_points in entries.values_list("sheet__table_id", "line", "points"):
        out = sitting_out(rules, sizes[table_id], line.get("dealer", -1))
        for position, p in enumerate(line_points):
            points[table_id, position] += p
            if position != out:
                deals[table_id, position] += 1
    return [
        SeatResult(player_id, points[table_id, position], deals[table_id, position])
        for table_id, by_position in seats.items()
        for position, player_id in by_position.items()
    ]


def competition_penalties(competition_id: int) -> list[PenaltyRecord]:
    return [
        PenaltyRecord(player_id, points)
        for player_id, points in Penalty.objects.filter(competition_id=competition_id).values_list(
            "player_id", "points"
        )
    ]
