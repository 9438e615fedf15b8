"""Thin views: read through selectors, write through services."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournaments import selectors
from tournaments.models import Competition, Player, Round, ScoreSheet
from tournaments.permissions import can_enter_scores, can_manage_competition
from tournaments.services.privacy import sees_full_name


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
            "full_names": manages,
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
    manages = can_manage_competition(request.user, competition)
    return render(
        request,
        "sheet.html",
        {
            "competition": competition,
            "sheet": sheet,
            "seats": selectors.shown_seats(sheet, full_names=manages),
            "lines": selectors.sheet_lines(sheet),
            "history": selectors.sheet_history(sheet),
            "can_enter": can_enter_scores(request.user, competition),
            "manages": manages,  # who entered each version: their account names, for those who run it
        },
    )


def season(request: HttpRequest, slug: str) -> HttpResponse:
    competition = _visible_competition(request, slug)
    full_names = can_manage_competition(request.user, competition)
    evenings, rows = selectors.season_rows(competition, full_names=full_names)
    return render(request, "season.html", {"competition": competition, "evenings": evenings, "rows": rows})


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    return render(
        request,
        "player.html",
        {"page": selectors.player_page(player), "full_names": sees_full_name(request.user, player)},
    )
