"""Read a competition archive back: ``manage.py import_competition FILE --club SLUG [--slug NEW]``.

All or nothing: a single problem in the archive stores nothing and every problem is listed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from config.untrusted import read_json
from tournaments.models import Club
from tournaments.services.transfer import ImportRejected, import_competition


class Command(BaseCommand):
    help = "Import a competition archive written by export_competition (or the API's archive) into a club."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("archive", help="the JSON file ('-' for standard input)")
        parser.add_argument("--club", required=True, help="slug of the club that receives it")
        parser.add_argument("--slug", help="the new competition's slug (default: the archive's, made unique)")

    def handle(self, *args: Any, archive: str, club: str, slug: str | None, **options: Any) -> None:
        target = Club.objects.filter(slug=club).first()
        if target is None:
            raise CommandError(f"no club with slug {club!r}")
        try:
            text = self.stdin.read() if archive == "-" else Path(archive).read_text(encoding="utf-8")
            data = read_json(text)
        except (OSError, ValueError) as exc:
            raise CommandError(f"cannot read {archive}: {exc}") from exc
        try:
            competition = import_competition(data, club=target, slug=slug)
        except ImportRejected as exc:
            problems = "\n".join(f"  {e.code}: {e.message}" for _, e in exc.errors)
            raise CommandError(f"nothing imported:\n{problems}") from exc
        self.stdout.write(f"imported {competition.name} as {competition.slug}")
