"""What the organiser's pages read: the competitions one runs, registrations, player search, a round's progress.

Organisers see players' full names (``services.privacy``); a search shows a player's full name only to whom
may see it (their clubs' administrators, who runs a competition they entered), others their public name.
Every reader here makes a fixed number of queries, whatever the number of players or tables.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Exists, F, Max, OuterRef, Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

import games
from games.errors import GameError, InvalidSheet
from tournaments.line_errors import person_message
from tournaments.models import (
    Club,
    Competition,
    DealEntry,
    Membership,
    Player,
    Registration,
    Round,
    ScoreSheet,
    Seat,
    Table,
)
from tournaments.offline.contact import last_contacts
from tournaments.permissions import admin_club_ids
from tournaments.public_names import sort_key
from tournaments.services.privacy import full_name, public_name

SEARCH_LIMIT = 20
State = ScoreSheet.State


def managed_competitions(user: Any) -> QuerySet[Competition]:
    """The competitions ``user`` runs: all for a superuser, their clubs' and those naming them as organiser."""
    competitions = Competition.objects.select_related("club").order_by("-created_at", "name")
    if user.is_superuser:
        return competitions
    return competitions.filter(Q(club_id__in=admin_club_ids(user)) | Q(organisers=user)).distinct()


def visibility_label(competition: Competition) -> str:
    return str(Competition.Visibility(competition.visibility).label)


def clubs_for_new_competitions(user: Any) -> QuerySet[Club]:
    """Where ``user`` may create competitions (and add players): the clubs they administer."""
    return Club.objects.all() if user.is_superuser else Club.objects.filter(pk__in=admin_club_ids(user))


def registrations(competition: Competition) -> QuerySet[Registration]:
    """Active players first, then those who withdrew; by name."""
    return competition.registrations.select_related("player").order_by(
        F("withdrawn_at").asc(nulls_first=True), "player__last_name", "player__first_name", "player_id"
    )


@dataclass(frozen=True)
class FoundPlayer:
    id: int
    name: str
    federation_id: str | None
    registered: bool


def search_players(query: str, *, competition: Competition, user: Any) -> tuple[list[FoundPlayer], bool]:
    """Players whose names or federation id match every word of ``query``, and whether there are more."""
    terms = query.split()[:5]
    if not terms:
        return [], False
    found = Player.objects.filter(anonymised_at__isnull=True)
    for term in terms:
        found = found.filter(
            Q(first_name__icontains=term)
            | Q(last_name__icontains=term)
            | Q(display_name__icontains=term)
            | Q(federation_id__iexact=term)
        )
    found = found.annotate(
        registered=Exists(Registration.objects.filter(competition=competition, player=OuterRef("pk"))),
        **_known_to(user),
    ).order_by("last_name", "first_name", "pk")
    rows = list(found[: SEARCH_LIMIT + 1])
    return [
        FoundPlayer(
            p.pk,
            full_name(p) if user.is_superuser or p.member_of_mine or p.entered_mine else public_name(p),
            p.federation_id,
            p.registered,
        )
        for p in rows[:SEARCH_LIMIT]
    ], len(rows) > SEARCH_LIMIT


def _known_to(user: Any) -> dict[str, Exists]:
    """Whether each player belongs to a club ``user`` administers, or entered a competition they run."""
    clubs = admin_club_ids(user)
    return {
        "member_of_mine": Exists(Membership.objects.filter(club_id__in=clubs, player=OuterRef("pk"))),
        "entered_mine": Exists(
            Registration.objects.filter(Q(competition__club_id__in=clubs) | Q(competition__organisers=user)).filter(
                player=OuterRef("pk")
            )
        ),
    }


# -- a round --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableProgress:
    table: Table
    players: list[tuple[int, str]]  # (player id, full name) in seat order
    deals: int  # current lines entered
    state: str  # the sheet's state (ScoreSheet.State)
    state_label: str
    last_change: datetime | None
    errors: list[str]  # stored lines the rule set no longer accepts
    last_contact: datetime | None = None  # a device with the table's code last reached the server (offline.contact)
    quiet_minutes: int = 0  # still entering, and not heard from for this long (0: recently, or done)


@dataclass(frozen=True)
class Progress:
    tables: list[TableProgress]
    deals_per_session: int | None  # None: open-ended (Zwicken)
    byes: list[tuple[int, str]]
    entered: int  # sheets entered, confirmed or final
    confirmed: int  # sheets confirmed or final
    with_errors: int

    @property
    def players(self) -> list[tuple[int, str, int | None]]:
        """Everyone in the round, with their table (None: a bye)."""
        seated = [(pid, name, t.table.number) for t in self.tables for pid, name in t.players]
        return sorted([*seated, *((pid, name, None) for pid, name in self.byes)], key=lambda p: (sort_key(p[1]), p[1]))


QUIET_AFTER_MINUTES = 2  # a table typing a deal is heard from every minute or so: longer is worth a look


def round_progress(round_: Round) -> Progress:
    """Each table of ``round_``: its players, how far its sheet is, when it last changed, what is wrong with it."""
    competition = round_.competition
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
    tables = list(
        Table.objects.filter(round=round_)
        .select_related("sheet")
        .prefetch_related(seats)
        .annotate(last_entry=Max("sheet__entries__created_at"))
        .order_by("number")
    )
    lines: dict[int, list[Any]] = defaultdict(list)
    for sheet_id, line in (
        DealEntry.objects.filter(sheet__table__round=round_, is_current=True)
        .order_by("sheet_id", "deal_number")
        .values_list("sheet_id", "line")
    ):
        lines[sheet_id].append(line)
    try:
        rules: games.RuleSet | None = competition.rule_set.engine_rules()
        broken_rules = ""
    except GameError as exc:
        rules, broken_rules = None, str(exc)
    contacts = last_contacts(table.sheet.pk for table in tables)
    now = timezone.now()
    rows = []
    for table in tables:
        sheet = table.sheet
        contact = contacts.get(sheet.pk)
        quiet = int((now - contact).total_seconds() // 60) if contact and sheet.state == State.DRAFT else 0
        sheet_lines = lines.get(sheet.pk, [])
        names = [full_name(s.player) for s in table.seats.all()]  # by position (the prefetch orders them)
        errors = [broken_rules] if rules is None else _line_errors(rules, sheet_lines, table.size, competition, names)
        changed = [t for t in (table.last_entry, sheet.updated_at if sheet.state != State.DRAFT else None) if t]
        rows.append(
            TableProgress(
                table=table,
                players=[(s.player_id, full_name(s.player)) for s in table.seats.all()],
                deals=len(sheet_lines),
                state=sheet.state,
                state_label=sheet.get_state_display(),
                last_change=max(changed) if changed else None,
                errors=errors,
                last_contact=contact,
                quiet_minutes=quiet if quiet >= QUIET_AFTER_MINUTES else 0,
            )
        )
    done = {State.ENTERED, State.CONFIRMED, State.FINAL}
    byes = Player.objects.filter(pk__in=round_.byes or []).order_by("last_name", "first_name")
    return Progress(
        tables=rows,
        deals_per_session=competition.deals_per_session,
        byes=[(p.pk, full_name(p)) for p in byes],
        entered=sum(1 for r in rows if r.state in done),
        confirmed=sum(1 for r in rows if r.state in {State.CONFIRMED, State.FINAL}),
        with_errors=sum(1 for r in rows if r.errors),
    )


def _line_errors(
    rules: games.RuleSet, lines: list[Any], size: int, competition: Competition, names: list[str]
) -> list[str]:
    """What the engine finds wrong with a sheet's stored lines under today's rule set (empty when nothing)."""
    if not lines:
        return []
    try:
        games.sheet_from_lines(rules, lines, players=size, deals=competition.deals_per_session)
    except InvalidSheet as exc:
        return [
            gettext("deal %(deal)s: %(error)s") % {"deal": f.line_number, "error": person_message(e, names)}
            for f in exc.lines
            for e in f.errors
        ]
    except GameError as exc:
        return [str(exc)]
    return []
