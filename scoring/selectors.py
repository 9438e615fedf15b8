"""Read what the standings calculator needs, as plain records."""

from __future__ import annotations

from collections import defaultdict

from django.contrib.auth.models import AnonymousUser
from django.db.models import QuerySet

from games import sheet_from_lines, sitting_out
from scoring.ratings import DealResult
from scoring.records import Penalty as DatedPenalty
from scoring.records import SessionResult as Session
from scoring.statistics import DealRecord
from tournaments.models import Competition, DealEntry, Penalty, Round, ScoreSheet, Seat
from tournaments.models import SeatResult as TableSeatResult
from tournaments.visibility import results_visible_to

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


def all_deal_results() -> list[DealResult]:
    """Every current deal of a confirmed sheet of a ``rated_rounds`` round, oldest competition first, as players
    and points."""
    rounds = rated_rounds()
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for table_id, position, player_id in Seat.objects.filter(round__in=rounds).values_list(
        "table_id", "position", "player_id"
    ):
        seats[table_id][position] = player_id
    competitions = list(Competition.objects.filter(rounds__in=rounds).distinct().select_related("rule_set"))
    rules = {c.pk: c.rule_set.engine_rules() for c in competitions}
    names = {c.pk: c.name for c in competitions}
    entries = DealEntry.objects.filter(
        is_current=True, sheet__table__round__in=rounds, sheet__state__in=SETTLED
    ).order_by(
        "sheet__table__round__competition__starts_on",
        "sheet__table__round__competition_id",
        "sheet__table__round__number",
        "sheet__table__number",
        "deal_number",
    )
    out: list[DealResult] = []
    for competition_id, round_number, table_id, size, line, points in entries.values_list(
        "sheet__table__round__competition_id",
        "sheet__table__round__number",
        "sheet__table_id",
        "sheet__table__size",
        "line",
        "points",
    ):
        out_seat = sitting_out(rules[competition_id], size, line.get("dealer", -1))
        at_table = seats[table_id]
        seated = [(at_table[pos], p) for pos, p in enumerate(points) if pos != out_seat and pos in at_table]
        when = f"{names[competition_id]}, round {round_number}"
        out.append(DealResult(tuple(pid for pid, _ in seated), tuple(p for _, p in seated), when))
    return out


def competition_deal_records(competition_id: int) -> list[DealRecord]:
    """Every current deal of a competition, replayed through the engine for who declared and who made it."""
    competition = Competition.objects.select_related("rule_set").get(pk=competition_id)
    rules = competition.rule_set.engine_rules()
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for sheet_id, position, player_id in Seat.objects.filter(round__competition_id=competition_id).values_list(
        "table__sheet", "position", "player_id"
    ):
        seats[sheet_id][position] = player_id
    lines: dict[int, list[dict[str, object]]] = defaultdict(list)
    entries = DealEntry.objects.filter(sheet__table__round__competition_id=competition_id, is_current=True)
    for sheet_id, line in entries.order_by("sheet_id", "deal_number").values_list("sheet_id", "line"):
        lines[sheet_id].append(line)
    records: list[DealRecord] = []
    for sheet_id, sheet_lines in lines.items():
        size = len(seats[sheet_id])
        engine = sheet_from_lines(rules, sheet_lines, size, competition.deals_per_session)
        for line, settled in zip(engine.lines, engine.results, strict=True):
            out = sitting_out(rules, size, int(line.get("dealer", -1)))
            players = tuple(None if pos == out else seats[sheet_id].get(pos) for pos in range(size))
            if rules.zwicken is not None:
                played = tuple(line.get("played") or ())
                made = tuple((line.get("tricks") or [0] * size)[s] > 0 for s in played)
                records.append(DealRecord(players, settled.points, settled.contract, played, made))
                continue
            declarers = tuple(line.get("declarers") or ())
            flags = settled.made
            made = flags if len(flags) == len(declarers) else tuple(flags[0] for _ in declarers) if flags else ()
            records.append(DealRecord(players, settled.points, settled.contract, declarers, made))
    return records


def competition_sessions(competition_id: int) -> list[Session]:
    """Every player's result at every table session, with the whole table's results beside it."""
    tables: dict[int, list[tuple[int, int, int, int, int, int, int]]] = defaultdict(list)
    rows = TableSeatResult.objects.filter(sheet__table__round__competition_id=competition_id).values_list(
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
    return sessions


def competition_penalty_records(competition_id: int) -> list[DatedPenalty]:
    return [
        DatedPenalty(player_id, points, evening)
        for player_id, points, evening in Penalty.objects.filter(competition_id=competition_id).values_list(
            "player_id", "points", "round__number"
        )
    ]
