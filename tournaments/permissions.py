"""Who may do what. Kept in one place so views and the API ask the same question."""

from __future__ import annotations

from typing import Any

from tournaments.models import Competition, Membership


def can_enter_scores(user: Any, competition: Competition) -> bool:
    """Superusers and the administrators of the organising club enter and correct score sheets."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    return Membership.objects.filter(club_id=competition.club_id, player__user=user, is_admin=True).exists()
