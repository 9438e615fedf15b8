"""Closing a competition (a league season, a finished tournament): no more results, rounds or penalties.

The services refuse writes to a closed competition, and database triggers refuse its new lines and penalties
whatever path they take. Reopening needs a reason; both steps are in the audit trail.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from tournaments.models import AuditEvent, Competition
from tournaments.services import audit
from tournaments.services.errors import ServiceError
from tournaments.text_limits import checked_reason


def refuse_if_closed(competition: Competition) -> None:
    if competition.closed_at is not None:
        raise ServiceError(
            gettext("%(competition)s is closed: reopen it first, with a reason.") % {"competition": competition}
        )


@transaction.atomic
def close_competition(competition: Competition, *, by: Any = None) -> Competition:
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    if competition.closed_at is not None:
        raise ServiceError(gettext("%(competition)s is closed already.") % {"competition": competition})
    competition.closed_at = timezone.now()
    competition.save(update_fields=["closed_at"])
    audit.record(
        AuditEvent.Action.CHANGE,
        competition,
        before={"closed_at": None},
        after={"closed_at": competition.closed_at.isoformat()},
        by=by,
        competition_id=competition.pk,
        note="closed",
    )
    return competition


@transaction.atomic
def reopen_competition(competition: Competition, *, reason: str, by: Any = None) -> Competition:
    reason = checked_reason(reason)
    if not reason:
        raise ServiceError(gettext("Give a reason to reopen a closed competition."))
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    if competition.closed_at is None:
        raise ServiceError(gettext("%(competition)s is not closed.") % {"competition": competition})
    before = competition.closed_at.isoformat()
    competition.closed_at = None
    competition.save(update_fields=["closed_at"])
    audit.record(
        AuditEvent.Action.CHANGE,
        competition,
        before={"closed_at": before},
        after={"closed_at": None},
        by=by,
        competition_id=competition.pk,
        note=f"reopened: {reason.strip()}",
    )
    return competition
