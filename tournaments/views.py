"""Thin views: read through selectors, write through services."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.forms import line_form_class
from tournaments.models import Competition, Player, Round, ScoreSheet
from tournaments.permissions import can_enter_scores, can_manage_competition
from tournaments.services.entry import engine_sheet, record_deal
from tournaments.services.errors import EntryRejected


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"clubs": selectors.clubs(), "competitions": selectors.public_competitions()})


def _visible_competition(request: HttpRequest, slug: str) -> Competition:
    competition = get_object_or_404(Competition.objects.select_related("club", "rule_set"), slug=slug)
    if not competition.is_public and not can_enter_scores(request.user, competition):
        raise Http404
    return competition


def competition_detail(request: HttpRequest, slug: str) -> HttpResponse:
    competition = _visible_competition(request, slug)
    manages = can_manage_competition(request.user, competition)
    return render(
        request,
        "competition.html",
        {
            "competition": competition,
            "standings": selectors.competition_standings(competition),
            "statistics": selectors.competition_statistics(competition),
            "rounds": selectors.competition_rounds(competition, drafts=manages),
            "can_enter": can_enter_scores(request.user, competition),
            "manages": manages,
        },
    )


def _sheet(request: HttpRequest, slug: str, round_number: int, table_number: int) -> ScoreSheet:
    competition = _visible_competition(request, slug)
    sheet = get_object_or_404(
        ScoreSheet.objects.select_related("table__round__competition__rule_set"),
        table__round__competition=competition,
        table__round__number=round_number,
        table__number=table_number,
    )
    if sheet.table.round.status == Round.Status.DRAFT and not can_manage_competition(request.user, competition):
        raise Http404("this round's seating is not published yet")
    return sheet


def sheet_detail(request: HttpRequest, slug: str, round_number: int, table_number: int) -> HttpResponse:
    sheet = _sheet(request, slug, round_number, table_number)
    competition = sheet.table.round.competition
    return render(
        request,
        "sheet.html",
        {
            "competition": competition,
            "sheet": sheet,
            "seats": selectors.sheet_seats(sheet),
            "lines": selectors.sheet_lines(sheet),
            "history": selectors.sheet_history(sheet),
            "can_enter": can_enter_scores(request.user, competition),
        },
    )


@login_required
def sheet_entry(request: HttpRequest, slug: str, round_number: int, table_number: int) -> HttpResponse:
    sheet = _sheet(request, slug, round_number, table_number)
    competition = sheet.table.round.competition
    if not can_enter_scores(request.user, competition):
        raise PermissionDenied(_("Only the organising club's administrators enter score sheets."))
    seats = selectors.sheet_seats(sheet)
    rules = competition.rule_set.engine_rules()
    form_class = line_form_class(competition.game)
    form_kwargs = {"seats": seats, "ladder": rules.ladder}
    if request.method == "POST":
        form = form_class(request.POST, **form_kwargs)
        if form.is_valid():
            try:
                result = record_deal(
                    sheet, form.to_line(), by=request.user, idempotency_key=form.cleaned_data["idempotency_key"] or None
                )
            except EntryRejected as exc:
                for error in exc.errors:
                    form.add_error(form.engine_field(error.field), f"{error.message} [{error.code}]")
            else:
                entry = result.entry
                messages.success(
                    request,
                    _("Deal %(deal)s saved: %(points)s") % {"deal": entry.deal_number, "points": entry.points},
                )
                return redirect("sheet-entry", slug=slug, round_number=round_number, table_number=table_number)
    else:
        correct = request.GET.get("deal")
        current = {line.entry.deal_number: line.entry.line for line in selectors.sheet_lines(sheet)}
        if correct and correct.isdigit() and int(correct) in current:
            initial = form_class.initial_from_line(current[int(correct)])
        else:
            engine = engine_sheet(sheet)
            initial = {"deal": engine.next_deal, "dealer": engine.expected_dealer or 0}
        initial["idempotency_key"] = uuid.uuid4().hex
        form = form_class(initial=initial, **form_kwargs)
    return render(
        request,
        "sheet_entry.html",
        {
            "competition": competition,
            "sheet": sheet,
            "seats": seats,
            "form": form,
            "lines": selectors.sheet_lines(sheet),
        },
    )


def season(request: HttpRequest, slug: str) -> HttpResponse:
    competition = _visible_competition(request, slug)
    evenings, rows = selectors.season_rows(competition)
    return render(request, "season.html", {"competition": competition, "evenings": evenings, "rows": rows})


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    return render(request, "player.html", {"page": selectors.player_page(player)})
