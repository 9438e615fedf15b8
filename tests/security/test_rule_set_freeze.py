"""Issue 14, class 4: a rule set freezes once played, so every sheet stays settled by the rules it was played under.

Played means a competition under it has a line entered, a round finalised, or is closed. Then its game, preset
and overrides cannot change through the model, the API (PUT and PATCH), the admin or the organiser's page, and
the competition cannot switch to another rule set (nor ever to another club's).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.forms import JSONField as JSONFormField
from django.forms.models import model_to_dict
from django.test import Client, RequestFactory
from django.urls import reverse
from rest_framework.test import APIClient

from games import find
from games.generate import random_session
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    MembershipFactory,
    PlayerFactory,
    RuleSetFactory,
    UserFactory,
)
from tournaments.forms.manage import CompetitionForm
from tournaments.models import Competition, Round, RuleSet, ScoreSheet
from tournaments.services.competitions import register_players, save_competition, update_competition
from tournaments.services.entry import record_deal
from tournaments.services.rounds import create_round, publish_round
from tournaments.services.seasons import close_competition

pytestmark = pytest.mark.django_db


def _enter_a_line(competition: Competition) -> None:
    sheet = ScoreSheet.objects.filter(table__round__competition=competition).first()
    assert sheet is not None
    record_deal(sheet, random_session(find(competition.rule_set.preset), random.Random(1), 4, 16)[0])


def _finalise_a_round(competition: Competition) -> None:
    Round.objects.filter(competition=competition).update(status=Round.Status.FINALISED)


def _close(competition: Competition) -> None:
    close_competition(competition)


PLAYED: dict[str, Callable[[Competition], None]] = {
    "line-entered": _enter_a_line,
    "round-finalised": _finalise_a_round,
    "competition-closed": _close,
}

# a change to each of the rules' fields, as the API takes it
CHANGES: dict[str, dict[str, Any]] = {
    "preset": {"preset": "flemish"},
    "overrides": {"overrides": {"penalty": 9}},
    "game": {"game": "solo_whist", "preset": "solo_whist"},
}


class Club:
    def __init__(self) -> None:
        self.club = ClubFactory()
        self.admin = UserFactory(is_staff=True)
        MembershipFactory(club=self.club, player=PlayerFactory(user=self.admin), is_admin=True)
        self.rules = RuleSetFactory(club=self.club, preset="iwwa")
        self.competition = CompetitionFactory(club=self.club, rule_set=self.rules)
        register_players(self.competition, PlayerFactory.create_batch(4))
        publish_round(create_round(self.competition))


@pytest.fixture
def club() -> Club:
    return Club()


@pytest.fixture
def superuser() -> Any:
    return UserFactory(username="root", is_staff=True, is_superuser=True)


def _rules(rule_set: RuleSet) -> tuple[str, str, Any]:
    stored = RuleSet.objects.get(pk=rule_set.pk)
    return stored.game, stored.preset, stored.overrides


def _api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


# -- the rule set's own rules --------------------------------------------------------------------------------------


@pytest.mark.parametrize("change", list(CHANGES))
@pytest.mark.parametrize("played", list(PLAYED))
def test_model_validation_refuses_to_change_rules_in_play(club: Club, played: str, change: str) -> None:
    PLAYED[played](club.competition)
    rule_set = RuleSet.objects.get(pk=club.rules.pk)
    for field, value in CHANGES[change].items():
        setattr(rule_set, field, value)
    with pytest.raises(ValidationError) as refused:
        rule_set.full_clean()
    assert change in refused.value.message_dict
    assert "played" in " ".join(refused.value.message_dict[change])


@pytest.mark.parametrize("method", ["put", "patch"])
@pytest.mark.parametrize("change", list(CHANGES))
@pytest.mark.parametrize("played", list(PLAYED))
def test_the_api_refuses_to_change_rules_in_play(club: Club, played: str, change: str, method: str) -> None:
    PLAYED[played](club.competition)
    before = _rules(club.rules)
    body = CHANGES[change]
    if method == "put":
        body = {
            "name": club.rules.name,
            "club": club.club.pk,
            "game": "wiezen",
            "preset": "iwwa",
            "overrides": {},
            **body,
        }
    response = getattr(_api(club.admin), method)(f"/api/v1/rulesets/{club.rules.pk}/", body, format="json")
    assert response.status_code == 400, response.content
    assert change in response.json()
    assert _rules(club.rules) == before


@pytest.mark.parametrize("change", list(CHANGES))
@pytest.mark.parametrize("played", list(PLAYED))
def test_the_admin_refuses_to_change_rules_in_play(club: Club, superuser: Any, played: str, change: str) -> None:
    PLAYED[played](club.competition)
    before = _rules(club.rules)
    data = {"name": club.rules.name, "club": club.club.pk, "game": "wiezen", "preset": "iwwa", "overrides": "{}"}
    data.update({k: json.dumps(v) if k == "overrides" else v for k, v in CHANGES[change].items()})
    client = Client()
    client.force_login(superuser)
    response = client.post(reverse("admin:tournaments_ruleset_change", args=[club.rules.pk]), data)
    assert response.status_code == 200  # the form again, with the error
    assert change in response.context["adminform"].form.errors
    assert _rules(club.rules) == before


@pytest.mark.parametrize("played", list(PLAYED))
def test_the_organiser_page_refuses_to_change_rules_in_play(club: Club, played: str) -> None:
    PLAYED[played](club.competition)
    before = _rules(club.rules)
    form = {k: v for k, v in CompetitionForm.initial_for(club.competition).items() if v is not None}
    form.update({"overrides": '{"penalty": 9}', "visibility": club.competition.visibility})
    client = Client()
    client.force_login(club.admin)
    response = client.post(reverse("manage-competition-edit", args=[club.competition.slug]), form)
    assert response.status_code == 200  # the form again, with the error
    assert _rules(club.rules) == before
    assert Competition.objects.get(pk=club.competition.pk).rule_set_id == club.rules.pk


@pytest.mark.parametrize("played", list(PLAYED))
def test_the_service_refuses_to_change_rules_in_play(club: Club, played: str) -> None:
    PLAYED[played](club.competition)
    competition = Competition.objects.get(pk=club.competition.pk)
    with pytest.raises(ValidationError) as refused:
        save_competition(
            competition,
            game="wiezen",
            preset="iwwa",
            overrides={"penalty": 9},
            visibility=competition.visibility,
            name=competition.name,
            slug=competition.slug,
        )
    assert "overrides" in refused.value.message_dict
    assert _rules(club.rules) == ("wiezen", "iwwa", {})


def test_rules_not_yet_played_still_change(club: Club) -> None:
    """Seated but nothing entered: the organiser may still fix the rules (the freeze is not a blanket lock)."""
    response = _api(club.admin).patch(
        f"/api/v1/rulesets/{club.rules.pk}/", {"overrides": {"penalty": 9}}, format="json"
    )
    assert response.status_code == 200, response.content
    assert _rules(club.rules) == ("wiezen", "iwwa", {"penalty": 9})


def test_the_issue_a_shared_rule_set_played_by_another_club_stays(club: Club, superuser: Any) -> None:
    """The finding: an edit of a rule set another club's closed competition was played under changed its sheets."""
    shared = RuleSetFactory(preset="iwwa")  # no club: shared by every club
    other = CompetitionFactory(club=ClubFactory(), rule_set=shared)
    close_competition(other)
    response = _api(superuser).patch(f"/api/v1/rulesets/{shared.pk}/", {"preset": "flemish"}, format="json")
    assert response.status_code == 400
    assert _rules(shared) == ("wiezen", "iwwa", {})


def test_a_rule_set_does_not_move_to_a_club_whose_competitions_do_not_use_it(club: Club, superuser: Any) -> None:
    elsewhere = ClubFactory()
    response = _api(superuser).patch(f"/api/v1/rulesets/{club.rules.pk}/", {"club": elsewhere.pk}, format="json")
    assert response.status_code == 400
    assert "club" in response.json()
    assert RuleSet.objects.get(pk=club.rules.pk).club_id == club.club.pk


# -- a competition's choice of rule set -----------------------------------------------------------------------------

SWITCH_TO: dict[str, Callable[[Club], RuleSet]] = {
    "another-clubs-rule-set": lambda c: RuleSetFactory(club=ClubFactory()),
    "own-clubs-other-rule-set": lambda c: RuleSetFactory(club=c.club, preset="flemish"),
    "a-shared-rule-set": lambda c: RuleSetFactory(preset="flemish"),
}


def _may_switch(target: str, played: str | None) -> bool:
    return target != "another-clubs-rule-set" and played is None


@pytest.mark.parametrize("played", [None, *PLAYED])
@pytest.mark.parametrize("target", list(SWITCH_TO))
def test_the_api_lets_a_competition_switch_rule_sets_only_to_its_club_s_before_play(
    club: Club, target: str, played: str | None
) -> None:
    if played is not None:
        PLAYED[played](club.competition)
    rule_set = SWITCH_TO[target](club)
    url = f"/api/v1/competitions/{club.competition.pk}/"
    response = _api(club.admin).patch(url, {"rule_set": rule_set.pk}, format="json")
    stored = Competition.objects.get(pk=club.competition.pk).rule_set_id
    if _may_switch(target, played):
        assert response.status_code == 200, response.content
        assert stored == rule_set.pk
    else:
        assert response.status_code == 400, response.content
        assert stored == club.rules.pk


def _admin_form(user: Any, competition: Competition, rule_set: RuleSet) -> Any:
    model_admin = admin.site._registry[Competition]
    request = RequestFactory().post("/admin/")
    request.user = user
    form_class = model_admin.get_form(request, competition, change=True)
    values = {**model_to_dict(competition), "rule_set": rule_set.pk}
    data: dict[str, Any] = {}
    for name, field in form_class.base_fields.items():
        value = values.get(name)
        if isinstance(value, list) and value and hasattr(value[0], "pk"):
            value = [v.pk for v in value]
        elif isinstance(field, JSONFormField):
            value = json.dumps(value)
        data[name] = "" if value is None else value
    return form_class(data=data, instance=competition)


@pytest.mark.parametrize("played", [None, *PLAYED])
@pytest.mark.parametrize("target", list(SWITCH_TO))
def test_the_admin_lets_a_competition_switch_rule_sets_only_to_its_club_s_before_play(
    club: Club, superuser: Any, target: str, played: str | None
) -> None:
    if played is not None:
        PLAYED[played](club.competition)
    rule_set = SWITCH_TO[target](club)
    competition = Competition.objects.get(pk=club.competition.pk)
    form = _admin_form(superuser, competition, rule_set)
    if _may_switch(target, played):
        assert form.is_valid(), form.errors
    else:
        assert not form.is_valid()
        assert form.errors  # beside the rule set, or (closed) the competition's lock
    assert Competition.objects.get(pk=club.competition.pk).rule_set_id == club.rules.pk


def test_the_service_refuses_a_switch_once_played(club: Club) -> None:
    _enter_a_line(club.competition)
    with pytest.raises(ValidationError) as refused:
        update_competition(club.competition, rule_set=SWITCH_TO["own-clubs-other-rule-set"](club))
    assert "rule_set" in refused.value.message_dict
    assert Competition.objects.get(pk=club.competition.pk).rule_set_id == club.rules.pk
