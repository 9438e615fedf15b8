"""The organiser's round pages: seat the next round, check and change the draft, publish, watch, finalise.

Every step is a service of ``services.rounds``; a step the round's state does not allow comes back as the
service's message. The progress table refreshes itself with htmx (the same address gives the whole page
without htmx).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournaments.checkin import services as checkin
from tournaments.forms.manage import NewRoundForm, ReasonForm, RedrawForm, SwapForm
from tournaments.models import Round
from tournaments.selectors import manage as selectors
from tournaments.services import rounds as lifecycle
from tournaments.services.errors import ServiceError
from tournaments.views.manage.competitions import managed_competition, managed_round, overview, refused

LIVE = (Round.Status.PUBLISHED, Round.Status.IN_PLAY, Round.Status.COMPLETE)  # the progress table polls


def reprint_note(round_: Round) -> str:
    """After a published round is seated again: which tables' printed cards are wrong now, to print again."""
    if round_.status != Round.Status.PUBLISHED:
        return ""  # a draft's cards are not out yet
    cards = lifecycle.cards_changed(round_)
    if not cards:
        return ""
    return ngettext(
        "Round %(round)s: the table card of table %(tables)s has changed; print it again.",
        "Round %(round)s: the table cards of tables %(tables)s have changed; print them again.",
        len(cards),
    ) % {"round": round_.number, "tables": ", ".join(map(str, cards))}


def _page(request: HttpRequest, round_: Round, **forms: Any) -> HttpResponse:
    progress = selectors.round_progress(round_)
    context: dict[str, Any] = {
        "competition": round_.competition,
        "round": round_,
        "progress": progress,
        "live": round_.status in LIVE,
    }
    if request.htmx:
        return render(request, "organiser/_progress.html", context)
    draft = round_.status == Round.Status.DRAFT
    if draft:
        forms.setdefault("redraw_form", RedrawForm(initial={"method": round_.method}, prefix="redraw"))
        forms.setdefault("swap_form", SwapForm(players=progress.players, prefix="swap"))
    forms.setdefault("reopen_form", ReasonForm(prefix="reopen"))
    problems = lifecycle.round_problems(round_) if draft else []
    return render(request, "organiser/round.html", {**context, **_check_ins(round_), "problems": problems, **forms})


def _check_ins(round_: Round) -> dict[str, Any]:
    """Who checked in for this round (draft or published), or for the next one after it once it is over."""
    try:
        target = checkin.target(round_.competition)
    except checkin.CheckInRefused:
        return {}
    if target.number == round_.number or (target.round is None and target.number == round_.number + 1):
        return {"check_in": target, **checkin.arrivals_context(round_.competition, target)}
    return {}


@login_required
def round_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _page(request, managed_round(request, slug, number))


@login_required
def round_progress(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The progress table alone for htmx's polling; the whole round page otherwise."""
    return _page(request, managed_round(request, slug, number))


def _step(request: HttpRequest, round_: Round, step: Callable[[], Any], done: str) -> HttpResponse:
    """Run one service step; its refusal, or ``done``, is the message on the round's page."""
    try:
        step()
    except ServiceError as exc:
        refused(request, exc)
    else:
        messages.success(request, done)
    return redirect("manage-round", slug=round_.competition.slug, number=round_.number)


@login_required
@require_POST
def round_new(request: HttpRequest, slug: str) -> HttpResponse:
    competition = managed_competition(request, slug)
    form = NewRoundForm(request.POST)
    if not form.is_valid():
        return overview(request, competition, round_form=form)
    try:
        round_ = lifecycle.create_round(competition, method=form.cleaned_data["method"], by=request.user)
    except ServiceError as exc:
        refused(request, exc)
        return redirect("manage-competition", slug=slug)
    messages.success(
        request, _("Round %(number)s is seated as a draft: check it, then publish it.") % {"number": round_.number}
    )
    return redirect("manage-round", slug=slug, number=round_.number)


@login_required
@require_POST
def round_redraw(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = managed_round(request, slug, number)
    form = RedrawForm(request.POST, prefix="redraw")
    if not form.is_valid():
        return _page(request, round_, redraw_form=form)
    data = form.cleaned_data
    return _step(
        request,
        round_,
        lambda: lifecycle.regenerate_round(round_, seed=data["seed"], method=data["method"], by=request.user),
        _("Round %(number)s is drawn again.") % {"number": number},
    )


@login_required
@require_POST
def round_swap(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = managed_round(request, slug, number)
    players = selectors.round_progress(round_).players
    form = SwapForm(request.POST, players=players, prefix="swap")
    if not form.is_valid():
        return _page(request, round_, swap_form=form)
    first, second = form.cleaned_data["first"], form.cleaned_data["second"]
    names = {pid: name for pid, name, _table in players}
    return _step(
        request,
        round_,
        lambda: lifecycle.swap_players(round_, first, second, by=request.user),
        _("%(first)s and %(second)s changed places.") % {"first": names[first], "second": names[second]},
    )


@login_required
@require_POST
def round_publish(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = managed_round(request, slug, number)
    return _step(
        request,
        round_,
        lambda: lifecycle.publish_round(round_, by=request.user),
        _("Round %(number)s is published: the players see their tables.") % {"number": number},
    )


@login_required
@require_POST
def round_finalise(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = managed_round(request, slug, number)
    return _step(
        request,
        round_,
        lambda: lifecycle.finalise_round(round_, by=request.user),
        _("Round %(number)s is finalised: its sheets take no more lines.") % {"number": number},
    )


@login_required
@require_POST
def round_reopen(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = managed_round(request, slug, number)
    form = ReasonForm(request.POST, prefix="reopen")
    if not form.is_valid():
        return _page(request, round_, reopen_form=form)
    return _step(
        request,
        round_,
        lambda: lifecycle.reopen_round(round_, reason=form.cleaned_data["reason"], by=request.user),
        _("Round %(number)s is open again for corrections.") % {"number": number},
    )
