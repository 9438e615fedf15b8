"""``{% translate "Dealer" %}{% colon %}``: a label's colon (and a list's semicolon) as the reader's language
writes it."""

from __future__ import annotations

from django import template
from django.utils.translation import get_language

register = template.Library()

SPACED = {"fr"}
"""Languages that set a colon off from its label with a space: "Donneur : Nord" (a no-break space, so the colon
never starts a line); Dutch and English write "Deler: Noord"."""


def spaced(mark: str) -> str:
    """``mark`` (":" or ";") as the reader's language sets it after a word."""
    language = (get_language() or "").split("-")[0]
    return f"\u00a0{mark}" if language in SPACED else mark


@register.simple_tag
def colon() -> str:
    return spaced(":")


@register.simple_tag
def semicolon() -> str:
    """Between the parts of a list: "place 1 : 4 donnes ; place 2 : …" in French, "seat 1: 4 deals; seat 2" else."""
    return spaced(";")
