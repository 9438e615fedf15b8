"""The organiser's board pages of a duplicate round: the list, the PBN file (down and up), the hand records.

Boards are hand records, so every page is for those who run the competition alone, whatever the round's state
(``managed_round``: log in first, then a 403 for others, a 404 when the competition is hidden from them); a
competition that is not duplicate has no boards (404). The answers are never cached (``never_cache``): a shared
cache must not keep the cards. Thin views: the selectors read, the services decide.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from tournaments.duplicate import selectors, services
from tournaments.duplicate.forms import PbnUploadForm
from tournaments.duplicate.movement import sets_to_deal
from tournaments.models import BoardAnalysis, Competition, Round
from tournaments.services.errors import ServiceError
from tournaments.views.manage.competitions import managed_round

# Below three tables a hand is compared with one other result at most: a top or a bottom, nothing between.
FEWEST_TABLES = 3


def duplicate_round(request: HttpRequest, slug: str, number: int) -> Round:
    """Round ``number`` of a duplicate competition the user runs; a 404 when the competition is not duplicate."""
    round_ = managed_round(request, slug, number)
    if not round_.competition.duplicate:
        raise Http404("this competition is not duplicate: its rounds have no boards")
    return round_


def _page(request: HttpRequest, round_: Round, form: PbnUploadForm) -> HttpResponse:
    boards = selectors.round_boards(round_)
    views = [selectors.board_view(board.engine_board()) for board in boards]
    statuses = dict(BoardAnalysis.objects.filter(board__round=round_).values_list("board__number", "status"))
    labels = dict(BoardAnalysis.Status.choices)
    context = {
        "competition": round_.competition,
        "round": round_,
        "boards": views,
        # each board beside its analysis as the organiser follows it: waiting, being analysed, analysed, failed
        "board_rows": [(view, labels.get(statuses.get(view.number, ""), _("Not queued yet"))) for view in views],
        "seed": selectors.dealt_seed(boards),
        "replaceable": selectors.replaceable(round_),
        "tables": round_.tables.count(),
        "sets": sets_to_deal(round_),
        "relay": round_.competition.movement == Competition.Movement.RELAY,
        "fewest_tables": FEWEST_TABLES,
        "form": form,
    }
    return render(request, "duplicate/boards.html", context)


@never_cache
@login_required
@require_GET
def boards(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _page(request, duplicate_round(request, slug, number), PbnUploadForm())


@never_cache
@login_required
@require_GET
def boards_pbn(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The round's boards as a PBN file, for a dealing machine."""
    round_ = duplicate_round(request, slug, number)
    response = HttpResponse(selectors.round_pbn(round_), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{selectors.pbn_filename(round_)}"'
    return response


@never_cache
@login_required
@require_POST
def boards_import(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Replace the round's boards with a PBN file's; refused (beside the file field) once a line is stored."""
    round_ = duplicate_round(request, slug, number)
    form = PbnUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, round_, form)
    try:
        stored = services.import_round_boards(round_, form.cleaned_data["file"], by=request.user)
    except ServiceError as exc:
        form.add_error("file", str(exc))
        return _page(request, round_, form)
    messages.success(
        request,
        ngettext(
            "Round %(number)s plays the file's %(count)s board.",
            "Round %(number)s plays the file's %(count)s boards.",
            len(stored),
        )
        % {"number": round_.number, "count": len(stored)},
    )
    return redirect("manage-boards", slug=slug, number=number)


@never_cache
@login_required
@require_GET
def boards_print(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The hand records to print: A4, one board per half page, for dealing the boards by hand."""
    round_ = duplicate_round(request, slug, number)
    context = {
        "competition": round_.competition,
        "round": round_,
        "boards": selectors.hand_records(round_),
    }
    return render(request, "duplicate/hand_records.html", context)
