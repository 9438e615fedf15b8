"""What the editor shows beside the form: the tariff card and the worked examples, both settled by the engine.

The examples are ``games.examples.worked_examples``, the same function ``python -m games examples`` prints, put in
words with the sheet's own sentences (``tournaments.line_text``); their figures are carried in ``data-`` attributes
too, so a test compares the page with the engine's command line.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.examples import worked_examples
from games.rulesets import Game, RuleSet
from tournaments.line_text import describe_line
from tournaments.tariff.views import card_context, signed

SEATS = ("", "", "", "")  # the examples have no players: seats are named by number

TITLES: dict[str, Promise] = {
    "vraag_two_overtricks": _("A vraag made with two tricks more"),
    "alleen_one_down": _("An alleen failed by one trick"),
    "two_miseries_one_fails": _("Two miserie players, one of whom fails"),
    "miserie_fails": _("A miserie that fails"),
    "pass_then_troel": _("An all-pass round, then the next deal"),
}


def examples_context(rules: RuleSet) -> list[dict[str, Any]]:
    """Each worked example: its title, its lines in words, and the points of the last line per seat."""
    if rules.game is Game.ZWICKEN:
        return []
    shown = []
    for example in worked_examples(rules):
        shown.append(
            {
                "key": example.key,
                "title": TITLES.get(example.key, example.key),
                "lines": [describe_line(line, SEATS, rules.game.value, rules) for line in example.lines],
                "points": [signed(p) for p in example.points],
                "raw_points": ",".join(str(p) for p in example.points),
                "multiplier": example.multiplier,
            }
        )
    return shown


def preview_context(rules: RuleSet) -> dict[str, Any]:
    return {**card_context(rules), "examples": examples_context(rules)}
