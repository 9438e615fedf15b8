"""The public pages: thin views that read through selectors, each competition as its visibility allows.

What a viewer may read of a competition is ``tournaments.visibility``'s one rule: hidden competitions are a 404
for the public, "standings only" shows the standings and nothing of the rounds, and those who manage a
competition see all of it, with full names.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from scoring.explanations import shown_value
from tournaments import conditional, live
from tournaments.duplicate.movement import board_orders
from tournaments.models import Club, Competition, Player, Round, ScoreSheet
from tournaments.permissions import visible_competitions
from tournaments.selectors import entry as selectors_entry
from tournaments.selectors import public as selectors
from tournaments.services.privacy import sees_full_name
from tournaments.standings_table import standings_table
from tournaments.visibility import Access, access, sheets_visible_to, statistics_visible_to

POLL_SECONDS = 5  # how often the competition and round pages ask for fresh standings and tables
STOP_POLLING = 286  # htmx stops a poll that answers this
NOTHING_NEW = 204  # htmx swaps nothing for this answer


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"clubs": selectors.clubs(), "competitions": selectors.public_competitions()})


def _access(request: HttpRequest, slug: str, *, results: bool = False) -> Access:
    """The competition as this viewer may read it: a 404 when it is hidden, or (``results``) its results are."""
    competition = get_object_or_404(
        live.with_live_columns(Competition.objects.select_related("club", "rule_set")), slug=slug
    )
    return _seen(request, competition, results=results)


def _seen(request: HttpRequest, competition: Competition | None, *, results: bool = False) -> Access:
    if competition is None:
        raise Http404
    seen = access(request.user, competition)
    if not (seen.results if results else seen.standings):
        raise Http404
    return seen


def _round(seen: Access, number: int) -> Round:
    """A round of the competition; a draft seating only for those who run it."""
    round_ = get_object_or_404(Round, competition=seen.competition, number=number)
    if round_.status == Round.Status.DRAFT and not seen.manages:
        raise Http404("this round's seating is not published yet")
    return round_


def _standings_context(
    seen: Access, provisional: frozenset[int] | None = None, *, fresh: bool = False
) -> dict[str, object]:
    """The standings as the page shows them; ``provisional`` when already read (``tournaments.live``); ``fresh``:
    the table read now, not the one kept for the polls (``standings_table``)."""
    competition = seen.competition
    standings = selectors.competition_standings(competition, provisional, with_rows=False)
    state = selectors.standings_state(competition)
    table = standings_table(competition, state, standings.provisional, full_names=seen.manages, fresh=fresh)
    return {
        "competition": competition,
        "standings": standings,
        "standings_table": table,
        "full_names": seen.manages,
        # a closed season changes no more: its page stops asking once the standings have caught up
        "live": competition.closed_at is None or standings.stale or standings.pending,
        "poll_seconds": POLL_SECONDS,
    }


def _rounds_context(request: HttpRequest, seen: Access, parts: live.LiveParts) -> dict[str, object]:
    """The competition's rounds with their status and progress, as HTML, and what a poll has seen of them."""
    rounds = selectors.competition_rounds(seen.competition, drafts=seen.manages)
    html = render_to_string("public/_rounds_list.html", {"competition": seen.competition, "rounds": rounds}, request)
    return {"rounds_html": html, "rounds_fingerprint": parts.rounds_fingerprint(get_language(), drafts=seen.manages)}


def _statistics_context(request: HttpRequest, seen: Access) -> dict[str, object]:
    """The competition's contract statistics as HTML, and what a poll has seen of them."""
    shown = seen.contract_counts()
    statistics = selectors.competition_statistics(seen.competition) if shown else []
    html = render_to_string("public/_statistics_table.html", {"statistics": statistics, "waiting": not shown}, request)
    return {"statistics_html": html, "statistics_fingerprint": _statistics_fingerprint(seen, get_language(), shown)}


def _statistics_fingerprint(seen: Access, language: str, shown: bool) -> str:
    """``live.statistics_fingerprint``; while the counts are held back, one that no entry moves."""
    return live.statistics_fingerprint(seen.competition, language) if shown else f"waiting-{language}"


def _digest(html: str) -> str:
    return hashlib.sha256(html.encode()).hexdigest()[:16]


def competition_detail(request: HttpRequest, slug: str) -> HttpResponse:
    seen = _access(request, slug)
    parts = live.live_parts(seen.competition)
    response = render(
        request,
        "competition.html",
        {
            **_standings_context(seen, parts.provisional, fresh=True),
            **(_rounds_context(request, seen, parts) if seen.results else {}),
            **_statistics_context(request, seen),
            "results": seen.results,
            "manages": seen.manages,
        },
    )
    return conditional.conditional_body(request, response, seen.manages)


@require_GET
def standings_fragment(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings table and its age, alone: what the competition page polls to stay current without reloading.

    A poll (htmx) also reads the rounds' status and progress and the contract statistics (a query each) and, when
    they changed since the poll before (``rounds_seen``, ``statistics_seen``: the digests that one had), swaps them
    in out of band where the page shows them; so nothing on the page that changes with entries waits for a reload,
    and a focused round link stays focused.
    """
    seen = _seen(request, live.polled_competition(slug))
    competition = seen.competition
    state = selectors.standings_state(competition)
    parts = live.live_parts(competition)
    language = get_language()
    # the rounds and statistics go along only to a poll that has not seen them as they are; they are rendered with
    # the rest, once per validator, not for every poll that asks
    rounds = parts.rounds_fingerprint(language, drafts=seen.manages) if request.htmx and seen.results else None
    send_rounds = rounds is not None and request.GET.get("rounds_seen") != rounds
    statistics = _statistics_fingerprint(seen, language, seen.contract_counts()) if request.htmx else None
    send_statistics = statistics is not None and request.GET.get("statistics_seen") != statistics
    stale = (state.computed_version if state else 0) < competition.entries_version
    live_page = competition.closed_at is None or stale or bool(state and state.queued)
    tag = None
    if live_page or not request.htmx:  # a stop (286) is answered in full: the poll must see it
        tag = conditional.etag(
            request,
            *conditional.standings_key(competition, state, parts.provisional),
            seen.manages,
            seen.results,
            rounds if send_rounds else None,
            statistics if send_statistics else None,
        )
        if unchanged := conditional.not_modified(request, tag):
            return unchanged

    def rendering() -> HttpResponse:
        full = _standings_context(seen, parts.provisional)
        if send_rounds:
            full |= {**_rounds_context(request, seen, parts), "rounds_out_of_band": True}
        if send_statistics:
            full |= {**_statistics_context(request, seen), "statistics_out_of_band": True}
        status = STOP_POLLING if request.htmx and not full["live"] else 200
        return render(request, "public/_standings.html", full, status=status)

    response = conditional.rendered(request, tag, rendering)  # rendered once for everyone who would see the same
    patch_vary_headers(response, ["HX-Request"])  # a poll gets more than a plain visit: caches must tell them apart
    return conditional.labelled(request, response, tag)


def round_detail(request: HttpRequest, slug: str, round_number: int) -> HttpResponse:
    """A round's tables: each sheet's state, deals entered and points. While the round is played the page polls
    itself; a poll (htmx) gets only the live part (the same queries), nothing (204) when it has not changed since
    the poll before (``seen``: a digest of what that one showed), and a stop (286) when the round is finalised."""
    seen = _access(request, slug, results=True)
    round_ = _round(seen, round_number)
    in_play = seen.competition.closed_at is None and round_.status != Round.Status.FINALISED
    scores = seen.scores(round_)  # a duplicate round's: once it is finalised
    context = {
        "competition": seen.competition,
        "round": round_,
        "tables": selectors.round_results(round_, full_names=seen.manages, scores=scores),
        "scores_wait": not scores,
        "manages": seen.manages,
        "live": in_play,
        "poll_seconds": POLL_SECONDS,
    }
    tables_html = render_to_string("public/_round_tables.html", context, request)
    fingerprint = _digest(tables_html)
    context |= {"tables_html": tables_html, "fingerprint": fingerprint}
    if request.htmx and in_play and request.GET.get("seen") == fingerprint:
        response = HttpResponse(status=NOTHING_NEW)  # nothing swapped: a focused link keeps its focus
    elif request.htmx:
        response = render(request, "public/_round_live.html", context, status=200 if in_play else STOP_POLLING)
    else:
        response = render(request, "public/round.html", context)
    patch_vary_headers(response, ["HX-Request"])  # one address, two answers: caches must tell them apart
    return conditional.conditional_body(request, response, seen.manages)


def sheet_detail(request: HttpRequest, slug: str, round_number: int, table_number: int) -> HttpResponse:
    seen = _access(request, slug, results=True)
    round_ = _round(seen, round_number)
    sheet = get_object_or_404(
        ScoreSheet.objects.select_related("table"), table__round=round_, table__number=table_number
    )
    round_.competition = seen.competition  # for the rule set, without reading it again
    sheet.table.round = round_
    seats = selectors.shown_seats(sheet, full_names=seen.manages)
    # a duplicate round's boards still to be played elsewhere: its lines and totals are not even read
    shown = seen.scores(round_)
    boards = board_orders(round_).get(table_number, []) if shown and seen.competition.duplicate else []
    lines = selectors.sheet_lines(sheet, selectors.seat_names(seats), boards) if shown else None
    totals = lines[-1].running if lines else []
    response = render(
        request,
        "sheet.html",
        {
            "competition": seen.competition,
            "sheet": sheet,
            "seats": seats,
            "lines": lines,
            "totals": [(seat, totals[seat.position] if seat.position < len(totals) else None) for seat in seats],
            "reviews": [] if lines is None else selectors_entry.sheet_reviews(sheet),
            "can_enter": seen.manages,
            "manages": seen.manages,  # who entered each version: their account names, for those who run it
            "board_links": bool(boards) and seen.boards(round_),
        },
    )
    return conditional.conditional_body(request, response, seen.manages)


def season(request: HttpRequest, slug: str) -> HttpResponse:
    seen = _access(request, slug)
    evenings, rows = selectors.season_rows(seen.competition, full_names=seen.manages)
    rows = [replace(row, total=shown_value(row.total)) for row in rows]  # 18,1 in nl, never "181/10"
    return render(request, "season.html", {"competition": seen.competition, "evenings": evenings, "rows": rows})


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    return render(
        request,
        "player.html",
        {
            "page": selectors.player_page(player, sheets_visible_to(request.user), statistics_visible_to(request.user)),
            "full_names": sees_full_name(request.user, player),
        },
    )


def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    competitions = list(selectors.club_competitions(club, visible_competitions(request.user)))
    return render(request, "public/club.html", {"club": club, "competitions": competitions})


def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers ask for whatever the page says: the site's icon (pages link it themselves)."""
    return redirect(static("favicon.svg"))
