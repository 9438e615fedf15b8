"""``{% load progression %}{% player_progressions page %}``: the player page's rank lines, one per competition the
player played, each loaded by htmx from ``progression-player`` once the page is shown (its computation would
otherwise weigh on every player page: tests/tournaments/test_public_pages.py counts its queries), a link to the
progression page without script."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.progression.player import played_competitions
from tournaments.selectors.public import PlayerPage

register = template.Library()


@register.inclusion_tag("progression/_player.html")
def player_progressions(page: PlayerPage) -> dict[str, Any]:
    return {
        "competitions": played_competitions(session.competition for session in page.sessions),
        "player": page.player,
    }
