"""A sheet's confirmation: the second pair of eyes that turns an entered sheet into a result."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from tournaments.models import ScoreSheet
from tournaments.services.errors import ServiceError
from tournaments.services.rounds import refresh_completion


@transaction.atomic
def confirm_sheet(sheet: ScoreSheet, *, by: Any) -> ScoreSheet:
    """Confirm a fully entered sheet; whoever entered one of its current lines cannot confirm it."""
    sheet = ScoreSheet.objects.select_for_update().select_related("table__round").get(pk=sheet.pk)
    if sheet.state != ScoreSheet.State.ENTERED:
        raise ServiceError(f"only an entered sheet can be confirmed; this one is {sheet.get_state_display().lower()}")
    if not getattr(by, "is_authenticated", False):
        raise ServiceError("sign in to confirm a sheet")
    if sheet.entries.filter(is_current=True, created_by=by).exists():
        raise ServiceError("you entered lines of this sheet: someone else must confirm it")
    sheet.state = ScoreSheet.State.CONFIRMED
    sheet.save(update_fields=["state", "updated_at"])
    refresh_completion(sheet.table.round, by=by)
    return sheet
