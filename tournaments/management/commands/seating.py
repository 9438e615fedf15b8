"""Print a seating without touching the database: ``manage.py seating --players 16 --rounds 5 --method schedule``."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournaments import limits
from tournaments.seating import GENERATORS, SeatingError, find, repeat_free_rounds


class Command(BaseCommand):
    help = "Seat players 1..N for R rounds with a seating generator and print the tables."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--players", type=limits.argument(limits.SEATED_PLAYERS), required=True)
        parser.add_argument("--rounds", type=limits.argument(limits.PLANNED_ROUNDS), required=True)
        parser.add_argument("--method", default="schedule", choices=sorted(k for k in GENERATORS if k != "manual"))
        parser.add_argument("--seed", type=limits.argument(limits.SEED), default=0)
        parser.add_argument(
            "--json", dest="as_json", action="store_true", help='print {"rounds": [[[1, 5, 9, 13], ...], ...]}'
        )

    def handle(
        self, *args: Any, players: int, rounds: int, method: str, seed: int, as_json: bool, **options: Any
    ) -> None:
        # call_command() hands options over without parsing them: the ranges are checked here too
        if players not in limits.SEATED_PLAYERS or rounds not in limits.PLANNED_ROUNDS or seed not in limits.SEED:
            raise CommandError(
                f"seat {limits.SEATED_PLAYERS.low}..{limits.SEATED_PLAYERS.high} players for "
                f"{limits.PLANNED_ROUNDS.low}..{limits.PLANNED_ROUNDS.high} rounds, "
                f"with a seed in {limits.SEED.low}..{limits.SEED.high}"
            )
        try:
            seating = find(method).rounds(players, rounds, seed)
        except SeatingError as exc:
            raise CommandError(str(exc)) from exc
        if as_json:
            self.stdout.write(json.dumps({"rounds": seating}))
            return
        for number, tables in enumerate(seating, start=1):
            self.stdout.write(f"round {number}: " + "  ".join("-".join(map(str, t)) for t in tables))
        self.stdout.write(f"rounds without a repeated meeting: {repeat_free_rounds(seating)}")
