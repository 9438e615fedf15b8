"""Who may do what. One place, so the pages and the API ask the same questions.

Roles: a superuser; a club administrator (``Membership.is_admin``, for the
club's competitions); an organiser (listed on one competition); a table
captain (holds one sheet's table code); a player (their own data); the
public (what a competition's visibility allows).
"""

from __future__ import annotations

import hmac
from typing import Any

from django.db.models import Model, Q, QuerySet
from django.utils.translation import gettext as _

from tournaments.models import Competition, Membership, Player, ScoreSheet
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


def may_change_player(user: Any, player: Player) -> bool:
    """Whether ``user`` may change or delete ``player``'s record (names, federation id, linked account).

    A player is one person across the federation, and their record decides who they are on every club's pages
    and which account acts as them (a club administrator's rights come through it). So a club's administrators
    change it only while the player is theirs alone: a member of their clubs and of no other, entered only in
    their clubs' competitions. Registering another club's player in an open tournament, or adding them as a
    member, does not make their record yours; a player of two clubs is changed by a superuser.
    """
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    clubs = admin_club_ids(user)
    members_of = set(player.memberships.values_list("club_id", flat=True))
    entered_in = set(player.registrations.values_list("competition__club_id", flat=True))
    return bool(members_of) and members_of | entered_in <= clubs


def can_enter_scores(user: Any, competition: Competition) -> bool:
    return can_manage_competition(user, competition)


def table_code_opens(sheet: ScoreSheet, typed: str | None) -> bool:
    """Whether ``typed`` is ``sheet``'s table code: the one check of every page and API call that takes a code.

    Typed in any case, with or without its dashes or spaces; compared in constant time. No attempt limit:
    a code is 80 random bits (``new_table_code``), too many to guess.
    """
    if not typed or len(typed) > 64:  # no code is that long: not worth normalising
        return False
    return hmac.compare_digest(format_table_code(typed).encode(), format_table_code(sheet.captain_code).encode())


def visible_competitions(user: Any) -> QuerySet[Competition]:
    """Public competitions, and the ones this user manages: ``visibility.standings_visible_to``, the one rule."""
    from tournaments.visibility import standings_visible_to  # visibility builds on this module

    return standings_visible_to(user)


# -- what a club administrator may name in a form: their own clubs' objects --------------------------------------

# model label -> the path from the model to the club it belongs to ("pk": the club itself)
CLUB_PATHS: dict[str, str] = {
    "tournaments.Club": "pk",
    "tournaments.Membership": "club",
    "tournaments.Competition": "club",
    "tournaments.Registration": "competition__club",
    "tournaments.Round": "competition__club",
    "tournaments.SeatingWish": "competition__club",
    "tournaments.Penalty": "competition__club",
    "tournaments.RoundEvent": "round__competition__club",
    "tournaments.Table": "round__competition__club",
    "tournaments.Seat": "round__competition__club",
    "tournaments.ScoreSheet": "table__round__competition__club",
    "tournaments.DealEntry": "sheet__table__round__competition__club",
    "tournaments.SeatResult": "sheet__table__round__competition__club",
    "scoring.Standing": "competition__club",
    "scoring.StandingsState": "competition__club",
}


def referable_condition(user: Any, model: type[Model]) -> Q | None:
    """Which objects of ``model`` ``user`` may name in a form (``None``: all of them, for a superuser).

    A club's objects for its administrators; players who are members of their clubs or registered in their
    clubs' competitions; their clubs' rule sets and the shared ones (no club); accounts of their clubs' members,
    accounts without a player, and their own. A model this does not know gives nothing.
    """
    from django.contrib.auth import get_user_model

    from tournaments.models import Player, Registration

    if getattr(user, "is_superuser", False):
        return None
    clubs = admin_club_ids(user)
    label = model._meta.label
    if label in CLUB_PATHS:
        return Q(**{f"{CLUB_PATHS[label]}__in": clubs})
    if label == "tournaments.Player":
        members = Membership.objects.filter(club_id__in=clubs).values("player_id")
        registered = Registration.objects.filter(competition__club_id__in=clubs).values("player_id")
        return Q(pk__in=members) | Q(pk__in=registered)
    if label == "tournaments.RuleSet":
        return Q(club__isnull=True) | Q(club_id__in=clubs)
    if model is get_user_model():
        accounts = Player.objects.filter(memberships__club_id__in=clubs, user__isnull=False).values("user_id")
        unlinked = Q(player__isnull=True, is_staff=False, is_superuser=False)
        return Q(pk=getattr(user, "pk", None)) | Q(pk__in=accounts) | unlinked
    return Q(pk__in=[])


def referable(user: Any, qs: QuerySet[Any]) -> QuerySet[Any]:
    """The objects of ``qs`` that ``user`` may name in a form: what admin choices offer."""
    condition = referable_condition(user, qs.model)
    return qs if condition is None else qs.filter(condition)


def may_reference(user: Any, obj: Model) -> bool:
    """Whether ``user`` may make one of their objects point at ``obj`` (a superuser may name anything)."""
    condition = referable_condition(user, type(obj))
    return condition is None or type(obj)._default_manager.filter(condition, pk=obj.pk).exists()


def not_yours(obj: Model) -> str:
    return _("%(object)s belongs to a club you do not administer: choose one of your clubs' own.") % {"object": obj}
