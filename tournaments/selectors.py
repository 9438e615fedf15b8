"""Everything pages read: competitions, rounds with tables, sheets with running totals."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Prefetch, QuerySet

from games import sitting_out
from scoring.models import Standing, StandingsState
from tournaments.models import Club, Competition, DealEntry, Round, ScoreSheet, Seat, Table


def public_competitions() -> QuerySet[Competition]:
    return Competition.objects.filter(is_public=True).select_related("club", "rule_set")


def clubs() -> QuerySet[Club]:
    return Club.objects.all()


@dataclass(frozen=True)
class StandingsView:
    rows: list[Standing]
    computed_at: datetime | None
    stale: bool  # entries exist that the stored standings do not include yet
    pending: bool  # a recomputation is queued


def competition_standings(competition: Competition) -> StandingsView:
    rows = list(Standing.objects.filter(competition=competition).select_related("player").order_by("rank", "player_id"))
    state = StandingsState.objects.filter(competition=competition).first()
    computed_version = state.computed_version if state else 0
    return StandingsView(
        rows,
        state.computed_at if state else None,
        computed_version < competition.entries_version,
        bool(state and state.queued),
    )


def competition_rounds(competition: Competition) -> QuerySet[Round]:
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
    tables = Prefetch("tables", queryset=Table.objects.select_related("sheet").prefetch_related(seats))
    return competition.rounds.prefetch_related(tables).order_by("number")


@dataclass(frozen=True)
class SheetLine:
    entry: DealEntry
    running: list[int]
    sitting_out: int | None


def sheet_lines(sheet: ScoreSheet) -> list[SheetLine]:
    """Current lines with running totals by seat."""
    size = sheet.table.size
    rules = sheet.table.round.competition.rule_set.engine_rules()
    totals = [0] * size
    out: list[SheetLine] = []
    for entry in sheet.entries.filter(is_current=True).order_by("deal_number"):
        totals = [t + p for t, p in zip(totals, entry.points, strict=True)]
        out.append(SheetLine(entry, totals, sitting_out(rules, size, entry.line.get("dealer", -1))))
    return out


def sheet_history(sheet: ScoreSheet) -> QuerySet[DealEntry]:
    return sheet.entries.select_related("created_by").order_by("deal_number", "version")


def sheet_seats(sheet: ScoreSheet) -> list[Seat]:
    return list(sheet.table.seats.select_related("player").order_by("position"))
