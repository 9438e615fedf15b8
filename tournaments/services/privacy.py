"""Which name of a player whom sees, and forgetting a player on request.

Public pages show the name the player chose (``Player.display_name``) or, without one, the first name and the
initial of the last name ("Anna P."): ``Player.public_name``, as the API does. Full names are for those who run
the competition: its organisers, the organising club's administrators, superusers. An anonymised player is
"Anonymous player <id>" to everyone; their results stay, so nobody else's standings move.

The template filter ``{% load privacy %}{{ player|player_name:full_names }}`` applies the same rule in pages
(registered under ``TEMPLATES["OPTIONS"]["libraries"]``).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from rest_framework.authtoken.models import Token

from tournaments.models import AuditEvent, Membership, Player, Registration
from tournaments.permissions import admin_club_ids
from tournaments.services.audit import record

ANONYMOUS_NAME = "Anonymous player {id}"  # what is stored; pages show it translated


def public_name(player: Any) -> str:
    """What anyone may see: ``Player.public_name`` (the chosen display name, else "Anna P."), and for an anonymised
    player "Anonymous player <id>" in the reader's language."""
    if getattr(player, "anonymised_at", None):
        return gettext("Anonymous player %(id)s") % {"id": player.pk}
    return str(player.public_name)


def full_name(player: Any) -> str:
    """The registered name, for those who run the competition."""
    if getattr(player, "anonymised_at", None):
        return public_name(player)
    return str(player.name)


def shown_name(player: Any, full: bool = False) -> str:
    return full_name(player) if full else public_name(player)


def sees_full_name(user: Any, player: Player) -> bool:
    """A superuser; an administrator of a club the player belongs to; who runs a competition the player entered."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    clubs = admin_club_ids(user)
    if clubs and Membership.objects.filter(player=player, club_id__in=clubs).exists():
        return True
    return Registration.objects.filter(
        Q(competition__club_id__in=clubs) | Q(competition__organisers=user), player=player
    ).exists()


# -- anonymisation ------------------------------------------------------------------------------------------------


def anonymise_player(player: Player, by: Any = None) -> Player:
    """Forget who ``player`` was; keep what they played.

    Names become "Anonymous player <id>", the federation id goes, the user account is unlinked and closed
    (deactivated, no password, no personal details, its API tokens deleted). Seats, lines, standings, ratings
    and statistics stay as they are, so no other player's result changes. The audit row says who did it and when,
    not the old name: the trail keeps no copy of what was erased. Doing it twice changes nothing more.
    """
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.anonymised_at is not None:
            return player
        anonymous = ANONYMOUS_NAME.format(id=player.pk)
        user_id = player.user_id
        player.first_name, player.last_name = anonymous.rsplit(" ", 1)
        player.display_name = anonymous
        player.federation_id = None
        player.user = None
        player.anonymised_at = timezone.now()
        player.save(update_fields=["first_name", "last_name", "display_name", "federation_id", "user", "anonymised_at"])
        if user_id is not None:
            _close_account(user_id)
        record(
            AuditEvent.Action.CHANGE,
            player,
            before={"anonymised": False, "had_account": user_id is not None},
            after={"anonymised": True, "anonymised_at": player.anonymised_at.isoformat()},
            by=by,
            note="anonymised on request",
        )
    return player


def _close_account(user_id: int) -> None:
    user = get_user_model().objects.get(pk=user_id)
    user.username = f"anonymised-{user.pk}"
    user.first_name = user.last_name = user.email = ""
    user.is_active = user.is_staff = user.is_superuser = False
    user.set_unusable_password()
    user.save()
    Token.objects.filter(user=user).delete()


# -- the template filter ------------------------------------------------------------------------------------------

register = template.Library()


@register.filter(name="player_name")
def player_name(player: Any, full: bool = False) -> str:
    """``{{ player|player_name:full_names }}``: the full name when ``full_names``, the public name otherwise."""
    if player is None:
        return ""
    return shown_name(player, bool(full))
