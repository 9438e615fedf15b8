"""A seating's problems as an organiser reads them: in their language, players by name, tables by number.

``tournaments.seating`` is pure Python and says its problems in plain English with player ids
(``seating.Problem``); this module words them for the pages and the services' refusals.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.explanations import listed
from tournaments.models import Competition, Player
from tournaments.services.privacy import full_name, public_name

PLAYER = ("player", "first", "second")  # the params that name one player; "players" names several


def names_of(player_ids: Iterable[int]) -> dict[int, str]:
    """The registered names of these players, for those who run the competition."""
    return {player.pk: full_name(player) for player in Player.objects.filter(pk__in=set(player_ids))}


def _players(ids: Iterable[int], names: Mapping[int, str]) -> list[str]:
    return [names.get(pk) or _("player %(id)s") % {"id": pk} for pk in ids]


def named(player_ids: Sequence[int], competition: Competition) -> list[str]:
    """These players' names in this order, for a refusal to those who run ``competition``: its players by their
    registered names, anyone else by the name public pages show (an organiser typing ids does not learn a
    stranger's full name); an id no player has is said "player 12"."""
    entered = set(competition.registrations.filter(player_id__in=player_ids).values_list("player_id", flat=True))
    players = Player.objects.filter(pk__in=set(player_ids))
    names = {p.pk: full_name(p) if p.pk in entered else public_name(p) for p in players}
    return _players(player_ids, names)


def _count(problem: Any) -> int:
    return len(problem.params.get("players", ())) or 1


WORDS: dict[str, Callable[[Any], str]] = {
    "too_few": lambda p: _("At least 4 players are needed; there are %(count)s."),
    "listed_twice": lambda p: ngettext("%(players)s is listed twice.", "%(players)s are listed twice.", _count(p)),
    "group_too_large": lambda p: _("%(players)s should sit together, but no table seats %(count)s players."),
    "apart_from_self": lambda p: _("%(player)s cannot be kept apart from themselves."),
    "together_and_apart": lambda p: _(
        "%(first)s and %(second)s are asked both to sit together and to be kept apart: keep one of the two wishes."
    ),
    "apart_together": lambda p: _("%(first)s and %(second)s should be kept apart, but both sit at table %(table)s."),
    "together_apart": lambda p: _(
        "%(first)s and %(second)s should sit together, but are at tables %(table)s and %(other_table)s."
    ),
    "table_size": lambda p: _("Table %(table)s seats %(count)s players; a table seats 4 or 5."),
    "seated_twice": lambda p: _("%(player)s is seated twice."),
    "not_present": lambda p: _("%(player)s, at table %(table)s, is not among the players present."),
    "no_table": lambda p: ngettext("%(players)s has no table.", "%(players)s have no table.", _count(p)),
    "manual_without_tables": lambda p: _("A seating by hand needs your tables: give them, one table a line."),
    "manual_generated": lambda p: _("A seating by hand is yours to make: it cannot be drawn."),
}


def problem_words(problem: str, names: Mapping[int, str]) -> str:
    """One problem in the reader's language; a problem without a kind is already in words."""
    words = WORDS.get(getattr(problem, "code", ""))
    if words is None:
        return str(problem)
    params: dict[str, Any] = dict(problem.params)  # type: ignore[attr-defined]
    for key in PLAYER:
        if key in params:
            params[key] = _players([params[key]], names)[0]
    if "players" in params:
        params["players"] = listed(_players(params["players"], names))
    return words(problem) % params


def problems_words(problems: Sequence[str]) -> list[str]:
    """Each problem in words, with the names of every player they name."""
    ids = {
        pk
        for problem in problems
        for key, value in getattr(problem, "params", {}).items()
        for pk in (value if key == "players" else [value] if key in PLAYER else [])
    }
    names = names_of(ids)
    return [problem_words(problem, names) for problem in problems]


def refusal(problems: Sequence[str]) -> str:
    """A seating refused, in one message."""
    return " ".join(problems_words(problems))
