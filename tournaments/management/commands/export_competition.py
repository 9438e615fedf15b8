"""Write a competition as one JSON archive: ``manage.py export_competition SLUG [-o FILE]`` (stdout by default)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Competition
from tournaments.services.transfer import export_competition


class Command(BaseCommand):
    help = "Export a competition (rule set, players, rounds, seatings, every sheet's lines, penalties) as JSON."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("competition", help="the competition's slug")
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")

    def handle(self, *args: Any, competition: str, output: str | None, **options: Any) -> None:
        found = Competition.objects.filter(slug=competition).first()
        if found is None:
            raise CommandError(f"no competition with slug {competition!r}")
        text = json.dumps(export_competition(found), indent=1, sort_keys=True, ensure_ascii=False)
        if output:
            Path(output).write_text(text + "\n", encoding="utf-8")
            self.stderr.write(f"wrote {output}")
        else:
            self.stdout.write(text)
