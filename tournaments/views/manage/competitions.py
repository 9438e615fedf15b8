"""The organiser's pages under /manage/: the competitions one runs, their settings, closing a season.

Thin views: forms read the input, services do the work (and refuse with a ``ServiceError`` or field errors),
messages say what happened. Players are in ``players``, rounds in ``rounds``.
Whoever may not run a competition gets a 403, or a 404 when it is not public (its existence is not told).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from scoring.explanations import listed
from tournaments.forms.manage import SEATING_NAMES, CompetitionForm, NewRoundForm, ReasonForm, show_errors
from tournaments.limits import known_id
from tournaments.models import Competition, Round
from tournaments.permissions import can_manage_competition
from tournaments.rule_editor.selectors import editable_rule_sets
from tournaments.selectors import manage as selectors
from tournaments.services import edits
from tournaments.services.competitions import save_competition
from tournaments.services.errors import ServiceError
from tournaments.services.seasons import close_competition, reopen_competition

METHOD_LABELS = {**SEATING_NAMES, "manual": gettext_lazy("The organiser's own tables")}


def managed_competition(request: HttpRequest, slug: str) -> Competition:
    """The competition at ``slug`` if the user runs it: 403 otherwise, 404 when it is not public either."""
    competition = get_object_or_404(Competition.objects.select_related("club", "rule_set"), slug=slug)
    if not can_manage_competition(request.user, competition):
        if competition.is_public:
            raise PermissionDenied(_("Only the competition's organisers manage it."))
        raise Http404
    return competition


def managed_round(request: HttpRequest, slug: str, number: int) -> Round:
    """Round ``number`` of a competition the user runs (``managed_competition``), with that competition attached."""
    competition = managed_competition(request, slug)
    round_ = get_object_or_404(Round, competition=competition, number=known_id(number))
    round_.competition = competition  # already read, with its rule set
    return round_


def posted(request: HttpRequest) -> Any:
    """The form's data on a POST (even an empty one, which is then refused field by field), else None."""
    return request.POST if request.method == "POST" else None


def refused(request: HttpRequest, error: ServiceError) -> None:
    messages.error(request, str(error))


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "organiser/dashboard.html",
        {
            "competitions": [(c, selectors.visibility_label(c)) for c in selectors.managed_competitions(request.user)],
            "can_create": selectors.clubs_for_new_competitions(request.user).exists(),
        },
    )


@login_required
def competition_new(request: HttpRequest) -> HttpResponse:
    clubs = selectors.clubs_for_new_competitions(request.user)
    if not clubs.exists():
        raise PermissionDenied(_("Competitions are created by a club's administrators."))
    initial = CompetitionForm.initial_for(None)
    form = CompetitionForm(posted(request), initial=initial, clubs=clubs, house_rules=editable_rule_sets(request.user))
    if request.method == "POST" and form.is_valid():
        try:
            competition = save_competition(None, club=form.cleaned_data["club"], **form.service_arguments())
        except ValidationError as exc:
            show_errors(form, exc)
        else:
            messages.success(request, _("Competition %(name)s created.") % {"name": competition.name})
            return redirect("manage-competition", slug=competition.slug)
    return render(request, "organiser/competition_form.html", {"form": form, "competition": None})


@login_required
def competition_edit(request: HttpRequest, slug: str) -> HttpResponse:
    competition = managed_competition(request, slug)
    house_rules = editable_rule_sets(request.user).exclude(pk=competition.rule_set_id)
    form = CompetitionForm(posted(request), initial=CompetitionForm.initial_for(competition), house_rules=house_rules)
    if request.method == "POST" and form.is_valid():
        try:
            competition = save_competition(competition, **form.service_arguments())
        except ValidationError as exc:
            competition.refresh_from_db()  # the page shows the stored name and address, not the refused ones
            if isinstance(exc, edits.ChangedMeanwhile):
                form.changed_meanwhile(exc)
            show_errors(form, exc)
        else:
            messages.success(request, _("Competition %(name)s saved.") % {"name": competition.name})
            return redirect("manage-competition", slug=competition.slug)
    # the rule set editor, where this user may edit the competition's rule set (its club's administrators)
    editor = editable_rule_sets(request.user).filter(pk=competition.rule_set_id).exists()
    context = {"form": form, "competition": competition, "rule_set_editor": editor}
    return render(request, "organiser/competition_form.html", context)


def overview(request: HttpRequest, competition: Competition, **forms: Any) -> HttpResponse:
    """The competition's page: its rounds, the next round's form, closing and reopening."""
    forms.setdefault("round_form", NewRoundForm(initial={"method": competition.seating_method}))
    forms.setdefault("reopen_form", ReasonForm(prefix="reopen"))
    return render(
        request,
        "organiser/competition.html",
        {
            "competition": competition,
            "rounds": [(r, METHOD_LABELS.get(r.method, r.method)) for r in competition.rounds.order_by("number")],
            "visibility": selectors.visibility_label(competition),
            "players": competition.registrations.filter(withdrawn_at__isnull=True).count(),
            **forms,
        },
    )


@login_required
def competition_page(request: HttpRequest, slug: str) -> HttpResponse:
    return overview(request, managed_competition(request, slug))


@login_required
@require_POST
def competition_close(request: HttpRequest, slug: str) -> HttpResponse:
    competition = managed_competition(request, slug)
    try:
        close_competition(competition, by=request.user)
    except ServiceError as exc:
        refused(request, exc)
    else:
        messages.success(request, _("%(name)s is closed: it takes no more results.") % {"name": competition.name})
        unfinished = list(
            competition.rounds.exclude(status=Round.Status.FINALISED)
            .order_by("number")
            .values_list("number", flat=True)
        )
        if unfinished:  # closed all the same: the organiser may mean it (an evening abandoned); they are told
            numbers = listed([str(n) for n in unfinished])
            messages.warning(
                request,
                ngettext(
                    "Round %(numbers)s is not finalised: its results stay provisional. Reopen the competition to "
                    "finish it.",
                    "Rounds %(numbers)s are not finalised: their results stay provisional. Reopen the competition to "
                    "finish them.",
                    len(unfinished),
                )
                % {"numbers": numbers},
            )
    return redirect("manage-competition", slug=slug)


@login_required
@require_POST
def competition_reopen(request: HttpRequest, slug: str) -> HttpResponse:
    competition = managed_competition(request, slug)
    form = ReasonForm(request.POST, prefix="reopen")
    if not form.is_valid():
        return overview(request, competition, reopen_form=form)
    try:
        reopen_competition(competition, reason=form.cleaned_data["reason"], by=request.user)
    except ServiceError as exc:
        refused(request, exc)
    else:
        messages.success(request, _("%(name)s is open again.") % {"name": competition.name})
    return redirect("manage-competition", slug=slug)
