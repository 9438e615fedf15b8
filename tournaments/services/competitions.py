"""Set up competitions: rule sets, the competition itself, registration."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tournaments.models import Club, Competition, Player, Registration, RuleSet
from tournaments.services.seasons import refuse_if_closed


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
    refuse_if_closed(competition, "register players")
    before = competition.registrations.count()
    Registration.objects.bulk_create(
        [Registration(competition=competition, player=p) for p in players], ignore_conflicts=True
    )
    return competition.registrations.count() - before
