"""The one way a change reaches the standings: whatever changes a competition's points (a line, a penalty, a
round finalised or reopened, a new ranking) marks them stale in its own transaction and asks for them once it
commits, so that a rolled-back change asks for nothing and the ETags of the public pages move with it."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F

from scoring.services import request_standings
from tournaments.models import Competition


def standings_follow(competition_id: int) -> None:
    """The standings are stale from this transaction on, and recomputed once it commits.

    It locks the competition's row until the commit: call it last in the transaction.
    """
    Competition.objects.filter(pk=competition_id).update(entries_version=F("entries_version") + 1)
    transaction.on_commit(lambda: request_standings(competition_id))
