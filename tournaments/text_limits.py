"""Length limits of the free text users type (README "Security"); the integer ranges are in ``tournaments.limits``.

Every such text has a limit, checked at the edge (forms, serializers; the rules engine for a line's ``note``,
``games.lines.NOTE_MAX_LENGTH``), again by the service every path goes through, and by the column where the
database can (``max_length``). ``tests/security/test_resource_limits.py`` finds any text field without one.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.services.errors import ServiceError

#: a reason to reopen a round or a competition, reseat a round, withdraw a player or reject a sheet
REASON_MAX_LENGTH = 500
#: a penalty's reason (the ``Penalty.reason`` column)
PENALTY_REASON_MAX_LENGTH = 200


def checked_reason(reason: str | None, *, max_length: int = REASON_MAX_LENGTH) -> str:
    """``reason`` without surrounding blanks, refused (``ServiceError``) when longer than ``max_length``."""
    text = (reason or "").strip()
    if len(text) > max_length:
        raise ServiceError(
            _("the reason is %(length)s characters long: at most %(max)s are allowed")
            % {"length": len(text), "max": max_length}
        )
    return text
