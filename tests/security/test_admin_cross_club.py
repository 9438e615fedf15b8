"""Issue 14, class 1: the admin's choices never cross clubs.

A club B administrator (staff, every permission of our apps) is offered only club B's objects in every
foreign-key and many-to-many field of every admin form and inline, and a form naming club A's object is
refused on save even when the posted value gets past the offered choices (defence in depth); a superuser
still names anything. The cases come from the admin registry and the models' fields.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.admin.sites import site
from django.db.models import Model
from django.http import QueryDict
from django.test import Client

from tests.security.admin_world import World, admin_models, build_world
from tournaments.models import Membership, Penalty, Player, Registration, RuleSet
from tournaments.permissions import not_yours

pytestmark = pytest.mark.django_db


def _reference_fields(model: type[Model], parent: type[Model] | None = None) -> list[str]:
    """The model's own foreign keys, one-to-ones and many-to-manys (an inline's key to its parent left out)."""
    names = []
    for f in model._meta.get_fields():
        if not f.is_relation or f.auto_created or not (f.concrete or f.many_to_many):
            continue
        if parent is not None and f.related_model is parent and not f.many_to_many:
            continue
        names.append(f.name)
    return names


def _cases() -> list[Any]:
    cases = []
    for model, model_admin in admin_models():
        for name in _reference_fields(model):
            for mode in ("add", "change"):
                cases.append(pytest.param(model, None, name, mode, id=f"{model._meta.label}.{name}-{mode}"))
        for inline in model_admin.inlines:
            for name in _reference_fields(inline.model, model):
                label = f"{model._meta.label}>{inline.model.__name__}.{name}"
                for mode in ("add", "change"):
                    cases.append(pytest.param(model, inline, name, mode, id=f"{label}-{mode}"))
    return cases


CASES = _cases()


@pytest.fixture
def world() -> World:
    return build_world()


def _form(world: World, user: Any, model: type[Model], inline: Any, mode: str) -> tuple[Any, Model | None]:
    """The admin's form class for ``user`` (the parent's or an inline's) and the club B instance it edits."""
    request = world.request(user)
    model_admin = site._registry[model]
    if inline is None:
        obj = world.b.of(model) if mode == "change" else None
        return model_admin.get_form(request, obj, change=obj is not None), obj
    parent = world.b.of(model)
    formset = inline(model, site).get_formset(request, parent)
    child = world.b.of(inline.model) if mode == "change" else None
    return formset.form, child


def _foreign(world: World, related: type[Model]) -> Model:
    return world.a.of(related)


def _data(name: str, field: Any, obj: Model) -> QueryDict:
    data = QueryDict(mutable=True)
    if hasattr(field, "queryset") and field.__class__.__name__.startswith("ModelMultiple"):
        data.setlist(name, [str(obj.pk)])
    else:
        data[name] = str(obj.pk)
    return data


def test_the_matrix_covers_the_issue_s_fields() -> None:
    ids = {c.id for c in CASES}
    for case in ("tournaments.Membership.club-add", "tournaments.Penalty.competition-add"):
        assert case in ids
    assert "tournaments.Registration.competition-add" in ids
    assert "tournaments.Competition>Registration.player-change" in ids
    assert len(CASES) > 40


@pytest.mark.parametrize(("model", "inline", "name", "mode"), CASES)
def test_a_form_offers_and_takes_only_the_administrators_clubs_objects(
    world: World, model: type[Model], inline: Any, name: str, mode: str
) -> None:
    """Club B's administrator is not offered club A's object, and a form naming it is refused on save even when
    offered every object (defence in depth); a superuser is offered it and may name it."""
    form_class, instance = _form(world, world.b.admin, model, inline, mode)
    field = form_class(instance=instance).fields.get(name)
    if field is None:  # read-only or left out: the form takes no value for it at all
        assert name not in form_class.base_fields
        return
    related = field.queryset.model
    foreign = _foreign(world, related)
    assert not field.queryset.filter(pk=foreign.pk).exists(), f"{name} offers club A's {foreign!r}"
    own = world.b.objects.get(related._meta.label)
    if own is not None and related is not Player:  # B's own object stays on offer
        assert field.queryset.filter(pk=own.pk).exists()

    form = form_class(data=_data(name, field, foreign), instance=instance)
    assert not form.is_valid()
    assert name in form.errors
    widened = form_class(data=_data(name, field, foreign), instance=instance)
    widened.fields[name].queryset = related._default_manager.all()
    assert not widened.is_valid()
    assert not_yours(foreign) in widened.errors.get(name, [])

    super_class, instance = _form(world, world.superuser, model, inline, mode)
    form = super_class(data=_data(name, field, foreign), instance=instance)
    assert form.fields[name].queryset.filter(pk=foreign.pk).exists()
    form.is_valid()
    assert not_yours(foreign) not in form.errors.get(name, [])
    assert "Select a valid choice" not in " ".join(form.errors.get(name, []))


# -- the issue's instances, through the admin's pages ------------------------------------------------------------


def _post(client: Client, user: Any, url: str, data: dict[str, Any]) -> Any:
    client.force_login(user)
    return client.post(url, data)


def test_a_club_b_admin_cannot_make_himself_club_a_admin(client: Client, world: World) -> None:
    own_player = world.b.admin.player
    data = {"club": world.a.club.pk, "player": own_player.pk, "is_admin": "on"}
    for url in ("/admin/tournaments/membership/add/", f"/admin/tournaments/membership/add/?club={world.a.club.pk}"):
        response = _post(client, world.b.admin, url, data)
        assert response.status_code == 200
        assert response.context["adminform"].form.errors
    assert not Membership.objects.filter(club=world.a.club, player=own_player).exists()

    response = _post(client, world.superuser, "/admin/tournaments/membership/add/", data)
    assert response.status_code == 302
    assert Membership.objects.filter(club=world.a.club, player=own_player, is_admin=True).exists()


def test_a_club_b_admin_cannot_add_members_to_club_a_through_the_club_inline(client: Client, world: World) -> None:
    club = world.b.club
    data = {
        "name": club.name,
        "slug": club.slug,
        "city": club.city,
        "memberships-TOTAL_FORMS": "1",
        "memberships-INITIAL_FORMS": "0",
        "memberships-0-player": world.a.of(Player).pk,
        "memberships-0-is_admin": "on",
    }
    response = _post(client, world.b.admin, f"/admin/tournaments/club/{club.pk}/change/", data)
    assert response.status_code == 200
    assert not Membership.objects.filter(club=club, player=world.a.of(Player)).exists()


def test_a_club_b_admin_cannot_penalise_in_club_a(client: Client, world: World) -> None:
    victim = world.a.of(Player)
    data = {"competition": world.a.competition.pk, "player": victim.pk, "points": "50", "reason": "spite"}
    before = Penalty.objects.count()
    response = _post(client, world.b.admin, "/admin/tournaments/penalty/add/", data)
    assert response.status_code == 200
    assert "competition" in response.context["adminform"].form.errors
    assert Penalty.objects.count() == before

    response = _post(client, world.superuser, "/admin/tournaments/penalty/add/", data)
    assert response.status_code == 302
    assert Penalty.objects.count() == before + 1


def test_a_club_b_admin_cannot_register_into_club_a_s_hidden_competition(client: Client, world: World) -> None:
    assert not world.a.competition.is_public
    player = world.b.of(Player)
    data = {"competition": world.a.competition.pk, "player": player.pk}
    response = _post(client, world.b.admin, "/admin/tournaments/registration/add/", data)
    assert response.status_code == 200
    assert "competition" in response.context["adminform"].form.errors
    assert not Registration.objects.filter(competition=world.a.competition, player=player).exists()

    response = _post(client, world.superuser, "/admin/tournaments/registration/add/", data)
    assert response.status_code == 302
    assert Registration.objects.filter(competition=world.a.competition, player=player).exists()


def test_a_club_admin_adds_no_club_and_no_shared_rule_set(client: Client, world: World) -> None:
    client.force_login(world.b.admin)
    assert client.get("/admin/tournaments/club/add/").status_code == 403
    response = client.post("/admin/tournaments/club/add/", {"name": "Mine now", "slug": "mine-now"})
    assert response.status_code == 403
    data = {"name": "Shared?", "game": "wiezen", "preset": "iwwa", "overrides": "{}"}
    response = client.post("/admin/tournaments/ruleset/add/", data)
    assert response.status_code == 200
    assert "club" in response.context["adminform"].form.errors
    assert not RuleSet.objects.filter(name="Shared?").exists()
    response = client.post("/admin/tournaments/ruleset/add/", {**data, "club": world.b.club.pk})
    assert response.status_code == 302


def test_a_club_admin_cannot_move_a_competition_to_another_club(world: World) -> None:
    form_class, competition = _form(world, world.b.admin, type(world.b.competition), None, "change")
    form = form_class(data={"club": str(world.a.club.pk)}, instance=competition)
    assert not form.is_valid()
    assert "club" in form.errors


def _autocomplete_cases() -> list[Any]:
    return [
        pytest.param(model, name, id=f"{model._meta.label}.{name}")
        for model, model_admin in admin_models()
        for name in model_admin.autocomplete_fields
    ] + [
        pytest.param(model, name, id=f"{model._meta.label}>{inline.model.__name__}.{name}")
        for model, model_admin in admin_models()
        for inline in model_admin.inlines
        for name in inline.autocomplete_fields
    ]


@pytest.mark.parametrize(("model", "name"), _autocomplete_cases())
def test_autocomplete_lists_only_the_administrators_clubs_objects(
    client: Client, world: World, model: type[Model], name: str
) -> None:
    source = model
    for inline in site._registry[model].inlines:
        if name in inline.autocomplete_fields:
            source = inline.model
    related = source._meta.get_field(name).related_model
    client.force_login(world.b.admin)
    url = "/admin/autocomplete/"
    params = {"app_label": source._meta.app_label, "model_name": source._meta.model_name, "field_name": name}
    response = client.get(url, {**params, "term": ""})
    assert response.status_code == 200
    ids = {int(r["id"]) for r in json.loads(response.content)["results"]}
    assert world.a.of(related).pk not in ids


def test_deleting_a_shared_player_does_not_take_club_a_s_membership_with_it(client: Client, world: World) -> None:
    shared = world.b.of(Player)
    Membership.objects.create(club=world.a.club, player=Player.objects.get(pk=shared.pk))
    Registration.objects.filter(player=shared).delete()
    Penalty.objects.filter(player=shared).delete()
    client.force_login(world.b.admin)
    if shared.seats.exists():
        shared = Player.objects.create(first_name="Shared", last_name="Member")
        Membership.objects.create(club=world.b.club, player=shared)
        Membership.objects.create(club=world.a.club, player=shared)
    response = client.post(f"/admin/tournaments/player/{shared.pk}/delete/", {"post": "yes"})
    assert response.status_code == 403
    assert Membership.objects.filter(club=world.a.club, player=shared).exists()


# -- a player of two clubs is neither club's to change ------------------------------------------------------------


def _made_a_member_of_club_b(world: World) -> Player:
    """Club B's administrator enters club A's administrator in club B's cup and then adds them as a member of
    club B, which both doors allow (open tournaments; players of two clubs)."""
    from tournaments.services.competitions import register_players

    target = Player.objects.get(user=world.a.admin)
    register_players(world.b.competition, [target])
    client = Client()
    client.force_login(world.b.admin)
    added = client.post("/admin/tournaments/membership/add/", {"club": world.b.club.pk, "player": target.pk})
    assert added.status_code == 302
    return target


def test_making_club_a_s_player_a_member_of_club_b_does_not_make_their_record_club_b_s(world: World) -> None:
    """Every door that writes a player's record: the admin's change and delete, the API's PUT and PATCH. Club A's
    administrator stays who they are, linked to their account, and keeps running club A."""
    target = _made_a_member_of_club_b(world)
    client = Client()
    client.force_login(world.b.admin)
    change = f"/admin/tournaments/player/{target.pk}/change/"
    shown = client.get(change)
    assert shown.status_code == 200 and not shown.context["has_change_permission"]  # read-only
    renamed = {"first_name": target.first_name, "last_name": "Cheat", "federation_id": "", "user": ""}
    assert client.post(change, renamed).status_code == 403
    assert client.post(f"/admin/tournaments/player/{target.pk}/delete/", {"post": "yes"}).status_code == 403
    api = f"/api/v1/players/{target.pk}/"
    body = {"first_name": "Cheat", "last_name": "Cheat", "display_name": "", "federation_id": None}
    assert client.put(api, body, content_type="application/json").status_code == 403
    assert client.patch(api, {"last_name": "Cheat"}, content_type="application/json").status_code == 403

    kept = Player.objects.get(pk=target.pk)
    assert (kept.last_name, kept.user_id) == (target.last_name, world.a.admin.pk)
    club_a = Client()
    club_a.force_login(world.a.admin)
    assert club_a.get(f"/manage/c/{world.a.competition.slug}/").status_code == 200


def test_a_player_of_one_club_only_is_changed_by_its_administrators(world: World) -> None:
    own = world.b.of(Player)
    client = Client()
    client.force_login(world.b.admin)
    api = f"/api/v1/players/{own.pk}/"
    assert client.patch(api, {"last_name": "Renamed"}, content_type="application/json").status_code == 200
    assert Player.objects.get(pk=own.pk).last_name == "Renamed"
    Registration.objects.create(competition=world.a.competition, player=own)  # now entered in club A's cup too
    assert client.patch(api, {"last_name": "Again"}, content_type="application/json").status_code == 403
