"""Read what the standings calculator needs, as plain records."""

from __future__ import annotations

from collections import defaultdict

from scoring.standings import PenaltyRecord, SeatResult
from tournaments.models import DealEntry, Penalty, Seat


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
    entries = DealEntry.objects.filter(sheet__table__round__competition_id=competition_id, is_current=True)
    for table_id, line, line_points in entries.values_list("sheet__table_id", "line", "points"):
        sitting_out = line.get("dealer") if sizes.get(table_id) == 5 else None
        for position, p in enumerate(line_points):
            points[table_id, position] += p
            if position != sitting_out:
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
