"""Forget a player on request: ``manage.py anonymise_player 42`` (see ``tournaments.services.privacy``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tournaments import limits
from tournaments.models import Player
from tournaments.services.privacy import anonymise_player


class Command(BaseCommand):
    help = (
        "Replace a player's names with 'Anonymous player <id>', drop their federation id, unlink and close their"
        " account. Their results, and so everyone's standings, stay as they are."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "player_id", type=limits.argument(limits.ID), help="the player's id (the number in /players/<id>/)"
        )
        parser.add_argument("--by", help="the username to record in the audit trail as having done it")

    def handle(self, *args: Any, player_id: int, by: str | None = None, **options: Any) -> None:
        user = None
        if by:
            try:
                user = get_user_model().objects.get(username=by)
            except get_user_model().DoesNotExist:
                raise CommandError(f"there is no user {by!r}") from None
        try:
            player = Player.objects.get(pk=player_id)
        except Player.DoesNotExist:
            raise CommandError(f"there is no player {player_id}") from None
        if player.anonymised_at is not None:
            self.stdout.write(f"player {player_id} was anonymised already, on {player.anonymised_at:%Y-%m-%d}")
            return
        player = anonymise_player(player, by=user)
        self.stdout.write(f"player {player_id} is now {player.display_name!r}; their results are kept")
