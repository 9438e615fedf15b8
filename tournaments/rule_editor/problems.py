"""The engine's complaints about a rule set, beside the editor's fields they are about, in the reader's language.

The engine (``games.rulesets``) lists every problem at once, each as ``where: what`` (``tariffs.vraag.over_until:
14 tricks is not between …``). ``place`` finds the field ``where`` names and words what the engine found; a
problem it does not know is shown above the form, in the engine's words, rather than lost.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from django.utils.translation import gettext as _

SPLIT = ("declarer_made", "others_made", "declarer_failed", "others_failed")


def split_problems(message: str) -> list[str]:
    """The single problems of a ``RuleSetError`` message (``rule set 'x' is invalid: a; b``)."""
    for opening in (" is invalid: ", "invalid rule set overrides: "):
        if opening in message:
            message = message.split(opening, 1)[1]
            break
    return [p.strip() for p in message.split("; ") if p.strip()]


Worded = tuple[list[str], str]  # the fields a problem goes beside (none: above the form), and its sentence
_RULES: list[tuple[re.Pattern[str], Callable[[re.Match[str]], Worded]]] = []


def _rule(pattern: str) -> Callable[[Callable[[re.Match[str]], Worded]], Callable[[re.Match[str]], Worded]]:
    def register(fn: Callable[[re.Match[str]], Worded]) -> Callable[[re.Match[str]], Worded]:
        _RULES.append((re.compile(pattern), fn))
        return fn

    return register


@_rule(r"^tariffs\.(\w+)\.over_until: (\d+) tricks is not between the contract's (\d+) and (\d+)$")
def _over_until(m: re.Match[str]) -> Worded:
    return [f"{m[1]}-over_until"], _("Count tricks more up to a number between %(low)s and %(high)s.") % {
        "low": m[3],
        "high": m[4],
    }


@_rule(r"^tariffs\.(\w+)\.over_until: \w+ has no overtricks$")
def _no_overtricks(m: re.Match[str]) -> Worded:
    return [f"{m[1]}-over_until"], _("This contract has no tricks more to count.")


@_rule(r"^tariffs\.(\w+): give all four of .*, or none$")
def _split_all_or_none(m: re.Match[str]) -> Worded:
    return [f"{m[1]}-{key}" for key in SPLIT], _("Give all four amounts seat by seat, or none of them.")


@_rule(r"^tariffs\.(\w+): amounts set seat by seat replace levels and all-tricks amounts$")
def _split_alone(m: re.Match[str]) -> Worded:
    return [f"{m[1]}-declarer_made"], _(
        "Amounts seat by seat replace the amounts per bid and for all tricks: leave those empty and all tricks "
        "not doubled, or leave these empty."
    )


@_rule(r"^tariffs\.(\w+)\.all_tricks: a fixed amount or all_tricks_double, not both$")
def _all_tricks_twice(m: re.Match[str]) -> Worded:
    return [f"{m[1]}-all_tricks"], _("A fixed amount for all tricks, or all tricks counts double: not both.")


@_rule(r"^tariffs\.(\w+): needs an amount per level \(levels\)$")
def _levels_needed(m: re.Match[str]) -> Worded:
    return [f"{m[1]}-on"], _("Give an amount for each bid of this contract.")


@_rule(r"^ladder: a rule set needs at least one contract$")
def _no_contract(m: re.Match[str]) -> Worded:
    return [], _("Play at least one contract.")


@_rule(r"^zwicken: (\d+) hands of (\d+) and a trump card need more than (\d+) cards$")
def _deck_too_small(m: re.Match[str]) -> Worded:
    return ["zw-deck", "zw-max_players"], _(
        "%(players)s hands of %(hand)s cards and a trump card need more than %(deck)s cards."
    ) % {"players": m[1], "hand": m[2], "deck": m[3]}


@_rule(r"^zwicken\.deck: 32 or 36 cards")
def _deck(m: re.Match[str]) -> Worded:
    return ["zw-deck"], _("Zwicken is played with 32 or 36 cards.")


@_rule(r"^zwicken\.hand: 3 or 4 cards")
def _hand(m: re.Match[str]) -> Worded:
    return ["zw-hand"], _("A hand has 3 or 4 cards.")


@_rule(r"^zwicken: players \d+\.\.\d+ must lie within 2\.\.5$")
def _players(m: re.Match[str]) -> Worded:
    return ["zw-min_players", "zw-max_players"], _("From 2 to 5 players, the fewest not more than the most.")


@_rule(r"^zwicken\.exchange: at most the (\d+) cards of a hand")
def _exchange(m: re.Match[str]) -> Worded:
    return ["zw-exchange"], _("At most the %(n)s cards of a hand.") % {"n": m[1]}


@_rule(r"^zwicken\.sechser_belli: needs the 36-card deck$")
def _sechser(m: re.Match[str]) -> Worded:
    return ["zw-sechser_belli"], _("The 6♦ as a trump needs the deck of 36 cards.")


def place(message: str) -> Iterator[Worded]:
    """Each problem of the engine's ``message``: the fields it goes beside and its sentence."""
    for problem in split_problems(message):
        for pattern, word in _RULES:
            found = pattern.search(problem)
            if found:
                yield word(found)
                break
        else:
            yield [], _("The rules engine refuses this rule set: %(problem)s") % {"problem": problem}
