"""Check-in pages: the player's phone page, and the organiser's list, seating and poster.

The phone page answers for a competition its viewer may see (a hidden one is a 404, as everywhere); the
organiser's pages for those who run the competition (``views.manage.competitions.managed_competition``). Every
decision is ``tournaments.checkin.services``'s.
"""

from __future__ import annotations

from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments import devices
from tournaments.checkin import services
from tournaments.checkin.forms import CodeCheckInForm
from tournaments.models import Competition, Round
from tournaments.services.errors import ServiceError
from tournaments.views.manage.competitions import managed_competition, refused
from tournaments.views.manage.rounds import reprint_note
from tournaments.visibility import access


def _visible(request: HttpRequest, slug: str) -> Competition:
    competition = get_object_or_404(Competition.objects.select_related("club"), slug=slug)
    if not access(request.user, competition).standings:
        raise Http404
    return competition


def _target(competition: Competition) -> tuple[services.Target | None, str]:
    try:
        return services.target(competition), ""
    except services.CheckInRefused as exc:
        return None, str(exc)


@require_http_methods(["GET", "POST"])
def check_in(request: HttpRequest, slug: str) -> HttpResponse:
    """The page the poster's QR code opens: "I'm here", with one's account or with one's name and the venue code."""
    competition = _visible(request, slug)
    goal, closed = _target(competition)
    own = services.registration_of(competition, request.user)
    form = CodeCheckInForm()
    result: services.Result | None = None
    error = ""
    if request.method == "POST" and goal is not None:
        device = devices.device_of(request).mark
        try:
            if "account" in request.POST:
                result = services.check_in_account(competition, request.user, device=device)
            else:
                form = CodeCheckInForm(request.POST)
                if form.is_valid():
                    data = form.cleaned_data
                    result = services.check_in_with_code(
                        competition, name=data["name"], code=data["code"], device=device
                    )
        except services.CheckInRefused as exc:
            error = str(exc)
    _focus(form, own is None, error, competition)
    context: dict[str, Any] = {
        "competition": competition,
        "target": goal,
        "closed": closed,
        "own": own,
        "form": form,
        "result": result,
        "error": error,
    }
    refused = bool(error or form.errors)
    response = render(request, "checkin/check_in.html", context, status=400 if refused else 200)
    return devices.remember(request, response) if request.method == "POST" else response


def _focus(form: CodeCheckInForm, typing: bool, error: str, competition: Competition) -> None:
    """Where the cursor starts: the first field in error, the code after a wrong code, else the name (unless the
    page offers the signed-in player their own button first)."""
    if form.errors:
        field = next(iter(form.errors))
    elif error and form.is_bound and not services.code_opens(competition, form.data.get("code")):
        field = "code"
    elif typing or error:
        field = "name"
    else:
        return
    if field in form.fields:
        form.fields[field].widget.attrs["autofocus"] = True


# -- the organiser's side -------------------------------------------------------------------------------------------


def check_in_url(request: HttpRequest, competition: Competition) -> str:
    return request.build_absolute_uri(reverse("checkin", args=[competition.slug]))


def qr_svg(url: str) -> str:
    """The check-in address as an inline SVG QR code, made as the table card's is (segno, error level M), with a
    view box so the poster's style sets its printed size (9 cm: scanned from a few steps away)."""
    return segno.make(url, error="m").svg_inline(scale=2, unit="mm", title=url)


@login_required
def organiser_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Who checked in for the round about to be seated, the venue code, and the buttons to seat them."""
    competition = managed_competition(request, slug)
    goal, closed = _target(competition)
    context: dict[str, Any] = {
        "competition": competition,
        "target": goal,
        "closed": closed,
        **services.arrivals_context(competition, goal),
        "venue_code": services.venue_code(competition),
        "check_in_url": check_in_url(request, competition),
    }
    return render(request, "checkin/organiser.html", context)


@login_required
def poster(request: HttpRequest, slug: str) -> HttpResponse:
    """The printable poster: the QR code, the address and the venue code, A4."""
    competition = managed_competition(request, slug)
    url = check_in_url(request, competition)
    context = {
        "competition": competition,
        "venue_code": services.venue_code(competition),
        "check_in_url": url,
        "qr": qr_svg(url),
    }
    return render(request, "checkin/poster.html", context)


def _back(request: HttpRequest, competition: Competition, round_: Round | None = None) -> HttpResponse:
    """Back where the button was: a round's page (``next=round``) or the check-in page."""
    if round_ is not None and request.POST.get("next") == "round":
        return redirect("manage-round", slug=competition.slug, number=round_.number)
    return redirect("manage-checkin", slug=competition.slug)


@login_required
@require_POST
def seat(request: HttpRequest, slug: str) -> HttpResponse:
    """Seat who checked in: a new round, the draft for exactly them, or the late arrivals of a published round."""
    competition = managed_competition(request, slug)
    try:
        round_ = services.seat_checked_in(competition, by=request.user)
    except ServiceError as exc:
        refused(request, exc)
        goal, _closed = _target(competition)
        return _back(request, competition, goal.round if goal else None)
    messages.success(
        request,
        _("Round %(number)s is seated with who checked in: check it, then publish it.") % {"number": round_.number}
        if round_.status == Round.Status.DRAFT
        else _("Round %(number)s is seated again with the late arrivals.") % {"number": round_.number},
    )
    if note := reprint_note(round_):
        messages.warning(request, note)
    if request.POST.get("next") == "round" or round_.status == Round.Status.DRAFT:
        return redirect("manage-round", slug=competition.slug, number=round_.number)
    return _back(request, competition, round_)


@login_required
@require_POST
def new_code(request: HttpRequest, slug: str) -> HttpResponse:
    """A new venue code: the old poster's code opens nothing any more."""
    competition = managed_competition(request, slug)
    services.new_venue_code(competition, by=request.user)
    messages.success(request, _("The venue code is new: print the poster again."))
    return redirect("manage-checkin", slug=competition.slug)
