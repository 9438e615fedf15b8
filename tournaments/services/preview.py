"""What a line would do, before it is saved: the entry page shows points and errors as the user types.

Pure reading: the engine settles the line against the sheet's current lines and nothing is stored, so the
page can ask on every keystroke. A correction also lists the later deals whose points it would change
(doubling after passes and the rotation depend on earlier deals).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.errors import FieldError, InvalidLine, InvalidSheet
from tournaments.duplicate.entry_checks import refuse_off_board
from tournaments.models import DealEntry, ScoreSheet
from tournaments.services.entry import correction_errors, corrects, engine_sheet
from tournaments.services.errors import EntryRejected


@dataclass(frozen=True)
class LaterChange:
    deal: int
    before: list[int]
    after: list[int]


@dataclass(frozen=True)
class DealPreview:
    deal: int | None
    points: list[int] = field(default_factory=list)  # by seat; empty when the line is not valid yet
    totals: list[int] = field(default_factory=list)  # running totals after this deal
    errors: list[FieldError] = field(default_factory=list)
    later: list[LaterChange] = field(default_factory=list)  # a correction's effect on the deals after it
    pot: int | None = None  # Zwicken: the chips carried in the pot after this deal

    @property
    def valid(self) -> bool:
        return not self.errors and bool(self.points)


def preview_deal(sheet: ScoreSheet, line: dict[str, Any]) -> DealPreview:
    """The line settled as if it were saved now: the next deal, or a correction of an earlier one."""
    current = list(sheet.entries.filter(is_current=True).order_by("deal_number"))
    try:
        engine = engine_sheet(sheet, [entry.line for entry in current])
    except EntryRejected as exc:
        return DealPreview(line.get("deal"), errors=list(exc.errors))
    try:  # a duplicate round's board: what its cards refuse, saving would refuse too
        refuse_off_board(sheet, line, engine)
    except EntryRejected as exc:
        return DealPreview(line.get("deal"), errors=list(exc.errors))
    deal = line.get("deal")
    if corrects(deal, len(current)):
        return _correction(sheet, current, engine, deal, line)
    try:
        settled = engine.add(line)
    except InvalidLine as exc:
        return DealPreview(deal, errors=list(exc.errors))
    totals = _totals(current, sheet.table.size)
    after = [t + p for t, p in zip(totals, settled.points, strict=True)]
    return DealPreview(deal, list(settled.points), after, pot=_pot(sheet, settled))


def _correction(
    sheet: ScoreSheet, current: list[DealEntry], engine: Any, deal: int, line: dict[str, Any]
) -> DealPreview:
    try:
        results = engine.replace(deal, line)
    except InvalidSheet as exc:
        return DealPreview(deal, errors=correction_errors(exc, deal))
    totals = _totals(current[: deal - 1], sheet.table.size)
    points = list(results[0].points)
    later = [
        LaterChange(old.deal_number, list(old.points), list(settled.points))
        for old, settled in zip(current[deal:], results[1:], strict=True)
        if list(settled.points) != old.points
    ]
    after = [t + p for t, p in zip(totals, points, strict=True)]
    return DealPreview(deal, points, after, later=later, pot=_pot(sheet, results[0]))


def _pot(sheet: ScoreSheet, settled: Any) -> int | None:
    return int(settled.pot) if sheet.table.round.competition.game == "zwicken" else None


def _totals(entries: list[DealEntry], size: int) -> list[int]:
    totals = [0] * size
    for entry in entries:
        totals = [t + p for t, p in zip(totals, entry.points, strict=True)]
    return totals
