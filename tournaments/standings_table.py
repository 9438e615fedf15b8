"""The standings table as HTML: built in Python, once per standings version, language and naming, for everyone.

Through the template engine a 400-player table took about 70 ms of CPU (each of its 2,400 cells a node, a lookup
and a localisation), and an evening makes a new version every second or two in three languages, while the rest of
the fragment (its age, the rounds' progress, the statistics) changes more often still. Built here it takes a few
milliseconds, and it is kept in the shared cache under what it shows, so a new round progress or a new age does
not build it again. The page's other parts stay templates (``templates/public/_standings.html``).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable

from django.core.cache import cache
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from scoring.explanations import for_people
from scoring.models import Standing, StandingsState
from tournaments.conditional import names_version
from tournaments.models import Competition
from tournaments.services.privacy import shown_name

logger = logging.getLogger(__name__)
KEPT_SECONDS = 600  # a version is replaced within seconds on an evening; an idle season's table stays ten minutes
_ANY_ID = 987654321  # reversed once per table: a player's address is this with their id in its place


def standings_table(
    competition: Competition, state: StandingsState | None, provisional: frozenset[int], *, full_names: bool
) -> SafeString:
    """The table of ``competition``'s stored standings, from the shared cache when another reader had it built."""
    key = _key(competition, state, provisional, full_names)
    try:
        kept = cache.get(key)
    except Exception:  # a cache outage costs speed, not the page
        logger.warning("cache unavailable for %s", key, exc_info=True)
        kept = None
    if isinstance(kept, str):
        return mark_safe(kept)
    html = build(_rows(competition), competition.standings_method, provisional, full_names=full_names)
    try:
        cache.set(key, str(html), KEPT_SECONDS)
    except Exception:
        logger.warning("cache unavailable for %s", key, exc_info=True)
    return html


def _key(competition: Competition, state: StandingsState | None, provisional: Iterable[int], full_names: bool) -> str:
    """Everything the table shows: the stored version (and when it was stored, as a reopened season can store the
    same version number again), the method, which rows are provisional, the names and the reader's language."""
    shown = (
        competition.pk,
        competition.standings_method,
        state.computed_version if state else None,
        state.computed_at.isoformat() if state and state.computed_at else None,
        ",".join(str(pk) for pk in sorted(provisional)),
        names_version(),
        get_language(),
        full_names,
    )
    return "wiezen:standings-table:" + hashlib.sha256(repr(shown).encode()).hexdigest()[:32]


def _rows(competition: Competition) -> list[Standing]:
    return list(Standing.objects.filter(competition=competition).select_related("player").order_by("rank", "player_id"))


def build(rows: list[Standing], method: str, provisional: frozenset[int], *, full_names: bool) -> SafeString:
    """The ``<table id="standings">`` of ``rows``, in the active language; every value escaped."""
    with_value = method != "total_points"
    names = {row.player_id: shown_name(row.player, full_names) for row in rows}
    before, after = (escape(part) for part in reverse("player", args=[_ANY_ID]).split(str(_ANY_ID)))
    shared = f'<abbr title="{escape(gettext("shared rank"))}">=</abbr>'
    unranked = f'<abbr title="{escape(gettext("not ranked"))}">–</abbr>'
    marked = f' <small class="muted">{escape(gettext("provisional"))}</small>'
    penalty_title = f'title="{escape(gettext("penalty points deducted"))}"'
    out = [
        '<div class="scroll">\n<table id="standings">\n  <thead><tr>\n',
        f'    <th scope="col" class="num">#</th><th scope="col">{escape(gettext("Player"))}</th>\n    ',
        f'<th scope="col" class="num">{escape(gettext("Ranking value"))}</th>' if with_value else "",
        f'\n    <th scope="col" class="num">{escape(gettext("Points"))}</th>',
        f'<th scope="col" class="num">{escape(gettext("Deals"))}</th>',
        f'<th scope="col" class="num wide">{escape(gettext("Sessions"))}</th>\n  </tr></thead>\n  <tbody>\n',
    ]
    for row in rows:
        is_provisional = row.player_id in provisional
        opening = '<tr class="provisional">' if is_provisional else "<tr>"
        rank = f"{row.rank}{shared if row.shared else ''}" if row.rank else unranked
        value = f'<td class="num">{escape(for_people(row.value, names))}</td>' if with_value else ""
        penalty = f' <small class="muted" {penalty_title}>(−{row.penalty_points})</small>' if row.penalty_points else ""
        out.append(
            f"    {opening}\n"
            f'      <td class="num">{rank}</td>\n'
            f'      <td title="{escape(for_people(row.explanation, names))}">'
            f'<a href="{before}{row.player_id}{after}">{escape(names[row.player_id])}</a>'
            f"{marked if is_provisional else ''}</td>\n"
            f"      {value}\n"
            f'      <td class="num">{row.points}{penalty}</td>\n'
            f'      <td class="num">{row.deals_played}</td><td class="num wide">{row.sessions_played}</td>\n'
            "    </tr>\n"
        )
    if not rows:
        out.append(f'  <tr><td colspan="6">{escape(gettext("No standings yet."))}</td></tr>\n')
    out.append("  </tbody>\n</table>\n</div>")
    return mark_safe("".join(out))
