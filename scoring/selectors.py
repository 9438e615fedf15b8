"""Read what the standings calculator needs, as plain records."""

from __future__ import annotations

from collections import defaultdict

from games import sitting_out
from scoring.ratings import DealResult
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


def all_deal_results() -> list[DealResult]:
    """Every current deal of every competition, oldest competition first, as players and points."""
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for table_id, position, player_id in Seat.objects.values_list("table_id", "position", "player_id"):
        seats[table_id][position] = player_id
    rules = {c.pk: c.rule_set.engine_rules() for c in Competition.objects.select_related("rule_set")}
    entries = DealEntry.objects.filter(is_current=True).order_by(
        "sheet__table__round__competition__starts_on",
        "sheet__table__round__competition_id",
        "sheet__table__round__number",
        "sheet__table__number",
        "deal_number",
    )
    out: list[DealResult] = []
    for competition_id, table_id, size, line, points in entries.values_list(
        "sheet__table__round__competition_id", "sheet__table_id", "sheet__table__size", "line", "points"
    ):
        out_seat = sitting_out(rules[competition_id], size, line.get("dealer", -1))
        at_table = seats[table_id]
        seated = [(at_table[pos], p) for pos, p in enumerate(points) if pos != out_seat and pos in at_table]
        out.append(DealResult(tuple(pid for pid, _ in seated), tuple(p for _, p in seated)))
    return out
