"""Issue 14, class 10: the admin does not walk around the locks.

Under a closed competition (its round finalised too) and under a finalised round of an open competition,
every admin model that lives there (``tournaments.locks.PATHS``) is tried with add, change and delete: the
answer is a form error or a refusal (403), never a 500 and never a change. Model validation refuses the same,
so every path that validates meets the rule. The cases come from the admin registry.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.admin.sites import site
from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.db.models import Model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.security.admin_world import World, admin_models, build_world
from tournaments.locks import PATHS
from tournaments.models import Competition, Penalty, Player, Registration, Round, ScoreSheet, Seat

pytestmark = pytest.mark.django_db

# registered models no lock applies to, and why
NOT_LOCKED = {
    "tournaments.Club": "not part of one competition",
    "tournaments.Player": "not part of one competition",
    "tournaments.Membership": "not part of one competition",
    "tournaments.RuleSet": "frozen once played by tournaments.integrity (tests/security/test_rule_set_freeze.py)",
    "tournaments.AuditEvent": "read-only in the admin and append-only in the database",
    "tournaments.RoundEvent": "the round's log, kept by the lifecycle services (a reopen logs into a finalised round)",
    "scoring.Standing": "computed, read-only in the admin",
    "scoring.StandingsState": "computed, read-only in the admin",
}

LOCKS = ("closed", "finalised")


def _applies(label: str, lock: str, action: str) -> bool:
    """Whether ``lock`` locks ``action`` on objects of ``label`` (a finalised round locks what is under it)."""
    if action == "add" and label == "tournaments.Competition":
        return False  # a new competition is under no lock
    if lock == "closed":
        return True
    _competition_path, round_path = PATHS[label]
    if round_path is None:
        return False  # registrations, penalties, wishes, the competition: locked by closing it
    return not (label == "tournaments.Round" and action == "add")  # another round may follow a finalised one


def _cases() -> list[Any]:
    return [
        pytest.param(model, lock, action, id=f"{model._meta.label}-{lock}-{action}")
        for model, _admin in admin_models()
        if model._meta.label in PATHS
        for lock in LOCKS
        for action in ("add", "change", "delete")
        if _applies(model._meta.label, lock, action)
    ]


CASES = _cases()


def test_every_admin_model_is_either_locked_or_said_why_not() -> None:
    for model, _admin in admin_models():
        label = model._meta.label
        assert label in PATHS or label in NOT_LOCKED, f"{label}: say what locks it (tournaments.locks) or why not"


def _lock(world: World, lock: str) -> None:
    competition = world.b.competition
    Round.objects.filter(competition=competition).update(status=Round.Status.FINALISED)
    if lock == "closed":
        Competition.objects.filter(pk=competition.pk).update(closed_at=timezone.now())


@pytest.fixture
def world() -> World:
    return build_world()


def _row(obj: Model) -> dict[str, Any]:
    return type(obj)._default_manager.filter(pk=obj.pk).values().get()


def _post_data(world: World, model: type[Model], obj: Model, *, change: bool) -> dict[str, Any]:
    """What the admin's form for ``obj`` would post unchanged (inlines posted with no rows)."""
    request = world.request(world.superuser)
    model_admin = site._registry[model]
    form = model_admin.get_form(request, obj if change else None, change=change)(instance=obj)
    data: dict[str, Any] = {}
    for bound in form:
        value = bound.value()
        if value is None or value is False:
            continue
        if value is True:
            data[bound.name] = "on"
        elif isinstance(value, datetime.datetime):
            data[f"{bound.name}_0"], data[f"{bound.name}_1"] = value.date().isoformat(), value.time().isoformat()
        elif isinstance(value, list | tuple):
            data[bound.name] = [str(v) for v in value]
        else:
            data[bound.name] = str(value)
    for formset, _inline in model_admin.get_formsets_with_inlines(request, obj if change else None):
        prefix = formset.get_default_prefix()
        data.update({f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"})
    return data


def _url(model: type[Model], view: str, *args: Any) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


def _refused(response: Any) -> bool:
    """A 403, or the form again (200) with a lock's error; never a redirect (saved) and never a 500."""
    if response.status_code == 403:
        return True
    if response.status_code != 200 or response.context is None:
        return False
    text = response.content.decode()
    return "is closed" in text or "is finalised" in text


@pytest.mark.parametrize(("model", "lock", "action"), CASES)
def test_the_admin_refuses_what_a_lock_keeps(
    client: Client, world: World, model: type[Model], lock: str, action: str
) -> None:
    obj = world.b.of(model)
    _lock(world, lock)
    before = _row(obj)
    count = model._default_manager.count()
    client.force_login(world.superuser)
    if action == "add":
        data = _post_data(world, model, obj, change=False)
        response = client.post(_url(model, "add"), data)
        assert _refused(response), response.status_code
        assert model._default_manager.count() == count
    elif action == "change":
        assert client.get(_url(model, "change", obj.pk)).status_code == 200  # shown (read-only), not a 500
        data = _post_data(world, model, obj, change=True)
        if model is Competition:
            data["deals_per_session"] = "24"  # a closed competition keeps its session length
        response = client.post(_url(model, "change", obj.pk), data)
        assert _refused(response), response.status_code
        assert _row(obj) == before
    else:
        response = client.post(_url(model, "delete", obj.pk), {"post": "yes"})
        assert response.status_code == 403
        action_data = {"action": "delete_selected", "_selected_action": [obj.pk], "post": "yes"}
        response = client.post(_url(model, "changelist"), action_data)
        assert response.status_code in (200, 302, 403)
        assert model._default_manager.filter(pk=obj.pk).exists()
        assert model._default_manager.count() == count


@pytest.mark.parametrize(("model", "lock", "action"), [c for c in CASES if c.values[2] == "change"])
def test_model_validation_refuses_what_a_lock_keeps(world: World, model: type[Model], lock: str, action: str) -> None:
    obj = world.b.of(model)
    _lock(world, lock)
    obj = type(obj)._default_manager.get(pk=obj.pk)
    if model is Competition:
        obj.deals_per_session = 24
    with pytest.raises(ValidationError) as refused:
        obj.full_clean(validate_unique=False, validate_constraints=False)
    assert any("is closed" in m or "is finalised" in m for m in refused.value.messages)


# -- the instances ----------------------------------------------------------------------------------------


def test_a_seat_of_a_finalised_round_of_a_closed_competition_keeps_its_player(client: Client, world: World) -> None:
    _lock(world, "closed")
    seat = world.b.of(Seat)
    table = seat.table
    stranger = world.b.of(Player) if world.b.of(Player).pk != seat.player_id else world.a.of(Player)
    client.force_login(world.superuser)
    response = client.post(
        _url(Seat, "change", seat.pk), {"table": table.pk, "position": seat.position, "player": stranger.pk}
    )
    assert response.status_code == 403
    data = {
        "number": table.number,
        "size": table.size,
        "round": table.round_id,
        "seats-TOTAL_FORMS": "1",
        "seats-INITIAL_FORMS": "1",
        "seats-0-id": seat.pk,
        "seats-0-table": table.pk,
        "seats-0-position": seat.position,
        "seats-0-player": stranger.pk,
    }
    response = client.post(_url(type(table), "change", table.pk), data)
    assert response.status_code == 403
    assert Seat.objects.get(pk=seat.pk).player_id == seat.player_id


def test_a_sheet_is_never_set_back_to_draft_with_a_new_code_in_the_admin(client: Client, world: World) -> None:
    sheet = world.b.of(ScoreSheet)
    ScoreSheet.objects.filter(pk=sheet.pk).update(state=ScoreSheet.State.CONFIRMED)
    client.force_login(world.superuser)
    forged = {"table": sheet.table_id, "state": "draft", "captain_code": "AAAA-BBBB-CCCC-DDDD"}
    forged.update({"entries-TOTAL_FORMS": "0", "entries-INITIAL_FORMS": "0"})
    client.post(_url(ScoreSheet, "change", sheet.pk), forged)  # an open round: the sheet's state and code stay
    after = ScoreSheet.objects.get(pk=sheet.pk)
    assert (after.state, after.captain_code) == (ScoreSheet.State.CONFIRMED, sheet.captain_code)

    _lock(world, "closed")
    response = client.post(_url(ScoreSheet, "change", sheet.pk), forged)
    assert response.status_code == 403
    assert ScoreSheet.objects.get(pk=sheet.pk).captain_code == sheet.captain_code


def test_a_closed_competition_takes_no_registration_in_the_admin(client: Client, world: World) -> None:
    _lock(world, "closed")
    newcomer = Player.objects.create(first_name="New", last_name="Comer")
    client.force_login(world.superuser)
    response = client.post(_url(Registration, "add"), {"competition": world.b.competition.pk, "player": newcomer.pk})
    assert response.status_code == 200
    assert "is closed" in " ".join(response.context["adminform"].form.non_field_errors())
    assert not Registration.objects.filter(player=newcomer).exists()


@pytest.mark.parametrize("user", ["superuser", "club_admin"])
def test_a_penalty_in_a_closed_competition_is_a_form_error_not_a_500(client: Client, world: World, user: str) -> None:
    _lock(world, "closed")
    before = Penalty.objects.count()
    client.force_login(world.superuser if user == "superuser" else world.b.admin)
    data = {"competition": world.b.competition.pk, "player": world.b.of(Player).pk, "points": "3", "reason": "late"}
    response = client.post(_url(Penalty, "add"), data)
    assert response.status_code == 200
    assert "is closed" in " ".join(response.context["adminform"].form.non_field_errors())
    assert Penalty.objects.count() == before


# -- the services that write without full_clean meet the same locks ------------------------------------------------


@pytest.mark.parametrize("lock", LOCKS)
def test_a_locked_sheet_is_neither_confirmed_nor_rejected(world: World, lock: str) -> None:
    from tournaments.services.errors import ServiceError
    from tournaments.services.sheets import confirm_sheet, reject_sheet

    sheet = world.b.of(ScoreSheet)
    ScoreSheet.objects.filter(pk=sheet.pk).update(state=ScoreSheet.State.ENTERED)
    _lock(world, lock)
    with pytest.raises(ServiceError, match=r"is closed|is finalised"):
        confirm_sheet(sheet, by=world.superuser)
    with pytest.raises(ServiceError, match=r"is closed|is finalised"):
        reject_sheet(sheet, by=world.superuser, reason="wrong")
    assert ScoreSheet.objects.get(pk=sheet.pk).state == ScoreSheet.State.ENTERED


def test_a_closed_competition_withdraws_nobody(world: World) -> None:
    from tournaments.services.errors import ServiceError
    from tournaments.services.rounds import withdraw_player

    _lock(world, "closed")
    registration = world.b.of(Registration)
    with pytest.raises(ServiceError, match="is closed"):
        withdraw_player(world.b.competition, registration.player_id, by=world.superuser, reason="ill")
    assert Registration.objects.get(pk=registration.pk).withdrawn_at is None


# -- the database refuses too, whatever the path -------------------------------------------------------------------


def test_the_database_refuses_a_registration_in_a_closed_competition(world: World) -> None:
    _lock(world, "closed")
    newcomer = Player.objects.create(first_name="New", last_name="Comer")
    with pytest.raises(DatabaseError), transaction.atomic():
        Registration.objects.create(competition=world.b.competition, player=newcomer)
    assert not Registration.objects.filter(player=newcomer).exists()


@pytest.mark.parametrize("lock", LOCKS)
def test_the_database_refuses_to_change_or_add_a_seat_under_a_lock(world: World, lock: str) -> None:
    seat = world.b.of(Seat)
    other = world.b.of(Player)
    _lock(world, lock)
    with pytest.raises(DatabaseError), transaction.atomic():
        Seat.objects.filter(pk=seat.pk).update(player=Player.objects.create(first_name="Ringer", last_name="X"))
    with pytest.raises(DatabaseError), transaction.atomic():
        Seat.objects.create(table=seat.table, round_id=seat.round_id, position=4, player=other)
    assert Seat.objects.get(pk=seat.pk).player_id == seat.player_id


def test_the_database_still_takes_seats_of_an_open_round(world: World) -> None:
    seat = world.b.of(Seat)
    newcomer = Player.objects.create(first_name="New", last_name="Comer")
    Seat.objects.filter(pk=seat.pk).update(player=newcomer)
    assert Seat.objects.get(pk=seat.pk).player_id == newcomer.pk
