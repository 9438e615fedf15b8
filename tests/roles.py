"""The named roles every test talks about: organiser, club admin, player, outsider."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.factories import MembershipFactory, PlayerFactory, UserFactory
from tournaments.models import Competition


@dataclass
class Roles:
    organiser: Any  # a superuser who runs the federation's events
    club_admin: Any  # administrator of the competition's organising club
    player: Any  # a member of the club, not an administrator
    outsider: Any  # logged in, no tie to the club


def make_roles(competition: Competition) -> Roles:
    organiser = UserFactory(username="organiser", is_staff=True, is_superuser=True)
    club_admin = UserFactory(username="clubadmin", is_staff=True)
    MembershipFactory(club=competition.club, player=PlayerFactory(user=club_admin), is_admin=True)
    player = UserFactory(username="player")
    MembershipFactory(club=competition.club, player=PlayerFactory(user=player), is_admin=False)
    outsider = UserFactory(username="outsider")
    return Roles(organiser, club_admin, player, outsider)
