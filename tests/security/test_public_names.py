"""Issue 14, class 12 (names): no player can take another player's public name.

The finding: a player chose the display name "Jan P.", which was another player's public name. Public names are
now unambiguous (``tournaments.public_names``, through ``Player.clean``): every path that sets a display name
refuses one another player shows (case and spacing aside), and every path that creates a player gives them a
longer default name when theirs is taken ("Jan Pa.").
"""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO
from typing import Any

import pytest
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.test import RequestFactory
from rest_framework.test import APIClient

from tests.factories import ClubFactory, CompetitionFactory, MembershipFactory, PlayerFactory, UserFactory
from tournaments.models import Player
from tournaments.public_names import name_key
from tournaments.services.competitions import add_walk_in, import_players_csv

pytestmark = pytest.mark.django_db

API = "/api/v1"


@pytest.fixture
def jan() -> Player:
    """Jan Peeters, who chose no name: the public pages show him as "Jan P."."""
    return PlayerFactory(first_name="Jan", last_name="Peeters")


@pytest.fixture
def ace() -> Player:
    return PlayerFactory(first_name="Anna", last_name="Claes", display_name="Ace")


# -- every path that sets a display name ------------------------------------------------------------------------------


def _by_model(player: Player, name: str) -> tuple[bool, str]:
    player.display_name = name
    try:
        player.full_clean()
    except ValidationError as exc:
        return False, str(exc.message_dict.get("display_name"))
    player.save()
    return True, ""


def _by_api_me(player: Player, name: str) -> tuple[bool, str]:
    player.user = UserFactory()
    player.save()
    client = APIClient()
    client.force_authenticate(player.user)
    response = client.patch(f"{API}/players/me/", {"display_name": name}, format="json")
    return response.status_code == 200, response.content.decode()


def _club_admin(player: Player) -> APIClient:
    """A client of an administrator of a club ``player`` is a member of."""
    club = ClubFactory()
    MembershipFactory(club=club, player=player)
    admin_user = UserFactory(is_staff=True)
    MembershipFactory(club=club, player=PlayerFactory(user=admin_user), is_admin=True)
    client = APIClient()
    client.force_authenticate(admin_user)
    return client


def _by_api_patch(player: Player, name: str) -> tuple[bool, str]:
    response = _club_admin(player).patch(f"{API}/players/{player.pk}/", {"display_name": name}, format="json")
    return response.status_code == 200, response.content.decode()


def _by_api_put(player: Player, name: str) -> tuple[bool, str]:
    body = {"first_name": player.first_name, "last_name": player.last_name, "display_name": name}
    response = _club_admin(player).put(f"{API}/players/{player.pk}/", body, format="json")
    return response.status_code == 200, response.content.decode()


def _by_admin(player: Player, name: str) -> tuple[bool, str]:
    request = RequestFactory().post("/admin/")
    request.user = UserFactory(is_staff=True, is_superuser=True)
    model_admin = admin.site._registry[Player]
    form_class = model_admin.get_form(request, player)
    data = {field: getattr(player, field) or "" for field in form_class.base_fields}
    data.update(display_name=name, user=player.user_id or "")
    form = form_class(data, instance=player)
    if not form.is_valid():
        return False, str(form.errors.get("display_name"))
    form.save()
    return True, ""


SETTERS: dict[str, Callable[[Player, str], tuple[bool, str]]] = {
    "model-full-clean": _by_model,
    "api-players-me": _by_api_me,
    "api-player-patch": _by_api_patch,
    "api-player-put": _by_api_put,
    "admin-form": _by_admin,
}

TAKEN = {
    "the-reported-default-name": "Jan P.",
    "default-name-in-another-case": "jan p.",
    "default-name-with-spaces": "  Jan   P. ",
    "a-chosen-name": "Ace",
    "a-chosen-name-in-capitals": "ACE",
}


@pytest.mark.parametrize("taken", sorted(TAKEN))
@pytest.mark.parametrize("path", sorted(SETTERS))
def test_a_display_name_another_player_shows_is_refused(jan: Player, ace: Player, path: str, taken: str) -> None:
    impostor = PlayerFactory(first_name="Piet", last_name="Janssens")
    accepted, said = SETTERS[path](impostor, TAKEN[taken])
    assert not accepted, f"{path} let Piet take {TAKEN[taken]!r}"
    assert "Another player is shown as" in said
    impostor.refresh_from_db()
    assert impostor.public_name == "Piet J."


@pytest.mark.parametrize("path", sorted(SETTERS))
def test_a_free_name_and_ones_own_default_name_are_accepted(jan: Player, ace: Player, path: str) -> None:
    assert SETTERS[path](PlayerFactory(first_name="Piet", last_name="Janssens"), "Piet the Great")[0]
    assert SETTERS[path](jan, "Jan P.")[0]  # his own default name, chosen explicitly
    assert Player.objects.get(pk=jan.pk).public_name == "Jan P."


# -- every path that creates a player -----------------------------------------------------------------------------


def _create_by_api(first: str, last: str) -> Player:
    member = PlayerFactory()
    client = _club_admin(member)
    club = member.memberships.get().club
    response = client.post(f"{API}/players/", {"first_name": first, "last_name": last, "club": club.pk}, format="json")
    assert response.status_code == 201, response.content
    return Player.objects.get(pk=response.json()["id"])


def _create_by_walk_in(first: str, last: str) -> Player:
    return add_walk_in(CompetitionFactory(), first_name=first, last_name=last)


def _create_by_csv(first: str, last: str) -> Player:
    import_players_csv(CompetitionFactory(), f"first_name,last_name\n{first},{last}\n")
    return Player.objects.get(first_name=first, last_name=last)


def _create_by_full_clean(first: str, last: str) -> Player:
    player = Player(first_name=first, last_name=last)
    player.full_clean()
    player.save()
    return player


CREATORS: dict[str, Callable[[str, str], Player]] = {
    "api-create": _create_by_api,
    "walk-in": _create_by_walk_in,
    "player-csv-import": _create_by_csv,
    "model-full-clean": _create_by_full_clean,
}


@pytest.mark.parametrize("path", sorted(CREATORS))
def test_a_new_player_whose_default_name_is_taken_gets_a_longer_one(jan: Player, path: str) -> None:
    namesake = CREATORS[path]("Jan", "Pauwels")
    assert namesake.public_name == "Jan Pa."
    assert Player.objects.get(pk=jan.pk).public_name == "Jan P."


def test_namesakes_in_one_player_list_get_distinct_names() -> None:
    import_players_csv(CompetitionFactory(), "first_name,last_name\nJan,Pauwels\nJan,Pauwelsen\n")
    assert sorted(p.public_name for p in Player.objects.all()) == ["Jan P.", "Jan Pa."]


def test_many_namesakes_all_show_distinct_names() -> None:
    for _ in range(9):  # Jan P., Jan Pe. ... Jan Peeter., Jan Peeters, Jan Peeters (2), Jan Peeters (3)
        _create_by_full_clean("Jan", "Peeters")
    names = [p.public_name for p in Player.objects.all()]
    assert len({name_key(n) for n in names}) == len(names) == 9, names
    assert "Jan Peeters (2)" in names


def test_the_list_pages_read_a_stored_name_without_a_query_per_player(
    jan: Player, django_assert_num_queries: Any
) -> None:
    _create_by_full_clean("Jan", "Pauwels")
    players = list(Player.objects.all())
    with django_assert_num_queries(0):
        names = [p.public_name for p in players]
    assert sorted(names) == ["Jan P.", "Jan Pa."]


def test_namesakes_saved_before_the_rule_are_settled_by_a_command_once() -> None:
    older, newer = (Player.objects.create(first_name="Jan", last_name=last) for last in ("Peeters", "Pauwels"))
    assert older.public_name == newer.public_name == "Jan P."  # saved without validation, as before the rule
    call_command("disambiguate_public_names", stdout=StringIO())
    assert (Player.objects.get(pk=older.pk).public_name, Player.objects.get(pk=newer.pk).public_name) == (
        "Jan P.",
        "Jan Pa.",
    )
    out = StringIO()
    call_command("disambiguate_public_names", stdout=out)
    assert out.getvalue().startswith("0 players")
