"""Give players who share a default public name ("Jan P.") longer ones: ``manage.py disambiguate_public_names``.

New and edited players get an unambiguous name as they are saved (``tournaments.public_names``); this settles the
players saved before that rule, once, after upgrading. Running it again changes nothing.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tournaments.models import Player
from tournaments.public_names import unambiguous_default


class Command(BaseCommand):
    help = (
        "Give every player whose default public name another player shows a longer one (the longest-standing"
        " player keeps the short name)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        changed = 0
        # newest first: each newer namesake moves aside, so the one who had the name longest keeps it
        for player in Player.objects.filter(display_name="", anonymised_at__isnull=True).order_by("-pk").iterator():
            longer = unambiguous_default(player)
            if longer:
                player.display_name = longer
                player.save(update_fields=["display_name"])
                changed += 1
        self.stdout.write(f"{changed} players now show a longer public name")
