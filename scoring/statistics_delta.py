"""A competition's statistics updated by delta: only the sheets that changed are read and replayed.

Statistics are counts (deals, points, contracts bid and made, partners, contracts played and made), so they add up
sheet by sheet. Each sheet's counts are kept (``SheetStatistics``) with a fingerprint of what they were computed
from (its current entries, every correction being a new entry, and its seats). An update compares fingerprints
(two small queries, no lines read), takes the old counts of changed or emptied sheets off the competition's totals
and adds the new ones; the players whose counts moved get their rows rewritten. The result equals computing the
whole competition again (``scoring.statistics.compute_statistics``; tests/scoring/test_incremental_statistics.py).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from scoring.models import SheetStatistics, Statistics
from scoring.selectors import sheet_deal_records, sheet_fingerprints
from scoring.statistics import PlayerStatistics, Totals, count_deals


def update_statistics(competition_id: int, *, full: bool = False) -> int:
    """Bring the competition's statistics up to date; ``full`` recounts every sheet. Returns how many players."""
    current = sheet_fingerprints(competition_id)
    with transaction.atomic():
        stored = dict(
            SheetStatistics.objects.select_for_update()
            .filter(sheet__table__round__competition_id=competition_id)
            .values_list("sheet_id", "fingerprint")
        )
        summary = Statistics.objects.filter(competition_id=competition_id, player=None).first()
        if full or summary is None or "played" not in summary.totals:
            full = True  # nothing to add to (first run, or rows from before the counts were kept): count it all
            stale, changed = set(stored), dict(current)
        else:
            stale = {sheet for sheet, fingerprint in stored.items() if current.get(sheet) != fingerprint}
            changed = {sheet: fingerprint for sheet, fingerprint in current.items() if stored.get(sheet) != fingerprint}
        if not full and not stale and not changed:
            return Statistics.objects.filter(competition_id=competition_id, player__isnull=False).count()
        old = Totals()
        if not full:
            for contribution in SheetStatistics.objects.filter(sheet_id__in=stale).values_list(
                "contribution", flat=True
            ):
                old.add(Totals.from_raw(contribution))
        new_by_sheet = {
            sheet: count_deals(records) for sheet, records in sheet_deal_records(competition_id, changed).items()
        }
        new = Totals()
        for totals in new_by_sheet.values():
            new.add(totals)
        moved = set(old.players) | set(new.players)
        totals = Totals()
        if not full:
            kept = Totals.from_raw(summary.totals)
            totals.played, totals.made = kept.played, kept.made
            rows = Statistics.objects.filter(competition_id=competition_id, player_id__in=moved)
            totals.players = {
                pid: PlayerStatistics.from_raw(raw) for pid, raw in rows.values_list("player_id", "totals")
            }
        totals.add(old, -1)
        totals.add(new)
        _store(competition_id, totals, moved, full)
        SheetStatistics.objects.filter(sheet_id__in=stale | set(changed)).delete()
        SheetStatistics.objects.bulk_create(
            SheetStatistics(sheet_id=sheet, fingerprint=changed[sheet], contribution=counts.raw())
            for sheet, counts in new_by_sheet.items()
        )
    return Statistics.objects.filter(competition_id=competition_id, player__isnull=False).count()


def _store(competition_id: int, totals: Totals, moved: set[int], full: bool) -> None:
    """Rewrite the summary row and the rows of the players whose counts moved (all of them on a full count)."""
    now = timezone.now()
    rows = Statistics.objects.filter(competition_id=competition_id)
    if full:
        rows.delete()
    else:
        rows.filter(player=None).delete()
        rows.filter(player_id__in=moved).delete()
    Statistics.objects.bulk_create(
        [
            Statistics(
                competition_id=competition_id,
                player=None,
                data=totals.summary(),
                totals={"played": dict(totals.played), "made": dict(totals.made)},
                computed_at=now,
            ),
            *(
                Statistics(
                    competition_id=competition_id,
                    player_id=pid,
                    data=stats.as_json(),
                    totals=stats.raw(),
                    computed_at=now,
                )
                for pid, stats in sorted(totals.players.items())
                if full or pid in moved
            ),
        ]
    )
