"""The score sheet's entry page: those who run the competition, or the table with its code."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, wraps
from typing import Any

from csp.decorators import csp_update
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.punctuation import colon
from config.untrusted import whole_number
from games.rulesets import RuleSet
from tournaments import devices
from tournaments.contract_names import bid_levels, needed_fields, raised_levels
from tournaments.duplicate.cards import spans
from tournaments.duplicate.movement import board_for_deal, board_in, board_orders
from tournaments.forms.entry import DealLineForm, PenaltyForm, ZwickenLineForm, line_form_class
from tournaments.line_errors import person_message
from tournaments.line_text import describe_line
from tournaments.models import AuditEvent, Competition, DealEntry, Round, ScoreSheet
from tournaments.offline import contact
from tournaments.offline.spec import ENGINE_CSP, engine_spec
from tournaments.offline.words import offline_words
from tournaments.permissions import can_enter_scores, table_code_opens
from tournaments.selectors import entry as selectors_entry
from tournaments.selectors import public as selectors
from tournaments.services.entry import EntryResult, engine_sheet, record_deal
from tournaments.services.errors import EntryRejected, ServiceError, StaleVersion
from tournaments.services.penalties import give_penalty
from tournaments.services.preview import DealPreview, preview_deal
from tournaments.services.sheets import (
    confirm_refusal,
    confirm_sheet,
    entered_current_lines,
    reject_sheet,
    stop_open_session,
    stop_refusal,
)
from tournaments.table_code_sessions import holds_table_code, remember_table_code

EntryForm = type[DealLineForm] | type[ZwickenLineForm]


def _find_sheet(slug: str, round_number: int, table_number: int) -> ScoreSheet | None:
    return (
        ScoreSheet.objects.select_related("table__round__competition__club", "table__round__competition__rule_set")
        .filter(
            table__round__competition__slug=slug,
            table__round__number=round_number,
            table__number=table_number,
        )
        .first()
    )


def _open_with_code(request: HttpRequest, slug: str, round_number: int, table_number: int, code: str) -> HttpResponse:
    """``…/entry/?code=…``: remember the code in the session and continue without it in the address.

    No lock-out per address: a venue's tables share one, and a code (80 bits) is not guessed anyway.
    """
    sheet = _find_sheet(slug, round_number, table_number)
    if sheet is None or not table_code_opens(sheet, code):
        raise PermissionDenied(_("This table code does not open this score sheet."))
    request.session.cycle_key()  # a new right, a new session id (no fixation)
    devices.device_of(request)  # the device's identity from its first use of the code on
    remember_table_code(request, sheet)
    return redirect("sheet-entry", slug=slug, round_number=round_number, table_number=table_number)


@dataclass(frozen=True)
class EntryAccess:
    """Who is at the entry page of which sheet: an administrator (``manages``) or the table with its code."""

    sheet: ScoreSheet
    competition: Competition
    manages: bool
    captain: bool  # holds the table's code (and does not run the competition)

    @cached_property
    def seats(self) -> list[selectors.ShownSeat]:
        """The sheet's seats, players named as this visitor may see them (read once a request)."""
        return selectors.shown_seats(self.sheet, full_names=self.manages)

    @cached_property
    def rules(self) -> RuleSet:
        """The competition's rule set, parsed once a request (the form, the lines' words and the engine's spec)."""
        return self.competition.rule_set.engine_rules()

    @cached_property
    def names(self) -> list[str]:
        """The players' names by engine position (seat number minus one), as this visitor may see them."""
        return selectors.seat_names(self.seats)


def entry_access(request: HttpRequest, slug: str, round_number: int, table_number: int) -> EntryAccess | HttpResponse:
    """The sheet if this request may enter it; else a redirect to log in, or a 404/403 raised."""
    sheet = _find_sheet(slug, round_number, table_number)
    captain = sheet is not None and holds_table_code(request, sheet)
    if captain:
        assert sheet is not None
        contact.note(sheet.pk)  # the organiser's progress table shows when each table was last heard from
    if not captain and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())  # whether or not there is such a sheet
    if sheet is None:
        raise Http404
    competition = sheet.table.round.competition
    manages = can_enter_scores(request.user, competition)
    if not manages:
        if not competition.is_public and not captain:
            raise Http404
        if sheet.table.round.status == Round.Status.DRAFT:
            raise Http404("this round's seating is not published yet")
        if not captain:
            raise PermissionDenied(_("Only the organising club's administrators enter score sheets."))
    return EntryAccess(sheet, competition, manages, captain and not manages)


def _entered_in(request: HttpRequest) -> str:
    """This browser's device mark (``tournaments.devices``), signed in or not: whoever enters lines from it
    cannot confirm the sheet from it."""
    return devices.device_of(request).mark


def with_device(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The answer hands the browser its device token (a cookie) when the view gave it one."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return devices.remember(request, view(request, *args, **kwargs))

    return wrapped


def entry_form(access: EntryAccess, data: Any = None, **kwargs: Any) -> DealLineForm | ZwickenLineForm:
    rules = access.rules
    form_class = line_form_class(access.competition.game)
    if form_class is DealLineForm:
        kwargs["raised"] = raised_levels(rules)
        kwargs["levels"] = bid_levels(rules)
    return form_class(data, seats=access.seats, ladder=rules.ladder, **kwargs)


@csp_update(ENGINE_CSP)
@with_device
def sheet_entry(request: HttpRequest, slug: str, round_number: int, table_number: int) -> HttpResponse:
    code = request.GET.get("code")
    if code is not None:
        return _open_with_code(request, slug, round_number, table_number, code)
    access = entry_access(request, slug, round_number, table_number)
    if isinstance(access, HttpResponse):
        return access
    sheet = access.sheet
    form_class = line_form_class(access.competition.game)
    preview = None
    if request.method == "POST":
        form = entry_form(access, request.POST)
        if form.is_valid():
            try:
                result = save_line(request, access, form)
            except StaleVersion as exc:
                # someone else saved this deal meanwhile: nothing of ours is stored; show theirs and let the user
                # decide (saving again now replaces their version, knowingly)
                data = request.POST.copy()
                if exc.current is not None:
                    data["version"] = str(exc.current.version)
                form = entry_form(access, data)
                form.is_valid()
                form.add_error(None, stale_message(exc, access, _entered_in(request)))
            except EntryRejected as exc:
                for error in exc.errors:
                    form.add_error(form.engine_field(error), person_message(error, access.names))
            else:
                entry = result.entry
                said = {
                    "deal": entry.deal_number,
                    "version": entry.version,
                    "line": line_words(access, entry.line),
                    "points": points_text(entry.points, access.names),
                }
                if entry.version > 1:  # it replaced a line: a table that opened a correction by mistake sees so
                    done = _("Deal %(deal)s corrected (version %(version)s): %(line)s; points %(points)s")
                else:
                    done = _("Deal %(deal)s saved: %(line)s; points %(points)s")
                messages.success(request, done % said)
                return redirect("sheet-entry", slug=slug, round_number=round_number, table_number=table_number)
    else:
        initial = _entry_initial(sheet, form_class, whole_number(request.GET.get("deal")))
        form = entry_form(access, initial=initial)
        if initial.get("version"):  # a correction opens on the stored line: show its points as they are
            stored = sheet.entries.get(is_current=True, deal_number=initial["deal"])
            preview = preview_deal(sheet, stored.line)
    return render(request, "sheet_entry.html", _page(request, access, form, preview))


def save_line(request: HttpRequest, access: EntryAccess, form: DealLineForm | ZwickenLineForm) -> EntryResult:
    """Store the valid ``form``'s line as this visitor (``record_deal``'s refusals are raised): the page's save,
    and a line the page kept while offline (``tournaments.offline.sync``)."""
    return record_deal(
        access.sheet,
        form.to_line(),
        by=request.user if request.user.is_authenticated else None,
        idempotency_key=form.cleaned_data["idempotency_key"] or None,
        expected_version=form.cleaned_data.get("version"),
        entered_in=_entered_in(request),
    )


def line_words(access: EntryAccess, line: Any) -> str:
    """A line as the table reads it, names as this visitor may see them."""
    return describe_line(line, access.names, access.competition.game, access.rules)


def points_text(points: list[int], names: list[str]) -> str:
    """A deal's points seat by seat as the table card numbers them: "1 Ann +4, 2 Bob −4, 3 Cas +4, 4 Dirk −4"."""
    return ", ".join(
        f"{position + 1} {name} {signed(p)}" for position, (name, p) in enumerate(zip(names, points, strict=False))
    )


def signed(points: int) -> str:
    """+4, −4 (a minus sign, not a hyphen), 0."""
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"


@dataclass(frozen=True)
class Correcting:
    """The current line a correction replaces, as the page shows it."""

    deal: int
    line: str
    points: str


def _correcting(access: EntryAccess, form: DealLineForm | ZwickenLineForm) -> Correcting | None:
    """The deal the form corrects: it was opened on a stored version of it (version > 0) that is still current."""
    deal, version = (whole_number(str(form[name].value() or "")) for name in ("deal", "version"))
    if not deal or not version:
        return None
    entry = DealEntry.objects.filter(sheet=access.sheet, is_current=True, deal_number=deal).first()
    if entry is None:
        return None
    names = access.names
    return Correcting(
        deal,
        describe_line(entry.line, names, access.competition.game, access.rules),
        points_text(entry.points, names),
    )


def _complete(sheet: ScoreSheet) -> int | None:
    """The session's number of deals when every one of them is entered (no next deal to offer), else None."""
    try:
        engine = engine_sheet(sheet)
    except EntryRejected:
        return None
    return engine.deals if getattr(engine, "complete", False) else None


def _page(
    request: HttpRequest, access: EntryAccess, form: DealLineForm | ZwickenLineForm, preview: DealPreview | None
) -> dict[str, Any]:
    sheet = access.sheet
    seats = access.seats
    correcting = _correcting(access, form)
    # A complete sheet offers corrections and confirmation, never a deal beyond the session; a refused save still
    # shows what was typed, with why.
    complete = _complete(sheet)
    boards = board_orders(sheet.table.round).get(sheet.table.number, []) if access.competition.duplicate else []
    lines = selectors.sheet_lines(sheet, access.names, boards)
    return {
        "board_order": spans(boards),
        "board": board_in(boards, preview.deal if preview else None),
        "correcting": correcting,
        "complete": complete,
        "show_form": correcting is not None or complete is None or form.is_bound,
        "multiplier_column": access.competition.game != "zwicken",
        "competition": access.competition,
        "sheet": sheet,
        "seats": seats,
        "form": form,
        "lines": lines,
        "captain": access.captain,
        "preview": preview,
        "needs": {c: needed_fields(c, getattr(form, "raised", {})) for c, _label in form.fields["contract"].choices}
        if "contract" in form.fields
        else {},
        "review": _review_state(request, access),
        "engine_spec": engine_spec(access, [line.entry for line in lines], type(form).initial_from_line, boards),
        "offline_words": offline_words(),
        "penalty_form": PenaltyForm(seats=seats) if access.manages else None,
        "penalties": selectors_entry.table_penalties(sheet) if access.manages else [],
    }


@require_POST
@with_device
def entry_preview(request: HttpRequest, slug: str, round_number: int, table_number: int) -> HttpResponse:
    """The line as typed so far, settled by the engine but not stored: points, totals, errors, later changes."""
    access = entry_access(request, slug, round_number, table_number)
    if isinstance(access, HttpResponse):
        return access
    form = entry_form(access, request.POST)
    if form.is_valid():
        preview = preview_deal(access.sheet, form.to_line())
        for error in preview.errors:
            form.add_error(form.engine_field(error), person_message(error, access.names))
    else:
        preview = DealPreview(None)
    board = None
    if access.competition.duplicate and preview.deal is not None:
        board = board_for_deal(access.sheet.table.round, access.sheet.table.number, preview.deal)
    # only what the preview shows: not the sheet's lines, reviews or penalties, which a keystroke does not change
    return render(
        request,
        "entry/_preview.html",
        {"seats": access.seats, "form": form, "preview": preview, "board": board, "oob": True},
    )


@require_POST
def penalise(request: HttpRequest, slug: str, round_number: int, table_number: int) -> HttpResponse:
    """A penalty for one of the table's players, with a reason: for those who run the competition."""
    access = entry_access(request, slug, round_number, table_number)
    if isinstance(access, HttpResponse):
        return access
    if not access.manages:
        raise PermissionDenied(_("Only the competition's organisers give penalties."))
    form = PenaltyForm(request.POST, seats=access.seats)
    if form.is_valid():
        seat = access.sheet.table.seats.select_related("player").get(position=form.cleaned_data["position"])
        try:
            give_penalty(
                access.competition,
                seat.player,
                form.cleaned_data["points"],
                form.cleaned_data["reason"],
                round_=access.sheet.table.round,
                by=request.user,
            )
        except ServiceError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(
                request,
                _("%(points)s points deducted from %(name)s.")
                % {"points": form.cleaned_data["points"], "name": seat.player.name},
            )
    else:
        for field, errors in form.errors.items():
            label, said = form.fields[field].label if field in form.fields else "", " ".join(errors)
            messages.error(request, f"{label}{colon()} {said}" if label else said)
    return redirect("sheet-entry", slug=slug, round_number=round_number, table_number=table_number)


@dataclass(frozen=True)
class ReviewState:
    """The sheet's confirmation as this visitor sees it."""

    state: str
    may_review: bool  # may confirm or reject now
    entered_by_me: bool  # entered a current line: someone else must confirm
    last: AuditEvent | None  # the latest confirmation or rejection, with its reason, while it still applies
    confirm_refusal: str | None = None  # why this visitor may not confirm (they may still reject)
    may_stop: bool = False  # an open-ended session in play, with deals: its table may say it stopped


def _still_applies(review: AuditEvent, sheet: ScoreSheet) -> bool:
    """A confirmation holds while the sheet stays confirmed, a rejection while it waits in draft; either ends when
    a line is saved after it."""
    if review.action == AuditEvent.Action.CONFIRM:
        state_fits = sheet.state in (ScoreSheet.State.CONFIRMED, ScoreSheet.State.FINAL)
    else:
        state_fits = sheet.state == ScoreSheet.State.DRAFT
    return state_fits and not sheet.entries.filter(created_at__gt=review.at).exists()


def _review_state(request: HttpRequest, access: EntryAccess) -> ReviewState:
    sheet = access.sheet
    entered_in = _entered_in(request)
    mine = entered_current_lines(sheet, by=request.user, entered_in=entered_in)
    last = selectors_entry.sheet_reviews(sheet).last()
    if last is not None and not _still_applies(last, sheet):
        last = None  # the sheet changed since: only its current state is shown
    reviewable = sheet.state in (ScoreSheet.State.ENTERED, ScoreSheet.State.CONFIRMED)
    refusal = confirm_refusal(sheet, by=request.user, entered_in=entered_in) if reviewable else None
    return ReviewState(sheet.state, reviewable and not mine, mine, last, refusal, stop_refusal(sheet) is None)


@require_POST
@with_device
def review_sheet(request: HttpRequest, slug: str, round_number: int, table_number: int, verdict: str) -> HttpResponse:
    """Confirm (``verdict`` "confirm") or reject with a reason ("reject") the sheet, as its second pair of eyes; or
    end an open-ended session ("stop"), as those who enter it do."""
    access = entry_access(request, slug, round_number, table_number)
    if isinstance(access, HttpResponse):
        return access
    by = request.user if request.user.is_authenticated else None
    entered_in = _entered_in(request)
    try:
        if verdict == "confirm":
            confirm_sheet(access.sheet, by=by, entered_in=entered_in)
            messages.success(request, _("Sheet confirmed."))
        elif verdict == "stop":
            stop_open_session(access.sheet, by=by)
            messages.success(
                request, _("The table has stopped: an opponent or an administrator now confirms the sheet.")
            )
        else:
            reject_sheet(access.sheet, by=by, reason=request.POST.get("reason", ""), entered_in=entered_in)
            messages.success(request, _("Sheet rejected: it goes back to whoever enters it, with your reason."))
    except ServiceError as exc:
        messages.error(request, str(exc))
    return redirect("sheet-entry", slug=slug, round_number=round_number, table_number=table_number)


def _entry_initial(sheet: ScoreSheet, form_class: EntryForm, deal: int | None) -> dict[str, Any]:
    """The form as it opens: ``deal``'s current line to correct (if the sheet has that deal), else the next deal;
    a fresh idempotency key either way."""
    current = {line.entry.deal_number: line.entry for line in selectors.sheet_lines(sheet)}
    entry = current.get(deal) if deal is not None else None
    if entry is not None:
        initial = {**form_class.initial_from_line(entry.line), "version": entry.version}
    else:
        engine = engine_sheet(sheet)
        initial = {"deal": engine.next_deal, "dealer": engine.expected_dealer or 0, "version": 0}
    return {**initial, "idempotency_key": uuid.uuid4().hex}


def stale_message(exc: StaleVersion, access: EntryAccess, entered_in: str) -> str:
    """Why a line was not saved over the deal's newer version; ``entered_in`` is this device's mark: a deal this
    device saved itself (typed again, its number not moved on) is not blamed on someone else."""
    current = exc.current
    if current is None:
        return _("This deal changed while you were typing. Nothing was saved; check the sheet and enter it again.")
    if current.entered_in and current.entered_in == entered_in:
        message = _(
            "Deal %(deal)s is already on the sheet, saved from this device (version %(version)s: %(line)s; points "
            "%(points)s). Nothing was saved: to change it, choose “correct” beside it on the sheet."
        )
    else:
        message = _(
            "Someone else saved deal %(deal)s meanwhile (now version %(version)s: %(line)s; points %(points)s). "
            "Nothing of yours was saved: check their line, and save yours again if it is still right."
        )
    return message % {
        "deal": current.deal_number,
        "version": current.version,
        "line": line_words(access, current.line),
        "points": points_text(current.points, access.names),
    }
