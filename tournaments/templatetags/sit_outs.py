"""``{% load sit_outs %}{% sit_outs round %}``: who sits out how many deals at the round's tables of five."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.models import Round
from tournaments.services.seating import round_sit_outs

register = template.Library()


@register.inclusion_tag("organiser/_sit_outs.html")
def sit_outs(round_: Round) -> dict[str, Any]:
    return {"round": round_, "rows": round_sit_outs(round_)}
