"""Rule sets are shown by name, in the reader's language, never by the engine's ids ("iwwa", "zwicken_styrian").

The public competition page said "rules: Spring rules (iwwa)", and the organiser's forms listed "solo_whist —
Solo whist (003): ..." in English on Dutch and French pages. Every preset and variant the engine registers is
enumerated here, so one added without a name fails.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

import games
from games.presets import VARIANTS
from tests.factories import CompetitionFactory, PlayerFactory, RuleSetFactory, seated_competition
from tests.roles import make_roles
from tournaments.forms.manage import CompetitionForm
from tournaments.models import Club, Competition, RuleSet
from tournaments.preset_names import PRESET_NAMES, VARIANT_NAMES, preset_choice, preset_name
from tournaments.rule_editor.forms import preset_choices
from tournaments.services.competitions import register_players

PRESETS = [rules.name for rules in games.listing()]
IDS = re.compile(r"\b(" + "|".join(re.escape(name) for name in [*PRESETS, *VARIANTS]) + r")\b")
LANGUAGES = ("en", "nl", "fr")


class VisibleText(HTMLParser):
    """The text a person reads: element text (options included) and titles, without scripts and styles."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.hidden += 1
        self.parts += [value for name, value in attrs if name in ("title", "aria-label") and value]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def visible(response: Any) -> str:
    assert response.status_code == 200
    parser = VisibleText()
    parser.feed(response.content.decode())
    return " ".join(" ".join(parser.parts).split())


def test_every_preset_and_variant_the_engine_registers_has_a_name() -> None:
    assert set(PRESET_NAMES) == set(PRESETS)
    assert set(VARIANT_NAMES) == set(VARIANTS)


@pytest.mark.parametrize("language", LANGUAGES)
def test_names_and_choices_carry_no_ids(language: str) -> None:
    with translation.override(language):
        labels = [preset_name(name) for name in PRESETS] + [preset_choice(name) for name in PRESETS]
        labels += [preset_name(f"{wiezen}+{variant}") for wiezen in ("iwwa", "belgian") for variant in VARIANTS]
        labels += [label for _value, label in preset_choices()]
        assert [label for label in labels if IDS.search(label)] == []


def test_a_preset_with_variants_reads_as_a_list_and_an_unknown_id_stays_visible() -> None:
    with translation.override("fr"):
        assert preset_name("iwwa+kleurenwiezen+1v3") == "IWWA, Kleurenwiezen, Un contre trois uniquement"
        assert preset_name("flemish") == "Règles maison flamandes"
    assert preset_name("house_rules_2031") == "house_rules_2031"  # not swallowed: the test above names them all


@pytest.mark.parametrize("language", ("nl", "fr"))
def test_descriptions_are_in_the_readers_language(language: str) -> None:
    with translation.override("en"):
        english = {name: preset_choice(name) for name in PRESETS}
    with translation.override(language):
        # every description differs from the English one (names may be the same word: Zwicken, IWWA)
        assert [name for name in PRESETS if preset_choice(name) == english[name]] == []


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_pages_name_the_rule_set_and_never_show_an_id(language: str) -> None:
    preset = "iwwa+kleurenwiezen"
    competition: Competition = CompetitionFactory(slug="spring-cup", rule_set=RuleSetFactory(preset=preset))
    register_players(competition, PlayerFactory.create_batch(4))
    organiser = Client(HTTP_ACCEPT_LANGUAGE=language)
    organiser.force_login(make_roles(competition).organiser)
    public = Client(HTTP_ACCEPT_LANGUAGE=language)
    pages = {
        "public": public.get(reverse("competition", args=["spring-cup"])),
        "manage": organiser.get(reverse("manage-competition", args=["spring-cup"])),
        "edit": organiser.get(reverse("manage-competition-edit", args=["spring-cup"])),
        "new": organiser.get(reverse("manage-competition-new")),
        "rule sets": organiser.get(reverse("manage-rule-sets")),
        "rule set": organiser.get(reverse("manage-rule-set", args=[competition.rule_set.pk])),
    }
    with translation.override(language):
        name = preset_name(preset)
    shown = {page: visible(response) for page, response in pages.items()}
    assert {page: IDS.findall(text) for page, text in shown.items() if IDS.search(text)} == {}
    for page in ("public", "manage", "rule sets", "rule set"):
        assert name in shown[page], page
    with translation.override(language):
        assert preset_choice("zwicken_styrian") in shown["new"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Spring rules", "rules: Spring rules (IWWA, Kleurenwiezen)"),
        ("IWWA, kleurenwiezen (demo)", "rules: IWWA, kleurenwiezen (demo)"),
    ],
)
def test_the_public_page_names_the_preset_once(name: str, shown: str) -> None:
    """The demo read "rules: IWWA (duplicate demo) (IWWA)": a name that says its preset is not followed by it."""
    rule_set = RuleSetFactory(name=name, preset="iwwa+kleurenwiezen")
    CompetitionFactory(slug="spring-cup", rule_set=rule_set)
    text = visible(Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("competition", args=["spring-cup"])))
    assert shown in text
    assert text.count("IWWA") == 1


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_that_names_the_rules_says_their_preset(language: str) -> None:
    """The competition page said "Spring rules (Flemish house rules)" while the home page, the sheet page and the
    printed tariff card said "Spring rules" alone."""
    competition = seated_competition(preset="flemish", slug="spring-cup")
    RuleSet.objects.filter(pk=competition.rule_set_id).update(name="Spring rules")
    with translation.override(language):
        shown = f"Spring rules ({preset_name('flemish')})"
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    pages = {
        "home": reverse("home"),
        "competition": reverse("competition", args=["spring-cup"]),
        "sheet": reverse("sheet", args=["spring-cup", 1, 1]),
        "tariff card": reverse("tariff", args=["spring-cup"]),
    }
    assert {page: shown in visible(client.get(address)) for page, address in pages.items()} == dict.fromkeys(
        pages, True
    )


@pytest.mark.django_db
def test_a_rule_set_of_another_game_is_refused_in_words() -> None:
    rule_set = RuleSet(name="Mixed", club=Club.objects.create(name="Club", slug="club"), game="wiezen")
    rule_set.preset = "solo_whist"
    with translation.override("nl"), pytest.raises(Exception) as refused:
        rule_set.full_clean()
    message = " ".join(refused.value.message_dict["preset"])  # type: ignore[attr-defined]
    assert message == "Solowiezen is een regelset voor Solowiezen, niet voor Wiezen."
    assert not IDS.search(message)


@pytest.mark.django_db
def test_the_competition_form_offers_every_preset_by_name() -> None:
    with translation.override("nl"):
        form = CompetitionForm(clubs=Club.objects.none())
        labels = dict(form.fields["preset"].choices)  # type: ignore[attr-defined]
        assert set(labels) == set(PRESETS)
        assert labels["flemish"].startswith("Vlaamse huisregels — ")
