"""What of a competition a viewer may read: the public pages' one rule, from ``Competition.visibility``.

- hidden: nothing, for the public (a 404, as if it did not exist);
- standings only: the standings and season table; no round results, table sheets or sessions on player pages;
- everything: all of it.

Those who manage the competition (``permissions.can_manage_competition``) read everything, whatever its visibility.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet

from tournaments.models import Competition
from tournaments.permissions import admin_club_ids, can_manage_competition


@dataclass(frozen=True)
class Access:
    """One viewer's access to one competition, asked once per request."""

    competition: Competition
    manages: bool

    @property
    def standings(self) -> bool:
        return self.manages or self.competition.is_public

    @property
    def results(self) -> bool:
        """Round results, table sheets, and the competition's sessions on player pages."""
        return self.manages or self.competition.visibility == Competition.Visibility.EVERYTHING


def access(user: Any, competition: Competition) -> Access:
    return Access(competition, can_manage_competition(user, competition))


def results_visible_to(user: Any) -> QuerySet[Competition]:
    """The competitions whose results ``user`` may read: public ones with public results, and those they manage.

    One subquery, so a page filtering by it (a player's sessions) costs the same queries however many there are.
    """
    everyone = Q(is_public=True, public_results=True)
    if not getattr(user, "is_authenticated", False):
        return Competition.objects.filter(everyone)
    if user.is_superuser:
        return Competition.objects.all()
    organised = Competition.organisers.through.objects.filter(user_id=user.pk).values("competition_id")
    return Competition.objects.filter(everyone | Q(club_id__in=admin_club_ids(user)) | Q(pk__in=organised))
