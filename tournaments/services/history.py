"""A sheet's history: every version of every deal, and restoring an earlier one as a new version."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from tournaments.models import DealEntry, ScoreSheet
from tournaments.services.entry import EntryResult, record_deal
from tournaments.services.errors import ServiceError


def restore_version(
    sheet: ScoreSheet,
    deal: int,
    version: int,
    *,
    by: Any = None,
    expected_version: int | None = None,
    entered_in: str = "",
) -> EntryResult:
    """Make ``version`` of ``deal`` current again: a correction with its line, stored (and audited) as a new
    version, so the history only ever grows. ``expected_version`` guards against someone else's change."""
    old = DealEntry.objects.filter(sheet=sheet, deal_number=deal, version=version).first()
    if old is None:
        raise ServiceError(
            gettext("Deal %(deal)s of this sheet has no version %(version)s.") % {"deal": deal, "version": version}
        )
    current = DealEntry.objects.filter(sheet=sheet, deal_number=deal, is_current=True).first()
    if current is not None and current.version == version:
        said = {"deal": deal, "version": version}
        raise ServiceError(gettext("Version %(version)s of deal %(deal)s is already the current one.") % said)
    if expected_version is None:  # restoring names the deal to replace: it corrects the version current now
        expected_version = current.version if current is not None else 0
    return record_deal(
        sheet,
        {**old.line, "deal": deal},
        by=by,
        source=DealEntry.Source.RESTORE,
        expected_version=expected_version,
        entered_in=entered_in,  # the restoring device: it may not confirm the sheet either
    )
