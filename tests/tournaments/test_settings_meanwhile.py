"""Two organisers with a competition's settings page open at once: the second to save keeps the first's changes.

Each page is posted as a browser posts it: every field as the page showed it, with the one change a person made
(``browser_form`` reads the form from the page's HTML). The cases are enumerated from the settings the page edits
(``SETTINGS``), so a new setting is covered, or the test names it.
"""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import CompetitionFactory, PlayerFactory, RuleSetFactory
from tests.roles import Roles, make_roles
from tournaments.forms.manage import CompetitionForm, preset_games
from tournaments.models import AuditEvent, Competition, RuleSet
from tournaments.services.competitions import SETTINGS, STORED_SETTINGS, register_players
from tournaments.services.seasons import close_competition

pytestmark = pytest.mark.django_db

# What one organiser changes, as form fields, for each setting (a few need another beside them to be valid)
CHANGES: dict[str, dict[str, str]] = {
    "name": {"name": "Lentebeker"},
    "slug": {"slug": "lentebeker"},
    "kind": {"kind": "league"},
    "game": {"game": "solo_whist", "preset": "solo_whist"},
    "deals_per_session": {"deals_per_session": "24"},
    "duplicate": {"duplicate": "on"},
    "movement": {"duplicate": "on", "movement": "relay"},
    "visibility": {"visibility": "hidden"},
    "starts_on": {"starts_on": "2027-01-15"},
    "seating_method": {"seating_method": "swiss"},
    "keep_clubmates_apart": {"keep_clubmates_apart": "on"},
    "standings_method": {"standings_method": "points_per_deal"},
    "tie_breaks": {"tie_breaks_0": "best_session"},
    "placement_points": {"placement_points": "10, 8, 6, 4"},
    "min_evenings": {"min_evenings": "2"},
    "best_evenings": {"best_evenings": "3"},
    "evening_decay": {"evening_decay": "0.9"},
    "preset": {"preset": "flemish"},
    "overrides": {"overrides": '{\n "penalty": 8\n}'},  # as the page shows JSON
}
# A competition's columns the settings page does not edit, each for a reason
NOT_SETTINGS = {
    "id": "the row",
    "club": "moved only by the API, by an administrator of both clubs",
    "rule_set": "made from the preset and overrides",
    "created_at": "set once",
    "closed_at": "closing and reopening, with a reason",
    "entries_version": "counted by every entry",
}


class _FormReader(HTMLParser):
    """The fields a browser sends for each POST form of a page: inputs, checked boxes, selected options."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []
        self.data: dict[str, Any] = {}
        self._in_form = False
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("method", "").lower() == "post":
            self._in_form, self.data = True, {}
        if not self._in_form or ("name" not in a and tag != "option"):
            return
        if tag == "input" and a.get("type") not in ("submit", "button"):
            if a.get("type") in ("checkbox", "radio"):
                if "checked" in a:
                    self._add(a["name"], a.get("value") or "on")
            else:
                self.data[a["name"]] = a.get("value", "")
        elif tag == "select":
            self._select = a["name"]
        elif tag == "option" and self._select is not None and "selected" in a:
            self._add(self._select, a.get("value", ""))
        elif tag == "textarea":
            self._textarea = a["name"]
            self.data[a["name"]] = ""

    def _add(self, name: str, value: str) -> None:
        had = self.data.get(name)
        self.data[name] = value if had is None else [*([had] if isinstance(had, str) else had), value]

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self.data[self._textarea] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            self.data[self._textarea] = self.data[self._textarea].removeprefix("\n")
            self._textarea = None
        elif tag == "form" and self._in_form:
            self._in_form = False
            self.data.pop("csrfmiddlewaretoken", None)
            self.forms.append(self.data)

    def settings_form(self) -> dict[str, Any]:
        (form,) = [form for form in self.forms if "shown" in form]
        return form


def browser_form(client: Client, page: str) -> dict[str, Any]:
    response = client.get(page)
    assert response.status_code == 200
    reader = _FormReader()
    reader.feed(response.content.decode())
    return reader.settings_form()


@pytest.fixture
def competition() -> Competition:
    competition = CompetitionFactory(name="Spring Cup", slug="spring-cup", rule_set=RuleSetFactory(preset="iwwa"))
    register_players(competition, PlayerFactory.create_batch(8))
    return competition


@pytest.fixture
def roles(competition: Competition) -> Roles:
    return make_roles(competition)


def client_of(user: Any, language: str = "en") -> Client:
    client = Client(headers={"accept-language": language})
    client.force_login(user)
    return client


def edit_page(competition: Competition) -> str:
    return reverse("manage-competition-edit", args=[competition.slug])


def stored(competition: Competition, client: Client) -> dict[str, Any]:
    """The settings as the page shows them now."""
    return browser_form(client, edit_page(Competition.objects.get(pk=competition.pk)))


def test_the_cases_are_every_setting_the_page_edits() -> None:
    edited = set(CompetitionForm.base_fields) - {"club", "variants", "shown"}
    assert set(CHANGES) == edited == {*SETTINGS, "preset", "overrides"}
    columns = {field.name for field in Competition._meta.concrete_fields}
    assert columns == set(STORED_SETTINGS) | set(NOT_SETTINGS)


@pytest.mark.parametrize("setting", sorted(CHANGES))
def test_a_save_keeps_what_another_organiser_saved_meanwhile(
    setting: str, competition: Competition, roles: Roles
) -> None:
    first, second = client_of(roles.organiser), client_of(roles.club_admin)
    page = edit_page(competition)
    mine, theirs = browser_form(first, page), browser_form(second, page)
    their_change = CHANGES[setting]
    my_change = {"evening_decay": "0.8"} if "min_evenings" in their_change else {"min_evenings": "1"}
    saved = second.post(page, {**theirs, **their_change})
    assert saved.status_code == 302, re.findall(r'class="errorlist[^>]*>(.*?)</ul>', saved.content.decode())
    if "game" in their_change:  # the other game hides what this page's game shows; the page sends it as shown
        mine["deals_per_session"] = "16"
    response = first.post(page, {**mine, **my_change})
    if setting == "slug":  # the page was open at the former address: the browser sends the form on (307)
        assert response.status_code == 307
        assert response["Location"] == edit_page(Competition.objects.get(pk=competition.pk))
        response = first.post(response["Location"], {**mine, **my_change})
    assert response.status_code == 302, re.findall(r'class="errorlist[^>]*>(.*?)</ul>', response.content.decode())
    now = stored(competition, first)
    for name, value in {**their_change, **my_change}.items():
        if name == "deals_per_session" and "game" in their_change:
            continue
        assert now.get(name) == value, name


def test_the_same_setting_changed_by_both_is_refused_once_then_saved_on_purpose(
    competition: Competition, roles: Roles
) -> None:
    first, second = client_of(roles.organiser, "nl"), client_of(roles.club_admin)
    page = edit_page(competition)
    mine, theirs = browser_form(first, page), browser_form(second, page)
    assert second.post(page, {**theirs, "name": "Herfstbeker", "kind": "league"}).status_code == 302

    refused = first.post(page, {**mine, "name": "Lentebeker", "min_evenings": "2"})
    assert refused.status_code == 200 and not list(get_messages(refused.wsgi_request))
    html = refused.content.decode()
    assert "Er is niets bewaard: een andere organisator wijzigde intussen dezelfde instellingen." in html
    assert "Een andere organisator bewaarde hier intussen een andere waarde" in html
    now = stored(competition, second)
    assert (now["name"], now["kind"], now["min_evenings"]) == ("Herfstbeker", "league", "0")  # nothing written

    reader = _FormReader()  # saving the refused page again, as it came back: this page's name on purpose
    reader.feed(html)
    again = reader.settings_form()
    assert again["name"] == "Lentebeker" and again["kind"] == "tournament"  # as this page sent them
    assert first.post(page, again).status_code == 302
    now = stored(competition, second)
    assert (now["name"], now["kind"], now["min_evenings"]) == ("Lentebeker", "league", "2")


def test_the_refusal_reads_in_french(competition: Competition, roles: Roles) -> None:
    first, second = client_of(roles.organiser, "fr"), client_of(roles.club_admin)
    page = edit_page(competition)
    mine, theirs = browser_form(first, page), browser_form(second, page)
    assert second.post(page, {**theirs, "tie_breaks_0": "best_session"}).status_code == 302
    html = unescape(first.post(page, {**mine, "tie_breaks_0": "points"}).content.decode())
    assert "Rien n'a été enregistré\u00a0: un autre organisateur a modifié les mêmes paramètres entre-temps." in html


def test_a_save_writes_only_the_settings_not_the_closing_or_the_entries_count(
    competition: Competition, roles: Roles
) -> None:
    client = client_of(roles.organiser)
    page = edit_page(competition)
    form = browser_form(client, page)
    with CaptureQueriesContext(connection) as queries:
        assert client.post(page, {**form, "name": "Lentebeker"}).status_code == 302
    (update,) = [q["sql"] for q in queries if q["sql"].startswith('UPDATE "tournaments_competition"')]
    assert '"name"' in update and '"closed_at"' not in update and '"entries_version"' not in update


def test_a_competition_closed_while_its_page_was_open_stays_closed(competition: Competition, roles: Roles) -> None:
    client = client_of(roles.organiser)
    page = edit_page(competition)
    form = browser_form(client, page)
    close_competition(competition, by=roles.club_admin)
    client.post(page, {**form, "name": "Lentebeker"})
    assert Competition.objects.get(pk=competition.pk).closed_at is not None


def test_a_page_without_what_it_showed_saves_as_sent(competition: Competition, roles: Roles) -> None:
    """A page from before this change, or a script posting the form: what it sends is saved, as it always was."""
    client = client_of(roles.organiser)
    page = edit_page(competition)
    form = browser_form(client, page)
    assert form["shown"]
    for shown in ("", "not json", "[1, 2]", '{"name": 5}', "[" * 10_000):
        assert client.post(page, {**form, "shown": shown, "name": f"Cup {len(shown)}"}).status_code == 302
        assert Competition.objects.get(pk=competition.pk).name == f"Cup {len(shown)}"


def test_a_competition_takes_another_game_from_its_settings_page(competition: Competition, roles: Roles) -> None:
    """Its own rule set changes game with it: the competition as stored until then is no mismatch (it was refused
    as "Spring Cup plays Wiezen under this rule set")."""
    client = client_of(roles.club_admin)
    page = edit_page(competition)
    form = browser_form(client, page)
    assert client.post(page, {**form, "game": "solo_whist", "preset": "solo_whist"}).status_code == 302
    competition.refresh_from_db()
    assert (competition.game, competition.rule_set.game, competition.rule_set.preset) == ("solo_whist",) * 3


# -- the rule set editor: the same, a setting being the name, a rule, or one contract's tariff ---------------------

RULE_CHANGES: dict[str, tuple[str, dict[str, str], dict[str, str]]] = {
    # what the other organiser changes, what this one changes
    "a rule and the name": ("iwwa", {"penalty": "8"}, {"name": "Huisregels 2"}),
    "a tariff and a rule": ("iwwa", {"miserie-base": "10"}, {"penalty": "9"}),
    "two tariffs": ("iwwa", {"miserie-base": "10"}, {"solo-base": "80"}),
    "a contract off and a tariff": ("iwwa", {"open_miserie-on": ""}, {"miserie-base": "7"}),
    "two Zwicken options": ("zwicken", {"zw-deck": "36"}, {"zw-ante": "4"}),
}


def preset_game(preset: str) -> str:
    return preset_games()[preset]


def _rules_page(rule_set: RuleSet) -> str:
    return reverse("manage-rule-set", args=[rule_set.pk])


def _with(form: dict[str, Any], change: dict[str, str]) -> dict[str, Any]:
    """The form with a change typed in; an empty value is a box unticked (a browser leaves it out)."""
    changed = {**form, **change}
    return {key: value for key, value in changed.items() if value != ""}


@pytest.mark.parametrize("case", sorted(RULE_CHANGES))
def test_a_rule_set_saved_keeps_what_another_organiser_saved_meanwhile(
    case: str, competition: Competition, roles: Roles
) -> None:
    preset, theirs_change, my_change = RULE_CHANGES[case]
    rule_set = RuleSetFactory(club=competition.club, name="Huisregels", game=preset_game(preset), preset=preset)
    first, second = client_of(roles.organiser), client_of(roles.club_admin)
    page = _rules_page(rule_set)
    mine, theirs = browser_form(first, page), browser_form(second, page)
    saved = second.post(page, _with(theirs, theirs_change))
    assert saved.status_code == 302, re.findall(r'class="errorlist[^>]*>(.*?)</ul>', saved.content.decode())
    saved = first.post(page, _with(mine, my_change))
    assert saved.status_code == 302, re.findall(r'class="errorlist[^>]*>(.*?)</ul>', saved.content.decode())
    now = browser_form(first, page)
    for name, value in {**theirs_change, **my_change}.items():
        assert now.get(name, "") == value, name


def test_a_rule_both_changed_is_refused_once_beside_it_then_saved_on_purpose(
    competition: Competition, roles: Roles
) -> None:
    rule_set = RuleSetFactory(club=competition.club, name="Huisregels", preset="iwwa")
    first, second = client_of(roles.organiser, "nl"), client_of(roles.club_admin)
    page = _rules_page(rule_set)
    mine, theirs = browser_form(first, page), browser_form(second, page)
    assert second.post(page, _with(theirs, {"miserie-base": "10", "name": "Clubregels"})).status_code == 302

    refused = first.post(page, _with(mine, {"miserie-base": "12", "penalty": "9"}))
    assert refused.status_code == 400
    html = unescape(refused.content.decode())
    assert "Er is niets bewaard: een andere organisator wijzigde intussen dezelfde instellingen." in html
    beside = re.search(r'id="id_miserie-base_error"[^>]*>(.*?)</ul>', html, re.S)
    assert beside and "Een andere organisator bewaarde hier intussen een andere waarde" in beside.group(1)
    now = browser_form(second, page)
    assert (now["name"], now["miserie-base"], now["penalty"]) == ("Clubregels", "10", mine["penalty"])

    reader = _FormReader()  # the refused page saved again: this page's tariff on purpose, their name kept
    reader.feed(refused.content.decode())
    assert first.post(page, reader.settings_form()).status_code == 302
    now = browser_form(second, page)
    assert (now["name"], now["miserie-base"], now["penalty"]) == ("Clubregels", "12", "9")


@pytest.mark.parametrize(
    "overrides",
    ["[" * 9_000, '{"tariffs": ' + '{"a": ' * 900 + "1" + "}" * 901, '{"a": ' * 33 + "1" + "}" * 33],
    ids=["past-the-parser", "short-of-it", "33-levels"],
)
def test_rule_changes_nested_too_deeply_are_refused_beside_their_field(
    overrides: str, competition: Competition, roles: Roles
) -> None:
    """The settings page's JSON: past the parser's depth, or short of it (then every recursive check after it),
    was a RecursionError, a server error."""
    client = client_of(roles.organiser, "nl")
    page = edit_page(competition)
    response = client.post(page, {**browser_form(client, page), "overrides": overrides})
    assert response.status_code == 200
    beside = re.search(r'id="id_overrides_error"[^>]*>(.*?)</ul>', unescape(response.content.decode()), re.S)
    assert beside and "De JSON is te diep genest: hoogstens 32 niveaus." in beside.group(1)
    assert Competition.objects.get(pk=competition.pk).rule_set.overrides == competition.rule_set.overrides


def test_a_settings_change_is_in_the_audit_trail_with_who_and_what(competition: Competition, roles: Roles) -> None:
    """Settings decide results (the standings method, the tie-breaks): who changed which, from what to what, is kept;
    closing adds its own row, not a second one of settings."""
    client = client_of(roles.club_admin)
    page = edit_page(competition)
    form = browser_form(client, page)
    assert (
        client.post(page, {**form, "standings_method": "points_per_deal", "tie_breaks_0": "best_session"}).status_code
        == 302
    )
    (row,) = AuditEvent.objects.filter(model="competition", action=AuditEvent.Action.CHANGE)
    assert (row.username, row.competition_id) == (roles.club_admin.username, competition.pk)
    changed = {key for key in row.after if row.before.get(key) != row.after[key]}
    assert changed == {"standings_method", "tie_breaks"}
    assert (row.before["standings_method"], row.after["standings_method"]) == ("total_points", "points_per_deal")
    close_competition(competition, by=roles.club_admin)
    assert AuditEvent.objects.filter(model="competition", action=AuditEvent.Action.CHANGE).count() == 2
    assert "closed_at" not in row.after and "entries_version" not in row.after
