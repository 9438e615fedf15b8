"""``/c/<slug>/progression/``: everyone's rank after each round, as a chart of a few lines and a full table.

Shown exactly when the standings are (``tournaments.views.public._access``, as the season table): a hidden competition
is a 404. A field of 400 stays readable: the chart draws the top ten (or five, twenty, none) and the players
looked for by name; the table lists everyone, a page at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django import forms
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from tournaments import conditional
from tournaments.models import Competition, Player
from tournaments.progression.player import player_progression
from tournaments.progression.selectors import competition_progression, provisional_cells
from tournaments.progression.services import Cell, Line, Progression, chart
from tournaments.public_names import name_key
from tournaments.services.privacy import shown_name
from tournaments.views.public import _access

PAGE_SIZE = 50  # table rows per page
TOP = 10  # top players drawn unless asked otherwise
MATCHES = 10  # players found by name drawn at most
TOP_CHOICES = (("0", "0"), ("5", "5"), ("10", "10"), ("20", "20"))


class ChoiceForm(forms.Form):
    q = forms.CharField(label=_("Find players"), max_length=80, required=False)
    top = forms.TypedChoiceField(
        label=_("Top players drawn"), choices=TOP_CHOICES, coerce=int, required=False, empty_value=None
    )


@dataclass(frozen=True)
class ShownCell:
    round: int
    cell: Cell | None
    provisional: bool


@dataclass(frozen=True)
class Row:
    line: Line
    cells: list[ShownCell]


def _rows(data: Progression, lines: list[Line], provisional: frozenset[tuple[int, int]]) -> list[Row]:
    return [
        Row(
            line,
            [
                ShownCell(number, cell, (number, line.player_id) in provisional)
                for number, cell in zip(data.rounds, line.cells, strict=True)
            ],
        )
        for line in lines
    ]


def _player_ids(values: list[str]) -> set[int]:
    """The players asked for by id (``?p=12&p=40``, the player page's links): at most ``MATCHES``, others ignored."""
    return {int(v) for v in values[:MATCHES] if v.isascii() and v.isdigit() and len(v) <= 12}


def _description(top: int, found: bool) -> str:
    """What the chart draws, for screen readers (the table gives the values)."""
    if top and found:
        drawn = ngettext(
            "Lines: the leader and the players found.", "Lines: the top %(n)s and the players found.", top
        ) % {"n": top}
    elif top:
        drawn = ngettext("Lines: the leader.", "Lines: the top %(n)s.", top) % {"n": top}
    else:
        drawn = gettext("Lines: the players found.")
    return " ".join((gettext("Rank 1 is at the top."), drawn, gettext("The table below gives every value.")))


@require_GET
def progression_page(request: HttpRequest, slug: str) -> HttpResponse:
    seen = _access(request, slug)
    competition = seen.competition
    data = competition_progression(competition, manages=seen.manages)
    provisional = provisional_cells(competition)
    asked = request.GET.copy()
    asked.setdefault("top", str(TOP))
    form = ChoiceForm(asked)
    valid = form.is_valid()
    query = form.cleaned_data["q"].strip() if valid else ""
    top = form.cleaned_data["top"] if valid and form.cleaned_data["top"] is not None else TOP
    key = name_key(query)
    matches = [line for line in data.lines if key and key in name_key(line.name)]
    asked_for = _player_ids(request.GET.getlist("p"))
    chosen = [line for line in data.lines if line.player_id in asked_for][:MATCHES]
    chosen += [line for line in matches if line not in chosen][: MATCHES - len(chosen)]
    ranked = [line for line in data.lines if line.final is not None and line.final.rank]
    drawn = [(line, "normal") for line in ranked[:top] if line not in chosen] + [(line, "bold") for line in chosen]
    listed = matches if query else list(data.lines)
    page = Paginator(listed, PAGE_SIZE).get_page(request.GET.get("page"))
    league = competition.kind == Competition.Kind.LEAGUE
    provisional_rounds = {number for number, _ in provisional}
    series = chart(data.rounds, drawn)
    legend = sorted(
        (s for s in (series.series if series else ()) if s.style != "faint"),
        key=lambda s: (s.style != "bold", s.line.final.rank if s.line.final and s.line.final.rank else 1 << 30),
    )
    response = render(
        request,
        "progression/page.html",
        {
            "competition": competition,
            "form": form,
            "query": query,
            "top": top,
            "matches": matches,
            "chart": series,
            "chart_title": gettext("Rank after each evening") if league else gettext("Rank after each round"),
            "chart_desc": _description(top, bool(chosen)),
            "legend": legend,
            "rounds": [(number, number in provisional_rounds) for number in data.rounds],
            "any_provisional": bool(provisional_rounds & set(data.rounds)),
            "league": league,
            "paging": urlencode([("q", query), ("top", top), *(("p", pk) for pk in sorted(asked_for))]),
            "asked_for": sorted(asked_for),
            "rows": _rows(data, list(page.object_list), provisional),
            "page": page,
            "players": len(data.lines),
            "full_names": seen.manages,
        },
    )
    return conditional.conditional_body(request, response, seen.manages)


@require_GET
def player_fragment(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """One player's rank after each round, bold over the top ten: what the player page loads per competition."""
    seen = _access(request, slug)
    player = get_object_or_404(Player, pk=pk)
    item = player_progression(seen.competition, player, manages=seen.manages)
    if item is None:
        raise Http404("no rank in this competition")
    response = render(
        request,
        "progression/_player_item.html",
        {"item": item, "name": shown_name(player, seen.manages), "player_id": player.pk},
    )
    return conditional.conditional_body(request, response, seen.manages)
