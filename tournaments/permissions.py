"""Who may do what. One place, so the pages and the API ask the same questions.

Roles: a superuser; a club administrator (``Membership.is_admin``, for the
club's competitions); an organiser (listed on one competition); a table
captain (holds one sheet's table code); a player (their own data); the
public (what a competition's visibility allows).
"""

from __future__ import annotations

import hmac
from typing import Any

from django.db.models import QuerySet

from tournaments.models import Competition, Membership, ScoreSheet


from tournaments.models.sheets import format_table_code
def is_club_admin(user: Any, club_id: int | None) -> bool:
    if not getattr(user, "is_authenticated", False) or club_id is None:
        return False
    return user.is_superuser or Membership.objects.filter(club_id=club_id, player__user=user, is_admin=True).exists()


def admin_club_ids(user: Any) -> set[int]:
    if not getattr(user, "is_authenticated", False):
        return set()
    return set(Membership.objects.filter(player__user=user, is_admin=True).values_list("club_id", flat=True))


def can_manage_competition(user: Any, competition: Competition) -> bool:
    """Superusers, the organising club's administrators and the competition's organisers."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser or is_club_admin(user, competition.club_id):
        return True
    return competition.organisers.filter(pk=user.pk).exists()


def can_enter_scores(user: Any, competition: Competition) -> bool:
    return can_manage_competition(user, competition)


def can_enter_sheet(user: Any, sheet: ScoreSheet, table_code: str | None) -> bool:
    """Those who manage the competition, or whoever holds this sheet's table code."""
    if table_code_opens(sheet, table_code):
        return True
    return can_manage_competition(user, sheet.table.round.competition)


def visible_competitions(user: Any) -> QuerySet[Competition]:
    """Public competitions, and the ones this user manages: ``visibility.standings_visible_to``, the one rule."""
def table_code_opens(sheet: ScoreSheet, typed: str | None) -> bool:
    """Whether ``typed`` is ``sheet``'s table code: the one check of every page and API call that takes a code.

    Typed in any case, with or without its dashes or spaces; compared in constant time. No attempt limit:
    a code is 80 random bits (``new_table_code``), too many to guess.
    """
    if not typed or len(typed) > 64:  # no code is that long: not worth normalising
        return False
    return hmac.compare_digest(format_table_code(typed).encode(), format_table_code(sheet.captain_code).encode())


    from tournaments.visibility import standings_visible_to  # visibility builds on this module

    return standings_visible_to(user)
