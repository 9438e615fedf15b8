"""``{% load round_display %}``: the round clock and the display's controls where other pages show them.

- ``{% round_clock round %}``: the round's clock, polled and counted down (entry pages, the public round page);
- ``{% display_controls round %}``: the organiser's clock buttons and announcements (the organiser's round page);
- ``{% announcement_controls competition %}``: the announcements alone (the organiser's competition page).

The work is ``tournaments.display``'s; these only place it.
"""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.display import selectors, services
from tournaments.display.forms import AnnouncementForm
from tournaments.models import Competition, Round

register = template.Library()

ENTRY_POLL_SECONDS = 5
MINUTES_PER_DEAL = 5  # a default round length: 16 deals, 80 minutes; 24 deals, 2 hours
OPEN_ENDED_MINUTES = 90


@register.inclusion_tag("display/_round_clock.html")
def round_clock(round_: Round) -> dict[str, Any]:
    return {"round": round_, "clock": selectors.round_clock(round_), "poll_seconds": ENTRY_POLL_SECONDS}


def default_minutes(competition: Competition) -> int:
    deals = competition.deals_per_session
    return deals * MINUTES_PER_DEAL if deals else OPEN_ENDED_MINUTES


def _announcements(context: template.Context, competition: Competition) -> dict[str, Any]:
    request = context.get("request")
    return {
        "competition": competition,
        "announcements": list(selectors.active_announcements(competition)),
        "announcement_form": AnnouncementForm(),
        "announcements_full": selectors.active_announcements(competition).count() >= services.ACTIVE_ANNOUNCEMENTS_MAX,
        "next": request.get_full_path() if request is not None else "",
        "csrf_token": context.get("csrf_token"),
        "request": request,
    }


@register.inclusion_tag("display/_controls.html", takes_context=True)
def display_controls(context: template.Context, round_: Round) -> dict[str, Any]:
    competition = round_.competition
    return {
        **_announcements(context, competition),
        "round": round_,
        "clock": selectors.round_clock(round_),
        "clocked": round_.status in services.CLOCKED and competition.closed_at is None,
        "default_minutes": default_minutes(competition),
        "minutes_max": services.MINUTES_MAX,
        "poll_seconds": ENTRY_POLL_SECONDS,
    }


@register.inclusion_tag("display/_announcements_manage.html", takes_context=True)
def announcement_controls(context: template.Context, competition: Competition) -> dict[str, Any]:
    return _announcements(context, competition)
