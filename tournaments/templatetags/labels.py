"""``{% translate "Dealer" %}{% colon %}``: a label's colon (and a list's semicolon) as the reader's language
writes it (``config.punctuation``)."""

from __future__ import annotations

from django import template

from config import punctuation

register = template.Library()

register.simple_tag(punctuation.colon, name="colon")
register.simple_tag(punctuation.semicolon, name="semicolon")
