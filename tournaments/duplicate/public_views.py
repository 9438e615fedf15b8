"""A duplicate round's boards for everyone, once the round is over: each board's hands, the solver's table, the
par and every table's result on it, and per player the split of the round's score into cards and play.

Boards are hand records, and their analysis tells what each hand could make: until the round is finalised these
pages are a 404 for everyone but those who run the competition (players and table-code holders included). After
that they follow the competition's visibility exactly as the round's results do (``tournaments.visibility``:
hidden, or standings only, is a 404 for the public). A competition that is not duplicate has no boards (404).
Thin views: ``tournaments.duplicate.analysis`` reads.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_GET

from tournaments import conditional
from tournaments.duplicate import analysis
from tournaments.duplicate.selectors import board_view
from tournaments.models import Board, Competition, Round
from tournaments.visibility import Access, access


def finished_round(request: HttpRequest, slug: str, number: int) -> tuple[Access, Round]:
    """Round ``number`` of a duplicate competition whose results this viewer may read, finalised (or run by them)."""
    competition = get_object_or_404(Competition.objects.select_related("club", "rule_set"), slug=slug)
    seen = access(request.user, competition)
    if not competition.duplicate or not seen.results:
        raise Http404
    round_ = get_object_or_404(Round, competition=competition, number=number)
    if not seen.boards(round_):
        raise Http404("the boards stay hand records until the round is finalised")
    round_.competition = competition
    return seen, round_


def _answer(request: HttpRequest, response: HttpResponse, seen: Access, round_: Round) -> HttpResponse:
    if round_.status != Round.Status.FINALISED:  # hand records of a round in play: no cache may keep them
        add_never_cache_headers(response)
        return response
    return conditional.conditional_body(request, response, seen.manages)


@require_GET
def round_boards(request: HttpRequest, slug: str, round_number: int) -> HttpResponse:
    """The round's boards, each with its par, and the players' luck and skill over the round."""
    seen, round_ = finished_round(request, slug, round_number)
    data = analysis.round_data(round_, full_names=seen.manages)
    context = {
        "competition": round_.competition,
        "round": round_,
        "finalised": round_.status == Round.Status.FINALISED,
        "boards": [analysis.board_row(data, board) for board in data.boards],
        "players": analysis.luck_and_skill(data),
        "analysed": sum(1 for item in data.analysed.values() if item.par is not None),
    }
    return _answer(request, render(request, "duplicate/round_boards.html", context), seen, round_)


@require_GET
def board_detail(request: HttpRequest, slug: str, round_number: int, board_number: int) -> HttpResponse:
    """One board: the hands, the solver's table, the par and every table's result on it."""
    seen, round_ = finished_round(request, slug, round_number)
    board = get_object_or_404(Board, round=round_, number=board_number)
    data = analysis.round_data(round_, full_names=seen.manages, board_number=board.number)
    numbers = [item.number for item in data.boards]
    context = {
        "competition": round_.competition,
        "round": round_,
        "finalised": round_.status == Round.Status.FINALISED,
        "hands": board_view(board.engine_board()),
        "board": analysis.board_page(data, board),
        "previous": max((n for n in numbers if n < board.number), default=None),
        "next": min((n for n in numbers if n > board.number), default=None),
    }
    return _answer(request, render(request, "duplicate/board_detail.html", context), seen, round_)
