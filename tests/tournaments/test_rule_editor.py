"""Issue 17, the rule set editor: a club's house rules built in a form, saved as overrides of their preset, with
the tariff card and the worked examples beside it, errors beside their fields, the freeze of rules played under,
and JSON export and import. Browser tests (keyboard, phone) are in ``tests/browser/test_rule_editor.py``.
"""

from __future__ import annotations

import io
import json
import re
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import games
from games.cli import main as engine_cli
from games.examples import worked_examples
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, RuleSetFactory, UserFactory
from tests.games.test_properties import RULE_SETS
from tournaments.models import Club, RuleSet
from tournaments.rule_editor.form import RulesForm
from tournaments.rule_editor.overrides import overrides_for
from tournaments.services.entry import record_deal

pytestmark = pytest.mark.django_db


def admin_of(club: Club) -> Any:
    user = UserFactory()
    MembershipFactory(club=club, player=PlayerFactory(user=user), is_admin=True)
    return user


def client_of(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def posted(form: RulesForm, **changes: Any) -> dict[str, str]:
    """The form's fields as a browser posts them (ticked boxes 'on', unticked and empty ones left out), changed."""
    values = {**form.initial, **changes}
    data: dict[str, str] = {}
    for key, value in values.items():
        if value is True:
            data[key] = "on"
        elif value is False or value is None or value == "":
            continue
        else:
            data[key] = str(value)
    return data


def edit_data(rule_set: RuleSet, **changes: Any) -> dict[str, str]:
    form = RulesForm(rule_set.engine_rules(), initial={"name": rule_set.name})
    return posted(form, **changes)


def errors_of(page: str, field: str) -> str:
    """The text of the error list rendered beside ``field`` (Django's ``id_<field>_error``), or ''."""
    found = re.search(rf'<ul class="errorlist" id="id_{re.escape(field)}_error">(.*?)</ul>', page, re.S)
    return unescape(re.sub(r"<[^>]+>", " ", found[1]).strip()) if found else ""


@pytest.fixture
def club() -> Club:
    return ClubFactory(name="De Zotte Kaart")


@pytest.fixture
def rule_set(club: Club) -> RuleSet:
    return RuleSetFactory(club=club, name="Huisregels", preset="iwwa")


# -- the form and the engine ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", [r.name for r in games.listing()])
def test_every_preset_goes_through_the_form_unchanged(preset: str) -> None:
    rules = games.find(preset)
    form = RulesForm(rules, posted(RulesForm(rules, initial={"name": preset})))
    assert form.is_valid(), form.errors
    assert form.rules().to_json() | {"name": preset} == rules.to_json()
    assert overrides_for(form.rules(), preset) == {}


@pytest.mark.parametrize("label", sorted(RULE_SETS))
def test_every_rule_set_of_the_properties_goes_through_the_form_and_back_to_its_overrides(label: str) -> None:
    """The house rule sets the engine's properties run on (pooled miserie, capped tariffs, raised bids, ...) too:
    the form shows each as it is, and what it stores (the overrides of its preset) makes the same rule set."""
    rules = RULE_SETS[label]
    form = RulesForm(rules, posted(RulesForm(rules, initial={"name": label})))
    assert form.is_valid(), form.errors
    assert form.rules().to_json() == rules.to_json()
    preset = label.split("{")[0]
    stored = games.RuleSet.from_json({"preset": preset, **overrides_for(form.rules(), preset)})
    assert stored.to_json() | {"name": ""} == rules.to_json() | {"name": ""}


def test_the_house_options_of_issue_17_are_set_in_the_form_and_saved_as_overrides(
    club: Club, rule_set: RuleSet
) -> None:
    client = client_of(admin_of(club))
    data = edit_data(
        rule_set,
        **{
            "troel_target": 9,
            "miserie_settlement": "pooled",
            "alleen-over_until": 8,  # option 5: overtricks counted up to 8 tricks
            "alleen-fail_factor": 2,  # a failure costs twice
            "abondance-fail_per": 1,  # option 2: 5 + 1 per trick
            "abondance-fail_per_from_first": True,
            "vraag-level_9": 4,  # option 3: vraag for 9 tricks
            "miserie-declarer_made": 36,  # option 6: seat by seat
            "miserie-others_made": 0,
            "miserie-declarer_failed": 18,
            "miserie-others_failed": 12,
        },
    )
    response = client.post(reverse("manage-rule-set", args=[rule_set.pk]), data)
    assert response.status_code == 302, errors_of(response.content.decode(), "miserie-declarer_made")
    rule_set.refresh_from_db()
    rules = rule_set.engine_rules()
    expected = games.RuleSet.from_json(
        {
            "preset": "iwwa",
            "troel_target": 9,
            "miserie_settlement": "pooled",
            "tariffs": {
                "alleen": {"over_until": 8, "fail_factor": 2},
                "abondance": {"fail_per": 1, "fail_per_from_first": True},
                "vraag": {"levels": {"9": 4}},
                "miserie": {"declarer_made": 36, "others_made": 0, "declarer_failed": 18, "others_failed": 12},
            },
        }
    )
    assert rules.to_json() | {"name": ""} == expected.to_json() | {"name": ""}
    assert set(rule_set.overrides) == {"troel_target", "miserie_settlement", "tariffs"}
    assert set(rule_set.overrides["tariffs"]) == {"alleen", "abondance", "vraag", "miserie"}
    assert not rules.zero_sum


def test_contracts_are_switched_on_and_off_and_ordered_by_their_place(club: Club, rule_set: RuleSet) -> None:
    client = client_of(admin_of(club))
    data = edit_data(rule_set)
    data.pop("solo-on")  # unticked: no solo at this club
    data["piccolo-on"] = "on"
    data["piccolo-base"], data["piccolo-fail_per"], data["piccolo-fail_factor"] = "8", "0", "1"
    data["piccolo-position"] = "3"  # between alleen (2) and abondance (3): the earlier in the list goes first
    response = client.post(reverse("manage-rule-set", args=[rule_set.pk]), data)
    assert response.status_code == 302
    rule_set.refresh_from_db()
    ladder = rule_set.engine_rules().ladder
    assert "solo" not in ladder
    assert ladder[:4] == ("vraag", "alleen", "abondance", "piccolo")
    assert rule_set.engine_rules().tariffs["piccolo"].base == 8


def test_a_played_contract_needs_its_figures_said_beside_them(club: Club, rule_set: RuleSet) -> None:
    client = client_of(admin_of(club))
    data = edit_data(rule_set)
    data["piccolo-on"] = "on"  # switched on, with no figure typed
    response = client.post(reverse("manage-rule-set", args=[rule_set.pk]), data, HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 400
    assert "Piccolo" in errors_of(response.content.decode(), "piccolo-fail_per")


def test_what_the_engine_refuses_is_said_beside_the_field_in_the_readers_language(
    club: Club, rule_set: RuleSet
) -> None:
    client = client_of(admin_of(club))
    url = reverse("manage-rule-set", args=[rule_set.pk])
    data = edit_data(rule_set, **{"vraag-over_until": 5, "miserie-declarer_made": 30})
    for language, words in (("en", "between 8 and 12"), ("nl", "tussen 8 en 12"), ("fr", "entre 8 et 12")):
        client.cookies["django_language"] = language
        response = client.post(url, data)
        html = response.content.decode()
        assert response.status_code == 400
        assert words in errors_of(html, "vraag-over_until"), language
        # the four seat-by-seat amounts go together: the message stands beside each of them
        for key in ("declarer_made", "others_made", "declarer_failed", "others_failed"):
            assert errors_of(html, f"miserie-{key}"), (language, key)
        assert "tariffs." not in html and "over_until" not in re.sub(
            r'(id|name|for|aria-describedby)="[^"]*"', "", html
        )
    rule_set.refresh_from_db()
    assert rule_set.overrides == {}


def test_a_figure_out_of_range_is_refused_beside_it(club: Club, rule_set: RuleSet) -> None:
    client = client_of(admin_of(club))
    response = client.post(
        reverse("manage-rule-set", args=[rule_set.pk]), edit_data(rule_set, **{"vraag-base": 1000, "troel_target": 7})
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert errors_of(html, "vraag-base") and errors_of(html, "troel_target")


# -- rules played under stay as they were ---------------------------------------------------------------------------


def test_rules_played_under_are_not_changed_in_place_but_saved_as_a_new_rule_set(club: Club) -> None:
    from tests.factories import seated_competition
    from tournaments.models import ScoreSheet

    competition = seated_competition(players=4, club=club)
    rule_set = competition.rule_set
    rule_set.club = club
    rule_set.save()
    admin = admin_of(club)
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6}, by=admin)
    client = client_of(admin)
    url = reverse("manage-rule-set", args=[rule_set.pk])
    page = client.get(url).content.decode()
    assert 'id="played-note"' in page and competition.name in page

    same_name = client.post(url, edit_data(rule_set, **{"vraag-base": 3}))
    assert same_name.status_code == 400
    assert "new name" in errors_of(same_name.content.decode(), "name")

    renamed = client.post(url, edit_data(rule_set, name="Huisregels 2027", **{"vraag-base": 3}))
    assert renamed.status_code == 302
    rule_set.refresh_from_db()
    assert rule_set.overrides == {} and rule_set.engine_rules().tariffs["vraag"].base == 2
    copy = RuleSet.objects.get(name="Huisregels 2027")
    assert copy.club == club and copy.engine_rules().tariffs["vraag"].base == 3
    assert renamed["Location"] == reverse("manage-rule-set", args=[copy.pk])


def test_a_rule_set_not_played_under_may_be_renamed_and_changed_in_place(club: Club, rule_set: RuleSet) -> None:
    client = client_of(admin_of(club))
    response = client.post(
        reverse("manage-rule-set", args=[rule_set.pk]), edit_data(rule_set, name="Café-regels", **{"vraag-base": 3})
    )
    assert response.status_code == 302
    rule_set.refresh_from_db()
    assert (rule_set.name, rule_set.engine_rules().tariffs["vraag"].base) == ("Café-regels", 3)
    assert RuleSet.objects.count() == 1


# -- the preview: the card and the worked examples, as the engine says ---------------------------------------------


def test_the_preview_shows_the_card_and_examples_of_the_figures_as_typed_without_saving(
    club: Club, rule_set: RuleSet
) -> None:
    client = client_of(admin_of(club))
    data = edit_data(rule_set, **{"vraag-base": 3, "vraag-over": 2})
    response = client.post(reverse("manage-rule-set-preview", args=[rule_set.pk]), data)
    html = response.content.decode()
    assert response.status_code == 200
    row = re.search(r'<tr data-contract="vraag">(.*?)</tr>', html, re.S)
    assert (
        row and re.search(r'class="made">\+3 / \u22123<', row[1]) and re.search(r'class="over">\+2 / \u22122', row[1])
    )
    rules = games.RuleSet.from_json({"preset": "iwwa", "tariffs": {"vraag": {"base": 3, "over": 2}}})
    shown = dict(re.findall(r'data-example="(\w+)" data-points="([-\d,]+)"', html))
    assert shown == {e.key: ",".join(map(str, e.points)) for e in worked_examples(rules)}
    assert shown["vraag_two_overtricks"] == "-7,7,-7,7"  # seats 2 and 4 ask and go with: 3 + 2 x 2 each
    rule_set.refresh_from_db()
    assert rule_set.overrides == {}


def test_the_preview_of_an_invalid_form_lists_the_problems_with_their_fields(club: Club, rule_set: RuleSet) -> None:
    client = client_of(admin_of(club))
    data = edit_data(rule_set, **{"vraag-over_until": 5})
    response = client.post(reverse("manage-rule-set-preview", args=[rule_set.pk]), data)
    html = response.content.decode()
    assert 'id="preview-problems"' in html
    assert "Vraag en meegaan: Count tricks more up to" in html
    assert "tariff-card" not in html


def test_the_editors_examples_equal_the_engines_command_line_on_the_exported_file(
    club: Club, rule_set: RuleSet, tmp_path: Any
) -> None:
    client = client_of(admin_of(club))
    changes = {"troel_target": 9, "miserie_settlement": "pooled", "alleen-fail_factor": 3, "doubling": "per_pass"}
    client.post(reverse("manage-rule-set", args=[rule_set.pk]), edit_data(rule_set, **changes))
    page = client.get(reverse("manage-rule-set", args=[rule_set.pk])).content.decode()
    shown = re.findall(r'data-example="(\w+)" data-points="([-\d,]+)" data-multiplier="(\d+)"', page)

    exported = client.get(reverse("manage-rule-set-export", args=[rule_set.pk]))
    assert exported["Content-Disposition"] == 'attachment; filename="huisregels.json"'
    path = tmp_path / "huisregels.json"
    path.write_bytes(exported.content)
    out = io.StringIO()
    assert engine_cli(["examples", "--rules", str(path)], out=out) == 0
    printed = [json.loads(line) for line in out.getvalue().splitlines()]
    assert shown == [(e["key"], ",".join(map(str, e["points"])), str(e["multiplier"])) for e in printed]
    assert len(shown) == 4


# -- export and import -------------------------------------------------------------------------------------------


def test_an_exported_rule_set_imported_by_another_club_has_the_same_rules(club: Club, rule_set: RuleSet) -> None:
    rule_set.overrides = {"troel_target": 9, "tariffs": {"miserie": {"base": 6}}}
    rule_set.save()
    exported = client_of(admin_of(club)).get(reverse("manage-rule-set-export", args=[rule_set.pk]))
    assert json.loads(exported.content) == {
        "preset": "iwwa",
        "troel_target": 9,
        "tariffs": {"miserie": {"base": 6}},
        "name": "Huisregels",
    }
    other = ClubFactory(name="Café De Klaver")
    upload = io.BytesIO(exported.content)
    upload.name = "huisregels.json"
    response = client_of(admin_of(other)).post(
        reverse("manage-rule-set-import"), {"import-club": other.pk, "import-file": upload}
    )
    assert response.status_code == 302
    imported = RuleSet.objects.get(club=other)
    assert imported.name == "Huisregels"
    assert imported.engine_rules().to_json() == rule_set.engine_rules().to_json()


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"{not json", "not JSON"),
        (b"[1, 2]", "does not hold a rule set"),
        (b'{"name": "x"}', "names no preset"),
        (b'{"preset": "iwwa", "tariffs": {"vraag": {"over_until": 3}}}', "Count tricks more up to a number between"),
        (b'{"preset": "nonsense"}', "unknown rule set"),
        (b"[" * 100_000 + b"]" * 100_000, "not JSON"),  # nested deeper than the parser goes
        (b'{"preset": "iwwa", "tariffs": ' + b'{"a": ' * 900 + b"1" + b"}" * 901, "not JSON"),  # just short of it
        (b'{"preset": "iwwa", "name": "a\\u0000b"}', "U+0000"),  # PostgreSQL keeps no NUL
        (b'{"preset": "iwwa", "tariffs": {"vraag": {"base": 100000000000000000000}}}', "0 to 100"),
    ],
)
def test_a_file_that_is_not_a_rule_set_is_refused_in_words(club: Club, content: bytes, words: str) -> None:
    upload = io.BytesIO(content)
    upload.name = "rules.json"
    response = client_of(admin_of(club)).post(
        reverse("manage-rule-set-import"), {"import-club": club.pk, "import-file": upload, "import-name": "X"}
    )
    assert response.status_code == 400
    assert words in errors_of(response.content.decode(), "import-file")
    assert not RuleSet.objects.filter(club=club).exists()


def test_a_file_refused_is_said_in_the_readers_language(club: Club) -> None:
    upload = io.BytesIO(b"{not json")
    upload.name = "rules.json"
    client = client_of(admin_of(club))
    client.cookies["django_language"] = "fr"
    response = client.post(reverse("manage-rule-set-import"), {"import-club": club.pk, "import-file": upload})
    assert errors_of(response.content.decode(), "import-file") == "Ce fichier n'est pas du JSON."


def test_a_new_rule_set_starts_from_a_preset_and_a_taken_name_is_refused(club: Club, rule_set: RuleSet) -> None:
    client = client_of(admin_of(club))
    url = reverse("manage-rule-set-new")
    taken = client.post(url, {"new-club": club.pk, "new-preset": "flemish", "new-name": "Huisregels"})
    assert taken.status_code == 400
    assert "already has a rule set named Huisregels" in errors_of(taken.content.decode(), "new-name")
    made = client.post(url, {"new-club": club.pk, "new-preset": "solo_whist", "new-name": "Solo op vrijdag"})
    created = RuleSet.objects.get(name="Solo op vrijdag")
    assert made["Location"] == reverse("manage-rule-set", args=[created.pk])
    assert (created.game, created.preset, created.overrides, created.club) == ("solo_whist", "solo_whist", {}, club)


def test_zwicken_options_are_edited_and_checked_together(club: Club) -> None:
    rule_set = RuleSetFactory(club=club, name="Zwicken", game="zwicken", preset="zwicken")
    client = client_of(admin_of(club))
    url = reverse("manage-rule-set", args=[rule_set.pk])
    refused = client.post(url, edit_data(rule_set, **{"zw-exchange": 4}))
    assert "At most the 3 cards of a hand" in errors_of(refused.content.decode(), "zw-exchange")
    saved = client.post(url, edit_data(rule_set, **{"zw-deck": 36, "zw-sechser_belli": True}))
    assert saved.status_code == 302
    rule_set.refresh_from_db()
    options = rule_set.engine_rules().zwicken
    assert options is not None and (options.deck, options.sechser_belli) == (36, True)


# -- who may edit what (the page matrix has the roles; here, the doors of another club) -------------------------


def test_another_clubs_administrator_finds_none_of_its_rule_sets(club: Club, rule_set: RuleSet) -> None:
    other = ClubFactory()
    client = client_of(admin_of(other))
    listing = client.get(reverse("manage-rule-sets")).content.decode()
    assert "Huisregels" not in listing
    for name, method in (
        ("manage-rule-set", "get"),
        ("manage-rule-set", "post"),
        ("manage-rule-set-preview", "post"),
        ("manage-rule-set-export", "get"),
    ):
        response = getattr(client, method)(reverse(name, args=[rule_set.pk]), edit_data(rule_set, **{"vraag-base": 9}))
        assert response.status_code == 404, name
    # nor can they make or import one into a club they do not run
    upload = io.BytesIO(b'{"preset": "iwwa", "name": "Mine"}')
    upload.name = "mine.json"
    for name, data, field in (
        ("manage-rule-set-new", {"new-club": club.pk, "new-preset": "iwwa", "new-name": "Mine"}, "new-club"),
        ("manage-rule-set-import", {"import-club": club.pk, "import-file": upload}, "import-club"),
    ):
        response = client.post(reverse(name), data)
        assert response.status_code == 400 and not RuleSet.objects.filter(name="Mine").exists()
        assert "valid choice" in errors_of(response.content.decode(), field)
    rule_set.refresh_from_db()
    assert rule_set.overrides == {} and RuleSet.objects.filter(club=club).count() == 1


def test_a_shared_rule_set_is_edited_by_a_superuser_only(club: Club) -> None:
    shared = RuleSetFactory(club=None, name="Federatie")
    assert client_of(admin_of(club)).get(reverse("manage-rule-set", args=[shared.pk])).status_code == 404
    superuser = UserFactory(is_superuser=True, is_staff=True)
    assert client_of(superuser).get(reverse("manage-rule-set", args=[shared.pk])).status_code == 200


def test_the_competitions_settings_lead_its_clubs_administrators_to_the_editor(club: Club, rule_set: RuleSet) -> None:
    from tests.factories import CompetitionFactory

    competition = CompetitionFactory(club=club, rule_set=rule_set)
    organiser = UserFactory()
    competition.organisers.add(organiser)
    url = reverse("manage-competition-edit", args=[competition.slug])
    page = client_of(admin_of(club)).get(url).content.decode()
    assert f'href="{reverse("manage-rule-set", args=[rule_set.pk])}"' in page
    # an organiser who does not administer the club runs the competition, not the club's rule sets
    assert 'id="rule-set-editor-link"' not in client_of(organiser).get(url).content.decode()


@pytest.mark.parametrize("preset", [r.name for r in games.listing()])
def test_every_figure_the_editor_reads_has_a_range(preset: str) -> None:
    """The editor's fields are made per contract when the form is built, so the security tests' walk over the form
    classes (``tests/security/page_forms.py``) sees only its name: its figures are checked here."""
    from django import forms

    form = RulesForm(games.find(preset))
    numbers = [(name, f) for name, f in form.fields.items() if isinstance(f, forms.IntegerField)]
    assert len(numbers) >= 7  # Zwicken has seven; a Wiezen rule set dozens
    for name, field in numbers:
        assert field.min_value is not None and field.max_value is not None, name
        assert field.max_value <= 100, name  # the engine's and the database's limit for a rule's number


@pytest.mark.parametrize("preset", ["iwwa", "zwicken"])
def test_no_label_names_a_hidden_field(club: Club, preset: str) -> None:
    """The page carries what it showed in a hidden field; its label ("Shown:", in English on every page) was listed
    among the rule set's options."""
    rule_set = RuleSetFactory(club=club, preset=preset, game=games.find(preset).game)
    page = client_of(admin_of(club)).get(reverse("manage-rule-set", args=[rule_set.pk]), HTTP_ACCEPT_LANGUAGE="nl")
    body = page.content.decode()
    hidden = set(re.findall(r'<input type="hidden" name="[^"]*"[^>]*id="([^"]+)"', body))
    labelled = set(re.findall(r'<label[^>]*for="([^"]+)"', body))
    assert hidden and not hidden & labelled
    assert "Shown" not in body
