"""Saving what the editor made. A rule set played under keeps its rules: the change becomes a new rule set."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.integrity import rule_set_in_play
from tournaments.models import Club, RuleSet


def name_taken(club: Club | None, name: str, *, besides: int | None = None) -> bool:
    found = RuleSet.objects.filter(club=club, name=name)
    return found.exclude(pk=besides).exists() if besides is not None else found.exists()


def _refuse_taken(club: Club | None, name: str, besides: int | None = None) -> None:
    if name_taken(club, name, besides=besides):
        raise ValidationError({"name": _("This club already has a rule set named %(name)s.") % {"name": name}})


def create(*, club: Club | None, name: str, game: str, preset: str, overrides: dict[str, Any]) -> RuleSet:
    _refuse_taken(club, name)
    rule_set = RuleSet(club=club, name=name, game=game, preset=preset, overrides=overrides)
    rule_set.full_clean()
    rule_set.save()
    return rule_set


@transaction.atomic
def save(rule_set: RuleSet, *, name: str, overrides: dict[str, Any]) -> tuple[RuleSet, bool]:
    """Store ``overrides`` (and the name) on ``rule_set``, or on a new rule set of the same club when the old one
    was played under and its rules change. Returns the rule set saved and whether it is a new one."""
    locked = RuleSet.objects.select_for_update().get(pk=rule_set.pk)
    if overrides != locked.overrides and rule_set_in_play(locked.pk) is not None:
        if name == locked.name:
            raise ValidationError(
                {"name": _("These rules become a new rule set (the old one was played under): give it a new name.")}
            )
        return create(club=locked.club, name=name, game=locked.game, preset=locked.preset, overrides=overrides), True
    _refuse_taken(locked.club, name, besides=locked.pk)
    locked.name, locked.overrides = name, overrides
    locked.full_clean()
    locked.save()
    return locked, False
