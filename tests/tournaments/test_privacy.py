"""Players' names on pages, and anonymisation on request.

Public pages name a player by the name they chose (``Player.display_name``) or "First L."; full names are for
those who run the competition. An anonymised player is "Anonymous player <id>" everywhere, and every result they
played stays, so nobody's standings move.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.models import Rating, Standing
from scoring.services import recompute_standings
from tests.factories import UserFactory, seated_competition
from tests.roles import Roles, make_roles
from tournaments.models import AuditEvent, Competition, DealEntry, Player, ScoreSheet, SeatResult
from tournaments.services.entry import record_deal
from tournaments.services.privacy import anonymise_player, public_name, sees_full_name

pytestmark = pytest.mark.django_db

ALLEEN_6 = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6}  # seat 2: +9
VRAAG_9 = {"deal": 2, "dealer": 1, "contract": "vraag", "declarers": [0, 3], "tricks": 9}
PASSWORD = "secret-pass-123"  # UserFactory's


@pytest.fixture
def competition(django_capture_on_commit_callbacks: Any) -> Competition:
    """A league evening of four, with standings: seat 2 is Zebulon Quackenbush, who chose no display name."""
    competition = seated_competition(players=4, kind="league")
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    Player.objects.filter(pk=sheet.table.seats.get(position=2).player_id).update(
        first_name="Zebulon", last_name="Quackenbush", federation_id="BE-777"
    )
    with django_capture_on_commit_callbacks(execute=True):
        record_deal(sheet, ALLEEN_6)
        record_deal(sheet, VRAAG_9)
    return competition


@pytest.fixture
def zebulon(competition: Competition) -> Player:
    return Player.objects.get(last_name="Quackenbush")


@pytest.fixture
def roles(competition: Competition) -> Roles:
    return make_roles(competition)


def public_pages(competition: Competition) -> list[str]:
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    return [
        reverse("home"),
        reverse("competition", args=[competition.slug]),
        reverse("season", args=[competition.slug]),
        reverse("sheet", args=[competition.slug, 1, sheet.table.number]),
        reverse("round-print", args=[competition.slug, 1]),
        *[reverse("player", args=[pk]) for pk in competition.players.values_list("pk", flat=True)],
    ]


def text_of(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


# -- the name shown -------------------------------------------------------------------------------------------------


def test_the_public_name_is_the_chosen_display_name_or_first_name_and_initial() -> None:
    assert public_name(Player(first_name="Anna", last_name="Peeters")) == "Anna P."
    assert public_name(Player(first_name="Anna", last_name="Peeters", display_name="Kaartenkoningin")) == (
        "Kaartenkoningin"
    )
    assert public_name(Player(first_name="Madonna", last_name="")) == "Madonna"
    assert public_name(Player(pk=7, first_name="Anna", last_name="Peeters", anonymised_at=timezone.now())) == (
        "Anonymous player 7"
    )


@pytest.mark.parametrize("role", ["anonymous", "outsider", "player"])
def test_public_pages_show_first_name_and_initial_never_the_last_name(
    client: Client, competition: Competition, roles: Roles, role: str
) -> None:
    if role != "anonymous":
        client.force_login(getattr(roles, role))
    for url in public_pages(competition):
        html = text_of(client, url)
        assert "Quackenbush" not in html, url
        assert "BE-777" not in html, url
    assert "Zebulon Q." in text_of(client, reverse("competition", args=[competition.slug]))
    assert "Zebulon Q." in text_of(client, reverse("season", args=[competition.slug]))


def test_a_chosen_display_name_is_what_the_public_sees(
    client: Client, competition: Competition, zebulon: Player
) -> None:
    Player.objects.filter(pk=zebulon.pk).update(display_name="Zeb the Trumper")
    for url in public_pages(competition)[1:]:
        html = text_of(client, url)
        assert "Zebulon" not in html and "Quackenbush" not in html, url
    assert "Zeb the Trumper" in text_of(client, reverse("competition", args=[competition.slug]))
    assert "Zeb the Trumper" in text_of(client, reverse("player", args=[zebulon.pk]))


@pytest.mark.parametrize("role", ["club_admin", "organiser"])
def test_those_who_run_the_competition_see_full_names(
    client: Client, competition: Competition, roles: Roles, role: str
) -> None:
    client.force_login(getattr(roles, role))
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    for url in (
        reverse("competition", args=[competition.slug]),
        reverse("season", args=[competition.slug]),
        reverse("sheet", args=[competition.slug, 1, sheet.table.number]),
        reverse("sheet-entry", args=[competition.slug, 1, sheet.table.number]),
        reverse("round-print", args=[competition.slug, 1]),
    ):
        assert "Zebulon Quackenbush" in text_of(client, url), url


def test_a_listed_organiser_sees_full_names_of_their_competition_and_its_players(
    client: Client, competition: Competition, zebulon: Player
) -> None:
    director = UserFactory(username="director")
    competition.organisers.add(director)
    client.force_login(director)
    assert "Zebulon Quackenbush" in text_of(client, reverse("competition", args=[competition.slug]))
    assert "Zebulon Quackenbush" in text_of(client, reverse("player", args=[zebulon.pk]))
    assert sees_full_name(director, zebulon)


def test_the_player_page_shows_the_full_name_only_to_those_who_run_the_players_club_or_competitions(
    client: Client, zebulon: Player, roles: Roles
) -> None:
    url = reverse("player", args=[zebulon.pk])
    assert "Quackenbush" not in text_of(client, url)
    client.force_login(roles.outsider)
    assert "Quackenbush" not in text_of(client, url)
    client.force_login(roles.club_admin)
    assert "Zebulon Quackenbush" in text_of(client, url)
    assert not sees_full_name(roles.outsider, zebulon) and sees_full_name(roles.organiser, zebulon)


def test_the_captain_at_the_table_sees_public_names_in_the_entry_form(client: Client, competition: Competition) -> None:
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    url = reverse("sheet-entry", args=[competition.slug, 1, sheet.table.number])
    client.get(url, {"code": sheet.captain_code})
    html = text_of(client, url)
    assert "Zebulon Q." in html and "Quackenbush" not in html


def test_who_entered_a_line_is_shown_to_those_who_run_the_competition_only(
    client: Client, competition: Competition, roles: Roles
) -> None:
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    record_deal(sheet, {**ALLEEN_6, "tricks": 7}, by=roles.club_admin, expected_version=1)  # a correction
    url = reverse("sheet", args=[competition.slug, 1, sheet.table.number])
    assert "clubadmin" not in text_of(client, url)
    client.force_login(roles.club_admin)
    assert "clubadmin" in text_of(client, url)


# -- anonymisation --------------------------------------------------------------------------------------------------


def results(competition: Competition) -> dict[str, Any]:
    return {
        "standings": list(
            Standing.objects.filter(competition=competition)
            .order_by("rank", "player_id")
            .values_list("player_id", "rank", "points", "deals_played")
        ),
        "seats": list(SeatResult.objects.order_by("pk").values_list("player_id", "points", "deals")),
        "lines": list(DealEntry.objects.order_by("pk").values_list("pk", "points", "version", "is_current")),
        "ratings": list(Rating.objects.order_by("player_id").values_list("player_id", "mu", "sigma")),
    }


def test_anonymising_keeps_every_result_and_standing(competition: Competition, zebulon: Player) -> None:
    before = results(competition)
    assert before["standings"] and before["seats"] and before["lines"]

    anonymise_player(zebulon)

    assert results(competition) == before
    recompute_standings(competition.pk, claim=False)  # computed again from the kept lines: the same
    assert results(competition) == before
    assert Standing.objects.filter(competition=competition, player=zebulon).exists()


@pytest.mark.parametrize("viewer", ["anonymous", "club_admin"])
def test_after_anonymising_the_old_name_appears_on_no_page(
    client: Client, competition: Competition, zebulon: Player, roles: Roles, viewer: str
) -> None:
    Player.objects.filter(pk=zebulon.pk).update(display_name="Zeb the Trumper")
    anonymise_player(zebulon)
    if viewer != "anonymous":
        client.force_login(getattr(roles, viewer))

    for url in public_pages(competition):
        html = text_of(client, url)
        for old in ("Zebulon", "Quackenbush", "Zeb the Trumper", "BE-777"):
            assert old not in html, (url, old)
    assert f"Anonymous player {zebulon.pk}" in text_of(client, reverse("competition", args=[competition.slug]))
    assert f"Anonymous player {zebulon.pk}" in text_of(client, reverse("player", args=[zebulon.pk]))


def test_the_anonymous_name_is_translated(client: Client, competition: Competition, zebulon: Player) -> None:
    anonymise_player(zebulon)
    response = client.get(reverse("competition", args=[competition.slug]), HTTP_ACCEPT_LANGUAGE="nl")
    assert f"Anonieme speler {zebulon.pk}" in response.content.decode()


def test_anonymising_clears_the_federation_id_and_closes_the_linked_account(
    competition: Competition, zebulon: Player, roles: Roles
) -> None:
    account = UserFactory(username="zebulon.q", first_name="Zebulon", last_name="Quackenbush", email="z@q.be")
    Player.objects.filter(pk=zebulon.pk).update(user=account)
    token = Token.objects.create(user=account)

    anonymised = anonymise_player(zebulon, by=roles.organiser)

    assert anonymised.federation_id is None and anonymised.user_id is None
    assert anonymised.anonymised_at is not None
    stored = Player.objects.get(pk=zebulon.pk)
    assert stored.name == stored.display_name == f"Anonymous player {zebulon.pk}"
    account.refresh_from_db()
    assert not account.is_active and not account.has_usable_password()
    assert (account.username, account.first_name, account.last_name, account.email) == (
        f"anonymised-{account.pk}",
        "",
        "",
        "",
    )
    assert not Token.objects.filter(pk=token.pk).exists()
    for username in ("zebulon.q", account.username):
        refused = Client().post(reverse("login"), {"username": username, "password": PASSWORD})
        assert refused.status_code == 200 and "_auth_user_id" not in refused.wsgi_request.session
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert api.get("/api/v1/players/me/").status_code == 401


def test_anonymising_is_audited_without_keeping_the_old_name(zebulon: Player, roles: Roles) -> None:
    anonymise_player(zebulon, by=roles.organiser)

    event = AuditEvent.objects.get(model="player", object_id=str(zebulon.pk))
    assert event.action == AuditEvent.Action.CHANGE and event.username == roles.organiser.username
    assert event.after["anonymised"] is True
    recorded = f"{event.before} {event.after} {event.note}"
    assert "Zebulon" not in recorded and "Quackenbush" not in recorded and "BE-777" not in recorded


def test_anonymising_twice_changes_nothing_more(zebulon: Player) -> None:
    first = anonymise_player(zebulon)
    again = anonymise_player(zebulon)
    assert again.anonymised_at == first.anonymised_at
    assert AuditEvent.objects.filter(model="player", object_id=str(zebulon.pk)).count() == 1


def test_the_command_anonymises_a_player_by_id(zebulon: Player, roles: Roles, capsys: Any) -> None:
    call_command("anonymise_player", str(zebulon.pk), "--by", roles.organiser.username)

    assert Player.objects.get(pk=zebulon.pk).name == f"Anonymous player {zebulon.pk}"
    assert "results are kept" in capsys.readouterr().out
    assert AuditEvent.objects.get(model="player", object_id=str(zebulon.pk)).username == roles.organiser.username
    call_command("anonymise_player", str(zebulon.pk))
    assert "already" in capsys.readouterr().out


def test_the_command_refuses_an_unknown_player_or_user(zebulon: Player) -> None:
    with pytest.raises(CommandError, match="no player 999999"):
        call_command("anonymise_player", "999999")
    with pytest.raises(CommandError, match="no user"):
        call_command("anonymise_player", str(zebulon.pk), "--by", "nobody")
    assert get_user_model().objects.filter(username="nobody").count() == 0
