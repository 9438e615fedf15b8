"""``/ratings/``: the rated players, best first, by the name the public may see.

Ratings count only finalised rounds of competitions whose results are public (``scoring.selectors.rated_rounds``),
so the list shows nothing the public could not check. Names are public names (``Player.public_name``, "Anonymous
player <id>" once anonymised) for everyone: a list of every rated player has no per-row right to a full name.
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from scoring.models import Rating
from scoring.rating_ledger import last_updated

PER_PAGE = 100


def ratings_list(request: HttpRequest) -> HttpResponse:
    ratings = Rating.objects.select_related("player").order_by("-ordinal", "player_id")
    page = Paginator(ratings, PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "ratings/list.html",
        {"page": page, "first_rank": page.start_index(), "last_updated": last_updated()},
    )
