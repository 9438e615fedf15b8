"""A rule set's name is taken once in its club, and once among the rule sets shared by all clubs. A second one of
the same name is a 400 that says so on the name field, through the API as in the admin: schemathesis found the
shared case answered 500 (the database's unique constraint, never asked before the insert)."""

from __future__ import annotations

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
from tournaments.models import RuleSet

pytestmark = pytest.mark.django_db

URL = "/api/v1/rulesets/"


def api(user: object) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_second_shared_rule_set_of_the_same_name_is_refused_on_its_name() -> None:
    root = api(UserFactory(is_superuser=True, is_staff=True))
    body = {"game": "zwicken", "name": "zwicken", "preset": "zwicken"}
    assert root.post(URL, body, format="json").status_code == 201
    again = root.post(URL, body, format="json")
    assert again.status_code == 400
    assert again.json() == {"name": ["A rule set shared by all clubs already has this name."]}
    assert RuleSet.objects.filter(name="zwicken", club=None).count() == 1


def test_renaming_a_shared_rule_set_to_a_taken_name_is_refused() -> None:
    RuleSetFactory(name="Café rules")
    other = RuleSetFactory(name="Other rules")
    answer = api(UserFactory(is_superuser=True, is_staff=True)).patch(
        f"{URL}{other.pk}/", {"name": "Café rules"}, format="json"
    )
    assert answer.status_code == 400 and list(answer.json()) == ["name"]
    other.refresh_from_db()
    assert other.name == "Other rules"


@pytest.mark.parametrize("in_a_club", [False, True])
def test_a_rule_set_edited_under_its_own_name_is_not_its_own_namesake(in_a_club: bool) -> None:
    rule_set = RuleSetFactory(name="Eigen", club=ClubFactory() if in_a_club else None)
    answer = api(UserFactory(is_superuser=True, is_staff=True)).patch(
        f"{URL}{rule_set.pk}/", {"name": "Eigen", "overrides": {"penalty": 9}}, format="json"
    )
    assert answer.status_code == 200, answer.content
    rule_set.refresh_from_db()
    assert rule_set.overrides == {"penalty": 9}


def test_a_name_taken_in_one_club_is_free_in_another_and_among_the_shared() -> None:
    first, second = ClubFactory(), ClubFactory()
    admin = UserFactory()
    MembershipFactory(club=second, player=PlayerFactory(user=admin), is_admin=True)
    RuleSetFactory(name="Huisregels", club=first)
    body = {"game": "wiezen", "name": "Huisregels", "preset": "iwwa", "club": second.pk}
    assert api(admin).post(URL, body, format="json").status_code == 201
    again = api(admin).post(URL, body, format="json")
    assert again.status_code == 400
    assert RuleSet.objects.filter(name="Huisregels").count() == 2


def test_the_admin_says_the_shared_name_is_taken_in_words() -> None:
    RuleSetFactory(name="Gedeeld")
    client = Client()
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    form = {"name": "Gedeeld", "game": "wiezen", "preset": "iwwa", "overrides": "{}"}
    answer = client.post(reverse("admin:tournaments_ruleset_add"), form)
    assert answer.status_code == 200  # the form again, with the error
    text = answer.content.decode()
    assert "A rule set shared by all clubs already has this name." in text
    assert "rule_set_name_global" not in text
    assert RuleSet.objects.filter(name="Gedeeld").count() == 1


def conditional_unique_models() -> set[type]:
    from django.apps import apps
    from django.db.models import UniqueConstraint

    return {
        model
        for model in apps.get_models()
        for constraint in model._meta.constraints
        if isinstance(constraint, UniqueConstraint) and constraint.condition is not None
    }


def test_every_model_the_api_writes_under_a_conditional_unique_constraint_is_checked_above() -> None:
    """DRF's serializers do not ask a unique constraint with a condition before the insert; a serializer must
    (``validate_constraints``). Every viewset that creates or updates such a model is listed here, so a new one
    fails until it has its own test."""
    from rest_framework import mixins

    from tournaments.api.urls import router

    written = {
        viewset.serializer_class.Meta.model
        for _prefix, viewset, _basename in router.registry
        if issubclass(viewset, mixins.CreateModelMixin | mixins.UpdateModelMixin)
        and getattr(viewset, "serializer_class", None) is not None
    }
    assert written & conditional_unique_models() == {RuleSet}


def test_a_hidden_competition_s_own_rule_set_is_not_listed_for_those_who_may_not_see_it() -> None:
    """Its rule set is named after it ("Rivaal avond"): the public, a stranger and another club's administrator
    neither list nor open it; its club's administrator does, and a shared rule set stays everyone's."""
    club = ClubFactory()
    own = RuleSetFactory(club=club, name="Rivaal avond")
    CompetitionFactory(club=club, rule_set=own, is_public=False, name="Rivaal avond")
    shared = RuleSetFactory(club=None, name="Shared rules")
    CompetitionFactory(club=club, rule_set=shared, is_public=False)
    admin = UserFactory()
    MembershipFactory(club=club, player=PlayerFactory(user=admin), is_admin=True)
    other_admin = UserFactory()
    MembershipFactory(club=ClubFactory(), player=PlayerFactory(user=other_admin), is_admin=True)

    for client in (APIClient(), api(UserFactory()), api(other_admin)):
        names = [r["name"] for r in client.get(URL).json()["results"]]
        assert "Rivaal avond" not in names and "Shared rules" in names
        assert client.get(f"{URL}{own.pk}/").status_code == 404
    assert "Rivaal avond" in [r["name"] for r in api(admin).get(URL).json()["results"]]
    assert api(admin).get(f"{URL}{own.pk}/").status_code == 200
