"""``{% translate "Dealer" %}{% colon %}``: a label's colon as the reader's language writes it."""

from __future__ import annotations

from django import template
from django.utils.translation import get_language

register = template.Library()

SPACED = {"fr"}
"""Languages that set a colon off from its label with a space: "Donneur : Nord" (a no-break space, so the colon
never starts a line); Dutch and English write "Deler: Noord"."""


@register.simple_tag
def colon() -> str:
    language = (get_language() or "").split("-")[0]
    return "\u00a0:" if language in SPACED else ":"
