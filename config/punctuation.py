"""A colon or semicolon as the reader's language writes it after a word: French sets it off with a no-break space
("Donneur\u00a0: Nord", so the mark never starts a line); Dutch and English write "Deler: Noord".

The templates' ``{% colon %}`` and ``{% semicolon %}`` and the messages built in Python (the services' refusals, the
standings' tie notes) all punctuate through ``spaced``.
"""

from __future__ import annotations

from django.utils.translation import get_language

SPACED = {"fr"}


def spaced(mark: str) -> str:
    """``mark`` (":" or ";") as the reader's language sets it after a word."""
    language = (get_language() or "").split("-")[0]
    return f"\u00a0{mark}" if language in SPACED else mark


def colon() -> str:
    return spaced(":")


def semicolon() -> str:
    """Between the parts of a list: "place 1 : 4 donnes ; place 2 : …" in French, "seat 1: 4 deals; seat 2" else."""
    return spaced(";")
