"""The organiser's controls for the display: the round clock (on the round page) and the announcements (on the
round and competition pages).

POST only, behind the CSRF check, for those who run the competition
(``views.manage.competitions.managed_competition``: a 403 for others, a 404 when the competition is hidden from
them), as the round's other steps. Each control does one service step (``tournaments.display.services``, audited
there) and comes back to the page with its message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.display import services
from tournaments.display.forms import AdjustClockForm, AnnouncementForm, StartClockForm
from tournaments.limits import known_id
from tournaments.models import Announcement, Round
from tournaments.services.errors import ServiceError
from tournaments.views.manage.competitions import managed_competition, managed_round, refused


def _back_to_round(round_: Round) -> HttpResponse:
    return redirect(reverse("manage-round", args=[round_.competition.slug, round_.number]) + "#clock-title")


def _form_refused(request: HttpRequest, form: Form) -> None:
    for errors in form.errors.values():
        for error in errors:
            messages.error(request, error)


def _clock_step(request: HttpRequest, round_: Round, step: Callable[[], Any], done: str) -> HttpResponse:
    try:
        step()
    except ServiceError as exc:
        refused(request, exc)
    else:
        messages.success(request, done)
    return _back_to_round(round_)


@login_required
@require_POST
def clock_start(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = managed_round(request, slug, number)
    form = StartClockForm(request.POST)
    if not form.is_valid():
        _form_refused(request, form)
        return _back_to_round(round_)
    minutes = form.cleaned_data["minutes"]
    return _clock_step(
        request,
        round_,
        lambda: services.start_clock(round_, minutes, by=request.user),
        _("The clock of round %(number)s runs: %(minutes)s minutes.") % {"number": number, "minutes": minutes},
    )


@login_required
@require_POST
def clock_pause(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = managed_round(request, slug, number)
    return _clock_step(
        request, round_, lambda: services.pause_clock(round_, by=request.user), _("The clock is paused.")
    )


@login_required
@require_POST
def clock_resume(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = managed_round(request, slug, number)
    return _clock_step(
        request, round_, lambda: services.resume_clock(round_, by=request.user), _("The clock runs again.")
    )


@login_required
@require_POST
def clock_adjust(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = managed_round(request, slug, number)
    form = AdjustClockForm(request.POST)
    if not form.is_valid():
        _form_refused(request, form)
        return _back_to_round(round_)
    minutes = form.cleaned_data["minutes"]
    done = (
        _("%(minutes)s minutes added to the clock.") % {"minutes": minutes}
        if minutes > 0
        else _("%(minutes)s minutes taken off the clock.") % {"minutes": -minutes}
    )
    return _clock_step(request, round_, lambda: services.adjust_clock(round_, minutes, by=request.user), done)


@login_required
@require_POST
def clock_stop(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = managed_round(request, slug, number)
    return _clock_step(
        request, round_, lambda: services.stop_clock(round_, by=request.user), _("The clock is stopped.")
    )


def _back(request: HttpRequest, slug: str) -> HttpResponse:
    """To the organiser's page the form was on (``next``, one of this site's /manage/ pages), else the competition's."""
    target = request.POST.get("next", "")
    safe = url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=False)
    if safe and target.startswith("/manage/"):
        return redirect(target)
    return redirect("manage-competition", slug=slug)


@login_required
@require_POST
def announcement_add(request: HttpRequest, slug: str) -> HttpResponse:
    competition = managed_competition(request, slug)
    form = AnnouncementForm(request.POST)
    if not form.is_valid():
        _form_refused(request, form)
        return _back(request, slug)
    try:
        services.announce(competition, form.cleaned_data["text"], by=request.user)
    except ServiceError as exc:
        refused(request, exc)
    else:
        messages.success(request, _("The announcement is on the display."))
    return _back(request, slug)


@login_required
@require_POST
def announcement_hide(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    competition = managed_competition(request, slug)
    announcement = get_object_or_404(Announcement, competition=competition, pk=known_id(pk))
    try:
        services.hide_announcement(announcement, by=request.user)
    except ServiceError as exc:
        refused(request, exc)
    else:
        messages.success(request, _("The announcement is off the display."))
    return _back(request, slug)
