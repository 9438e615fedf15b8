"""DRF permission classes over ``tournaments.permissions``: the pages and the API ask the same questions."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from tournaments import permissions as rules
from tournaments.models import Club, Competition, Penalty, Player, Round, RuleSet, ScoreSheet, Table


def competition_of(obj: Any) -> Competition | None:
    if isinstance(obj, Competition):
        return obj
    if isinstance(obj, Round | Penalty):
        return obj.competition
    if isinstance(obj, Table):
        return obj.round.competition
    if isinstance(obj, ScoreSheet):
        return obj.table.round.competition
    return None


class ReadOrManage(BasePermission):
    """Reading follows visibility (the viewsets filter); writing needs the right role on the object."""

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        user = request.user
        if isinstance(obj, Club):
            return rules.is_club_admin(user, obj.pk)
        if isinstance(obj, RuleSet):
            return bool(user.is_authenticated and user.is_superuser) or rules.is_club_admin(user, obj.club_id)
        if isinstance(obj, Player):
            return rules.may_change_player(user, obj)
        competition = competition_of(obj)
        return competition is not None and rules.can_manage_competition(user, competition)
