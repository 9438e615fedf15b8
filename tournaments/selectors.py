"""Everything pages read: competitions, rounds with tables, sheets with running totals."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Prefetch, QuerySet

from games import sitting_out
from scoring.models import Rating, Standing, StandingsState, Statistics
from tournaments.models import Club, Competition, DealEntry, Player, Round, ScoreSheet, Seat, SeatResult, Table
from tournaments.services.privacy import public_name, shown_name


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


def competition_rounds(competition: Competition, *, drafts: bool = False) -> QuerySet[Round]:
    """Rounds with tables, seats and sheets; draft seatings only for those who run the competition."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
    tables = Prefetch("tables", queryset=Table.objects.select_related("sheet").prefetch_related(seats))
    rounds = competition.rounds.prefetch_related(tables).order_by("number")
    return rounds if drafts else rounds.exclude(status=Round.Status.DRAFT)


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


@dataclass(frozen=True)
class ShownPlayer:
    """A player as one page may name them (``tournaments.services.privacy``): no other personal field."""

    pk: int
    name: str  # the full name for those who run the competition, the public name for everyone else
    short: str  # for narrow columns

    @property
    def id(self) -> int:
        return self.pk


@dataclass(frozen=True)
class ShownSeat:
    position: int
    player: ShownPlayer


def shown_seats(sheet: ScoreSheet, *, full_names: bool) -> list[ShownSeat]:
    """The sheet's seats in order, each player named as this viewer may see them (also what the entry form lists)."""
    return [
        ShownSeat(
            seat.position,
            ShownPlayer(seat.player_id, shown_name(seat.player, full_names), public_name(seat.player)),
        )
        for seat in sheet_seats(sheet)
    ]


@dataclass(frozen=True)
class PlayerPage:
    player: Player
    rating: Rating | None
    chart: str  # SVG polyline points of the rating history, or ""
    sessions: list[SeatResult]
    statistics: list[Statistics]


def player_page(player: Player) -> PlayerPage:
    """A player's sessions, rating history and statistics, in public competitions only."""
    rating = Rating.objects.filter(player=player).first()
    history = [point[1] for point in (rating.history if rating else [])]
    sessions = list(
        SeatResult.objects.filter(player=player, sheet__table__round__competition__is_public=True)
        .select_related("sheet__table__round__competition")
        .order_by("sheet__table__round__competition_id", "sheet__table__round__number")
    )
    statistics = list(
        Statistics.objects.filter(player=player, competition__is_public=True).select_related("competition")
    )
    return PlayerPage(player, rating, _polyline(history), sessions, statistics)


def _polyline(values: list[float], width: int = 300, height: int = 80) -> str:
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = width / (len(values) - 1)
    return " ".join(f"{i * step:.1f},{height - (v - low) / span * height:.1f}" for i, v in enumerate(values))


def season_rows(competition: Competition, *, full_names: bool = False) -> tuple[list[int], list[SeasonTableRow]]:
    """The league table: points per evening, total, rank and movement since the previous evening.

    Players are named as ``tournaments.services.privacy`` allows: full names only with ``full_names``.
    """
    from scoring.methods import MethodOptions
    from scoring.ranking import LeagueOptions, season_table
    from scoring.selectors import competition_penalty_records, competition_sessions

    league = LeagueOptions(competition.min_evenings, competition.best_evenings, competition.evening_decay)
    method_options = MethodOptions(tuple(competition.placement_points)) if competition.placement_points else None
    rows = season_table(
        competition_sessions(competition.pk),
        competition_penalty_records(competition.pk),
        competition.registrations.values_list("player_id", flat=True),
        league,
        competition.standings_method,
        competition.tie_breaks or (),
        method_options,
    )
    players = Player.objects.in_bulk([r.player_id for r in rows])
    names = {pk: shown_name(player, full_names) for pk, player in players.items()}
    evenings = sorted({e for r in rows for e in r.per_evening})
    return evenings, [
        SeasonTableRow(
            r.rank, names.get(r.player_id, "?"), [r.per_evening.get(e) for e in evenings], r.total, r.movement
        )
        for r in rows
    ]


@dataclass(frozen=True)
class SeasonTableRow:
    rank: int
    name: str
    per_evening: list[int | None]
    total: object
    movement: int | None


def competition_statistics(competition: Competition) -> dict[str, Any] | None:
    """How often each contract was played and made in the competition (computed after the standings)."""
    row = Statistics.objects.filter(competition=competition, player=None).first()
    return row.data if row else None
