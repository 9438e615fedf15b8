"""Penalties: points the organisers deduct from a player outside any deal, with a reason; they count in the
standings, which follow on commit (the audit trail records them through ``tournaments.audit_signals``)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from scoring.services import request_standings
from tournaments.integrity import refuse_mismatch
from tournaments.models import Competition, Penalty, Player, Round
from tournaments.services.errors import ServiceError
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
    if points < 1:
        raise ServiceError(_("a penalty deducts at least one point"))
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


def standings_follow(competition_id: int) -> None:
    """The standings are stale from this transaction on, and recomputed once it commits."""
    Competition.objects.filter(pk=competition_id).update(entries_version=F("entries_version") + 1)
    transaction.on_commit(lambda: request_standings(competition_id))
