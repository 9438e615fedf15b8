"""Record score-sheet lines: the engine validates and settles, we store versions.

DESIGN.md "the flow of one deal": validate the line in the context of the
sheet's earlier lines, save it with its points as a new version in one
transaction, and queue the standings on commit. A correction re-settles
every later line (doubling and rotation depend on it); a later line whose
points change gets a new version too, so history shows why it changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Max, Q

import games
from games.errors import FieldError, InvalidLine, InvalidSheet
from tournaments import limits, live
from tournaments.devices import KNOWN, marks_of
from tournaments.duplicate.entry_checks import refuse_off_board
from tournaments.models import AuditEvent, DealEntry, ScoreSheet, Seat, SeatResult
from tournaments.services import audit
from tournaments.services.errors import EntryRejected, StaleVersion
from tournaments.services.rounds import entry_refusal, note_entry
from tournaments.services.standings import standings_follow


@dataclass
class EntryResult:
    entry: DealEntry
    created: bool  # False when the idempotency key had already been recorded
    resettled: list[DealEntry] = field(default_factory=list)  # later deals given a new version


def engine_sheet(sheet: ScoreSheet, lines: list[dict[str, Any]] | None = None) -> games.SessionSheet:
    """The engine's view of a sheet, replayed from its current lines."""
    table = sheet.table
    competition = table.round.competition
    rules = competition.rule_set.engine_rules()
    if lines is None:
        lines = list(sheet.entries.filter(is_current=True).order_by("deal_number").values_list("line", flat=True))
    try:
        return games.sheet_from_lines(rules, lines, players=table.size, deals=competition.deals_per_session)
    except InvalidSheet as exc:  # stored lines no longer fit the rule set (it was edited after entry)
        raise EntryRejected(
            FieldError("stored_lines_invalid", "", f"deal {failure.line_number}: {failure}") for failure in exc.lines
        ) from exc


def corrects(deal: Any, entered: int) -> bool:
    """Whether a line numbered ``deal`` corrects one of a sheet's ``entered`` lines (else it is the next deal)."""
    return type(deal) is int and 1 <= deal <= entered


def record_deal(
    sheet: ScoreSheet,
    line: Any,
    *,
    by: Any = None,
    idempotency_key: str | None = None,
    source: str = DealEntry.Source.FORM,
    expected_version: int | None = None,
    entered_in: str = "",
) -> EntryResult:
    """Validate, settle and store one line of ``sheet``: the next deal, or a correction of an earlier one.

    Raises ``EntryRejected`` with every error per field, saving nothing.
    The same ``idempotency_key`` twice stores one line. A correction must name
    the version it corrects (``expected_version``): a line for a deal already
    on the sheet without one, or with a version someone else has replaced since,
    is refused (``StaleVersion``, carrying the current line): no update is lost,
    and of racing adds of the same deal exactly one is stored (the sheet's row lock).
    """
    try:
        with transaction.atomic():
            return _record(sheet.pk, line, by, idempotency_key, source, expected_version, entered_in)
    except IntegrityError:
        # A concurrent request with the same key won the race: answer with its line.
        existing = _existing(sheet.pk, idempotency_key, line)
        if existing is None:
            raise
        return EntryResult(existing, created=False)


def _record(
    sheet_id: int, line: Any, by: Any, key: str | None, source: str, expected_version: int | None, entered_in: str
) -> EntryResult:
    # Only the sheet's row is locked: the lines of one sheet take turns, the tables of a round do not.
    sheet = (
        ScoreSheet.objects.select_for_update(of=("self",))
        .select_related("table__round__competition__rule_set")
        .filter(pk=sheet_id)
        .first()
    )
    if sheet is None:  # its table was seated again (``reseat_round``) between the page and this line
        raise EntryRejected([FieldError("sheet_gone", "", "this table was seated again: use its new table card")])
    lines, existing = _current_lines(sheet, key, line)
    if existing is not None:
        return EntryResult(existing, created=False)
    if entered_in.startswith(KNOWN):  # the device sent its token back: its one-off lines are its own
        sheet.entries.filter(entered_in__in=marks_of(entered_in) - {entered_in}).update(entered_in=entered_in)
    # A competition closed meanwhile is refused by the database's trigger on the insert below.
    if sheet.table.round.competition.closed_at is not None:
        raise EntryRejected([FieldError("season_closed", "", "this competition is closed: it takes no more lines")])
    refusal = entry_refusal(sheet.table.round.status)
    if refusal is not None:
        raise EntryRejected([FieldError(f"round_{sheet.table.round.status}", "", refusal)])
    if sheet.state == ScoreSheet.State.FINAL:
        raise EntryRejected([FieldError("sheet_final", "", "this score sheet is final: it takes no more lines")])
    if not isinstance(line, dict):
        raise EntryRejected([FieldError("not_an_object", "", f"a line must be a JSON object, got {line!r}")])

    engine = engine_sheet(sheet, lines)
    deal = line.get("deal")
    is_correction = corrects(deal, len(lines))
    # a correction's deal and the deals after it, which it may re-settle
    current = (
        list(sheet.entries.filter(is_current=True, deal_number__gte=deal).order_by("deal_number"))
        if is_correction
        else []
    )
    if is_correction and expected_version is None:
        raise StaleVersion(current[0], None)  # adding never overwrites: a correction names the version it replaces
    if expected_version is not None:
        held = current[0].version if current else 0
        if held != expected_version:
            raise StaleVersion(current[0] if current else None, expected_version)
    refuse_off_board(sheet, line, engine)  # a duplicate round's deal k is board k: what its cards rule out
    user = by if getattr(by, "is_authenticated", False) else None
    resettled: list[DealEntry] = []
    superseded: list[DealEntry] = []  # the versions ``resettled`` replaced, in step
    if is_correction:
        try:
            results = engine.replace(deal, line)
        except InvalidSheet as exc:
            raise EntryRejected(correction_errors(exc, deal)) from exc
        entry = _new_version(current[0], line, results[0], source, key, user, entered_in)
        for old, settled in zip(current[1:], results[1:], strict=True):
            if list(settled.points) != old.points or settled.multiplier != old.multiplier:
                # still the line its enterer typed: their marks stay (a confirmation is by someone else)
                again = _new_version(
                    old, old.line, settled, DealEntry.Source.RESETTLE, None, old.created_by, old.entered_in
                )
                resettled.append(again)
                superseded.append(old)
    else:
        if len(lines) >= limits.DEAL_NUMBER.high:  # an open-ended Zwicken session stops somewhere
            message = f"a sheet takes at most {limits.DEAL_NUMBER.high} deals"
            raise EntryRejected([FieldError("too_many_deals", "deal", message)])
        try:
            settled = engine.add(line)
        except InvalidLine as exc:
            raise EntryRejected(exc.errors) from exc
        entry = _store(sheet.pk, settled.deal, 1, line, settled, source, key, user, entered_in)
    competition_id = sheet.table.round.competition_id
    _audit(entry, current[0] if current else None, competition_id, user)
    for old, again in zip(superseded, resettled, strict=True):
        _audit(again, old, competition_id, user)
    # A sheet is finished once all its deals are in: a correction that leaves one due (a Belgian tie's extra deal)
    # puts it back in play. An open-ended (Zwicken) one is finished once its table stopped
    # (``sheets.stop_open_session``), which a correction leaves so and another deal undoes: the table played on.
    open_ended = sheet.table.round.competition.deals_per_session is None
    finished = engine.complete or (open_ended and is_correction and sheet.state != ScoreSheet.State.DRAFT)
    if finished and sheet.state in (ScoreSheet.State.DRAFT, ScoreSheet.State.CONFIRMED):
        # a corrected confirmed sheet needs confirming again
        ScoreSheet.objects.filter(pk=sheet.pk).update(state=ScoreSheet.State.ENTERED)
    elif not finished and sheet.state != ScoreSheet.State.DRAFT:
        ScoreSheet.objects.filter(pk=sheet.pk).update(state=ScoreSheet.State.DRAFT)
    note_entry(sheet.table.round, by=user, sheet_was_confirmed=sheet.state == ScoreSheet.State.CONFIRMED)
    _store_seat_results(sheet, engine)
    standings_follow(competition_id)  # last: it locks the competition's row until the commit
    if not lines or sheet.state == ScoreSheet.State.CONFIRMED:
        live.changed(competition_id)  # a first line makes its players' rows provisional; a correction unconfirms
    return EntryResult(entry, created=True, resettled=resettled)


def _audit(entry: DealEntry, before: DealEntry | None, competition_id: int, user: Any) -> None:
    """One audit row per stored version: the line and points before and after."""
    if entry.source == DealEntry.Source.RESTORE:
        action = AuditEvent.Action.RESTORE
    else:
        action = AuditEvent.Action.CREATE if before is None else AuditEvent.Action.CHANGE
    audit.record(
        action,
        entry,
        before=None if before is None else {"version": before.version, "line": before.line, "points": before.points},
        after={"version": entry.version, "line": entry.line, "points": entry.points},
        by=user,
        competition_id=competition_id,
        note=f"sheet {entry.sheet_id}, deal {entry.deal_number} ({entry.source})",
    )


def _store_seat_results(sheet: ScoreSheet, engine: games.SessionSheet) -> None:
    """Keep the sheet's per-seat totals in step with its lines, in the entry's own transaction.

    After a sheet's first line its rows exist and one batched UPDATE refreshes them (this runs for every
    line of a busy evening, so plain SQL); the first line, or a seat without its row, creates them.
    """
    totals = [
        (summary.points, summary.deals, summary.bid, summary.made, sheet.table_id, seat, sheet.pk, seat)
        for seat, summary in enumerate(games.seat_summaries(engine))
    ]
    results, seats = (connection.ops.quote_name(m._meta.db_table) for m in (SeatResult, Seat))
    with connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {results} SET points = %s, deals = %s, contracts_bid = %s, contracts_made = %s, "
            f"player_id = COALESCE((SELECT player_id FROM {seats} WHERE table_id = %s AND position = %s), player_id) "
            "WHERE sheet_id = %s AND position = %s",
            totals,
        )
        if cursor.rowcount == len(totals):
            return
    players = dict(Seat.objects.filter(table_id=sheet.table_id).values_list("position", "player_id"))
    SeatResult.objects.bulk_create(
        [
            SeatResult(
                sheet=sheet,
                position=seat,
                player_id=players[seat],
                points=points,
                deals=deals,
                contracts_bid=bid,
                contracts_made=made,
            )
            for points, deals, bid, made, _, seat, _, _ in totals
            if seat in players
        ],
        update_conflicts=True,
        unique_fields=["sheet", "position"],
        update_fields=["player", "points", "deals", "contracts_bid", "contracts_made"],
    )


def _new_version(
    old: DealEntry,
    line: dict[str, Any],
    settled: games.Settled,
    source: str,
    key: str | None,
    user: Any,
    entered_in: str = "",
) -> DealEntry:
    """Supersede ``old`` with a new version; the old row stays, no longer current."""
    versions = DealEntry.objects.filter(sheet_id=old.sheet_id, deal_number=old.deal_number)
    latest = versions.aggregate(v=Max("version"))["v"] or 0
    DealEntry.objects.filter(pk=old.pk).update(is_current=False)
    return _store(old.sheet_id, old.deal_number, latest + 1, line, settled, source, key, user, entered_in)


def _store(
    sheet_id: int,
    deal_number: int,
    version: int,
    line: dict[str, Any],
    settled: games.Settled,
    source: str,
    key: str | None,
    user: Any,
    entered_in: str = "",
) -> DealEntry:
    return DealEntry.objects.create(
        sheet_id=sheet_id,
        deal_number=deal_number,
        version=version,
        line=line,
        contract=settled.contract,
        points=list(settled.points),
        multiplier=settled.multiplier,
        source=source,
        idempotency_key=key,
        created_by=user,
        entered_in=entered_in,
    )


def _current_lines(sheet: ScoreSheet, key: str | None, line: Any) -> tuple[list[Any], DealEntry | None]:
    """The sheet's current lines in deal order, and the entry stored earlier with ``key``.

    One query of plain values: every line of a busy evening reads its sheet's lines, so no model instances.
    """
    rows = sheet.entries.filter(Q(is_current=True) | Q(idempotency_key=key) if key else Q(is_current=True))
    lines: list[Any] = []
    keyed = None
    for pk, is_current, stored_key, stored_line in rows.order_by("deal_number").values_list(
        "pk", "is_current", "idempotency_key", "line"
    ):
        if key and stored_key == key:
            keyed = pk
        if is_current:
            lines.append(stored_line)
    return lines, None if keyed is None else _same_line(DealEntry.objects.get(pk=keyed), key, line)


def _existing(sheet_id: int, key: str | None, line: Any) -> DealEntry | None:
    """After a lost race on ``key``: the winner's line (or a conflict when it differs)."""
    if not key:
        return None
    return _same_line(DealEntry.objects.filter(sheet_id=sheet_id, idempotency_key=key).first(), key, line)


def _same_line(existing: DealEntry | None, key: str | None, line: Any) -> DealEntry | None:
    """``existing`` when it stored this very line; a key reused for another line is refused."""
    if existing is not None and existing.line != line:
        raise EntryRejected(
            [FieldError("idempotency_conflict", "", f"key {key!r} was already used for another line: {existing.line}")]
        )
    return existing


def correction_errors(exc: InvalidSheet, deal: int) -> list[FieldError]:
    errors: list[FieldError] = []
    for failure in exc.lines:
        if failure.line_number == deal:
            errors.extend(failure.errors)
        else:
            errors.extend(
                FieldError(
                    "breaks_later_deal",
                    "",
                    f"this correction makes deal {failure.line_number} invalid: {e.field}: {e.message}",
                    values={"deal": failure.line_number or 0},
                    cause=e,
                )
                for e in failure.errors
            )
    return errors
