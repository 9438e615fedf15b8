"""Issue 14, class 4: objects that do not belong together are refused on every write path.

Every model with two or more references declares in ``tournaments.integrity`` which of them must agree
(``PAIRS``) or why they need not (``INDEPENDENT``). For each declared pair a mismatched object is built and
refused by the model's validation, the admin's form, the service and the API endpoint that write it; a new
model with two references, or a new pair, fails here until it has its rule and its cases.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import models
from django.forms import JSONField as JSONFormField
from django.forms.models import model_to_dict
from django.test import RequestFactory
from rest_framework import mixins
from rest_framework.test import APIClient

from tests.factories import MembershipFactory, PlayerFactory, RuleSetFactory, UserFactory, seated_competition
from tournaments.api.urls import router
from tournaments.integrity import INDEPENDENT, PAIRS
from tournaments.models import (
    Competition,
    Penalty,
    Player,
    Round,
    RuleSet,
    ScoreSheet,
    Seat,
    SeatingWish,
    SeatResult,
    Table,
)
from tournaments.services.competitions import create_competition, update_competition
from tournaments.services.errors import ServiceError
from tournaments.services.penalties import give_penalty
from tournaments.services.rounds import create_round, reseat_round

pytestmark = pytest.mark.django_db


def _references(model: type[models.Model]) -> list[str]:
    return [
        f.name
        for f in model._meta.get_fields()
        if f.concrete and f.is_relation and (f.many_to_one or f.one_to_one or f.many_to_many)
    ]


def _project_models() -> list[type[models.Model]]:
    base = Path(settings.BASE_DIR).resolve()
    return [
        model
        for config in apps.get_app_configs()
        if base in Path(config.path).resolve().parents and ".venv" not in Path(config.path).parts
        for model in config.get_models()
    ]


MODELS_WITH_REFERENCES = [m._meta.label for m in _project_models() if len(_references(m)) >= 2]


@pytest.mark.parametrize("label", MODELS_WITH_REFERENCES)
def test_every_model_with_two_references_says_what_belongs_together(label: str) -> None:
    assert (label in PAIRS) != (label in INDEPENDENT), f"{label}: declare its rule in tournaments.integrity"
    for pair in PAIRS.get(label, ()):
        fields = {f.name for f in apps.get_model(label)._meta.get_fields()}
        assert set(pair) <= fields, f"{label}: {pair} names a field the model does not have"


def test_the_declarations_name_real_models() -> None:
    for label in [*PAIRS, *INDEPENDENT]:
        assert apps.get_model(label) is not None
    assert "tournaments.Penalty" in MODELS_WITH_REFERENCES  # the enumeration sees the project's models


# -- a world with two clubs ------------------------------------------------------------------------------------------


@dataclass
class World:
    a: Competition  # club A's competition, seated
    b: Competition  # club B's competition, seated
    stranger: Player  # registered nowhere
    b_rules: RuleSet  # club B's own rule set
    zwicken: RuleSet  # a shared rule set of another game
    superuser: Any
    a_admin: Any
    b_admin: Any

    def player(self, competition: Competition, n: int = 0) -> Player:
        return competition.players.order_by("pk")[n]

    def round(self, competition: Competition) -> Round:
        return competition.rounds.get(number=1)

    def table(self, competition: Competition) -> Table:
        return Table.objects.filter(round__competition=competition).order_by("number").first()  # type: ignore[return-value]


@pytest.fixture
def world() -> World:
    a, b = seated_competition(players=4), seated_competition(players=4)
    superuser = UserFactory(username="root", is_staff=True, is_superuser=True)
    a_admin, b_admin = UserFactory(username="a-admin", is_staff=True), UserFactory(username="b-admin", is_staff=True)
    MembershipFactory(club=a.club, player=PlayerFactory(user=a_admin), is_admin=True)
    MembershipFactory(club=b.club, player=PlayerFactory(user=b_admin), is_admin=True)
    return World(
        a=a,
        b=b,
        stranger=PlayerFactory(),
        b_rules=RuleSetFactory(club=b.club),
        zwicken=RuleSetFactory(game="zwicken", preset="zwicken"),
        superuser=superuser,
        a_admin=a_admin,
        b_admin=b_admin,
    )


# -- one mismatched object for every declared pair -------------------------------------------------------------------


def _competition_with(rule_set_of: Callable[[World], RuleSet]) -> Callable[[World], Competition]:
    def build(w: World) -> Competition:
        competition = Competition.objects.get(pk=w.a.pk)
        competition.rule_set = rule_set_of(w)
        return competition

    return build


def _seat_at_a(w: World, *, round_: Round, player: Player) -> Seat:
    table = w.table(w.a)
    return Seat(table=table, round=round_, position=4, player=player)


Case = tuple[str, str, str]  # model label, the field that carries the error, the reference it must agree with

BUILDERS: dict[Case, Callable[[World], models.Model]] = {
    ("tournaments.Competition", "rule_set", "club"): _competition_with(lambda w: w.b_rules),
    ("tournaments.Competition", "rule_set", "game"): _competition_with(lambda w: w.zwicken),
    ("tournaments.Penalty", "round", "competition"): lambda w: Penalty(
        competition=w.a, round=w.round(w.b), player=w.player(w.a), points=5, reason="late"
    ),
    ("tournaments.Penalty", "player", "competition"): lambda w: Penalty(
        competition=w.a, round=w.round(w.a), player=w.stranger, points=5, reason="late"
    ),
    ("tournaments.SeatingWish", "player", "competition"): lambda w: SeatingWish(
        competition=w.a, player=w.stranger, other=w.player(w.a), kind="apart"
    ),
    ("tournaments.SeatingWish", "other", "competition"): lambda w: SeatingWish(
        competition=w.a, player=w.player(w.a), other=w.player(w.b), kind="apart"
    ),
    ("tournaments.Seat", "round", "table"): lambda w: _seat_at_a(w, round_=w.round(w.b), player=w.player(w.a)),
    ("tournaments.Seat", "player", "round"): lambda w: _seat_at_a(w, round_=w.round(w.a), player=w.stranger),
    ("tournaments.SeatResult", "player", "sheet"): lambda w: SeatResult(
        sheet=ScoreSheet.objects.get(table=w.table(w.a)), position=0, player=w.player(w.b)
    ),
}
CASES: list[Case] = [(label, first, second) for label, pairs in PAIRS.items() for first, second in pairs]
IDS = [f"{label.split('.')[1]}.{first}-vs-{second}" for label, first, second in CASES]


def _build(w: World, label: str, first: str, second: str) -> models.Model:
    return BUILDERS[(label, first, second)](w)


def _stored(obj: models.Model) -> int:
    return type(obj)._default_manager.count()


@pytest.mark.parametrize(("label", "first", "second"), CASES, ids=IDS)
def test_model_validation_refuses_a_mismatch(world: World, label: str, first: str, second: str) -> None:
    obj = _build(world, label, first, second)
    with pytest.raises(ValidationError) as refused:
        obj.full_clean()
    assert first in refused.value.message_dict, refused.value.message_dict
    assert all(m and "%(" not in m for m in refused.value.message_dict[first])


# -- the admin's forms (as a superuser: every object is on offer, the rule still holds) --------------------------------


def _form_data(form: Any, obj: models.Model) -> dict[str, Any]:
    values = model_to_dict(obj)
    data: dict[str, Any] = {}
    for name, field in form.base_fields.items():
        value = values.get(name)
        if isinstance(value, models.Model):
            value = value.pk
        elif isinstance(value, list) and value and isinstance(value[0], models.Model):
            value = [v.pk for v in value]
        elif isinstance(field, JSONFormField):
            value = json.dumps(value)
        if value is None:
            value = ""
        data[name] = value
    return data


ADMIN_CASES = [case for case in CASES if apps.get_model(case[0]) in admin.site._registry]


@pytest.mark.parametrize(("label", "first", "second"), ADMIN_CASES, ids=[IDS[CASES.index(c)] for c in ADMIN_CASES])
def test_the_admin_form_refuses_a_mismatch(world: World, label: str, first: str, second: str) -> None:
    obj = _build(world, label, first, second)
    model_admin = admin.site._registry[type(obj)]
    request = RequestFactory().post("/admin/")
    request.user = world.superuser
    stored = type(obj)._default_manager.get(pk=obj.pk) if obj.pk else None
    form_class = model_admin.get_form(request, stored, change=stored is not None)
    if first not in form_class.base_fields:  # the admin derives it from the other reference: no mismatch to post
        assert second in form_class.base_fields
        return
    form = form_class(data=_form_data(form_class, obj), instance=stored)
    before = _stored(obj)
    assert not form.is_valid()
    assert first in form.errors, form.errors
    assert _stored(obj) == before


# -- the services ------------------------------------------------------------------------------------------------------


def _service_competition_update(w: World, rule_set: RuleSet) -> None:
    update_competition(w.a, rule_set=rule_set)


SERVICES: dict[Case, Callable[[World], Any]] = {
    ("tournaments.Competition", "rule_set", "club"): lambda w: create_competition(
        club=w.a.club, name="Other club's rules", slug="other-rules", rule_set=w.b_rules
    ),
    ("tournaments.Competition", "rule_set", "game"): lambda w: _service_competition_update(w, w.zwicken),
    ("tournaments.Penalty", "round", "competition"): lambda w: give_penalty(
        w.a, w.player(w.a), 5, "late", round_=w.round(w.b)
    ),
    ("tournaments.Penalty", "player", "competition"): lambda w: give_penalty(
        w.a, w.stranger, 5, "late", round_=w.round(w.a)
    ),
    ("tournaments.Seat", "player", "round"): lambda w: create_round(
        w.a, players=[*w.a.players.values_list("pk", flat=True), w.stranger.pk]
    ),
}
# pairs no service writes from outside input, and why
NO_SERVICE: dict[Case, str] = {
    ("tournaments.SeatingWish", "player", "competition"): "wishes are written by the admin and the archive import only",
    ("tournaments.SeatingWish", "other", "competition"): "wishes are written by the admin and the archive import only",
    ("tournaments.Seat", "round", "table"): "the seating services make a round's tables themselves",
    ("tournaments.SeatResult", "player", "sheet"): "the entry service derives seat results from the table's seats",
}


@pytest.mark.parametrize(("label", "first", "second"), CASES, ids=IDS)
def test_the_service_refuses_a_mismatch(world: World, label: str, first: str, second: str) -> None:
    key = (label, first, second)
    assert (key in SERVICES) != (key in NO_SERVICE), f"{key}: say which service writes it, or why none does"
    if key not in SERVICES:
        return
    before = {m: m.objects.count() for m in (Competition, Penalty, Seat, Round)}
    with pytest.raises((ValidationError, ServiceError)) as refused:
        SERVICES[key](world)
    if isinstance(refused.value, ValidationError):
        assert first in refused.value.message_dict
    assert {m: m.objects.count() for m in before} == before


def test_reseating_refuses_a_player_who_is_not_registered(world: World) -> None:
    round_ = world.round(world.a)
    round_.status = Round.Status.DRAFT
    round_.save()
    with pytest.raises(ServiceError, match="not registered") as refused:
        reseat_round(round_, players=[*world.a.players.values_list("pk", flat=True), world.stranger.pk])
    # the stranger by the name public pages show, as a person reads it: no ids, no Python list, no full name
    assert world.stranger.public_name in str(refused.value)
    assert world.stranger.last_name not in str(refused.value)
    assert "[" not in str(refused.value)


# -- the API -----------------------------------------------------------------------------------------------------------

API: dict[Case, Callable[[World], tuple[str, str, dict[str, Any]]]] = {
    ("tournaments.Competition", "rule_set", "club"): lambda w: (
        "patch",
        f"/api/v1/competitions/{w.a.pk}/",
        {"rule_set": w.b_rules.pk},
    ),
    ("tournaments.Competition", "rule_set", "game"): lambda w: (
        "patch",
        f"/api/v1/competitions/{w.a.pk}/",
        {"rule_set": w.zwicken.pk},
    ),
    ("tournaments.Penalty", "round", "competition"): lambda w: (
        "post",
        "/api/v1/penalties/",
        {"competition": w.a.pk, "round": w.round(w.b).pk, "player": w.player(w.a).pk, "points": 5, "reason": "late"},
    ),
    ("tournaments.Penalty", "player", "competition"): lambda w: (
        "post",
        "/api/v1/penalties/",
        {"competition": w.a.pk, "player": w.stranger.pk, "points": 5, "reason": "late"},
    ),
    ("tournaments.Seat", "player", "round"): lambda w: (
        "post",
        "/api/v1/rounds/",
        {"competition": w.a.pk, "players": [*w.a.players.values_list("pk", flat=True), w.stranger.pk]},
    ),
}


def _writing_endpoints() -> set[str]:
    """Models the API creates or changes directly (router viewsets with create or update)."""
    labels = set()
    for _prefix, viewset, _basename in router.registry:
        writes = issubclass(viewset, mixins.CreateModelMixin | mixins.UpdateModelMixin)
        serializer = getattr(viewset, "serializer_class", None)
        if writes and serializer is not None:
            labels.add(serializer.Meta.model._meta.label)
    return labels


def test_every_declared_model_the_api_writes_has_api_cases() -> None:
    written = _writing_endpoints()
    assert "tournaments.Penalty" in written
    for label, first, second in CASES:
        if label in written:
            assert (label, first, second) in API, f"{label} is written by the API: add its mismatch case"


API_CASES = [case for case in CASES if case in API]


@pytest.mark.parametrize("role", ["superuser", "a_admin"])
@pytest.mark.parametrize(("label", "first", "second"), API_CASES, ids=[IDS[CASES.index(c)] for c in API_CASES])
def test_the_api_refuses_a_mismatch(world: World, label: str, first: str, second: str, role: str) -> None:
    method, url, body = API[(label, first, second)](world)
    client = APIClient()
    client.force_authenticate(getattr(world, role))
    before = {m: m.objects.count() for m in (Penalty, Seat, Round)}
    rule_set = Competition.objects.get(pk=world.a.pk).rule_set_id
    response = getattr(client, method)(url, body, format="json")
    assert response.status_code == 400, response.content
    assert {m: m.objects.count() for m in before} == before
    assert Competition.objects.get(pk=world.a.pk).rule_set_id == rule_set


def test_the_issue_penalty_from_club_b_naming_club_a_round_and_a_stranger_is_refused(world: World) -> None:
    """The finding: club B's administrator posted a penalty on B's competition naming A's round and a player
    nobody registered: 201, and the stranger appeared in B's standings."""
    client = APIClient()
    client.force_authenticate(world.b_admin)
    body = {
        "competition": world.b.pk,
        "round": world.round(world.a).pk,
        "player": world.stranger.pk,
        "points": 5,
        "reason": "late",
    }
    response = client.post("/api/v1/penalties/", body, format="json")
    assert response.status_code == 400
    assert set(response.json()) >= {"round", "player"}
    assert not Penalty.objects.exists()
    assert not world.b.standings.filter(player=world.stranger).exists()


def test_a_penalty_that_belongs_is_still_given(world: World) -> None:
    client = APIClient()
    client.force_authenticate(world.a_admin)
    body = {
        "competition": world.a.pk,
        "round": world.round(world.a).pk,
        "player": world.player(world.a).pk,
        "points": 5,
        "reason": "late",
    }
    assert client.post("/api/v1/penalties/", body, format="json").status_code == 201
    assert Penalty.objects.filter(competition=world.a).count() == 1


def test_a_competition_may_take_its_own_club_s_or_a_shared_rule_set_before_play(world: World) -> None:
    fresh = create_competition(
        club=world.a.club, name="Fresh", slug="fresh", rule_set=RuleSetFactory(club=world.a.club)
    )
    client = APIClient()
    client.force_authenticate(world.a_admin)
    shared = RuleSetFactory(preset="flemish")
    response = client.patch(f"/api/v1/competitions/{fresh.pk}/", {"rule_set": shared.pk}, format="json")
    assert response.status_code == 200, response.content
    assert Competition.objects.get(pk=fresh.pk).rule_set == shared


def test_the_api_creates_no_competition_under_another_club_s_rule_set(world: World) -> None:
    client = APIClient()
    client.force_authenticate(world.a_admin)
    body = {"club": world.a.club.pk, "name": "Borrowed", "slug": "borrowed", "rule_set": world.b_rules.pk}
    response = client.post("/api/v1/competitions/", body, format="json")
    assert response.status_code == 400, response.content
    assert "rule_set" in response.json()
    assert not Competition.objects.filter(slug="borrowed").exists()


def test_a_registration_someone_played_under_is_not_moved_to_another_player(world: World) -> None:
    """Seats and penalties name the registered player: moving the registration would leave them a stranger's."""
    from tournaments.integrity import removal_problem
    from tournaments.models import Registration

    registration = Registration.objects.get(competition=world.a, player=world.player(world.a))
    assert removal_problem(registration) is not None
    registration.player = world.stranger
    with pytest.raises(ValidationError) as refused:
        registration.full_clean()
    assert "withdraw them instead" in " ".join(refused.value.message_dict["player"])
    unseated = Registration.objects.create(competition=world.a, player=PlayerFactory())
    assert removal_problem(unseated) is None
    unseated.player = world.stranger
    unseated.full_clean()  # nobody played under it yet: a typo is still fixed


def test_the_admin_keeps_a_registration_someone_played_under(world: World, client: Any) -> None:
    from tournaments.models import Registration

    registration = Registration.objects.get(competition=world.a, player=world.player(world.a))
    client.force_login(world.superuser)
    response = client.post(f"/admin/tournaments/registration/{registration.pk}/delete/", {"post": "yes"})
    assert response.status_code == 403
    assert Registration.objects.filter(pk=registration.pk).exists()
    unseated = Registration.objects.create(competition=world.a, player=PlayerFactory())
    response = client.post(f"/admin/tournaments/registration/{unseated.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Registration.objects.filter(pk=unseated.pk).exists()


def test_the_competition_admin_keeps_a_registration_someone_played_under_among_its_rows(world: World) -> None:
    from tournaments.admin import RegistrationInline

    request = RequestFactory().post("/admin/")
    request.user = world.superuser
    inline = RegistrationInline(Competition, admin.site)
    formset_class = inline.get_formset(request, world.a)
    rows = list(world.a.registrations.order_by("pk"))
    prefix = formset_class.get_default_prefix()
    data = {f"{prefix}-TOTAL_FORMS": len(rows), f"{prefix}-INITIAL_FORMS": len(rows)}
    for i, row in enumerate(rows):
        data.update({f"{prefix}-{i}-id": row.pk, f"{prefix}-{i}-competition": world.a.pk})
        data[f"{prefix}-{i}-player"] = row.player_id
    data[f"{prefix}-0-DELETE"] = "on"
    formset = formset_class(data=data, instance=world.a, prefix=prefix)
    assert not formset.is_valid()
    assert "withdraw them instead" in " ".join(formset.non_form_errors())
