"""A club changes only its own rule sets, and keeps them to itself until a competition others may see plays them.

A hostile review found two doors. A club's administrator whose competition played under a rule set shared by all
clubs ("Federatie officieel") changed it for every club from the competition's settings page: the page changed the
rule set in place whenever no other competition played it, whoever owned it (the API refused the same change with
a 403). And a hidden competition's own rule set, named after it, was listed to anyone once the competition took
another rule set: only rule sets a hidden competition played were held back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    MembershipFactory,
    PlayerFactory,
    RuleSetFactory,
    UserFactory,
)
from tournaments.models import Club, Competition, RuleSet
from tournaments.services.competitions import update_competition

pytestmark = pytest.mark.django_db


def administrator_of(club: Club) -> Any:
    user = UserFactory()
    MembershipFactory(club=club, player=PlayerFactory(user=user), is_admin=True)
    return user


def save_settings(client: Client, competition: Competition, **changes: str) -> None:
    """The settings page posted back as it showed itself, with ``changes``."""
    address = reverse("manage-competition-edit", args=[competition.slug])
    page = client.get(address)
    form = page.context["form"]
    sent: dict[str, Any] = {
        name: value
        for name, value in form.initial.items()
        if name != "shown" and value is not None and isinstance(value, str | int | float | list)
    }
    sent.update(changes, shown=form["shown"].value())
    response = client.post(address, sent)
    assert response.status_code == 302, response.content.decode()[:3000]


def rules_of(rule_set: RuleSet) -> tuple[Any, ...]:
    rule_set.refresh_from_db()
    return rule_set.club_id, rule_set.name, rule_set.game, rule_set.preset, rule_set.overrides


@pytest.mark.parametrize("owner", ["shared by all clubs", "another club"])
@pytest.mark.parametrize("change", ["typed overrides", "house rules"])
def test_the_settings_page_changes_a_rule_set_the_club_does_not_own_for_its_competition_alone(
    owner: str, change: str
) -> None:
    club = ClubFactory(name="Café De Kroon")
    foreign = RuleSetFactory(
        club=None if owner == "shared by all clubs" else ClubFactory(), name="Federatie officieel", preset="iwwa"
    )
    competition = CompetitionFactory(club=club, rule_set=foreign)  # as the API or an import may seat it
    house = RuleSetFactory(club=club, name="Kroon huisregels", preset="flemish", overrides={"penalty": 77})
    before = rules_of(foreign)
    client = Client(HTTP_ACCEPT_LANGUAGE="nl")
    client.force_login(administrator_of(club))

    if change == "typed overrides":
        save_settings(client, competition, overrides='{"penalty": 99}')
    else:
        save_settings(client, competition, preset=f"house:{house.pk}")

    assert rules_of(foreign) == before
    competition.refresh_from_db()
    assert competition.rule_set_id != foreign.pk
    assert competition.rule_set.club_id == club.pk
    assert competition.rule_set.engine_rules().penalty == (99 if change == "typed overrides" else 77)


def test_the_clubs_own_rule_set_of_one_competition_still_changes_in_place() -> None:
    club = ClubFactory()
    own = RuleSetFactory(club=club, preset="iwwa")
    competition = CompetitionFactory(club=club, rule_set=own)
    client = Client()
    client.force_login(administrator_of(club))
    count = RuleSet.objects.count()

    save_settings(client, competition, overrides='{"penalty": 9}')

    competition.refresh_from_db()
    assert competition.rule_set_id == own.pk and RuleSet.objects.count() == count
    assert rules_of(own)[-1] == {"penalty": 9}


def _switched(competition: Competition) -> None:
    update_competition(competition, rule_set=RuleSetFactory(club=competition.club, name="Huisregels"))


def _deleted(competition: Competition) -> None:
    competition.delete()


def _never_played(competition: Competition) -> None:
    competition.rule_set = RuleSetFactory(club=competition.club, name="Andere")
    competition.save()


LEFT_BEHIND: dict[str, Callable[[Competition], None]] = {
    "the competition took another rule set": _switched,
    "the competition was deleted": _deleted,
    "no competition played it yet": _never_played,
}


@pytest.mark.parametrize("how", LEFT_BEHIND)
def test_a_clubs_rule_set_no_visible_competition_plays_stays_the_clubs(how: str) -> None:
    club = ClubFactory()
    own = RuleSetFactory(club=club, name="Geheime Beker Verrassing")
    competition = CompetitionFactory(club=club, rule_set=own, name="Geheime Beker Verrassing", is_public=False)
    LEFT_BEHIND[how](competition)
    stranger, other_admin, admin = UserFactory(), administrator_of(ClubFactory()), administrator_of(club)

    for user in (None, stranger, other_admin):
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        names = [r["name"] for r in client.get("/api/v1/rulesets/").json()["results"]]
        assert "Geheime Beker Verrassing" not in names, (user, names)
        assert client.get(f"/api/v1/rulesets/{own.pk}/").status_code == 404
    client = APIClient()
    client.force_authenticate(admin)
    assert client.get(f"/api/v1/rulesets/{own.pk}/").status_code == 200


def test_a_rule_set_a_public_competition_plays_and_a_shared_one_are_everyones() -> None:
    club = ClubFactory()
    played = RuleSetFactory(club=club, name="Open avond")
    CompetitionFactory(club=club, rule_set=played, is_public=True)
    shared = RuleSetFactory(club=None, name="Federatie officieel")
    names = [r["name"] for r in APIClient().get("/api/v1/rulesets/").json()["results"]]
    assert {played.name, shared.name} <= set(names)
