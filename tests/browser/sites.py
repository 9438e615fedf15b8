"""A small, realistic site for the browser tests: a tournament and a league with entered lines, and the roles.

Lines come from the engine's generator (seeded, so every run shows the same pages) and go through the entry
service like typed ones; the standings, ratings and statistics are then computed as the demo loader does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from unittest import mock

from django.db import transaction

from games.generate import random_session
from scoring.services import recompute_ratings, recompute_standings, recompute_statistics
from tests.factories import ClubFactory, seated_competition
from tests.roles import Roles, make_roles
from tournaments.models import Competition, DealEntry, Player, ScoreSheet
from tournaments.services.entry import record_deal

SEED = 6


@dataclass
class Site:
    tournament: Competition  # 9 players, 2 published rounds (a table of 5 and one of 4 each)
    league: Competition  # 4 players, 2 evenings, both filled
    sheet: ScoreSheet  # round 1, table 1 of the tournament: part-filled, so its entry form offers the next deal
    player: Player  # sits at that table: has lines, standings, a rating and statistics
    roles: Roles  # organiser (superuser), club_admin, player, outsider of the tournament's club


def _fill(sheet: ScoreSheet, rng: random.Random, deals: int | None = None) -> None:
    rules = sheet.table.round.competition.rule_set.engine_rules()
    size = sheet.table.seats.count()
    lines = random_session(rules, rng, size, sheet.table.round.competition.deals_per_session or 16)
    for line in lines[:deals]:
        record_deal(sheet, line, source=DealEntry.Source.DEMO)


def build_site() -> Site:
    rng = random.Random(SEED)
    club = ClubFactory(name="Wiezenclub 't Klaverblad", city="Hemiksem")
    tournament = seated_competition(players=9, rounds=2, club=club, name="Open van Hemiksem", slug="open-hemiksem")
    league = seated_competition(players=4, rounds=2, club=club, kind="league", name="Clubcompetitie", slug="league")
    sheets = ScoreSheet.objects.filter(table__round__competition__in=[tournament, league]).order_by(
        "table__round__competition_id", "table__round__number", "table__number"
    )
    first = sheets.get(table__round__competition=tournament, table__round__number=1, table__number=1)
    # Each entry would queue a recomputation (run eagerly in the tests: 85 of them); they are computed below, once.
    with (
        mock.patch("tournaments.services.standings.request_standings", lambda competition_id: False),
        transaction.atomic(),
    ):
        for sheet in sheets:
            _fill(sheet, rng, deals=5 if sheet == first else None)
    for competition in (tournament, league):
        recompute_standings(competition.pk, claim=False)
        recompute_statistics(competition.pk)
    recompute_ratings()
    player = first.table.seats.order_by("position").first().player
    return Site(tournament=tournament, league=league, sheet=first, player=player, roles=make_roles(tournament))
