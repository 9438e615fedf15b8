"""The one order in which services lock rows: a round's sheets (by id), then the round, then its competition.

PostgreSQL aborts one of two transactions that each wait for a row the other holds: for a person, a server error.
A line entered holds its sheet, then takes the round (a first line puts it in play, a correction of a complete
round puts it back) and last its competition (the entries' version). So a service that locks a round and then
touches its sheets (re-seating deletes them, finalising updates them, a confirmation reads them all) takes the
sheets first, here; one that holds the competition and then re-seats takes the sheets before the competition.
Round rows are locked only through this module (``tests/tournaments/test_lock_order.py`` checks it).
"""

from __future__ import annotations

from collections.abc import Collection

from django.db.models import QuerySet

from tournaments.models import Competition, Round, ScoreSheet


def _lock(sheets: QuerySet[ScoreSheet]) -> None:
    """Lock these sheets, by id: whoever else does so waits at the first one held, holding nothing that the holder
    still needs."""
    list(sheets.select_for_update(of=("self",)).order_by("pk"))


def round_sheets(round_id: int) -> None:
    """Lock every sheet of a round."""
    _lock(ScoreSheet.objects.filter(table__round_id=round_id))


def round_after_its_sheets(round_: Round) -> Round:
    """The round row-locked, with its competition, after all its sheets."""
    round_sheets(round_.pk)
    return round_only(round_)


def round_only(round_: Round) -> Round:
    """The round row-locked, with its competition, for a caller that locks none of its sheets after it (it may
    hold one already: an entry, a rejection)."""
    return Round.objects.select_for_update().select_related("competition").get(pk=round_.pk)


def competition_after_its_sheets(competition: Competition, statuses: Collection[str]) -> Competition:
    """The competition row-locked after every sheet of its rounds in ``statuses`` (those it will re-seat)."""
    _lock(ScoreSheet.objects.filter(table__round__competition=competition, table__round__status__in=list(statuses)))
    return Competition.objects.select_for_update().get(pk=competition.pk)
