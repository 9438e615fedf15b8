"""Two clubs with one of every admin model each, their administrators and a superuser, for the admin matrices.

Club A's competition is hidden; club B's administrator (staff, every ``tournaments`` and ``scoring``
permission) is the hostile one. ``objects(club)`` maps each model to one object of that club.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.admin.sites import site
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db.models import Model
from django.test import RequestFactory
from django.utils import timezone

from scoring.models import Standing, StandingsState
from tests.factories import ClubFactory, MembershipFactory, RuleSetFactory, UserFactory, seated_competition
from tournaments.models import Club, Competition, DealEntry, Membership, Penalty, RoundEvent, SeatingWish

ADMIN_APPS = ("tournaments", "scoring")


def admin_models() -> list[tuple[type[Model], Any]]:
    """Every model of our apps in the admin registry, with its ModelAdmin."""
    return sorted(
        ((m, a) for m, a in site._registry.items() if m._meta.app_label in ADMIN_APPS),
        key=lambda pair: pair[0]._meta.label,
    )


@dataclass
class Side:
    club: Club
    competition: Competition
    admin: Any  # the club administrator's account (staff)
    objects: dict[str, Model] = field(default_factory=dict)  # model label -> one object of this club

    def of(self, model: type[Model]) -> Model:
        return self.objects[model._meta.label]


@dataclass
class World:
    a: Side
    b: Side
    superuser: Any

    def request(self, user: Any, method: str = "get") -> Any:
        request = getattr(RequestFactory(), method)("/admin/")
        request.user = user
        return request


def _side(name: str, *, is_public: bool) -> Side:
    club = ClubFactory(name=f"Club {name}")
    competition = seated_competition(players=4, club=club, is_public=is_public, name=f"Cup {name}")
    players = [r.player for r in competition.registrations.order_by("pk")]
    for player in players:
        MembershipFactory(club=club, player=player)
    account = UserFactory(username=f"admin_{name.lower()}", is_staff=True)
    Membership.objects.filter(club=club, player=players[0]).update(is_admin=True)
    players[0].user = account
    players[0].save()
    round_ = competition.rounds.get()
    table = round_.tables.get()
    sheet = table.sheet
    penalty = Penalty.objects.create(competition=competition, player=players[1], points=2, reason="late")
    wish = SeatingWish.objects.create(competition=competition, player=players[1], other=players[2], kind="apart")
    line = DealEntry.objects.create(sheet=sheet, deal_number=1, line={}, contract="pass", points=[0, 0, 0, 0])
    objects: dict[str, Model] = {
        "tournaments.Club": club,
        "tournaments.Membership": Membership.objects.get(club=club, player=players[1]),
        "tournaments.Player": players[1],
        "tournaments.RuleSet": RuleSetFactory(club=club, name=f"Rules of {name}"),
        "tournaments.Competition": competition,
        "tournaments.Registration": competition.registrations.get(player=players[1]),
        "tournaments.Round": round_,
        "tournaments.RoundEvent": RoundEvent.objects.filter(round=round_).first()
        or RoundEvent.objects.create(round=round_, action="seated"),
        "tournaments.SeatingWish": wish,
        "tournaments.Penalty": penalty,
        "tournaments.Table": table,
        "tournaments.Seat": table.seats.get(position=1),
        "tournaments.ScoreSheet": sheet,
        "tournaments.DealEntry": line,
        get_user_model()._meta.label: account,
        "scoring.Standing": Standing.objects.create(
            competition=competition,
            player=players[1],
            rank=1,
            points=0,
            deals_played=0,
            sessions_played=0,
            computed_at=timezone.now(),
        ),
        "scoring.StandingsState": StandingsState.objects.get_or_create(competition=competition)[0],
    }
    return Side(club, competition, account, objects)


def build_world() -> World:
    a = _side("A", is_public=False)
    b = _side("B", is_public=True)
    b.admin.user_permissions.set(Permission.objects.filter(content_type__app_label__in=ADMIN_APPS))
    superuser = UserFactory(username="root", is_staff=True, is_superuser=True)
    return World(a, b, superuser)
