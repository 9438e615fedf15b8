"""Penalties: points the organisers deduct from a player outside any deal, with a reason; they count in the
standings, which follow on commit (the audit trail records them through ``tournaments.audit_signals``)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Sum
from django.utils.translation import gettext as _

from tournaments import limits
from tournaments.integrity import refuse_mismatch
from tournaments.models import Competition, Penalty, Player, Round
from tournaments.services.errors import ServiceError
from tournaments.services.standings import standings_follow
from tournaments.text_limits import PENALTY_REASON_MAX_LENGTH, checked_reason


@transaction.atomic
def give_penalty(
    competition: Competition, player: Player, points: int, reason: str, *, round_: Round | None = None, by: Any = None
) -> Penalty:
    """Deduct ``points`` (at least 1) from ``player``, saying why; refused in a closed competition.

    The round must be one of the competition's and the player registered in it: otherwise a ``ValidationError``
    on that field (``tournaments.integrity``), and nothing is stored.
    """
    reason = checked_reason(reason, max_length=PENALTY_REASON_MAX_LENGTH)
    if not reason:
        raise ServiceError(_("say why the penalty is given"))
    refuse_out_of_range(competition, player, points)
    if competition.closed_at is not None:
        raise ServiceError(_("%(competition)s is closed: no more penalties") % {"competition": competition})
    user = by if getattr(by, "is_authenticated", False) else None
    penalty = Penalty(
        competition=competition, round=round_, player=player, points=points, reason=reason, created_by=user
    )
    refuse_mismatch(penalty)
    penalty.save()
    standings_follow(competition.pk)
    return penalty


@transaction.atomic
def remove_penalty(penalty: Penalty) -> None:
    if penalty.competition.closed_at is not None:
        raise ServiceError(_("%(competition)s is closed: its penalties stay") % {"competition": penalty.competition})
    competition_id = penalty.competition_id
    penalty.delete()
    standings_follow(competition_id)


def refuse_out_of_range(competition: Competition, player: Player, points: int) -> None:
    """A penalty's points in ``limits.PENALTY_POINTS``, and the player's total within ``PENALTY_TOTAL_MAX``: the
    standings must always be able to add them up (a huge penalty once froze a competition's standings)."""
    if points not in limits.PENALTY_POINTS:
        message = _("a penalty deducts from %(low)s to %(high)s points")
        raise ServiceError(message % {"low": limits.PENALTY_POINTS.low, "high": limits.PENALTY_POINTS.high})
    given = Penalty.objects.filter(competition=competition, player=player).aggregate(total=Sum("points"))["total"]
    if (given or 0) + points > limits.PENALTY_TOTAL_MAX:
        message = _("%(player)s's penalties in this competition would total more than %(max)s points")
        raise ServiceError(message % {"player": player, "max": limits.PENALTY_TOTAL_MAX})
