"""The standings table as HTML: built in Python, once per standings version, language and naming, for everyone.

Through the template engine a 400-player table took about 70 ms of CPU (each of its 2,400 cells a node, a lookup
and a localisation), and an evening makes a new version every second or two in three languages, while the rest of
the fragment (its age, the rounds' progress, the statistics) changes more often still. Built here it takes about
15 ms, by the standings job right after it stores a version (``prepare``), in every language, and is kept in the
shared cache in pieces: which rows are provisional changes with each sheet's first line, so the marks are put in
when the pieces are joined, and a first line does not build the table again. The page's other parts stay
templates (``templates/public/_standings.html``).
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from scoring.explanations import for_people, method_name
from scoring.models import Standing, StandingsState
from tournaments.conditional import names_version_for
from tournaments.models import Competition
from tournaments.selectors.public import standing_rows
from tournaments.services.privacy import shown_name

logger = logging.getLogger(__name__)
KEPT_SECONDS = 600  # a version is replaced within seconds on an evening; an idle season's table stays ten minutes
_ANY_ID = 987654321  # reversed once per table: a player's address is this with their id in its place


@dataclass(frozen=True, slots=True)
class Built:
    """A table in pieces: which rows are provisional changes with every sheet's first line, more often than the
    standings, so it is marked when the pieces are put together (``assemble``), not built in."""

    head: str
    rows: tuple[tuple[int, str, str], ...]  # player id; the row up to the name's end; the rest of the row
    tail: str
    mark: str  # after a provisional player's name


def standings_table(
    competition: Competition,
    state: StandingsState | None,
    provisional: frozenset[int],
    *,
    full_names: bool,
    fresh: bool = False,
) -> SafeString:
    """The table of ``competition``'s stored standings, from the shared cache when another reader had it built;
    ``fresh``: built from the database whatever is kept (a page opened once, not polled: it shows a name changed
    by a bare SQL update, which moves no names counter, at once)."""
    if fresh:
        return build(standing_rows(competition), competition.standings_method, provisional, full_names=full_names)
    key = _key(competition, state, full_names)
    try:
        kept = cache.get(key)
    except Exception:  # a cache outage costs speed, not the page
        logger.warning("cache unavailable for %s", key, exc_info=True)
        kept = None
    if not isinstance(kept, Built):
        kept = build_pieces(standing_rows(competition), competition.standings_method, full_names=full_names)
        try:
            cache.set(key, kept, KEPT_SECONDS)
        except Exception:
            logger.warning("cache unavailable for %s", key, exc_info=True)
    return assemble(kept, provisional)


def prepare(competition_id: int) -> None:
    """Build the public table in every language as soon as the standings job has stored a version, so the web
    servers find it built: without this, each of them built it for the first poll of each language at once (an
    evening's version a second, in three languages, on every server). Full names are built when first asked for."""
    competition = Competition.objects.select_related("standings_state").filter(pk=competition_id).first()
    if competition is None:
        return
    state = getattr(competition, "standings_state", None)
    rows = standing_rows(competition)
    kept: dict[str, Built] = {}
    for language, _ in settings.LANGUAGES:
        with translation.override(language):
            kept[_key(competition, state, False)] = build_pieces(rows, competition.standings_method, full_names=False)
    try:
        cache.set_many(kept, KEPT_SECONDS)
    except Exception:  # the pages build it themselves
        logger.warning("cache unavailable for the standings tables of %s", competition_id, exc_info=True)


def _key(competition: Competition, state: StandingsState | None, full_names: bool) -> str:
    """Everything the table shows but its provisional marks: the stored version (and when it was stored, as a
    reopened season can store the same version number again), the method, the names and the reader's language."""
    shown = (
        competition.pk,
        competition.standings_method,
        state.computed_version if state else None,
        state.computed_at.isoformat() if state and state.computed_at else None,
        names_version_for(competition),
        get_language(),
        full_names,
    )
    return "wiezen:standings-table:" + hashlib.sha256(repr(shown).encode()).hexdigest()[:32]


def build(rows: list[Standing], method: str, provisional: frozenset[int], *, full_names: bool) -> SafeString:
    """The ``<table id="standings">`` of ``rows``, in the active language; every value escaped."""
    return assemble(build_pieces(rows, method, full_names=full_names), provisional)


def assemble(built: Built, provisional: frozenset[int]) -> SafeString:
    """The table with the rows of ``provisional`` players marked: a join, well under a millisecond for 400 rows."""
    out = [built.head]
    for player_id, up_to_name, rest in built.rows:
        if player_id in provisional:
            out += ('    <tr class="provisional">\n', up_to_name, built.mark, rest)
        else:
            out += ("    <tr>\n", up_to_name, rest)
    out.append(built.tail)
    return mark_safe("".join(out))


def build_pieces(rows: list[Standing], method: str, *, full_names: bool) -> Built:
    """The table's pieces in the active language; every value escaped."""
    with_value = method != "total_points"
    names = {row.player_id: shown_name(row.player, full_names) for row in rows}
    before, after = (escape(part) for part in reverse("player", args=[_ANY_ID]).split(str(_ANY_ID)))
    # the words are read before the f-strings: xgettext (makemessages) does not look inside an f-string
    words = {
        "shared": escape(gettext("shared rank")),
        "unranked": escape(gettext("not ranked")),
        "penalty": escape(gettext("penalty points deducted")),
        "player": escape(gettext("Player")),
        "value": escape(method_name(method)),
        "points": escape(gettext("Points")),
        "deals": escape(gettext("Deals")),
        "sessions": escape(gettext("Sessions")),
        "empty": escape(gettext("No standings yet.")),
        "provisional": escape(gettext("provisional")),
    }
    shared = f'<abbr title="{words["shared"]}">=</abbr>'
    unranked = f'<abbr title="{words["unranked"]}">–</abbr>'
    penalty_title = f'title="{words["penalty"]}"'
    head = "".join(
        (
            '<div class="scroll">\n<table id="standings">\n  <thead><tr>\n',
            f'    <th scope="col" class="num">#</th><th scope="col">{words["player"]}</th>\n    ',
            f'<th scope="col" class="num">{words["value"]}</th>' if with_value else "",
            f'\n    <th scope="col" class="num">{words["points"]}</th>',
            f'<th scope="col" class="num">{words["deals"]}</th>',
            f'<th scope="col" class="num wide">{words["sessions"]}</th>\n  </tr></thead>\n  <tbody>\n',
        )
    )
    built = []
    for row in rows:
        rank = f"{row.rank}{shared if row.shared else ''}" if row.rank else unranked
        value = f'<td class="num">{escape(for_people(row.value, names))}</td>' if with_value else ""
        penalty = f' <small class="muted" {penalty_title}>(−{row.penalty_points})</small>' if row.penalty_points else ""
        up_to_name = (
            f'      <td class="num">{rank}</td>\n'
            f'      <td title="{escape(for_people(row.explanation, names))}">'
            f'<a href="{before}{row.player_id}{after}">{escape(names[row.player_id])}</a>'
        )
        rest = (
            f"</td>\n      {value}\n"
            f'      <td class="num">{row.points}{penalty}</td>\n'
            f'      <td class="num">{row.deals_played}</td><td class="num wide">{row.sessions_played}</td>\n'
            "    </tr>\n"
        )
        built.append((row.player_id, up_to_name, rest))
    tail = "  </tbody>\n</table>\n</div>"
    if not rows:
        tail = f'  <tr><td colspan="6">{words["empty"]}</td></tr>\n' + tail
    return Built(head, tuple(built), tail, f' <small class="muted">{words["provisional"]}</small>')
