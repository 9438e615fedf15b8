"""A standings row's explanation in the reader's language, with players named instead of numbered.

``scoring.ranking`` says how each row was reached in one fixed English form (it is stored with the row, computed
by a worker that has no reader): "12 points; tied on total points with #7; separated by sessions won (3 vs 2)".
The pages show it as a tooltip: ``for_people`` reads that form back, phrase by phrase, and says it again in the
active language, naming each ``#id`` as the page names that player. A phrase it does not know is shown as stored.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from django.utils import formats
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy, ngettext

from config.punctuation import spaced
from scoring.methods import Percentage, UnknownMethod, find_method, format_number, one_decimal
from scoring.tiebreaks import find_tiebreak

# The names ``scoring.methods`` and ``scoring.tiebreaks`` give, lowercased as the explanation uses them.
NAMES = {
    "total points": gettext_lazy("Total points"),
    "points per deal": gettext_lazy("Points per deal"),
    "placement points": gettext_lazy("Placement points"),
    "placement points, then total points": gettext_lazy("Placement points, then total points"),
    "matchpoints (%)": gettext_lazy("Matchpoints (%)"),
    "cross-imps": gettext_lazy("Cross-IMPs"),
    "points": gettext_lazy("Points"),
    "sessions won": gettext_lazy("Sessions won"),
    "best session": gettext_lazy("Best session"),
    "head-to-head": gettext_lazy("Head-to-head"),
    "contracts made ratio": gettext_lazy("Contracts made ratio"),
    "fewer penalties": gettext_lazy("Fewer penalties"),
}

KEEP_CASE = frozenset({"cross-imps"})  # names with an abbreviation in capitals stay as they are in a sentence
NUMBER = r"-?\d+(?:\.\d+)?"
PLAYERS = r"#\d+(?:(?:, | and )#\d+)*"


def method_name(key: str) -> str:
    """The standings method ``key``'s name in the active language (a standings column's heading, a settings form's
    choice): its registered name where no translation exists, a plain "Ranking value" for an unknown key."""
    try:
        name = find_method(key).name
    except UnknownMethod:
        return gettext("Ranking value")
    translated = NAMES.get(name.lower())
    return str(translated) if translated is not None else name


# The same name where it is needed before a reader is known: a form's choices, built when the module loads.
lazy_method_name = lazy(method_name, str)


def tiebreak_name(key: str) -> str:
    """The tie-break ``key``'s name in the active language (a settings form's choice), as ``method_name``."""
    name = find_tiebreak(key).name
    translated = NAMES.get(name.lower())
    return str(translated) if translated is not None else name


lazy_tiebreak_name = lazy(tiebreak_name, str)


def for_people(explanation: str, names: Mapping[int, str]) -> str:
    """``explanation`` (``scoring.ranking``'s English form) in the active language; ``names``: player id to name."""
    if not explanation:
        return ""
    return f"{spaced(';')} ".join(_phrase(part, names) for part in explanation.split("; "))


def readable_rows(standings: Iterable[Any]) -> dict[int, dict[str, str]]:
    """{player id: their row's ``value`` and ``explanation`` in the active language} for the API: ``standings`` are
    stored rows (``scoring.models.Standing``) read with their players, who are named by their public names."""
    rows = list(standings)
    names = {row.player_id: row.player.public_name for row in rows}
    return {
        row.player_id: {"value": for_people(row.value, names), "explanation": for_people(row.explanation, names)}
        for row in rows
    }


def shown_value(value: object) -> str:
    """A standings method's value (``scoring.methods.MethodValue``) as the reader writes numbers: 18,1 in nl and fr
    for 181/10, never a Python fraction or tuple; placement points, then points, as "4 · 12"; a percentage with one
    decimal and its sign, as the standings show it ("55,3%")."""
    if isinstance(value, tuple):
        return " · ".join(shown_value(part) for part in value)
    if isinstance(value, Percentage):
        return gettext("%(n)s%%") % {"n": _number(one_decimal(value))}
    if isinstance(value, int | float | Fraction):
        return _number(format_number(value))
    return str(value)


def _phrase(part: str, names: Mapping[int, str]) -> str:
    for pattern, say in _PHRASES:
        match = pattern.fullmatch(part)
        if match:
            return say(match, names)
    return part


def _number(text: str) -> str:
    """A value as the reader writes numbers (0,667 in nl and fr); "none" in words."""
    if text == "none":
        return gettext("none")
    return text.replace(".", formats.get_format("DECIMAL_SEPARATOR"))


def _count(text: str) -> int:
    """The count a plural form is chosen by: the number itself when whole, else "many" (1.5 points)."""
    value = float(text)
    return abs(int(value)) if value.is_integer() else 2


def _points(text: str) -> str:
    return ngettext("%(n)s point", "%(n)s points", _count(text)) % {"n": _number(text)}


def _value(text: str) -> str:
    """A method's or tie-break's value as ``describe`` gave it: a number, or a number and its unit."""
    for pattern, say in _VALUES:
        match = pattern.fullmatch(text)
        if match:
            return say(match.group("n"))
    return text


def _players(text: str, names: Mapping[int, str]) -> str:
    return listed([names.get(int(pid), f"#{pid}") for pid in re.findall(r"#(\d+)", text)])


def listed(names: Sequence[str]) -> str:
    """Names as a sentence lists them: "Anna P., Bert D. and Carl E."."""
    if len(names) < 2:
        return "".join(names)
    return gettext("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def _name(text: str) -> str:
    name = NAMES.get(text)
    if name is None:
        return text
    return str(name) if text in KEEP_CASE else str(name).lower()


def _theirs(text: str, names: Mapping[int, str]) -> str:
    """Their values in "separated from": "5 for #3, 4 for #9"."""
    parts = re.findall(r"(.+?) for (#\d+)(?:, |$)", text)
    if not parts:
        return text
    return ", ".join(
        gettext("%(value)s for %(player)s") % {"value": _value(value), "player": _players(player, names)}
        for value, player in parts
    )


_VALUES: list[tuple[re.Pattern[str], Callable[[str], str]]] = [
    (
        re.compile(rf"(?P<n>{NUMBER}) placement points?"),
        lambda n: ngettext("%(n)s placement point", "%(n)s placement points", _count(n)) % {"n": _number(n)},
    ),
    (
        re.compile(rf"(?P<n>{NUMBER}) points? per deal"),
        lambda n: ngettext("%(n)s point per deal", "%(n)s points per deal", _count(n)) % {"n": _number(n)},
    ),
    (re.compile(rf"(?P<n>{NUMBER})%"), lambda n: gettext("%(n)s%%") % {"n": _number(n)}),
    (
        re.compile(rf"(?P<n>{NUMBER}) IMPs?"),
        lambda n: ngettext("%(n)s IMP", "%(n)s IMPs", _count(n)) % {"n": _number(n)},
    ),
    (
        re.compile(rf"(?P<n>{NUMBER}) penalty points?"),
        lambda n: ngettext("%(n)s penalty point", "%(n)s penalty points", _count(n)) % {"n": _number(n)},
    ),
    (re.compile(rf"(?P<n>{NUMBER}) points?"), _points),
    (re.compile(rf"(?P<n>{NUMBER}|none)"), _number),
]

_PHRASES: list[tuple[re.Pattern[str], Callable[[re.Match[str], Mapping[int, str]], str]]] = [
    (
        re.compile(rf"(?P<p>{NUMBER} placement points?), (?P<t>{NUMBER} points?)"),
        lambda m, names: f"{_value(m['p'])}, {_value(m['t'])}",
    ),
    (
        re.compile(r"not ranked: played (?P<n>\d+) evenings?, (?P<needed>\d+) needed"),
        lambda m, names: (
            ngettext(
                "not ranked: played %(n)s evening, %(needed)s needed",
                "not ranked: played %(n)s evenings, %(needed)s needed",
                int(m["n"]),
            )
            % {"n": m["n"], "needed": m["needed"]}
        ),
    ),
    (
        re.compile(rf"tied on (?P<method>.+) with (?P<players>{PLAYERS})"),
        lambda m, names: (
            gettext("tied on %(method)s with %(players)s")
            % {"method": _name(m["method"]), "players": _players(m["players"], names)}
        ),
    ),
    (
        re.compile(r"level on every tie-break, so the rank is shared with (?P<players>.+)"),
        lambda m, names: (
            gettext("level on every tie-break, so the rank is shared with %(players)s")
            % {"players": _players(m["players"], names)}
        ),
    ),
    (
        re.compile(r"no tie-break set, so the rank is shared with (?P<players>.+)"),
        lambda m, names: (
            gettext("no tie-break set, so the rank is shared with %(players)s")
            % {"players": _players(m["players"], names)}
        ),
    ),
    (
        re.compile(r"level on (?P<tiebreak>.+) \((?P<mine>[^()]+)\)"),
        lambda m, names: (
            gettext("level on %(tiebreak)s (%(mine)s)") % {"tiebreak": _name(m["tiebreak"]), "mine": _value(m["mine"])}
        ),
    ),
    (
        re.compile(rf"separated from (?P<players>{PLAYERS}) by (?P<tiebreak>.+) \((?P<mine>.+?) vs (?P<theirs>.+)\)"),
        lambda m, names: (
            gettext("separated from %(players)s by %(tiebreak)s (%(mine)s vs %(theirs)s)")
            % {
                "players": _players(m["players"], names),
                "tiebreak": _name(m["tiebreak"]),
                "mine": _value(m["mine"]),
                "theirs": _theirs(m["theirs"], names),
            }
        ),
    ),
    (
        re.compile(r"separated by (?P<tiebreak>.+) \((?P<mine>.+?) vs (?P<theirs>.+)\)"),
        lambda m, names: (
            gettext("separated by %(tiebreak)s (%(mine)s vs %(theirs)s)")
            % {"tiebreak": _name(m["tiebreak"]), "mine": _value(m["mine"]), "theirs": _value(m["theirs"])}
        ),
    ),
    (re.compile(rf"{NUMBER}(?:%| .+)?"), lambda m, names: _value(m[0])),
]
