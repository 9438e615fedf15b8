"""Saving what the editor made. A rule set played under keeps its rules: the change becomes a new rule set.

Two people editing one rule set at once each keep the other's changes (``tournaments.services.edits``): the page
carries what it showed, setting by setting, where a setting is the name, a rule, or one contract's tariff.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

import games
from games.errors import GameError
from tournaments.integrity import rule_set_in_play
from tournaments.models import Club, RuleSet
from tournaments.rule_editor.overrides import NOT_RULES, overrides_for
from tournaments.services import edits

SPLIT = ("tariffs", "zwicken")  # rules compared part by part: one contract's tariff, one Zwicken option


def settings_of(name: str, rules: games.RuleSet) -> dict[str, Any]:
    """A rule set as the editor shows it, setting by setting: its name, each rule, each contract's tariff."""
    out: dict[str, Any] = {"name": name}
    for key, value in rules.to_json().items():
        if key in NOT_RULES:  # the engine's labels: the rule set's name is the club's
            continue
        if key in SPLIT and isinstance(value, dict):
            out.update({f"{key}.{part}": item for part, item in value.items()})
        else:
            out[key] = value
    return out


def _rules(settings: dict[str, Any], labels_from: games.RuleSet) -> games.RuleSet:
    # the labels of the rule set the page made, and which of its parts are dicts (Zwicken has no tariffs)
    shape = labels_from.to_json()
    data: dict[str, Any] = {key: shape[key] for key in NOT_RULES}
    data |= {head: {} for head in SPLIT if isinstance(shape.get(head), dict)}
    for key, value in settings.items():
        head, dot, part = key.partition(".")
        if not dot:
            data[key] = value
        elif value is not None:  # a tariff one side does not have
            data.setdefault(head, {})[part] = value
    return games.RuleSet.from_json(data)


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
def save(
    rule_set: RuleSet, *, name: str, rules: games.RuleSet, shown: edits.Digests | None = None
) -> tuple[RuleSet, bool]:
    """Store ``rules`` (as overrides of its preset) and the name on ``rule_set``, or on a new rule set of the same
    club when the old one was played under and its rules change. Returns the rule set saved and whether it is a
    new one. ``shown``: what the page showed (``settings_of``), so that what someone else saved meanwhile stays."""
    locked = RuleSet.objects.select_for_update().get(pk=rule_set.pk)
    stored = settings_of(locked.name, locked.engine_rules())
    sent = settings_of(name, rules)
    values = edits.merged(shown, {key: stored.get(key) for key in sent | stored}, {**dict.fromkeys(stored), **sent})
    name = values.pop("name")
    try:
        overrides = overrides_for(_rules(values, rules), locked.preset)
    except GameError:  # their change and this page's do not go together: both are shown, nothing is saved
        theirs = [key for key in stored if shown is not None and shown.get(key) != edits.digest(stored[key])]
        raise edits.ChangedMeanwhile(theirs, {**(shown or {}), **edits.digests_of(stored)}) from None
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
