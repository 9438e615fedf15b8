"""The public side of the display: the full-screen page, its polled clock-and-announcements fragment, and a round's
clock fragment (the entry and round pages poll it).

No login; what a viewer may see is ``tournaments.visibility``'s rule (a hidden competition is a 404, a draft round's
clock is the organisers'). The fragments carry an ``ETag`` from what they show and answer ``304`` to a poll that has
them already; every answer, a ``304`` too, carries the server's time in milliseconds (``X-Server-Time``), from which
the browser corrects its own clock, so every screen counts down the same remaining time.
"""

from __future__ import annotations

import time

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from tournaments.conditional import etag, labelled, not_modified
from tournaments.display import selectors
from tournaments.display.services import ACTIVE_ANNOUNCEMENTS_MAX
from tournaments.limits import known_id
from tournaments.models import Competition, Round
from tournaments.visibility import Access, access

SERVER_TIME = "X-Server-Time"
POLL_SECONDS = 3  # the clock and announcements; the standings are polled as the competition page polls them
STANDINGS_POLL_SECONDS = 10
PAGE_SECONDS = 10  # a page of a long field stays this long on the screen


def _seen(request: HttpRequest, slug: str) -> Access:
    competition = get_object_or_404(Competition.objects.select_related("club"), slug=slug)
    seen = access(request.user, competition)
    if not seen.standings:
        raise Http404
    return seen


def _timed(response: HttpResponse) -> HttpResponse:
    response.headers[SERVER_TIME] = str(time.time_ns() // 1_000_000)
    return response


def _live_context(competition: Competition) -> dict[str, object]:
    announcements = list(selectors.active_announcements(competition)[:ACTIVE_ANNOUNCEMENTS_MAX])
    return {
        "competition": competition,
        "clock": selectors.competition_clock(competition),
        "announcements": announcements,
        "view": selectors.display_view(competition),
    }


def _live_tag(request: HttpRequest, context: dict[str, object]) -> str:
    clock = context["clock"]
    announcements = context["announcements"]
    assert isinstance(announcements, list)
    return etag(
        request,
        "display-live",
        context["competition"].pk,  # type: ignore[attr-defined]
        clock.key if isinstance(clock, selectors.ClockView) else None,
        selectors.announcements_key(announcements),
        context["view"],
    )


@require_GET
def display(request: HttpRequest, slug: str) -> HttpResponse:
    """The venue's screen: clock, announcements, and the next round's seating between rounds, else the standings."""
    seen = _seen(request, slug)
    competition = seen.competition
    context = _live_context(competition)
    round_ = selectors.next_round(competition)
    context |= {
        "round": round_,
        "seating": selectors.seating_by_name(round_) if round_ is not None else None,
        "poll_seconds": POLL_SECONDS,
        "standings_poll_seconds": STANDINGS_POLL_SECONDS,
        "page_seconds": PAGE_SECONDS,
    }
    return _timed(render(request, "display/display.html", context))


@require_GET
def display_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The clock and the announcements alone, for the display's poll."""
    seen = _seen(request, slug)
    context = _live_context(seen.competition)
    tag = _live_tag(request, context)
    if unchanged := not_modified(request, tag):
        return _timed(unchanged)
    return _timed(labelled(request, render(request, "display/_live.html", context), tag))


@require_GET
def round_clock(request: HttpRequest, slug: str, round_number: int) -> HttpResponse:
    """One round's clock, for its entry pages and its public page; a draft round's only for its organisers."""
    seen = _seen(request, slug)
    round_ = get_object_or_404(Round, competition=seen.competition, number=known_id(round_number))
    if round_.status == Round.Status.DRAFT and not seen.manages:
        raise Http404
    clock = selectors.round_clock(round_)
    tag = etag(request, "round-clock", round_.pk, clock.key if clock else None)
    if unchanged := not_modified(request, tag):
        return _timed(unchanged)
    response = render(request, "display/_clock.html", {"clock": clock, "round": round_})
    return _timed(labelled(request, response, tag))
