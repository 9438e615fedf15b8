"""Read what the standings calculator needs, as plain records."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.db.models import OuterRef, QuerySet, Subquery
from django.db.models.fields.json import KT

from games import sheet_from_lines, sitting_out
from scoring.models import RatedRound, RatingStep
from scoring.ratings import DealResult, PlayerState, history_point
from scoring.records import Penalty as DatedPenalty
from scoring.records import SessionResult as Session
from scoring.statistics import DealRecord
from tournaments.models import Competition, DealEntry, Penalty, Round, RoundEvent, ScoreSheet, Seat
from tournaments.models import SeatResult as TableSeatResult
from tournaments.visibility import boards_in_play, results_visible_to

SETTLED = (ScoreSheet.State.CONFIRMED, ScoreSheet.State.FINAL)  # a second person has checked the sheet


def rated_rounds() -> QuerySet[Round]:
    """The rounds ratings count: finalised rounds of competitions whose results are public.

    Public results (``tournaments.visibility``, as the public sees them), so nobody's rating moves on results
    nobody may check; finalised, so every sheet was confirmed by a second person and can no longer change. A club
    administrator cannot move another club's player's rating with a hidden competition or a sheet never confirmed.
    """
    return Round.objects.filter(
        competition__in=results_visible_to(AnonymousUser()), status=Round.Status.FINALISED
    ).order_by("pk")


@dataclass(frozen=True, slots=True)
class RatedRoundRow:
    """A round the ratings count, its history label and a fingerprint of what was rated."""

    round_id: int
    label: str
    fingerprint: str


def rated_rounds_in_order() -> list[RatedRoundRow]:
    """The ``rated_rounds`` in rating order (oldest competition first, then round number), one query.

    A round's fingerprint changes when it is finalised again (a new ``RoundEvent``: every finalisation logs one,
    and a finalised round takes no lines and keeps its sheets final, so a correction means reopen, correct,
    finalise) or its label changes (the competition renamed). It reads one row per round and nothing of their
    sheets, so it costs the same whatever the rounds hold. What no fingerprint sees (a line or a sheet's state
    edited in the database by hand) the periodic full recomputation finds, reports and repairs.
    """
    events = RoundEvent.objects.filter(round=OuterRef("pk")).order_by("-pk").values("pk")[:1]
    rows = (
        rated_rounds()
        .order_by("competition__starts_on", "competition_id", "number")
        .annotate(last_event=Subquery(events))
        .values_list("pk", "competition__name", "number", "last_event")
    )
    out: list[RatedRoundRow] = []
    for pk, name, number, last_event in rows:
        label = round_label(name, number)
        digest = hashlib.sha256(f"{pk}|{last_event or 0}|{label}".encode()).hexdigest()
        out.append(RatedRoundRow(pk, label, digest))
    return out


def rating_history(player_id: int) -> list[tuple[str, float]]:
    """The player's rating after each round they played, oldest first: (the round's label, the ordinal to 3
    decimals). One query, on the ledger's index by player."""
    label = RatedRound.objects.filter(position=OuterRef("position")).values("label")[:1]
    steps = (
        RatingStep.objects.filter(player_id=player_id)
        .annotate(label=Subquery(label))
        .order_by("position")
        .values_list("label", "mu", "sigma", "deals")
    )
    return [history_point(name, PlayerState(mu, sigma, deals)) for name, mu, sigma, deals in steps]


def round_label(competition_name: str, number: int) -> str:
    """A round's point in the rating history."""
    return f"{competition_name}, round {number}"[:300]


def round_deal_results(round_ids: list[int]) -> dict[int, list[DealResult]]:
    """The rated deals of the given rounds (current lines of settled sheets), per round, in order of table and
    deal: what the ratings count of them. Queries proportional to these rounds only."""
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for table_id, position, player_id in Seat.objects.filter(round_id__in=round_ids).values_list(
        "table_id", "position", "player_id"
    ):
        seats[table_id][position] = player_id
    rounds = Round.objects.filter(pk__in=round_ids).select_related("competition__rule_set")
    rules = {r.pk: r.competition.rule_set.engine_rules() for r in rounds}
    labels = {r.pk: round_label(r.competition.name, r.number) for r in rounds}
    entries = DealEntry.objects.filter(
        is_current=True, sheet__table__round_id__in=round_ids, sheet__state__in=SETTLED
    ).order_by("sheet__table__round_id", "sheet__table__number", "deal_number")
    out: dict[int, list[DealResult]] = {pk: [] for pk in round_ids}
    rows = entries.annotate(dealer=KT("line__dealer")).values_list(
        "sheet__table__round_id", "sheet__table_id", "sheet__table__size", "dealer", "points"
    )
    for round_id, table_id, size, dealer, points in rows.iterator(chunk_size=5000):
        out_seat = sitting_out(rules[round_id], size, int(dealer) if dealer is not None else -1)
        at_table = seats[table_id]
        seated = [(at_table[pos], p) for pos, p in enumerate(points) if pos != out_seat and pos in at_table]
        out[round_id].append(
            DealResult(tuple(pid for pid, _ in seated), tuple(p for _, p in seated), labels[round_id], round_id)
        )
    return out


def all_deal_results() -> list[DealResult]:
    """Every current deal of a confirmed sheet of a ``rated_rounds`` round, oldest competition first, as players
    and points."""
    order = [row.round_id for row in rated_rounds_in_order()]
    by_round = round_deal_results(order)
    return [deal for round_id in order for deal in by_round[round_id]]


def competition_deal_records(competition_id: int) -> list[DealRecord]:
    """Every current deal of a competition, replayed through the engine for who declared and who made it."""
    return [record for records in sheet_deal_records(competition_id).values() for record in records]


def sheet_deal_records(competition_id: int, sheet_ids: Iterable[int] | None = None) -> dict[int, list[DealRecord]]:
    """The current deals of a competition's sheets (all, or ``sheet_ids``), per sheet, replayed through the engine
    for who declared and who made it. Reads only those sheets' rows."""
    competition = Competition.objects.select_related("rule_set").get(pk=competition_id)
    rules = competition.rule_set.engine_rules()
    seat_rows = Seat.objects.filter(round__competition_id=competition_id)
    entries = DealEntry.objects.filter(sheet__table__round__competition_id=competition_id, is_current=True)
    if sheet_ids is not None:
        wanted = list(sheet_ids)
        seat_rows = seat_rows.filter(table__sheet__in=wanted)
        entries = entries.filter(sheet_id__in=wanted)
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for sheet_id, position, player_id in seat_rows.values_list("table__sheet", "position", "player_id"):
        seats[sheet_id][position] = player_id
    lines: dict[int, list[dict[str, object]]] = defaultdict(list)
    for sheet_id, line in entries.order_by("sheet_id", "deal_number").values_list("sheet_id", "line"):
        lines[sheet_id].append(line)
    out: dict[int, list[DealRecord]] = {}
    for sheet_id, sheet_lines in lines.items():
        records = out[sheet_id] = []
        size = len(seats[sheet_id])
        engine = sheet_from_lines(rules, sheet_lines, size, competition.deals_per_session)
        for line, settled in zip(engine.lines, engine.results, strict=True):
            out_seat = sitting_out(rules, size, int(line.get("dealer", -1)))
            players = tuple(None if pos == out_seat else seats[sheet_id].get(pos) for pos in range(size))
            if rules.zwicken is not None:
                played = tuple(line.get("played") or ())
                made = tuple((line.get("tricks") or [0] * size)[s] > 0 for s in played)
                records.append(DealRecord(players, settled.points, settled.contract, played, made))
                continue
            declarers = tuple(line.get("declarers") or ())
            flags = settled.made
            made = flags if len(flags) == len(declarers) else tuple(flags[0] for _ in declarers) if flags else ()
            records.append(DealRecord(players, settled.points, settled.contract, declarers, made))
    return out


def sheet_fingerprints(competition_id: int) -> dict[int, str]:
    """A digest per sheet of the competition of what its statistics are computed from: its current entries (every
    correction is a new entry) and who sits where. Two small queries, no lines read."""
    parts: dict[int, list[str]] = defaultdict(list)
    entries = DealEntry.objects.filter(sheet__table__round__competition_id=competition_id, is_current=True)
    for sheet_id, entry_id in entries.order_by("sheet_id", "pk").values_list("sheet_id", "pk"):
        parts[sheet_id].append(str(entry_id))
    seats = Seat.objects.filter(round__competition_id=competition_id, table__sheet__isnull=False)
    for sheet_id, position, player_id in seats.order_by("table__sheet", "position").values_list(
        "table__sheet", "position", "player_id"
    ):
        if sheet_id in parts:
            parts[sheet_id].append(f"{position}:{player_id}")
    return {sheet_id: hashlib.sha256(",".join(p).encode()).hexdigest() for sheet_id, p in parts.items()}


def competition_sessions(competition_id: int, *, settled_only: bool) -> list[Session]:
    """Every player's result at every table session, with the whole table's results beside it; a duplicate
    competition ranked by comparison gets each session's boards too (``tournaments.duplicate.comparison``).

    ``settled_only``: not a duplicate round in play (``tournaments.visibility.boards_in_play``), as every reader of
    the stored standings sees them."""
    tables: dict[int, list[tuple[int, int, int, int, int, int, int]]] = defaultdict(list)
    counted = TableSeatResult.objects.filter(sheet__table__round__competition_id=competition_id)
    if settled_only:
        counted = counted.exclude(boards_in_play("sheet__table__round"))
    rows = counted.values_list(
        "sheet_id",
        "sheet__table__round__number",
        "position",
        "player_id",
        "points",
        "deals",
        "contracts_bid",
        "contracts_made",
    )
    for sheet_id, evening, position, player_id, points, deals, bid, made in rows.iterator(chunk_size=5000):
        tables[sheet_id].append((evening, position, player_id, points, deals, bid, made))
    sessions: list[Session] = []
    for sheet_id, seats in tables.items():
        seats.sort(key=lambda seat: seat[1])
        table_points = tuple(seat[3] for seat in seats)
        table_players = tuple(seat[2] for seat in seats)
        for evening, _, player_id, points, deals, bid, made in seats:
            sessions.append(
                Session(player_id, sheet_id, evening, points, deals, table_points, table_players, bid, made)
            )
    from tournaments.duplicate.comparison import with_boards  # board by board, for ranking by comparison

    return with_boards(competition_id, sessions)


def competition_penalty_records(competition_id: int, *, settled_only: bool) -> list[DatedPenalty]:
    """The competition's penalties; ``settled_only`` as ``competition_sessions``."""
    penalties = Penalty.objects.filter(competition_id=competition_id)
    if settled_only:
        penalties = penalties.exclude(boards_in_play("round"))
    return [
        DatedPenalty(player_id, points, evening)
        for player_id, points, evening in penalties.values_list("player_id", "points", "round__number")
    ]
