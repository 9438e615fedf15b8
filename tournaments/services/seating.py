"""Bridge between the pure seating generators and the database: who is present, what happened before."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.models import Standing
from tournaments.models import Competition, Membership, Round, Seat, SeatingWish
from tournaments.seating import SeatingError, SeatingRequest, find
from tournaments.seating.core import Round as Tables
from tournaments.services.errors import ServiceError


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
    ranking = list(
        Standing.objects.filter(competition=competition).order_by("rank").values_list("player_id", flat=True)
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
    )


def generate(method: str, request: SeatingRequest) -> Tables:
    """Seat one round with the generator ``method``; its complaints become a ``ServiceError``."""
    try:
        return find(method).next_round(request)
    except KeyError as exc:
        raise ServiceError(str(exc.args[0])) from exc
    except SeatingError as exc:
        raise ServiceError("; ".join(exc.problems)) from exc
