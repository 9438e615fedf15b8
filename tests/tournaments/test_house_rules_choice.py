"""A club's house rules, made in the rule set editor, are chosen for a competition on its settings page.

A persona run made "Café De Kroon huisregels" in the editor and then found no way to play a competition by them: the
settings page offered the engine's presets and a JSON field. The competition takes a copy (preset and changes), so
editing the house rules later changes no competition already played by them.
"""

from __future__ import annotations

from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    MembershipFactory,
    PlayerFactory,
    RuleSetFactory,
    UserFactory,
)
from tournaments.models import Club, Competition, RuleSet

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Kroon Competitie",
    "slug": "kroon-competitie",
    "kind": "league",
    "game": "wiezen",
    "overrides": "{}",
    "deals_per_session": "16",
    "visibility": "everything",
    "seating_method": "mixer",
    "standings_method": "total_points",
    "placement_points": "",
    "min_evenings": "0",
    "evening_decay": "1.0",
}
HOUSE = {"tariffs": {"miserie": {"base": 6}}, "penalty": 4}


def administrator_of(club: Club) -> Client:
    user = UserFactory()
    MembershipFactory(club=club, player=PlayerFactory(user=user), is_admin=True)
    client = Client(HTTP_ACCEPT_LANGUAGE="nl")
    client.force_login(user)
    return client


@pytest.fixture
def kroon() -> tuple[Club, RuleSet, Client]:
    club = ClubFactory(name="Café De Kroon")
    house = RuleSetFactory(club=club, name="Kroon huisregels", preset="flemish", overrides=HOUSE)
    return club, house, administrator_of(club)


def options(client: Client, address: str) -> str:
    page = unescape(client.get(address).content.decode())
    return page[page.index('id="id_preset"') : page.index("</select>", page.index('id="id_preset"'))]


def test_a_new_competition_is_played_by_the_clubs_house_rules(kroon: tuple[Club, RuleSet, Client]) -> None:
    club, house, client = kroon
    listed = options(client, reverse("manage-competition-new"))
    assert f'value="house:{house.pk}"' in listed
    assert "Kroon huisregels (huisregels van Café De Kroon)" in listed

    response = client.post(reverse("manage-competition-new"), {**FORM, "club": club.pk, "preset": f"house:{house.pk}"})

    assert response.status_code == 302, response.content.decode()[:3000]
    created = Competition.objects.get(slug="kroon-competitie")
    assert (created.rule_set.preset, created.rule_set.overrides) == ("flemish", HOUSE)
    assert created.rule_set.pk != house.pk  # a copy: the house rules stay free to change
    rules = created.rule_set.engine_rules()
    assert rules.penalty == 4


def test_rule_changes_typed_beside_the_house_rules_go_on_top_of_them(kroon: tuple[Club, RuleSet, Client]) -> None:
    club, house, client = kroon
    typed = '{"tariffs": {"miserie": {"base": 7}}}'
    form = {**FORM, "club": club.pk, "preset": f"house:{house.pk}", "overrides": typed}
    assert client.post(reverse("manage-competition-new"), form).status_code == 302
    created = Competition.objects.get(slug="kroon-competitie")
    assert created.rule_set.overrides == {"tariffs": {"miserie": {"base": 7}}, "penalty": 4}


def test_the_settings_page_switches_a_competition_to_the_house_rules_and_drops_its_old_changes_and_variants(
    kroon: tuple[Club, RuleSet, Client],
) -> None:
    club, house, client = kroon
    competition = CompetitionFactory(
        club=club, rule_set=RuleSetFactory(club=club, preset="iwwa+kleurenwiezen", overrides={"penalty": 9})
    )
    address = reverse("manage-competition-edit", args=[competition.slug])
    page = client.get(address)
    shown = {key: value for key, value in page.context["form"].initial.items() if key != "shown"}
    sent: dict[str, Any] = {**FORM, **{k: v for k, v in shown.items() if isinstance(v, str | int)}}
    sent.update(name=competition.name, slug=competition.slug, preset=f"house:{house.pk}")
    sent["overrides"] = shown["overrides"]  # the page's JSON field as it showed it, untouched
    sent["variants"] = shown["variants"]  # and its variants, ticked as they were
    sent["shown"] = page.context["form"]["shown"].value()
    response = client.post(address, sent)
    assert response.status_code == 302, response.content.decode()[:3000]
    competition.refresh_from_db()
    assert (competition.rule_set.preset, competition.rule_set.overrides) == ("flemish", HOUSE)


def test_another_clubs_house_rules_are_neither_offered_nor_taken(kroon: tuple[Club, RuleSet, Client]) -> None:
    _, house, _ = kroon
    other = ClubFactory(name="De Zwarte Kat")
    client = administrator_of(other)
    assert f"house:{house.pk}" not in options(client, reverse("manage-competition-new"))
    response = client.post(reverse("manage-competition-new"), {**FORM, "club": other.pk, "preset": f"house:{house.pk}"})
    assert response.status_code == 200
    assert not Competition.objects.filter(slug="kroon-competitie").exists()
    assert "Kroon" not in unescape(response.content.decode()).split('id="id_preset"')[1].split("</select>")[0]
