"""Bridge between the pure seating generators and the database: who is present, what happened before.

Tables of five: the dealer sits each deal out, and 24 (or 16) deals do not go round five seats evenly, so the
seating is told each player's sit-outs so far and gives the seats that sit out least to those who sat out more
(``tournaments.seating.sit_outs``); ``round_sit_outs`` shows the counts on the organiser's round page.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from games import RuleSet
from games.errors import GameError
from scoring.models import Standing
from tournaments import seating_words
from tournaments.models import Competition, DealEntry, Membership, Round, Seat, SeatingWish
from tournaments.seating import SeatingError, SeatingRequest, find
from tournaments.seating.core import Round as Tables
from tournaments.seating.sit_outs import SitOuts, tally
from tournaments.services.errors import ServiceError
from tournaments.services.privacy import full_name
from tournaments.sit_outs import sheet_sit_out_counts, sit_out_counts

FIVE = 5  # the table where the dealer sits each deal out


def active_players(competition: Competition) -> list[int]:
    """Registered players who have not withdrawn, by id (so a seed always meets the same order)."""
    return sorted(competition.registrations.filter(withdrawn_at__isnull=True).values_list("player_id", flat=True))


def round_tables(round_: Round) -> Tables:
    """A round's tables as lists of player ids in seat order."""
    tables: dict[int, list[int]] = {}
    for table_number, player_id in (
        Seat.objects.filter(round=round_)
        .order_by("table__number", "position")
        .values_list("table__number", "player_id")
    ):
        tables.setdefault(table_number, []).append(player_id)
    return list(tables.values())


def seating_request(
    competition: Competition,
    *,
    players: Sequence[int] | None = None,
    before: int | None = None,
    seed: int = 0,
    tables: Sequence[Sequence[int]] = (),
) -> SeatingRequest:
    """Everything the generators may use, for the players present, from rounds numbered below ``before``."""
    present = sorted(set(players)) if players is not None else active_players(competition)
    earlier = competition.rounds.all()
    if before is not None:
        earlier = earlier.filter(number__lt=before)
    history: dict[int, dict[int, list[int]]] = {}
    for round_number, table_number, player_id in (
        Seat.objects.filter(round__in=earlier)
        .order_by("round__number", "table__number", "position")
        .values_list("round__number", "table__number", "player_id")
    ):
        history.setdefault(round_number, {}).setdefault(table_number, []).append(player_id)
    byes: dict[int, int] = dict.fromkeys(present, 0)
    for round_byes in earlier.values_list("byes", flat=True):
        for player_id in round_byes or ():
            if player_id in byes:
                byes[player_id] += 1
    clubs: dict[int, list[int]] = {}
    if competition.keep_clubmates_apart:
        for player_id, club_id in Membership.objects.filter(player_id__in=present).values_list("player_id", "club_id"):
            clubs.setdefault(player_id, []).append(club_id)
    wishes = list(SeatingWish.objects.filter(competition=competition).values_list("player_id", "other_id", "kind"))
    standings = Standing.objects.filter(competition=competition).order_by(*Standing.BEST_FIRST)
    ranking = list(standings.values_list("player_id", flat=True))
    rules = _rules(competition)
    seats = sit_out_counts(rules, FIVE, competition.deals_per_session) if rules else []
    so_far = tally(
        (players, counts)
        for tables_ in five_tables(competition, earlier, rules).values()
        for _, players, counts in tables_
    )
    return SeatingRequest(
        present,
        history=[list(tables_.values()) for _, tables_ in sorted(history.items())],
        seed=seed,
        byes=byes,
        ranking=ranking,
        clubs=clubs,
        keep_clubmates_apart=competition.keep_clubmates_apart,
        apart=[(a, b) for a, b, kind in wishes if kind == SeatingWish.Kind.APART],
        together=[(a, b) for a, b, kind in wishes if kind == SeatingWish.Kind.TOGETHER],
        tables=tables,
        sit_out_seats=seats if len(set(seats)) > 1 else (),
        sit_outs=so_far,
    )


def _rules(competition: Competition) -> RuleSet | None:
    try:
        return competition.rule_set.engine_rules()
    except GameError:  # a broken rule set is reported where it is used; here it only means no sit-outs to balance
        return None


FiveTable = tuple[int, list[int], list[int]]  # table number, players in seat order, deals each seat sits out


def five_tables(competition: Competition, rounds: QuerySet[Round], rules: RuleSet | None) -> dict[int, list[FiveTable]]:
    """Per round number, its tables of five with the deals each seat sits out: the sheet's lines so far, then the
    plan for the deals still to come (the deal goes round from seat 1)."""
    if rules is None:
        return {}
    seated: dict[tuple[int, int], list[int]] = defaultdict(list)
    where: dict[int, tuple[int, int]] = {}
    for round_number, table_number, table_id, player_id in (
        Seat.objects.filter(round__in=rounds, table__size=FIVE)
        .order_by("round__number", "table__number", "position")
        .values_list("round__number", "table__number", "table_id", "player_id")
    ):
        seated[(round_number, table_number)].append(player_id)
        where[table_id] = (round_number, table_number)
    lines: dict[int, list[Any]] = defaultdict(list)
    for table_id, line in (
        DealEntry.objects.filter(sheet__table_id__in=list(where), is_current=True)
        .order_by("sheet__table_id", "deal_number")
        .values_list("sheet__table_id", "line")
    ):
        lines[table_id].append(line)
    out: dict[int, list[FiveTable]] = defaultdict(list)
    for table_id, (round_number, table_number) in sorted(where.items(), key=lambda item: item[1]):
        counts = sheet_sit_out_counts(rules, FIVE, competition.deals_per_session, lines.get(table_id, []))
        out[round_number].append((table_number, seated[(round_number, table_number)], counts))
    return dict(out)


@dataclass(frozen=True)
class SitOutRow:
    """A player at a table of five in a round: how many deals they sat out before it and sit out in it."""

    table: int
    seat: int  # from 1, as on the table card
    name: str
    before: int  # deals sat out at tables of five in earlier rounds
    extra_before: int  # of those, the deals beyond the fewest at their table
    now: int  # deals this seat sits out in this round


def round_sit_outs(round_: Round) -> list[SitOutRow]:
    """The players at the tables of five of ``round_``, table by table in seat order, with their sit-outs (the
    organiser's round page). Empty when the round has no table of five, or nobody sits out there (Zwicken)."""
    competition = round_.competition
    rules = _rules(competition)
    here = five_tables(competition, competition.rounds.filter(pk=round_.pk), rules).get(round_.number, [])
    if not here or not any(any(counts) for _, _, counts in here):
        return []
    earlier = competition.rounds.filter(number__lt=round_.number)
    so_far = tally(
        (players, counts)
        for tables_ in five_tables(competition, earlier, rules).values()
        for _, players, counts in tables_
    )
    names = {
        seat.player_id: full_name(seat.player)
        for seat in Seat.objects.filter(round=round_, table__size=FIVE).select_related("player")
    }
    rows = []
    for table_number, players, counts in here:
        for position, (player_id, count) in enumerate(zip(players, counts, strict=True), start=1):
            before = so_far.get(player_id, SitOuts())
            rows.append(SitOutRow(table_number, position, names[player_id], before.total, before.extra, count))
    return rows


def generate(method: str, request: SeatingRequest) -> Tables:
    """Seat one round with the generator ``method``; its complaints become a ``ServiceError``."""
    try:
        return find(method).seat(request)
    except KeyError as exc:
        raise ServiceError(str(exc.args[0])) from exc
    except SeatingError as exc:
        raise ServiceError(seating_words.refusal(exc.problems)) from exc
