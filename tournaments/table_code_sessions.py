"""Which score sheets this browser opened with their table codes.

The entry page keeps a code typed once in the session, so the table's phone is not asked again; the former-address
middleware asks the same question of a hidden competition. A code kept counts only while it is the sheet's current
one: a new code shuts the old one out.
"""

from __future__ import annotations

from django.http import HttpRequest

from tournaments.models import ScoreSheet
from tournaments.permissions import table_code_opens

TABLE_CODES = "table_codes"


def remember_table_code(request: HttpRequest, sheet: ScoreSheet) -> None:
    request.session[TABLE_CODES] = {**request.session.get(TABLE_CODES, {}), str(sheet.pk): sheet.captain_code}


def holds_table_code(request: HttpRequest, sheet: ScoreSheet) -> bool:
    """This session opened ``sheet`` with its current table code."""
    held = _held(request).get(str(sheet.pk))
    return isinstance(held, str) and table_code_opens(sheet, held)


def sheets_held(request: HttpRequest) -> list[int]:
    """The ids of the sheets this session kept a code for, current or not: ``holds_table_code`` tells which."""
    return [int(key) for key in _held(request) if isinstance(key, str) and key.isdigit()]


def _held(request: HttpRequest) -> dict[object, object]:
    session = getattr(request, "session", None)  # the middleware may see a request before the session's
    held = session.get(TABLE_CODES, {}) if session is not None else {}
    return held if isinstance(held, dict) else {}
