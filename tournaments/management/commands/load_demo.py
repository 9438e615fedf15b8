"""Load the demo: a club of 18 players, a 3-round tournament with every sheet filled, and a duplicate evening.

Seeded, so the demo is the same every time. Lines come from the engine's
generator and go through the entry service like any typed line. The organiser
confirms the sheets of rounds 1 and 2 and of round 3's first two tables
(``confirm_sheet``, as a second person would: the demo lines have no author);
round 3 stays in play with two sheets entered, so the standings show both
confirmed and provisional rows. The duplicate evening (``tournaments.duplicate.demo``) is one finalised round of
16 boards at three tables, compared board by board, its boards analysed by the solver.
"""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.management.base import BaseCommand
from django.db import transaction

from games.generate import random_session
from scoring.services import recompute_ratings, recompute_standings, recompute_statistics
from tournaments.duplicate.demo import DUPLICATE_SLUG, load_duplicate_evening
from tournaments.models import Club, Competition, DealEntry, Membership, Player, ScoreSheet
from tournaments.services.competitions import create_competition, create_rule_set, register_players
from tournaments.services.entry import record_deal
from tournaments.services.rounds import create_round, publish_round
from tournaments.services.sheets import confirm_sheet

DEMO_CLUB_SLUG = "demo-wiezen-club"
DEMO_COMPETITION_SLUG = "demo-tournament"
DEMO_USER = "organiser"
DEMO_PASSWORD = "wiezen-demo"
PLAYERS = [
    ("Jan", "Peeters"),
    ("Marie", "Janssens"),
    ("Luc", "Maes"),
    ("Anne", "Jacobs"),
    ("Pieter", "Mertens"),
    ("Sofie", "Willems"),
    ("Koen", "Claes"),
    ("Els", "Goossens"),
    ("Dirk", "Wouters"),
    ("Lieve", "De Smet"),
    ("Marc", "Dubois"),
    ("Nathalie", "Lambert"),
    ("Bart", "Hermans"),
    ("Griet", "Dupont"),
    ("Wim", "Van Damme"),
    ("Isabelle", "Martin"),
    ("Tom", "Vermeulen"),
    ("Ria", "Pauwels"),
]
SEED = 2026
ROUNDS = 3
# Round 3 is still in play: its tables from this number on are entered but nobody has confirmed them yet.
FIRST_UNCONFIRMED_TABLE_OF_LAST_ROUND = 3


class Command(BaseCommand):
    help = "Load the demo club, players and a 3-round tournament of 16 deals, round 3 still in play (idempotent)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--reset", action="store_true", help="delete the demo and load it again")

    def handle(self, *args: Any, reset: bool = False, **options: Any) -> None:
        if reset:
            self._delete()
        if Competition.objects.filter(slug=DEMO_COMPETITION_SLUG).exists():
            self.stdout.write("The demo is already loaded (use --reset to load it again).")
            return
        with transaction.atomic():
            competition, duplicate = self._load()
        for loaded in (competition, duplicate):
            recompute_standings(loaded.pk, claim=False)
            recompute_statistics(loaded.pk)
        recompute_ratings()
        for loaded in (competition, duplicate):
            entries = DealEntry.objects.filter(sheet__table__round__competition=loaded).count()
            self.stdout.write(self.style.SUCCESS(f"Demo loaded: {loaded.name}, {entries} deal entries."))

    def _delete(self) -> None:
        for competition in Competition.objects.filter(slug__in=[DEMO_COMPETITION_SLUG, DUPLICATE_SLUG]):
            rule_set = competition.rule_set
            competition.delete()
            rule_set.delete()
        Club.objects.filter(slug=DEMO_CLUB_SLUG).delete()
        Player.objects.filter(federation_id__startswith="DEMO-").delete()

    def _load(self) -> tuple[Competition, Competition]:
        rng = random.Random(SEED)
        club = Club.objects.create(name="Demo Wiezenclub 't Klaverblad", slug=DEMO_CLUB_SLUG, city="Hemiksem")
        players = [
            Player.objects.create(first_name=first, last_name=last, federation_id=f"DEMO-{i:03d}")
            for i, (first, last) in enumerate(PLAYERS, start=1)
        ]
        for i, player in enumerate(players):
            Membership.objects.create(club=club, player=player, is_admin=i == 0)
        organiser = self._organiser()
        players[0].user = organiser
        players[0].save(update_fields=["user"])

        rule_set = create_rule_set(name="IWWA (demo)", game="wiezen", preset="iwwa", club=club)
        competition = create_competition(
            club=club, name="Demo tournament", slug=DEMO_COMPETITION_SLUG, rule_set=rule_set, deals_per_session=16
        )
        register_players(competition, players)
        engine_rules = rule_set.engine_rules()
        for number in range(1, ROUNDS + 1):
            round_ = publish_round(create_round(competition, seed=SEED * 10 + number))
            for table in round_.tables.order_by("number"):
                sheet = ScoreSheet.objects.get(table=table)
                for line in random_session(engine_rules, rng, table.size, 16):
                    record_deal(sheet, line, source=DealEntry.Source.DEMO)
                if number < ROUNDS or table.number < FIRST_UNCONFIRMED_TABLE_OF_LAST_ROUND:
                    confirm_sheet(sheet, by=organiser)  # the second pair of eyes: the organiser entered none
        return competition, load_duplicate_evening(club, players, organiser, seed=SEED * 10 + ROUNDS + 1)

    def _organiser(self) -> Any:
        User = get_user_model()
        user, _ = User.objects.get_or_create(username=DEMO_USER, defaults={"is_staff": True})
        user.is_staff = True
        user.set_password(DEMO_PASSWORD)
        user.save()
        group, _ = Group.objects.get_or_create(name="Club administrators")
        group.permissions.set(
            Permission.objects.filter(content_type__app_label="tournaments").exclude(
                codename__in=["add_dealentry", "change_dealentry", "delete_dealentry"]
            )
        )
        user.groups.add(group)
        return user
