"""factory-boy factories for the domain; build through services where they hold rules."""

from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth import get_user_model

from tournaments.models import Club, Competition, Membership, Player, RuleSet
from tournaments.services.competitions import register_players
from tournaments.services.rounds import create_round, publish_round


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("secret-pass-123")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")
    city = "Antwerpen"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    first_name = factory.Sequence(lambda n: f"Player{n}")
    last_name = factory.Sequence(lambda n: f"Lastname{n}")


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    club = factory.SubFactory(ClubFactory)
    player = factory.SubFactory(PlayerFactory)


class RuleSetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RuleSet

    name = factory.Sequence(lambda n: f"Rules {n}")
    game = "wiezen"
    preset = "iwwa"
    overrides: Any = factory.LazyFunction(dict)


class CompetitionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Competition

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Competition {n}")
    slug = factory.Sequence(lambda n: f"competition-{n}")
    rule_set = factory.SubFactory(RuleSetFactory)
    game = factory.SelfAttribute("rule_set.game")
    deals_per_session = 16


def seated_competition(players: int = 4, preset: str = "iwwa", rounds: int = 1, **kwargs: Any) -> Competition:
    """A competition with ``players`` registered players and ``rounds`` seated, published rounds."""
    competition = CompetitionFactory(rule_set=RuleSetFactory(preset=preset), **kwargs)
    register_players(competition, PlayerFactory.create_batch(players))
    for _ in range(rounds):
        publish_round(create_round(competition))
    return competition
