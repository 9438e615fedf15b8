"""Which rule sets a user may edit: their clubs' (a club administrator's), every one (a superuser's).

A shared rule set (no club) is the federation's: only a superuser edits it. Any other rule set is not told to
exist (a 404), as other clubs' pages are not.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404

from tournaments.limits import known_id
from tournaments.models import Club, RuleSet
from tournaments.permissions import admin_club_ids


def editable_rule_sets(user: Any) -> QuerySet[RuleSet]:
    rule_sets = RuleSet.objects.select_related("club").order_by("club__name", "name")
    if user.is_superuser:
        return rule_sets
    return rule_sets.filter(club_id__in=admin_club_ids(user))


def clubs_for_rule_sets(user: Any) -> QuerySet[Club]:
    """The clubs a user may add rule sets to."""
    clubs = Club.objects.order_by("name")
    return clubs if user.is_superuser else clubs.filter(pk__in=admin_club_ids(user))


def edited_rule_set(user: Any, pk: int) -> RuleSet:
    """Rule set ``pk`` if the user may edit it; a 404 otherwise (ids too large for a column included)."""
    found = editable_rule_sets(user).filter(pk=known_id(pk)).first()
    if found is None:
        raise Http404
    return found
