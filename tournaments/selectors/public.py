"""Everything pages read: competitions, rounds with tables, sheets with running totals."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any

from django.db.models import Count, F, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from games import sitting_out
from games.rulesets import Doubling, Game, RuleSet
from scoring.models import Rating, Standing, StandingsState, Statistics
from scoring.selectors import rating_history
from tournaments.charts import LineChart, line_chart
from tournaments.contract_names import contract_name
from tournaments.duplicate.movement import board_in
from tournaments.line_text import describe_line
from tournaments.models import Club, Competition, DealEntry, Player, Round, ScoreSheet, Seat, SeatResult
from tournaments.services.privacy import public_name, shown_name
from tournaments.sit_outs import sheet_sit_out_counts
from tournaments.visibility import boards_in_play

SETTLED = (ScoreSheet.State.CONFIRMED, ScoreSheet.State.FINAL)  # a second person has checked the sheet


def public_competitions() -> QuerySet[Competition]:
    return Competition.objects.filter(is_public=True).select_related("club", "rule_set")


def clubs() -> QuerySet[Club]:
    return Club.objects.all()


def club_competitions(club: Club, visible: QuerySet[Competition]) -> QuerySet[Competition]:
    """The club's competitions among ``visible`` (``permissions.visible_competitions``), newest first."""
    return visible.filter(club=club).select_related("rule_set").order_by(F("starts_on").desc(nulls_last=True), "name")


@dataclass(frozen=True)
class StandingsView:
    rows: list[Standing]
    computed_at: datetime | None
    stale: bool  # entries exist that the stored standings do not include yet
    pending: bool  # a recomputation is queued
    provisional: frozenset[int] = frozenset()  # players whose results include a sheet nobody has confirmed yet

    @property
    def age(self) -> int | None:
        """Seconds since the standings were computed, for "updated 12 seconds ago"."""
        if self.computed_at is None:
            return None
        return max(0, int((timezone.now() - self.computed_at).total_seconds()))


def competition_standings(
    competition: Competition, provisional: frozenset[int] | None = None, *, with_rows: bool = True
) -> StandingsView:
    """The stored standings with their age, whether entries have overtaken them, and which rows are provisional
    (``provisional``, when the caller read them already: ``tournaments.live``); no rows without ``with_rows`` (the
    pages take their table from ``tournaments.standings_table``, built once per version).

    Three queries whatever the number of players, two when the competition was read with its ``standings_state``.
    """
    rows = standing_rows(competition) if with_rows else []
    state = standings_state(competition)
    return StandingsView(
        rows,
        state.computed_at if state else None,
        (state.computed_version if state else 0) < competition.entries_version,
        bool(state and state.queued),
        provisional_players(competition) if provisional is None else provisional,
    )


def standing_rows(competition: Competition) -> list[Standing]:
    """The stored standings, best first, each with its player: one query."""
    rows = Standing.objects.filter(competition=competition).select_related("player")
    return list(rows.order_by(*Standing.BEST_FIRST))


def standings_state(competition: Competition) -> StandingsState | None:
    """The standings' bookkeeping; no query when the competition was read with ``select_related("standings_state")``."""
    try:
        return competition.standings_state  # type: ignore[no-any-return]
    except StandingsState.DoesNotExist:
        return None


def provisional_players(competition: Competition) -> frozenset[int]:
    """The players with a result on a sheet nobody has confirmed yet: their standings rows are provisional."""
    return frozenset(
        SeatResult.objects.filter(sheet__table__round__competition=competition, deals__gt=0)
        .exclude(sheet__state__in=SETTLED)
        .exclude(boards_in_play("sheet__table__round"))  # not in the standings yet: nothing there to mark
        .values_list("player_id", flat=True)
        .distinct()
    )


def competition_rounds(competition: Competition, *, drafts: bool = False) -> QuerySet[Round]:
    """Rounds with how many tables they have and how many sheets are confirmed; drafts only for those who run it."""
    rounds = competition.rounds.annotate(
        table_count=Count("tables"),
        settled_count=Count("tables", filter=Q(tables__sheet__state__in=SETTLED)),
    ).order_by("number")
    return rounds if drafts else rounds.exclude(status=Round.Status.DRAFT)


@dataclass(frozen=True)
class ResultSeat:
    position: int
    player: ShownPlayer
    points: int | None  # None: no line entered yet


@dataclass(frozen=True)
class TableResult:
    number: int
    sheet: ScoreSheet
    deals: int  # current lines entered
    seats: list[ResultSeat]

    @property
    def provisional(self) -> bool:
        return self.sheet.state not in SETTLED


def round_results(round_: Round, *, full_names: bool, scores: bool = True) -> list[TableResult]:
    """Each table of a round with its players in seat order and, with ``scores``, their session totals
    (``SeatResult``; ``tournaments.visibility.Access.scores``).

    Four queries whatever the size of the round.
    """
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(round=round_).select_related("player").order_by("position"):
        seats.setdefault(seat.table_id, []).append(seat)
    results = SeatResult.objects.filter(sheet__table__round=round_) if scores else SeatResult.objects.none()
    points = {
        (table_id, position): total
        for table_id, position, total in results.values_list("sheet__table_id", "position", "points")
    }
    deals = dict(
        DealEntry.objects.filter(sheet__table__round=round_, is_current=True)
        .values("sheet_id")
        .annotate(n=Count("pk"))
        .values_list("sheet_id", "n")
    )
    sheets = ScoreSheet.objects.filter(table__round=round_).select_related("table").order_by("table__number")
    return [
        TableResult(
            sheet.table.number,
            sheet,
            deals.get(sheet.pk, 0),
            [
                ResultSeat(
                    seat.position,
                    ShownPlayer(seat.player_id, shown_name(seat.player, full_names), public_name(seat.player)),
                    points.get((sheet.table_id, seat.position)),
                )
                for seat in seats.get(sheet.table_id, [])
            ],
        )
        for sheet in sheets
    ]


@dataclass(frozen=True)
class SheetLine:
    entry: DealEntry
    running: list[int]
    sitting_out: int | None
    text: str = ""  # the line as players write it (``tournaments.line_text``): contract, level, trump, who, tricks
    reasons: tuple[str, ...] = ()  # why the deal counts more than once: "after an all-pass deal", "troel"...
    note: str = ""  # what the line means for the next one: "the next deal counts double"
    game: str = "wiezen"
    board: int | None = None  # a duplicate round's board played as this deal (the table's order, by the movement)

    @property
    def contract_name(self) -> str:
        return contract_name(self.entry.contract)

    @property
    def declarer_seats(self) -> list[int]:
        """The declarers as the table card numbers its seats: 1, 2, 3... (the engine's positions are 0-based)."""
        return [int(position) + 1 for position in self.entry.line.get("declarers") or ()]

    @property
    def doubled(self) -> bool:
        return self.entry.multiplier > 1


@dataclass(frozen=True)
class SitOut:
    number: int  # the seat as on the table card: 1, 2, 3...
    name: str
    deals: int


@dataclass(frozen=True)
class HistoryLine:
    entry: DealEntry  # any version, current or superseded
    text: str  # as players write it (``tournaments.line_text``)


class SheetLines(list[SheetLine]):
    """A sheet's lines, and what the sheet says besides: its game (Zwicken has no multiplier) and who sits out."""

    game: str = "wiezen"
    sit_outs: list[SitOut]
    sheet: ScoreSheet | None = None
    names: list[str]

    @property
    def multiplier_column(self) -> bool:
        return self.game != "zwicken"

    @cached_property
    def history(self) -> list[HistoryLine]:
        """Every version of every line, in players' words (one query, only when a page shows the history)."""
        if self.sheet is None:
            return []
        rules = self.sheet.table.round.competition.rule_set.engine_rules()
        return [
            HistoryLine(entry, describe_line(entry.line, self.names, self.game, rules))
            for entry in sheet_history(self.sheet)
        ]


def _doubling(rules: RuleSet, entry: DealEntry, pending: int, passes: int) -> tuple[str, ...]:
    """Why a played deal's multiplier is what it is, in the order the engine applies them (``games.settlement``)."""
    compiled = rules.compiled.get(entry.contract)
    if compiled is None:
        return ()
    reasons = []
    if pending > 1:
        reasons.append(
            ngettext("after an all-pass deal", "after %(count)s all-pass deals in a row", passes) % {"count": passes}
        )
    if compiled.factor > 1:
        reasons.append(gettext("troel counts double"))
    tricks = entry.line.get("tricks")
    all_tricks = isinstance(tricks, int) and tricks == compiled.contract.max_tricks
    doubles = all_tricks and compiled.doubles_on_all_tricks
    if doubles:
        reasons.append(gettext("all %(count)s tricks") % {"count": tricks})
    cap = rules.multiplier_cap
    if cap is not None and pending * compiled.factor * (2 if doubles else 1) > cap:
        reasons.append(gettext("at most ×%(cap)s under these rules") % {"cap": cap})
    return tuple(reasons)


def _pending_after(rules: RuleSet, contract: str, pending: int) -> int:
    """The all-pass doubling the next deal carries (``games.sheet.Sheet._after``)."""
    if contract == "pass":
        if rules.doubling is Doubling.NEXT_DEAL:
            return 2
        if rules.doubling is Doubling.PER_PASS:
            return pending * 2
        return 1
    return pending if contract == "penalty" else 1


def sheet_lines(sheet: ScoreSheet, names: list[str] | None = None, boards: list[int] | None = None) -> SheetLines:
    """Current lines with running totals by seat, each in players' words, with why it counts double.

    ``names[i]`` names the player at seat ``i + 1``; by default their public names (what anyone may see).
    ``boards``: a duplicate table's board numbers, deal by deal (``duplicate.movement.board_orders``), so each line
    says which board it was.
    """
    table = sheet.table
    size = table.size
    rules = table.round.competition.rule_set.engine_rules()
    game = rules.game.value
    if names is None:
        seated = {s.position: public_name(s.player) for s in table.seats.select_related("player")}
        names = [seated.get(position, "") for position in range(size)]
    totals = [0] * size
    out = SheetLines()
    out.game, out.sheet, out.names = game, sheet, names
    pending, passes = 1, 0
    for entry in sheet.entries.filter(is_current=True).order_by("deal_number"):
        totals = [t + p for t, p in zip(totals, entry.points, strict=True)]
        reasons: tuple[str, ...] = ()
        note = ""
        if game != Game.ZWICKEN:
            contract = entry.contract
            if contract not in ("pass", "penalty"):
                reasons = _doubling(rules, entry, pending, passes) if entry.multiplier > 1 else ()
            after = _pending_after(rules, contract, pending)
            passes = passes + 1 if contract == "pass" else (passes if contract == "penalty" else 0)
            if contract == "pass" and after > 1:
                note = (
                    gettext("the next deal counts double")
                    if after == 2
                    else gettext("the next deal counts ×%(times)s") % {"times": after}
                )
            elif contract == "penalty" and after > 1:
                note = gettext("the doubling waits for the next played deal")
            pending = after
        out.append(
            SheetLine(
                entry,
                totals,
                sitting_out(rules, size, entry.line.get("dealer", -1)),
                describe_line(entry.line, names, game, rules),
                reasons,
                note,
                game,
                board_in(boards or [], entry.deal_number),
            )
        )
    counts = sheet_sit_out_counts(rules, size, table.round.competition.deals_per_session, [e.entry.line for e in out])
    out.sit_outs = (
        [SitOut(position + 1, names[position], n) for position, n in enumerate(counts)] if any(counts) else []
    )
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


def seat_names(seats: Iterable[ShownSeat]) -> list[str]:
    """The players' names by engine position (seat number minus one), as ``shown_seats`` names them: what a line's
    description and a person's error message call each seat."""
    return [seat.player.name for seat in seats]


@dataclass(frozen=True)
class PlayerSession:
    """One session (a table of a round) of a player, with the running total of their sessions so far."""

    competition: Competition
    round_number: int
    table_number: int
    points: int
    deals: int
    cumulative: int


@dataclass(frozen=True)
class ContractCount:
    """How often a contract was bid (or played) and made."""

    contract: str  # the engine's id
    bid: int
    made: int

    @property
    def name(self) -> str:
        return contract_name(self.contract)

    @property
    def percent(self) -> int:
        return round(100 * self.made / self.bid) if self.bid else 0


@dataclass(frozen=True)
class PlayerPage:
    player: Player
    rating: Rating | None
    chart: str  # SVG polyline points of the rating history, or ""
    sessions: list[PlayerSession]
    cumulative: LineChart | None  # cumulative points after each session
    contracts: list[ContractCount]  # bid and made per contract, over the competitions shown
    deals: int
    points_per_deal: float


def player_page(player: Player, sheets: QuerySet[ScoreSheet], competitions: QuerySet[Competition]) -> PlayerPage:
    """A player's sessions and points at ``sheets`` (those whose scores the viewer may read:
    ``tournaments.visibility.sheets_visible_to``), oldest first, their contract statistics in ``competitions``
    (``statistics_visible_to``), and their rating history.

    Four queries however many sessions: sessions, statistics and the rating history each come in one.
    """
    rating = Rating.objects.filter(player=player).first()
    history = [ordinal for _, ordinal in rating_history(player.pk)] if rating else []
    results = (
        SeatResult.objects.filter(player=player, deals__gt=0, sheet__in=sheets)
        .select_related("sheet__table__round__competition")
        .order_by(
            F("sheet__table__round__competition__starts_on").asc(nulls_last=True),
            "sheet__table__round__competition__created_at",
            "sheet__table__round__competition_id",
            "sheet__table__round__number",
        )
    )
    sessions: list[PlayerSession] = []
    total = 0
    for result in results:
        total += result.points
        table = result.sheet.table
        sessions.append(
            PlayerSession(table.round.competition, table.round.number, table.number, result.points, result.deals, total)
        )
    chart = line_chart([s.cumulative for s in sessions], [f"{s.competition.name}, {s.round_number}" for s in sessions])
    contracts, deals, points = _contract_counts(
        Statistics.objects.filter(player=player, competition__in=competitions).values_list("data", flat=True)
    )
    return PlayerPage(
        player,
        rating,
        _polyline(history),
        sessions,
        chart,
        contracts,
        deals,
        round(points / deals, 2) if deals else 0.0,
    )


def _contract_counts(statistics: Iterable[dict[str, Any]]) -> tuple[list[ContractCount], int, int]:
    """Bid and made per contract summed over competitions (``scoring.statistics.PlayerStatistics.as_json``)."""
    bid: Counter[str] = Counter()
    made: Counter[str] = Counter()
    deals = points = 0
    for data in statistics:
        deals += int(data.get("deals", 0))
        points += int(data.get("points", 0))
        for contract, counts in data.get("contracts", {}).items():
            bid[contract] += int(counts.get("bid", 0))
            made[contract] += int(counts.get("made", 0))
    counts = [ContractCount(contract, n, made[contract]) for contract, n in bid.items()]
    return sorted(counts, key=lambda c: (-c.bid, c.contract)), deals, points


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
        competition_sessions(competition.pk, settled_only=True),
        competition_penalty_records(competition.pk, settled_only=True),
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
            r.rank,
            names.get(r.player_id, "?"),
            [r.per_evening.get(e) for e in evenings],
            r.total,
            r.movement,
            r.player_id,
            r.penalty_points,
        )
        for r in rows
    ]


@dataclass(frozen=True)
class SeasonTableRow:
    rank: int
    name: str
    per_evening: list[int | None]  # the sheets' points, before penalties
    total: object  # penalties deducted, as the standings say beside it
    movement: int | None
    player_id: int
    penalty_points: int = 0


def competition_statistics(competition: Competition) -> list[ContractCount]:
    """How often each contract was played and made in the competition (computed after the standings)."""
    row = Statistics.objects.filter(competition=competition, player=None).first()
    contracts = row.data.get("contracts", {}) if row else {}
    counts = [ContractCount(c, int(n.get("played", 0)), int(n.get("made", 0))) for c, n in contracts.items()]
    return sorted(counts, key=lambda c: (-c.bid, c.contract))
