"""``manage.py recompute_ratings [--check]``: every rating from scratch, compared with the incremental ratings.

The ratings are kept up to date incrementally (``scoring.rating_ledger``); this recomputes them over every rated
deal, prints any player whose stored rating differs (beyond float noise), and stores the full result. With
``--check`` it exits with status 1 when something differed, for a cron job or a deployment check. The nightly beat
job (``scoring.tasks.full_ratings_check``) does the same and logs a warning.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring.services import full_ratings_check


class Command(BaseCommand):
    help = (
        "Recompute every rating from scratch, report how it differs from the incrementally kept ratings, and store"
        " it. --check: exit with status 1 when they differed."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--check", action="store_true", help="exit with status 1 when anything differed")

    def handle(self, *args: Any, check: bool = False, **options: Any) -> None:
        report = full_ratings_check()
        self.stdout.write(
            f"{report.players} players rated over {report.deals} deals in {report.rounds} rounds, from scratch."
        )
        if not report.compared:
            self.stdout.write("The rated rounds changed meanwhile: not compared; the full result is stored.")
        elif report.differences:
            self.stdout.write(f"{len(report.differences)} player(s) differed from the incremental ratings:")
            for line in report.differences:
                self.stdout.write(f"  {line}")
            self.stdout.write("The full result is stored.")
            if check:
                raise CommandError("the incremental ratings differed from a full recomputation", returncode=1)
        else:
            self.stdout.write("Equal to the incremental ratings.")
