"""A sheet's confirmation: the second pair of eyes that turns an entered sheet into a result."""

from __future__ import annotations

import hashlib
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import AuditEvent, ScoreSheet
from tournaments.services import audit
from tournaments.services.errors import ServiceError
from tournaments.services.rounds import note_entry, refresh_completion
from tournaments.text_limits import checked_reason


def session_mark(session_key: str | None) -> str:
    """A browser session as a line's ``entered_in``: a hash, so the stored mark opens no session."""
    if not session_key:
        return ""
    return hashlib.sha256(f"entered-in:{session_key}".encode()).hexdigest()[:32]


def entered_current_lines(sheet: ScoreSheet, *, by: Any, entered_in: str) -> bool:
    """Whether this person entered one of the sheet's current lines: a signed-in ``by``, else the browser
    session marked ``entered_in`` (such a person may not confirm the sheet)."""
    current = sheet.entries.filter(is_current=True)
    if getattr(by, "is_authenticated", False):
        return current.filter(created_by=by).exists()
    return bool(entered_in) and current.filter(entered_in=entered_in).exists()


@transaction.atomic
def confirm_sheet(sheet: ScoreSheet, *, by: Any, entered_in: str = "") -> ScoreSheet:
    """Confirm a fully entered sheet: a second person, never one who entered one of its current lines.

    ``by``: a signed-in user (an administrator, an organiser); or, with the table's code, nobody signed in and
    ``entered_in`` the confirming browser's ``session_mark``, which must not have entered a current line.
    """
    sheet = _locked(sheet)
    if sheet.state != ScoreSheet.State.ENTERED:
        raise ServiceError(
            _("only an entered sheet can be confirmed; this one is %(state)s")
            % {"state": sheet.get_state_display().lower()}
        )
    if not getattr(by, "is_authenticated", False) and not entered_in:
        raise ServiceError(_("sign in, or open the sheet with the table's code, to confirm it"))
    if entered_current_lines(sheet, by=by, entered_in=entered_in):
        raise ServiceError(_("you entered lines of this sheet: someone else must confirm it"))
    sheet.state = ScoreSheet.State.CONFIRMED
    sheet.save(update_fields=["state", "updated_at"])
    _review(sheet, AuditEvent.Action.CONFIRM, by, "")
    refresh_completion(sheet.table.round, by=by)
    return sheet


@transaction.atomic
def reject_sheet(sheet: ScoreSheet, *, by: Any, reason: str, entered_in: str = "") -> ScoreSheet:
    """Send an entered (or confirmed) sheet back to draft, saying why; its lines stay, to be corrected."""
    reason = checked_reason(reason)
    if not reason:
        raise ServiceError(_("say why the sheet is rejected"))
    sheet = _locked(sheet)
    if sheet.state not in (ScoreSheet.State.ENTERED, ScoreSheet.State.CONFIRMED):
        raise ServiceError(
            _("only an entered or confirmed sheet can be rejected; this one is %(state)s")
            % {"state": sheet.get_state_display().lower()}
        )
    if not getattr(by, "is_authenticated", False) and not entered_in:
        raise ServiceError(_("sign in, or open the sheet with the table's code, to reject it"))
    was_confirmed = sheet.state == ScoreSheet.State.CONFIRMED
    sheet.state = ScoreSheet.State.DRAFT
    sheet.save(update_fields=["state", "updated_at"])
    _review(sheet, AuditEvent.Action.REJECT, by, reason)
    if was_confirmed:
        note_entry(sheet.table.round, by=by, sheet_was_confirmed=True)  # a complete round is in play again
    return sheet


def _locked(sheet: ScoreSheet) -> ScoreSheet:
    return ScoreSheet.objects.select_for_update(of=("self",)).select_related("table__round").get(pk=sheet.pk)


def _review(sheet: ScoreSheet, action: str, by: Any, reason: str) -> None:
    """The confirmation or rejection in the audit trail: the sheet's history shows who, when and why."""
    audit.record(
        action,
        sheet,
        before=None,
        after={"state": sheet.state, "reason": reason} if reason else {"state": sheet.state},
        by=by,
        competition_id=sheet.table.round.competition_id,
        note=reason,
    )
