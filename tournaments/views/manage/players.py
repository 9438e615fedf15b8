"""The organiser's registration page: find and register players, add walk-ins, import a CSV list, withdraw.

The search works as a plain GET form; with htmx the results refresh as the organiser types (the same view
answers an htmx request with the results only).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournaments.forms.manage import (
    PlayerImportForm,
    RegisterForm,
    SearchForm,
    WalkInForm,
    WithdrawForm,
    show_errors,
)
from tournaments.limits import known_id
from tournaments.models import Competition, Player, Registration, Round
from tournaments.selectors import manage as selectors
from tournaments.services.competitions import PlayerImportRejected, add_walk_in, import_players_csv, register_players
from tournaments.services.errors import ServiceError
from tournaments.services.privacy import full_name
from tournaments.services.rounds import withdraw_player
from tournaments.views.manage.competitions import managed_competition, posted, refused
from tournaments.views.manage.rounds import reprint_note

# rounds whose tables are playing: a player registered now sits at none of them
UNDER_WAY = (Round.Status.PUBLISHED, Round.Status.IN_PLAY)


def _back(competition: Competition, query: str = "") -> HttpResponse:
    url = reverse("manage-players", args=[competition.slug])
    return redirect(f"{url}?{urlencode({'q': query})}" if query else url)


def _page(request: HttpRequest, competition: Competition, status: int = 200, **forms: Any) -> HttpResponse:
    search = SearchForm(request.GET)
    query = search.cleaned_data["q"] if search.is_valid() else ""
    found, more = selectors.search_players(query, competition=competition, user=request.user)
    context = {"competition": competition, "search": search, "query": query, "found": found, "more": more}
    if request.htmx and request.method == "GET":
        return render(request, "organiser/_search_results.html", context)
    clubs = selectors.clubs_for_new_competitions(request.user)
    forms.setdefault("walk_in", WalkInForm(prefix="walkin", clubs=clubs, initial={"club": competition.club_id}))
    forms.setdefault(
        "import_form", PlayerImportForm(prefix="import", clubs=clubs, initial={"club": competition.club_id})
    )
    context["registrations"] = selectors.registrations(competition)
    return render(request, "organiser/players.html", {**context, **forms}, status=status)


@login_required
def players(request: HttpRequest, slug: str) -> HttpResponse:
    return _page(request, managed_competition(request, slug))


@login_required
@require_POST
def register(request: HttpRequest, slug: str) -> HttpResponse:
    competition = managed_competition(request, slug)
    form = RegisterForm(request.POST)
    query = request.POST.get("q", "")[:80]
    player = Player.objects.filter(pk=form.cleaned_data["player"]).first() if form.is_valid() else None
    if player is None:
        messages.error(request, _("No such player: search again."))
        return _back(competition, query)
    try:
        added = register_players(competition, [player])
    except ServiceError as exc:
        refused(request, exc)
    else:
        name = full_name(player)
        done = _("%(name)s is registered.") if added else _("%(name)s was registered already.")
        messages.success(request, done % {"name": name})
    return _back(competition, query)


@login_required
@require_POST
def walk_in(request: HttpRequest, slug: str) -> HttpResponse:
    competition = managed_competition(request, slug)
    clubs = selectors.clubs_for_new_competitions(request.user)
    form = WalkInForm(request.POST, prefix="walkin", clubs=clubs)
    if form.is_valid():
        try:
            player = add_walk_in(competition, **form.cleaned_data)
        except ValidationError as exc:
            show_errors(form, exc)
        except ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            said = {"name": full_name(player), "public": player.public_name}
            # a late arrival checks in by the name the standings show, which they cannot look up before their first
            # round: the desk reads it here
            messages.success(
                request,
                _("%(name)s is added and registered; the public pages and the check-in say “%(public)s”.") % said,
            )
            under_way = competition.rounds.filter(status__in=UNDER_WAY).order_by("-number").first()
            if under_way is not None:  # a late arrival: nothing seats them by itself
                messages.info(
                    request,
                    _(
                        "Round %(number)s is seated without them: check them in on the Check-in page, then "
                        "choose “Seat the late arrivals”."
                    )
                    % {"number": under_way.number},
                )
            return _back(competition)
    return _page(request, competition, walk_in=form)


@login_required
@require_POST
def import_players(request: HttpRequest, slug: str) -> HttpResponse:
    competition = managed_competition(request, slug)
    clubs = selectors.clubs_for_new_competitions(request.user)
    form = PlayerImportForm(request.POST, request.FILES, prefix="import", clubs=clubs)
    if form.is_valid():
        try:
            result = import_players_csv(competition, form.cleaned_data["file"], club=form.cleaned_data["club"])
        except PlayerImportRejected as exc:
            form.add_error("file", _("Nothing was imported: correct these lines and import the file again."))
            for line, message in exc.errors:
                form.add_error("file", _("Line %(line)s: %(error)s") % {"line": line, "error": message})
        except ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(
                request,
                ngettext(
                    "%(rows)s player in the list: %(registered)s newly registered, %(created)s new to the site.",
                    "%(rows)s players in the list: %(registered)s newly registered, %(created)s new to the site.",
                    result.rows,
                )
                % {"rows": result.rows, "registered": result.registered, "created": result.created},
            )
            return _back(competition)
    return _page(request, competition, import_form=form)


@login_required
def withdraw(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """GET asks for confirmation (and a reason); POST withdraws and re-seats the rounds not yet in play."""
    competition = managed_competition(request, slug)
    registration = get_object_or_404(
        Registration.objects.select_related("player"), competition=competition, player_id=known_id(player_id)
    )
    form = WithdrawForm(posted(request))
    if request.method == "POST" and form.is_valid():
        try:
            rounds = withdraw_player(competition, player_id, by=request.user, reason=form.cleaned_data["reason"])
        except ServiceError as exc:
            refused(request, exc)
        else:
            message = _("%(name)s is withdrawn.") % {"name": full_name(registration.player)}
            if rounds:
                numbers = ", ".join(str(r.number) for r in rounds)
                message += " " + _("Seated again: round %(rounds)s.") % {"rounds": numbers}
            messages.success(request, message)
            for round_ in rounds:
                if note := reprint_note(round_):
                    messages.warning(request, note)
        return _back(competition)
    context = {"competition": competition, "registration": registration, "form": form}
    return render(request, "organiser/withdraw.html", context)
