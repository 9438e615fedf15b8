"""What the progression reads, and the computed progression kept in the shared cache per standings version.

The ranks after every round cost one standings computation per round, so they are computed once per version of
the stored standings (``StandingsState.computed_version``, which every entry and penalty moves on), of the players'
names (``tournaments.conditional.NAMES_VERSION``) and of the competition's ranking settings, per language and per
kind of viewer (full names and draft rounds, or public names). Within it, each round's standings are kept by what
they were computed from (``CachedColumns``), so a new version ranks the current round again, not the whole
season. A cache outage costs speed, not the page.
"""

from __future__ import annotations

import hashlib
import logging

from django.core.cache import cache
from django.utils.translation import get_language

from scoring.models import StandingsState
from scoring.selectors import competition_penalty_records, competition_sessions
from tournaments.conditional import names_version
from tournaments.models import Competition, Player, Round, SeatResult
from tournaments.progression.services import Column, Progression, progression
from tournaments.selectors.public import SETTLED
from tournaments.services.privacy import shown_name

logger = logging.getLogger(__name__)

KEEP_SECONDS = 24 * 3600  # a key names one version: it is never wrong, only forgotten after a day


def hidden_rounds(competition: Competition, *, manages: bool) -> frozenset[int]:
    """The round numbers whose results this viewer may not count: draft seatings, unless they run the competition
    (``tournaments.visibility``: a round's seating stays unseen until it is published; no results are entered in a
    draft, so this only matters for a round taken back to a draft)."""
    if manages:
        return frozenset()
    return frozenset(competition.rounds.filter(status=Round.Status.DRAFT).values_list("number", flat=True))


def ranking_settings(competition: Competition) -> str:
    """A digest of how the competition ranks: a change makes every kept column and progression another key."""
    return hashlib.sha256(repr(competition.ranking()).encode()).hexdigest()[:16]


class CachedColumns:
    """The standings after one round (``services.Column``), kept in the shared cache by the digest of what they
    were computed from, so the rounds before the current one are not ranked again after each new line."""

    def __init__(self, competition: Competition) -> None:
        self.prefix = f"wiezen:progression-round:{competition.pk}:{ranking_settings(competition)}:"

    def get_many(self, keys: list[str]) -> dict[str, Column]:
        try:
            found = cache.get_many([self.prefix + key for key in keys])
        except Exception:
            logger.warning("cache unavailable for %s", self.prefix, exc_info=True)
            return {}
        return {key[len(self.prefix) :]: value for key, value in found.items()}

    def set_many(self, columns: dict[str, Column]) -> None:
        try:
            cache.set_many({self.prefix + key: value for key, value in columns.items()}, KEEP_SECONDS)
        except Exception:
            logger.warning("cache unavailable for %s", self.prefix, exc_info=True)


def cache_key(competition: Competition, *, manages: bool) -> str:
    """Everything the progression is computed from besides the results (which the standings version follows): the
    rounds this viewer may not count (a round taken back to a draft) and who is registered (a registration or a
    withdrawal moves no standings version, but adds or removes a line)."""
    version = StandingsState.objects.filter(competition=competition).values_list("computed_version", flat=True)
    registered = Player.objects.filter(competitions=competition).order_by("pk").values_list("pk", flat=True)
    shown = (sorted(hidden_rounds(competition, manages=manages)), list(registered))
    return ":".join(
        (
            "wiezen:progression",
            str(competition.pk),
            str(version.first() or 0),
            ranking_settings(competition),
            names_version(),
            get_language() or "",
            "full" if manages else "public",
            hashlib.sha256(repr(shown).encode()).hexdigest()[:16],
        )
    )


def computed(competition: Competition, *, manages: bool) -> Progression:
    """The progression from the stored sessions and penalties of the rounds this viewer may count."""
    hidden = hidden_rounds(competition, manages=manages)
    counted = {"settled_only": not manages}  # a duplicate round in play counts for those who run it only
    sessions = [s for s in competition_sessions(competition.pk, **counted) if s.evening not in hidden]
    penalties = [p for p in competition_penalty_records(competition.pk, **counted) if p.evening not in hidden]
    players = {player.pk: player for player in Player.objects.filter(competitions=competition)}
    registered = list(players)
    others = {s.player_id for s in sessions} | {p.player_id for p in penalties}
    if missing := others - players.keys():  # results of a player no longer registered
        players |= Player.objects.in_bulk(list(missing))
    names = {pk: shown_name(player, manages) for pk, player in players.items()}
    return progression(competition, sessions, penalties, registered, names, CachedColumns(competition))


def competition_progression(competition: Competition, *, manages: bool) -> Progression:
    """The progression as this viewer may see it, from the shared cache when this version was computed before."""
    key = cache_key(competition, manages=manages)
    try:
        kept = cache.get(key)
    except Exception:  # a cache outage costs speed, not the page
        logger.warning("cache unavailable for %s", key, exc_info=True)
        return computed(competition, manages=manages)
    if isinstance(kept, Progression):
        return kept
    result = computed(competition, manages=manages)
    try:
        cache.set(key, result, KEEP_SECONDS)
    except Exception:
        logger.warning("cache unavailable for %s", key, exc_info=True)
    return result


def provisional_cells(competition: Competition) -> frozenset[tuple[int, int]]:
    """(round number, player id) of results on a sheet nobody has confirmed yet: provisional, as the standings say."""
    rows = (
        SeatResult.objects.filter(sheet__table__round__competition=competition, deals__gt=0)
        .exclude(sheet__state__in=SETTLED)
        .values_list("sheet__table__round__number", "player_id")
        .distinct()
    )
    return frozenset(rows)
