"""A sheet's confirmation: the second pair of eyes that turns an entered sheet into a result."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from tournaments import devices, live
from tournaments.locks import refuse_locked_write
from tournaments.models import AuditEvent, DealEntry, ScoreSheet
from tournaments.services import audit, lock_order
from tournaments.services.errors import ServiceError
from tournaments.services.rounds import note_entry, refresh_completion
from tournaments.text_limits import checked_reason


def entered_current_lines(sheet: ScoreSheet, *, by: Any, entered_in: str) -> bool:
    """Whether this person entered one of the sheet's current lines: as the signed-in ``by``, or from the device
    marked ``entered_in`` (``tournaments.devices``), signed in or not. Such a person may not confirm the sheet."""
    mine = Q(entered_in__in=devices.marks_of(entered_in)) if entered_in else Q(pk__in=[])
    if getattr(by, "is_authenticated", False):
        mine |= Q(created_by=by)
    return sheet.entries.filter(mine, is_current=True).exists()


def entered_by_unknown_devices(sheet: ScoreSheet) -> bool:
    """Whether a current line came from a device that cannot be told apart from any other (it sent no device
    token back, or was entered before there were any): that device may be the one confirming with the code,
    even if an account sent the line (an organiser holds the codes too). Demo data has no device."""
    unknown = Q(entered_in="") | Q(entered_in__startswith=devices.ONE_OFF)
    return sheet.entries.filter(unknown, is_current=True).exclude(source=DealEntry.Source.DEMO).exists()


def confirm_refusal(sheet: ScoreSheet, *, by: Any, entered_in: str) -> str | None:
    """Why this person may not confirm ``sheet`` (``None``: they may), on every path alike.

    The rule: someone other than whoever entered the current lines. A signed-in person who entered none of them,
    from no device that entered one, may. A code holder may if their device entered none of them and every
    current line came from a known device: a line from an unknown device may be their own.
    """
    if entered_current_lines(sheet, by=by, entered_in=entered_in):
        return _("you entered lines of this sheet: someone else must confirm it")
    if getattr(by, "is_authenticated", False):
        return None
    if not entered_in:
        return _("sign in, or open the sheet with the table's code, to confirm it")
    if entered_by_unknown_devices(sheet):
        return _(
            "some lines of this sheet came from a device that did not identify itself (it may be yours): "
            "an organiser must confirm it"
        )
    return None


@transaction.atomic
def confirm_sheet(sheet: ScoreSheet, *, by: Any, entered_in: str = "") -> ScoreSheet:
    """Confirm a fully entered sheet: a second person, never one who entered one of its current lines.

    ``by``: a signed-in user (an administrator, an organiser), or nobody (a code holder); ``entered_in``: the
    confirming device's mark (``tournaments.devices``). The rule is ``confirm_refusal``'s.
    """
    # all the round's sheets, as completing the round reads them all (``lock_order``): two tables confirming at
    # once take turns
    lock_order.round_sheets(ScoreSheet.objects.values_list("table__round_id", flat=True).get(pk=sheet.pk))
    sheet = _locked(sheet)
    refuse_locked_write(sheet)  # a closed competition's or finalised round's sheets stay as they are
    if sheet.state != ScoreSheet.State.ENTERED:
        raise ServiceError(
            _("only an entered sheet can be confirmed; this one is %(state)s")
            % {"state": sheet.get_state_display().lower()}
        )
    refusal = confirm_refusal(sheet, by=by, entered_in=entered_in)
    if refusal is not None:
        raise ServiceError(refusal)
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
    refuse_locked_write(sheet)  # a closed competition's or finalised round's sheets stay as they are
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


@transaction.atomic
def stop_open_session(sheet: ScoreSheet, *, by: Any) -> ScoreSheet:
    """An open-ended session (Zwicken's) ends when its table stops playing: its sheet is then entered, as a
    Wiezen sheet is once its last deal is in, and waits for a second person's confirmation. A deal added after
    this puts it back in play (``services.entry``). Whoever may enter the sheet's lines may stop it."""
    sheet = _locked(sheet)
    refuse_locked_write(sheet)  # a closed competition's or finalised round's sheets stay as they are
    refusal = stop_refusal(sheet)
    if refusal is not None:
        raise ServiceError(refusal)
    sheet.state = ScoreSheet.State.ENTERED
    sheet.save(update_fields=["state", "updated_at"])
    audit.record(
        AuditEvent.Action.CHANGE,
        sheet,
        before={"state": ScoreSheet.State.DRAFT},
        after={"state": sheet.state},
        by=by,
        competition_id=sheet.table.round.competition_id,
        note="the table stopped playing",
    )
    live.changed(sheet.table.round.competition_id)
    return sheet


def stop_refusal(sheet: ScoreSheet) -> str | None:
    """Why ``sheet`` cannot be stopped (``None``: it can): the entry page offers the stop on the same rule."""
    if sheet.table.round.competition.deals_per_session is not None:
        return _("this sheet is complete once all its deals are entered")
    if sheet.state != ScoreSheet.State.DRAFT:
        return _("only a sheet still in play can be stopped; this one is %(state)s") % {
            "state": sheet.get_state_display().lower()
        }
    if not sheet.entries.filter(is_current=True).exists():
        return _("enter the deals played before stopping the sheet")
    return None


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
    live.changed(sheet.table.round.competition_id)
