"""The public ratings page (issue 16): rated players by ordinal, public names only, when last updated."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Rating
from tests.factories import PlayerFactory, UserFactory
from tournaments.models import Player

pytestmark = pytest.mark.django_db

WHEN = datetime(2026, 11, 30, 21, 15, tzinfo=UTC)


def rate(player: Player, ordinal: float, deals: int = 24, at: datetime = WHEN) -> Rating:
    return Rating.objects.create(
        player=player, mu=ordinal + 9, sigma=3, ordinal=ordinal, deals_rated=deals, computed_at=at
    )


def test_the_page_ranks_players_by_ordinal_and_says_when_it_was_last_updated() -> None:
    low, high = PlayerFactory(first_name="Low"), PlayerFactory(first_name="High")
    rate(low, 1.5, at=WHEN - timedelta(days=2))
    rate(high, 12.24, deals=48)
    page = Client().get(reverse("ratings"))
    assert page.status_code == 200
    body = page.content.decode()
    assert body.index(high.public_name) < body.index(low.public_name)
    assert "12.2" in body and ">48<" in body and ">1<" in body and ">2<" in body
    assert "Last updated" in body and 'datetime="2026-11-30T22:15:00+01:00"' in body  # the newest, Brussels time
    assert "finalised rounds of competitions whose results are public" in body


def test_a_player_who_hides_their_name_is_not_shown_by_it_even_to_an_administrator() -> None:
    hidden = PlayerFactory(first_name="Annelies", last_name="Vandersteen", display_name="Kaartvis")
    plain = PlayerFactory(first_name="Jan", last_name="Peeters")
    gone = PlayerFactory(first_name="Piet", last_name="Geheim", anonymised_at=WHEN)
    for k, player in enumerate((hidden, plain, gone)):
        rate(player, 10 - k)
    for client in (Client(), Client()):
        body = client.get(reverse("ratings")).content.decode()
        assert "Kaartvis" in body and "Vandersteen" not in body and "Annelies" not in body
        assert "Jan P." in body and "Peeters" not in body
        assert f"Anonymous player {gone.pk}" in body and "Geheim" not in body
        superuser = UserFactory(is_staff=True, is_superuser=True)
        client.force_login(superuser)  # the second round: a superuser sees the same public names here


def test_an_empty_page_says_there_are_no_ratings_yet() -> None:
    body = Client().get(reverse("ratings")).content.decode()
    assert "No ratings yet." in body and "Last updated" not in body


def test_a_long_list_is_paged_and_ranks_continue() -> None:
    players = PlayerFactory.create_batch(102)
    for k, player in enumerate(players):
        rate(player, 200 - k)
    second = Client().get(reverse("ratings"), {"page": 2}).content.decode()
    assert ">101<" in second and ">102<" in second and players[101].public_name in second
    assert Client().get(reverse("ratings"), {"page": 99999999999999999999}).status_code == 200


def test_the_home_page_and_the_player_page_link_the_ratings_and_say_when_updated() -> None:
    player = PlayerFactory()
    rate(player, 5)
    assert reverse("ratings") in Client().get(reverse("home")).content.decode()
    body = Client().get(reverse("player", args=[player.pk])).content.decode()
    assert reverse("ratings") in body and 'datetime="2026-11-30T22:15:00+01:00"' in body


@pytest.mark.parametrize(
    ("language", "parts"), [("fr", "(μ 14,5\u00a0; σ 3,0\u00a0; 24 donnes)"), ("nl", "(μ 14,5; σ 3,0; 24 ")]
)
def test_the_player_page_parts_its_rating_with_semicolons_where_commas_are_decimal(language: str, parts: str) -> None:
    """ "μ 14,5, σ 3,0" read as four numbers in French and Dutch."""
    player = PlayerFactory()
    rate(player, 5.5)
    body = Client().get(reverse("player", args=[player.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert parts in body
