"""Set up competitions: rule sets, registration, rounds with a seeded random seating."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction

from tournaments.models import Club, Competition, Player, Registration, Round, RuleSet, ScoreSheet, Seat, Table
from tournaments.services.errors import ServiceError


def create_rule_set(
    *, name: str, game: str, preset: str, overrides: dict[str, Any] | None = None, club: Club | None = None
) -> RuleSet:
    """Create a rule set after the engine has accepted preset and overrides."""
    rule_set = RuleSet(name=name, game=game, preset=preset, overrides=overrides or {}, club=club)
    rule_set.full_clean()
    rule_set.save()
    return rule_set


def create_competition(
    *,
    club: Club,
    name: str,
    slug: str,
    rule_set: RuleSet,
    kind: str = Competition.Kind.TOURNAMENT,
    deals_per_session: int | None = 16,
    **extra: Any,
) -> Competition:
    if rule_set.game == RuleSet.GameChoice.ZWICKEN:
        deals_per_session = None
    competition = Competition(
        club=club,
        name=name,
        slug=slug,
        kind=kind,
        game=rule_set.game,
        rule_set=rule_set,
        deals_per_session=deals_per_session,
        **extra,
    )
    competition.full_clean()
    competition.save()
    return competition


def register_players(competition: Competition, players: Iterable[Player]) -> int:
    """Register players (again is harmless); returns how many were new."""
    before = competition.registrations.count()
    Registration.objects.bulk_create(
        [Registration(competition=competition, player=p) for p in players], ignore_conflicts=True
    )
    return competition.registrations.count() - before


def table_sizes(players: int) -> list[int]:
    """Split players into tables of 4, using tables of 5 only as needed (18 -> 5, 5, 4, 4)."""
    fives = players % 4
    fours = (players - 5 * fives) // 4
    if players < 4 or fours < 0:
        raise ServiceError(f"{players} players cannot be seated at tables of 4 and 5")
    return [5] * fives + [4] * fours


def random_seating(player_ids: Sequence[int], seed: int) -> list[list[int]]:
    """A seeded random seating: the same seed always gives the same tables and seats."""
    order = sorted(player_ids)
    random.Random(seed).shuffle(order)
    tables: list[list[int]] = []
    start = 0
    for size in table_sizes(len(order)):
        tables.append(order[start : start + size])
        start += size
    return tables


@transaction.atomic
def create_round(competition: Competition, *, seed: int | None = None) -> Round:
    """Add the next round and seat every registered player, with a score sheet per table."""
    number = (competition.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    seed = seed if seed is not None else competition.pk * 1000 + number
    player_ids = list(competition.registrations.values_list("player_id", flat=True))
    seating = random_seating(player_ids, seed)
    round_ = Round.objects.create(competition=competition, number=number, seed=seed)
    for table_number, players in enumerate(seating, start=1):
        table = Table.objects.create(round=round_, number=table_number, size=len(players))
        Seat.objects.bulk_create(
            Seat(table=table, round=round_, position=position, player_id=player_id)
            for position, player_id in enumerate(players)
        )
        ScoreSheet.objects.create(table=table)
    return round_
