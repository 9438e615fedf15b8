"""Print a seating without touching the database: ``manage.py seating --players 16 --rounds 5 --method schedule``."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournaments.seating import GENERATORS, SeatingError, find, repeat_free_rounds


class Command(BaseCommand):
    help = "Seat players 1..N for R rounds with a seating generator and print the tables."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, required=True)
        parser.add_argument("--method", default="schedule", choices=sorted(k for k in GENERATORS if k != "manual"))
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--json", dest="as_json", action="store_true", help='print {"rounds": [[[1, 5, 9, 13], ...], ...]}'
        )

    def handle(
        self, *args: Any, players: int, rounds: int, method: str, seed: int, as_json: bool, **options: Any
    ) -> None:
        if players < 4 or rounds < 1:
            raise CommandError("seat at least 4 players for at least 1 round")
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
