"""The organiser's pages under /manage/, through Django's test client: who gets in, what each form and button
does, how bad input is refused (beside its field, nothing written), and a round's whole life through the pages.
"""

from __future__ import annotations

import random
import re
from html import unescape
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.generate import random_session
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    MembershipFactory,
    PlayerFactory,
    RuleSetFactory,
    UserFactory,
)
from tests.roles import Roles, make_roles
from tournaments.models import (
    Competition,
    DealEntry,
    Membership,
    Player,
    Registration,
    Round,
    RuleSet,
    ScoreSheet,
    Seat,
    SeatingWish,
)
from tournaments.services.competitions import register_players
from tournaments.services.entry import record_deal
from tournaments.services.rounds import create_round, publish_round
from tournaments.services.seating import round_tables
from tournaments.services.sheets import confirm_sheet

pytestmark = pytest.mark.django_db


@pytest.fixture
def competition() -> Competition:
    competition = CompetitionFactory(name="Spring Cup", slug="spring-cup", rule_set=RuleSetFactory(preset="iwwa"))
    register_players(competition, PlayerFactory.create_batch(8))
    return competition


@pytest.fixture
def roles(competition: Competition) -> Roles:
    return make_roles(competition)


def client_of(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def url(name: str, *args: Any) -> str:
    return reverse(name, args=args)


def text(response: Any) -> str:
    return unescape(response.content.decode())


def field_errors(response: Any, field_id: str) -> str:
    """The error list Django renders beside the field ``field_id`` (empty when it has none)."""
    found = re.search(rf'<ul class="errorlist" id="{field_id}_error">(.*?)</ul>', response.content.decode(), re.S)
    return unescape(found.group(1)) if found else ""


def said(response: Any) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


COMPETITION_FORM = {
    "name": "Autumn Open",
    "slug": "autumn-open",
    "kind": "tournament",
    "game": "wiezen",
    "preset": "iwwa",
    "overrides": '{"penalty": 8}',
    "deals_per_session": "24",
    "visibility": "standings",
    "seating_method": "swiss",
    "standings_method": "total_points",
    "tie_breaks_0": "sessions_won",
    "tie_breaks_1": "best_session",
    "placement_points": "",
    "min_evenings": "0",
    "evening_decay": "1.0",
}


# -- who gets in ------------------------------------------------------------------------------------------------------


def test_the_dashboard_asks_anonymous_visitors_to_log_in() -> None:
    response = Client().get(url("manage-dashboard"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login")) and "next=/manage/" in response["Location"]


def test_the_dashboard_lists_only_the_competitions_one_runs(competition: Competition, roles: Roles) -> None:
    elsewhere = CompetitionFactory(name="Other Club Cup")
    director = UserFactory(username="director")
    elsewhere.organisers.add(director)

    mine = text(client_of(roles.club_admin).get(url("manage-dashboard")))
    assert "Spring Cup" in mine and "Other Club Cup" not in mine
    assert url("manage-competition-new") in mine  # a club administrator creates competitions

    theirs = text(client_of(director).get(url("manage-dashboard")))
    assert "Other Club Cup" in theirs and "Spring Cup" not in theirs
    assert url("manage-competition-new") not in theirs  # an organiser runs, but does not create

    nothing = text(client_of(roles.outsider).get(url("manage-dashboard")))
    assert "You run no competitions." in nothing


@pytest.mark.parametrize("who", ["outsider", "player", "other_admin"])
def test_those_who_do_not_run_it_are_turned_away_and_change_nothing(
    competition: Competition, roles: Roles, who: str
) -> None:
    other_admin = UserFactory(username="otheradmin")
    MembershipFactory(club=ClubFactory(), player=PlayerFactory(user=other_admin), is_admin=True)
    client = client_of({"outsider": roles.outsider, "player": roles.player, "other_admin": other_admin}[who])
    create_round(competition)
    slug = competition.slug

    for page in ("manage-competition", "manage-competition-edit", "manage-players"):
        assert client.get(url(page, slug)).status_code == 403
    assert client.get(url("manage-round", slug, 1)).status_code == 403
    assert client.post(url("manage-round-publish", slug, 1)).status_code == 403
    assert client.post(url("manage-competition-close", slug)).status_code == 403
    assert (
        client.post(url("manage-walk-in", slug), {"walkin-first_name": "A", "walkin-last_name": "B"}).status_code == 403
    )

    assert Round.objects.get().status == Round.Status.DRAFT
    assert Competition.objects.get(pk=competition.pk).closed_at is None
    assert not Player.objects.filter(first_name="A").exists()

    competition.is_public = False
    competition.save()
    assert client.get(url("manage-competition", slug)).status_code == 404  # a hidden one is not even there


def test_a_listed_organiser_runs_the_competition_but_creates_none(competition: Competition) -> None:
    director = UserFactory(username="director")
    competition.organisers.add(director)
    client = client_of(director)
    assert client.get(url("manage-competition", competition.slug)).status_code == 200
    assert client.get(url("manage-competition-edit", competition.slug)).status_code == 200
    assert client.get(url("manage-competition-new")).status_code == 403


@pytest.mark.parametrize(
    "address",
    [
        "/manage/c/spring-cup/r99999999999999999999/",
        "/manage/c/spring-cup/r0/progress/",
        "/manage/c/spring-cup/players/99999999999999999999/withdraw/",
        "/manage/c/no-such-thing/",
        "/manage/c/spring-cup/players/?q=%00",
    ],
)
def test_odd_addresses_are_not_found_or_ignored_never_a_server_error(
    competition: Competition, roles: Roles, address: str
) -> None:
    assert client_of(roles.club_admin).get(address).status_code in (200, 404)


def test_actions_are_posts(competition: Competition, roles: Roles) -> None:
    create_round(competition)
    client = client_of(roles.club_admin)
    assert client.get(url("manage-round-publish", competition.slug, 1)).status_code == 405
    assert Round.objects.get().status == Round.Status.DRAFT


# -- creating and editing a competition -------------------------------------------------------------------------------


def test_a_club_administrator_creates_a_competition_with_its_rule_set(competition: Competition, roles: Roles) -> None:
    client = client_of(roles.club_admin)
    assert client.get(url("manage-competition-new")).status_code == 200

    response = client.post(url("manage-competition-new"), {**COMPETITION_FORM, "club": competition.club_id})

    assert response.status_code == 302 and response["Location"] == url("manage-competition", "autumn-open")
    created = Competition.objects.get(slug="autumn-open")
    assert (created.club, created.deals_per_session, created.seating_method) == (competition.club, 24, "swiss")
    assert created.visibility == Competition.Visibility.STANDINGS
    assert (created.is_public, created.public_results) == (True, False)
    assert created.tie_breaks == ["sessions_won", "best_session"]
    assert (created.rule_set.preset, created.rule_set.overrides) == ("iwwa", {"penalty": 8})
    assert created.rule_set.engine_rules().penalty == 8
    assert "Competition Autumn Open created." in said(response)


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"overrides": '{"penalty": "lots"}'}, "overrides", "penalty"),  # the engine's own words
        ({"overrides": '{"no_such_rule": 1}'}, "overrides", "no_such_rule"),
        ({"overrides": "{penalty: 8"}, "overrides", "Not valid JSON: look at line 1, column 2."),
        ({"overrides": "[1, 2]"}, "overrides", "must be a JSON object"),
        ({"overrides": '{"description": "\\u0000"}'}, "overrides", "NUL"),
        (
            {"game": "solo_whist"},
            "preset",
            "The rule set IWWA is for Wiezen, not Solo whist: choose one of Solo whist.",
        ),
        ({"game": "zwicken"}, "preset", "is for Wiezen, not Zwicken: choose one of Zwicken, Dreierzwicken"),
        ({"variants": "kleurenwiezen", "preset": "solo_whist", "game": "solo_whist"}, "variants", "Wiezen"),
        ({"tie_breaks_2": "coin_toss"}, "tie_breaks", "coin_toss"),
        ({"tie_breaks_2": "sessions_won"}, "tie_breaks", "Choose each tie-break once."),
        ({"placement_points": "10, eight"}, "placement_points", "Whole numbers"),
        ({"deals_per_session": ""}, "deals_per_session", "16 or 24"),
        ({"deals_per_session": "20"}, "deals_per_session", "valid choice"),
        ({"slug": "spring-cup"}, "slug", "already exists"),
        ({"evening_decay": "16"}, "evening_decay", "from 0.0 to 1.0"),  # the range, at the form (tournaments.limits)
        ({"visibility": "secret"}, "visibility", "valid choice"),
    ],
)
def test_bad_settings_are_refused_beside_their_field_and_nothing_is_written(
    competition: Competition, roles: Roles, change: dict[str, str], field: str, message: str
) -> None:
    rule_sets = RuleSet.objects.count()
    response = client_of(roles.club_admin).post(
        url("manage-competition-new"), {**COMPETITION_FORM, "club": competition.club_id, **change}
    )
    assert response.status_code == 200
    errors = field_errors(response, f"id_{field}")
    assert message.lower() in errors.lower(), text(response)
    assert not Competition.objects.filter(slug="autumn-open").exists()
    assert RuleSet.objects.count() == rule_sets


def test_the_only_club_one_administers_is_chosen_already(competition: Competition, roles: Roles) -> None:
    ClubFactory(name="Somebody else's club")
    page = text(client_of(roles.club_admin).get(url("manage-competition-new")))
    club_list = re.search(r'<select name="club"[^>]*>(.*?)</select>', page, re.S)
    assert club_list is not None
    assert re.findall(r"<option[^>]*>", club_list.group(1)) == [f'<option value="{competition.club_id}" selected>']


def test_with_several_clubs_one_chooses_the_club(competition: Competition, roles: Roles) -> None:
    MembershipFactory(club=ClubFactory(), player=roles.club_admin.player, is_admin=True)
    page = text(client_of(roles.club_admin).get(url("manage-competition-new")))
    club_list = re.search(r'<select name="club"[^>]*>(.*?)</select>', page, re.S)
    assert club_list is not None
    assert '<option value="" selected>' in club_list.group(1) and club_list.group(1).count("<option") == 3


def test_each_rule_set_option_names_its_game_and_each_game_has_one_default(
    competition: Competition, roles: Roles
) -> None:
    page = text(client_of(roles.club_admin).get(url("manage-competition-new")))
    tags = re.findall(r"<option [^>]*data-game[^>]*>", page)
    options = [
        (
            re.search(r'value="(\w+)"', tag).group(1),
            re.search(r'data-game="(\w+)"', tag).group(1),
            "data-default" in tag,
        )  # type: ignore[union-attr]
        for tag in tags
    ]
    assert ("iwwa", "wiezen", True) in options and ("flemish", "wiezen", False) in options
    assert ("zwicken", "zwicken", True) in options and ("dreierzwicken", "zwicken", False) in options
    defaults = sorted(game for _, game, default in options if default)
    assert defaults == ["solo_whist", "wiezen", "zwicken"]


def test_the_competition_page_says_how_many_deals_a_session_has(competition: Competition, roles: Roles) -> None:
    client = client_of(roles.club_admin)
    client.post(url("manage-competition-new"), {**COMPETITION_FORM, "club": competition.club_id})
    summary = re.search(
        r'id="competition-summary">(.*?)</p>', text(client.get(url("manage-competition", "autumn-open"))), re.S
    )
    assert summary is not None and "Deals per session: 24" in summary.group(1)


def test_a_competition_is_created_only_in_a_club_one_administers(competition: Competition, roles: Roles) -> None:
    other = ClubFactory()
    response = client_of(roles.club_admin).post(url("manage-competition-new"), {**COMPETITION_FORM, "club": other.pk})
    assert "valid choice" in field_errors(response, "id_club")
    assert not Competition.objects.filter(slug="autumn-open").exists()


def test_a_zwicken_competition_has_open_ended_sessions(competition: Competition, roles: Roles) -> None:
    form = {**COMPETITION_FORM, "club": competition.club_id, "game": "zwicken", "preset": "zwicken", "overrides": ""}
    response = client_of(roles.club_admin).post(url("manage-competition-new"), form)
    assert response.status_code == 302
    created = Competition.objects.get(slug="autumn-open")
    assert (created.game, created.deals_per_session) == ("zwicken", None)


def test_editing_shows_the_stored_settings_and_saves_changes(competition: Competition, roles: Roles) -> None:
    client = client_of(roles.club_admin)
    page = text(client.get(url("manage-competition-edit", competition.slug)))
    assert 'value="Spring Cup"' in page and re.search(r'value="everything"[^>]* checked', page)

    form = {**COMPETITION_FORM, "name": "Spring Cup", "slug": "spring-cup-2", "visibility": "hidden"}
    response = client.post(url("manage-competition-edit", competition.slug), form)

    assert response.status_code == 302 and response["Location"] == url("manage-competition", "spring-cup-2")
    competition.refresh_from_db()
    assert (competition.slug, competition.is_public, competition.deals_per_session) == ("spring-cup-2", False, 24)
    assert competition.rule_set.overrides == {"penalty": 8}


@pytest.mark.parametrize(
    ("language", "second", "label"),
    [
        ("en", "Best session", "Tie-break 2"),
        ("nl", "Beste zitting", "Beslissingscriterium 2"),
        ("fr", "Meilleure séance", "Critère de départage 2"),
    ],
)
def test_tie_breaks_are_chosen_by_name_in_order_and_shown_again_as_stored(
    competition: Competition, roles: Roles, language: str, second: str, label: str
) -> None:
    """The organiser chose among keys typed by hand ("sessions_won, best_session"); now among names, per place."""
    competition.tie_breaks = ["head_to_head", "best_session"]
    competition.save(update_fields=["tie_breaks"])
    client = client_of(roles.club_admin)
    client.cookies["django_language"] = language

    html = client.get(url("manage-competition-edit", competition.slug)).content.decode()

    places = re.findall(r'<select name="tie_breaks_(\d)"[^>]*aria-label="([^"]+)"[^>]*>(.*?)</select>', html, re.S)
    assert len(places) == 6 and places[1][1] == label
    chosen = [re.findall(r'<option value="([^"]*)"[^>]*selected>([^<]*)', options) for _, _, options in places]
    assert chosen[0][0][0] == "head_to_head" and chosen[1] == [("best_session", second)]
    assert all(c == [("", "—")] for c in chosen[2:])
    visible = re.sub(r"<[^>]+>", " ", html)
    assert "best_session" not in visible and "sessions_won" not in visible


def test_changing_a_shared_rule_set_gives_the_competition_its_own(competition: Competition, roles: Roles) -> None:
    sibling = CompetitionFactory(club=competition.club, rule_set=competition.rule_set)
    form = {**COMPETITION_FORM, "name": "Spring Cup", "slug": "spring-cup", "overrides": '{"penalty": 3}'}

    assert client_of(roles.club_admin).post(url("manage-competition-edit", "spring-cup"), form).status_code == 302

    competition.refresh_from_db()
    sibling.refresh_from_db()
    assert competition.rule_set != sibling.rule_set
    assert competition.rule_set.overrides == {"penalty": 3} and sibling.rule_set.overrides == {}


def test_the_rule_set_of_a_new_competition_takes_a_name_free_in_its_club(
    competition: Competition, roles: Roles
) -> None:
    RuleSetFactory(club=competition.club, name="Autumn Open")
    RuleSetFactory(club=competition.club, name="Autumn Open (autumn-open)")
    form = {**COMPETITION_FORM, "club": competition.club_id}
    assert client_of(roles.club_admin).post(url("manage-competition-new"), form).status_code == 302
    assert Competition.objects.get(slug="autumn-open").rule_set.name == "Autumn Open (autumn-open 3)"


def test_the_game_stays_once_rounds_are_seated(competition: Competition, roles: Roles) -> None:
    create_round(competition)
    form = {**COMPETITION_FORM, "name": "Spring Cup", "slug": "spring-cup", "game": "solo_whist"}
    form["preset"] = "solo_whist"
    response = client_of(roles.club_admin).post(url("manage-competition-edit", "spring-cup"), form)
    assert "cannot change" in field_errors(response, "id_game")
    assert Competition.objects.get(pk=competition.pk).game == "wiezen"


def test_a_season_is_closed_and_reopened_only_with_a_reason(competition: Competition, roles: Roles) -> None:
    client = client_of(roles.club_admin)
    closed = client.post(url("manage-competition-close", competition.slug))
    assert closed.status_code == 302 and "Spring Cup is closed: it takes no more results." in said(closed)
    assert Competition.objects.get(pk=competition.pk).closed_at is not None

    again = client.post(url("manage-competition-close", competition.slug))
    assert "Spring Cup is closed already." in said(again)  # the service's refusal, shown

    no_reason = client.post(url("manage-competition-reopen", competition.slug), {"reopen-reason": "  "})
    assert no_reason.status_code == 200 and "required" in field_errors(no_reason, "id_reopen-reason")
    assert Competition.objects.get(pk=competition.pk).closed_at is not None

    reopened = client.post(url("manage-competition-reopen", competition.slug), {"reopen-reason": "a late sheet"})
    assert reopened.status_code == 302 and Competition.objects.get(pk=competition.pk).closed_at is None
    assert not any("not finalised" in m for m in said(closed))  # no round: nothing left unfinished


def test_closing_with_a_round_still_in_play_says_its_results_stay_provisional(
    competition: Competition, roles: Roles
) -> None:
    publish_round(create_round(competition))
    client = client_of(roles.club_admin)
    client.cookies["django_language"] = "fr"
    closed = client.post(url("manage-competition-close", competition.slug))
    assert closed.status_code == 302
    assert any(
        m.startswith("La manche 1 n'est pas clôturée\u00a0: ses résultats restent provisoires") for m in said(closed)
    )
    assert Competition.objects.get(pk=competition.pk).closed_at is not None  # closed all the same, as asked


# -- players ----------------------------------------------------------------------------------------------------------


def test_search_finds_players_by_name_or_federation_id_without_javascript(
    competition: Competition, roles: Roles
) -> None:
    anna = PlayerFactory(first_name="Anna", last_name="Peeters", federation_id="BWF-17")
    MembershipFactory(club=competition.club, player=anna)
    client = client_of(roles.club_admin)

    by_name = text(client.get(url("manage-players", competition.slug), {"q": "anna pee"}))
    by_id = text(client.get(url("manage-players", competition.slug), {"q": "bwf-17"}))

    for page in (by_name, by_id):
        assert "Anna Peeters" in page and f'name="player" value="{anna.pk}"' in page
        assert "<html" in page  # the whole page
    assert "Nobody matches" in text(client.get(url("manage-players", competition.slug), {"q": "zzz"}))


def test_search_as_you_type_answers_htmx_with_the_results_only(competition: Competition, roles: Roles) -> None:
    PlayerFactory(first_name="Anna", last_name="Peeters")
    response = client_of(roles.club_admin).get(
        url("manage-players", competition.slug), {"q": "Peeters"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert "<html" not in text(response) and "Register" in text(response)


def test_a_stranger_found_by_search_is_shown_by_their_public_name(competition: Competition, roles: Roles) -> None:
    PlayerFactory(first_name="Anna", last_name="Peeters")  # no club of the admin's, no competition of theirs
    page = text(client_of(roles.club_admin).get(url("manage-players", competition.slug), {"q": "Peeters"}))
    assert "Anna P." in page and "Anna Peeters" not in page


def test_registering_a_found_player_and_registering_again(competition: Competition, roles: Roles) -> None:
    anna = PlayerFactory(first_name="Anna", last_name="Peeters")
    client = client_of(roles.club_admin)
    register = url("manage-register", competition.slug)

    first = client.post(register, {"player": anna.pk, "q": "anna"})
    assert first.status_code == 302 and first["Location"].endswith("?q=anna")
    assert Registration.objects.filter(competition=competition, player=anna).exists()
    again = client.post(register, {"player": anna.pk})
    assert any("registered already" in m for m in said(again))
    nobody = client.post(register, {"player": "99999999999999999999"})
    assert nobody.status_code == 302 and any("No such player" in m for m in said(nobody))


def test_a_walk_in_is_created_in_the_club_and_registered(competition: Competition, roles: Roles) -> None:
    response = client_of(roles.club_admin).post(
        url("manage-walk-in", competition.slug),
        {
            "walkin-first_name": "Jan",
            "walkin-last_name": "Van den Broeck",
            "walkin-federation_id": "BWF-9",
            "walkin-club": competition.club_id,
        },
    )
    assert response.status_code == 302
    jan = Player.objects.get(federation_id="BWF-9")
    assert jan.name == "Jan Van den Broeck"
    assert Membership.objects.filter(player=jan, club=competition.club).exists()
    assert Registration.objects.filter(player=jan, competition=competition).exists()


def test_a_walk_in_with_a_taken_federation_id_is_refused_on_that_field(competition: Competition, roles: Roles) -> None:
    PlayerFactory(federation_id="BWF-9")
    players = Player.objects.count()
    response = client_of(roles.club_admin).post(
        url("manage-walk-in", competition.slug),
        {"walkin-first_name": "Jan", "walkin-last_name": "Smet", "walkin-federation_id": "BWF-9"},
    )
    assert response.status_code == 200
    assert "This federation id is a player's already" in field_errors(response, "id_walkin-federation_id")
    assert Player.objects.count() == players


def test_a_walk_in_sent_twice_is_one_player_and_a_namesake_needs_a_federation_id(
    competition: Competition, roles: Roles
) -> None:
    """A double-click posts the form twice: the second is refused in the organiser's language; a different
    person of the same name comes in with their federation id."""
    client = client_of(roles.club_admin)
    client.cookies["django_language"] = "fr"
    walk_in = {"walkin-first_name": "Élodie", "walkin-last_name": "Noël"}
    assert client.post(url("manage-walk-in", competition.slug), walk_in).status_code == 302
    again = client.post(url("manage-walk-in", competition.slug), {**walk_in, "walkin-last_name": " noël "})
    assert again.status_code == 200
    assert "Élodie Noël est déjà inscrit à cette compétition." in text(again)
    assert Player.objects.filter(first_name="Élodie").count() == 1
    other = client.post(url("manage-walk-in", competition.slug), {**walk_in, "walkin-federation_id": "BWF-77"})
    assert other.status_code == 302
    assert competition.registrations.filter(player__first_name="Élodie").count() == 2


def test_a_walk_in_after_the_round_started_is_told_how_to_seat_them(competition: Competition, roles: Roles) -> None:
    publish_round(create_round(competition))
    client = client_of(roles.club_admin)
    client.cookies["django_language"] = "nl"
    walk_in = {"walkin-first_name": "Kevin", "walkin-last_name": "Laatkomer"}
    response = client.post(url("manage-walk-in", competition.slug), walk_in)
    assert response.status_code == 302
    assert any(
        m.startswith("Ronde 1 is ingedeeld zonder deze speler") and "Laatkomers indelen" in m for m in said(response)
    )
    # the name they check in by: not in the standings before their first round, so the desk reads it to them
    assert (
        "Kevin Laatkomer is toegevoegd en ingeschreven; de publieke pagina’s en de pagina Aanwezigheid zeggen "
        "“Kevin L.”." in said(response)
    )


def test_a_walk_in_needs_both_names(competition: Competition, roles: Roles) -> None:
    response = client_of(roles.club_admin).post(url("manage-walk-in", competition.slug), {"walkin-first_name": "Jan"})
    assert "required" in field_errors(response, "id_walkin-last_name")


def upload(content: str | bytes, name: str = "players.csv") -> SimpleUploadedFile:
    data = content.encode() if isinstance(content, str) else content
    return SimpleUploadedFile(name, data, content_type="text/csv")


def test_a_csv_list_registers_known_players_and_creates_the_others(competition: Competition, roles: Roles) -> None:
    known = PlayerFactory(first_name="Anna", last_name="Peeters", federation_id="BWF-1")
    csv_text = "name;federation id\nAnna Peeters;BWF-1\nJan Van den Broeck;BWF-2\nMie Smet;\n"

    response = client_of(roles.club_admin).post(
        url("manage-import-players", competition.slug),
        {"import-file": upload(csv_text), "import-club": competition.club_id},
    )

    assert response.status_code == 302, text(response)
    assert "3 players in the list: 3 newly registered, 2 new to the site." in said(response)
    jan = Player.objects.get(federation_id="BWF-2")
    assert (jan.first_name, jan.last_name) == ("Jan", "Van den Broeck")
    registered = set(competition.registrations.values_list("player__last_name", flat=True))
    assert {"Peeters", "Van den Broeck", "Smet"} <= registered
    assert Registration.objects.filter(player=known, competition=competition).exists()
    assert Membership.objects.filter(player=jan, club=competition.club).exists()


def test_a_csv_list_with_a_bad_row_writes_nothing_and_names_each_bad_line(
    competition: Competition, roles: Roles
) -> None:
    PlayerFactory(first_name="Anna", last_name="Peeters", federation_id="BWF-1")
    players, registrations = Player.objects.count(), Registration.objects.count()
    csv_text = (
        "first_name,last_name,federation_id\n"
        "Jan,Smet,BWF-2\n"  # fine
        "Piet,,\n"  # line 3: no last name
        "Ann,Peters,BWF-1\n"  # line 4: BWF-1 is Anna Peeters's
        "Jef,Janssens,BWF-2\n"  # line 5: BWF-2 again
        f"Lange,{'x' * 81},\n"  # line 6: too long
    )
    response = client_of(roles.club_admin).post(
        url("manage-import-players", competition.slug), {"import-file": upload(csv_text)}
    )

    assert response.status_code == 200
    errors = field_errors(response, "id_import-file")
    assert "Nothing was imported" in errors
    for line in (3, 4, 5, 6):
        assert f"Line {line}:" in errors
    assert "Line 2:" not in errors
    assert "BWF-1 is another player's" in errors and "the same player as on line 2" in errors
    assert "Anna" not in errors  # whose id it is stays untold: an id is no key to another club's member
    assert (Player.objects.count(), Registration.objects.count()) == (players, registrations)


def test_a_federation_id_matches_its_player_whatever_the_case_and_spaces_of_the_name(
    competition: Competition, roles: Roles
) -> None:
    anna = PlayerFactory(first_name="Anna", last_name="Van den Bossche", federation_id="BWF-1")
    players = Player.objects.count()
    response = client_of(roles.club_admin).post(
        url("manage-import-players", competition.slug),
        {"import-file": upload("first_name,last_name,federation_id\nANNA,van  den bossche ,BWF-1\n")},
    )

    assert response.status_code == 302, field_errors(response, "id_import-file")
    assert Player.objects.count() == players
    assert Registration.objects.filter(competition=competition, player=anna).exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"name\nAnna \x81\x8d Peeters\n", "not UTF-8"),  # bytes neither UTF-8 nor Windows-1252 has
        ("club,name\nKBW,Anna Peeters\n", "unknown column club"),
        ("name\nAnna\n", "first and a last name"),
        ("", "submitted file is empty"),
        ("name\nAnna\x00 Peeters\n", "NUL"),
    ],
)
def test_unreadable_csv_lists_are_refused_on_the_file_field(
    competition: Competition, roles: Roles, content: str | bytes, message: str
) -> None:
    players = Player.objects.count()
    response = client_of(roles.club_admin).post(
        url("manage-import-players", competition.slug), {"import-file": upload(content)}
    )
    assert response.status_code == 200
    assert message.lower() in (field_errors(response, "id_import-file") + text(response)).lower()
    assert Player.objects.count() == players


@pytest.mark.parametrize(
    ("content", "language"),
    [
        (
            "Voornaam;Achternaam;Federatienummer;;\r\nÉlodie;Noël;BWF-7;;\r\n;;;;\r\nJan;Smet;;;\r\n".encode("cp1252"),
            "nl",
        ),
        ("\ufeffPrénom;Nom;Numéro de fédération\nÉlodie;Noël;BWF-7\nJan;Smet;\n".encode(), "fr"),
        ("Prénom\tNom\r\nÉlodie\tNoël\r\nJan\tSmet\r\n".encode("utf-16"), "fr"),
        (b"first name,Last-Name\n\xc9lodie,No\xebl\nJan,Smet\n", "en"),
    ],
    ids=["excel-nl-windows-1252", "excel-fr-utf8-bom", "excel-unicode-text", "english-spaces"],
)
def test_a_spreadsheet_s_player_list_imports_as_the_club_saved_it(
    competition: Competition, roles: Roles, content: bytes, language: str
) -> None:
    """Headers as Dutch and French spreadsheets write them, Excel's code page or Unicode text, empty columns and
    lines: what clubs' exports look like."""
    client = client_of(roles.club_admin)
    client.cookies["django_language"] = language
    response = client.post(url("manage-import-players", competition.slug), {"import-file": upload(content)})
    assert response.status_code == 302, field_errors(response, "id_import-file")
    registered = set(competition.registrations.values_list("player__first_name", "player__last_name"))
    assert {("Élodie", "Noël"), ("Jan", "Smet")} <= registered


def test_withdrawing_a_player_asks_first_then_reseats_the_draft(competition: Competition, roles: Roles) -> None:
    create_round(competition)
    leaving = competition.registrations.order_by("player_id").first().player
    client = client_of(roles.club_admin)
    page = url("manage-withdraw", competition.slug, leaving.pk)

    assert "Reason (optional)" in text(client.get(page))
    response = client.post(page, {"reason": "went home"})

    assert response.status_code == 302
    assert Registration.objects.get(competition=competition, player=leaving).withdrawn_at is not None
    assert not Seat.objects.filter(player=leaving).exists()
    assert any("Seated again: round 1." in m for m in said(response))
    assert any("not an active player" in m for m in said(client.post(page, {})))  # twice: the service says no


def test_withdrawing_a_player_of_a_published_round_names_the_cards_to_print_again(
    competition: Competition, roles: Roles
) -> None:
    register_players(competition, [PlayerFactory()])  # nine: a table of five and one of four
    round_ = publish_round(create_round(competition))
    tables = round_tables(round_)
    codes = dict(round_.tables.values_list("number", "sheet__captain_code"))
    number, leaving = next((n, t[0]) for n, t in enumerate(tables, start=1) if len(t) == 5)
    response = client_of(roles.club_admin).post(url("manage-withdraw", competition.slug, leaving), {"reason": "ill"})

    assert response.status_code == 302
    now = dict(round_.tables.values_list("number", "sheet__captain_code"))
    assert now[number] != codes[number]
    assert {n: c for n, c in now.items() if n != number} == {n: c for n, c in codes.items() if n != number}
    assert f"Round 1: the table card of table {number} has changed; print it again." in said(response)


# -- a round's life ---------------------------------------------------------------------------------------------------


def fill(sheet: ScoreSheet, by: Any, deals: int, seed: int) -> None:
    rules = sheet.table.round.competition.rule_set.engine_rules()
    for line in random_session(rules, random.Random(seed), sheet.table.size, 16)[:deals]:
        record_deal(sheet, line, by=by)


def test_a_round_from_draft_to_finalised_and_reopened_through_the_pages(competition: Competition, roles: Roles) -> None:
    client = client_of(roles.club_admin)
    slug = competition.slug

    created = client.post(url("manage-round-new", slug), {"method": "random"})
    assert created.status_code == 302 and created["Location"] == url("manage-round", slug, 1)
    round_ = Round.objects.get(competition=competition, number=1)
    assert (round_.status, round_.method) == (Round.Status.DRAFT, "random")
    draft = text(client.get(url("manage-round", slug, 1)))
    assert "Check the draft seating" in draft and "No problems found" in draft

    seed = round_.seed
    assert client.post(url("manage-round-redraw", slug, 1), {"redraw-method": "mixer"}).status_code == 302
    round_.refresh_from_db()
    assert (round_.seed, round_.method) == (seed + 1, "mixer")

    tables = round_tables(round_)
    first, second = tables[0][0], tables[1][0]
    swapped = client.post(url("manage-round-swap", slug, 1), {"swap-first": first, "swap-second": second})
    assert swapped.status_code == 302
    assert round_tables(round_)[0][0] == second and round_tables(round_)[1][0] == first

    published = client.post(url("manage-round-publish", slug, 1))
    assert "Round 1 is published: the players see their tables." in said(published)
    assert Round.objects.get(pk=round_.pk).status == Round.Status.PUBLISHED
    assert url("round-print", slug, 1) in text(client.get(url("manage-round", slug, 1)))

    sheets = list(ScoreSheet.objects.filter(table__round=round_).order_by("table__number"))
    fill(sheets[0], roles.club_admin, 5, seed=1)
    progress = client.get(url("manage-round-progress", slug, 1), headers={"HX-Request": "true"})
    fragment = text(progress)
    assert "<html" not in fragment and 'hx-trigger="every 5s"' in fragment
    assert "5 / 16" in fragment and "0 / 16" in fragment
    assert url("sheet-entry", slug, 1, 1) in fragment and url("sheet-entry", slug, 1, 2) in fragment

    refused = client.post(url("manage-round-finalise", slug, 1))
    assert "Round 1 (In play): a round is finalised once every sheet is confirmed." in said(refused)

    fill(sheets[1], roles.club_admin, 16, seed=2)
    DealEntry.objects.filter(sheet=sheets[0]).delete()
    fill(sheets[0], roles.club_admin, 16, seed=1)
    for sheet in sheets:
        confirm_sheet(sheet, by=roles.organiser)
    summary = text(client.get(url("manage-round-progress", slug, 1), headers={"HX-Request": "true"}))
    assert "2 of 2 sheets entered, 2 confirmed." in summary

    finalised = client.post(url("manage-round-finalise", slug, 1))
    assert "Round 1 is finalised: its sheets take no more lines." in said(finalised)
    assert Round.objects.get(pk=round_.pk).status == Round.Status.FINALISED
    assert 'hx-trigger="every 5s"' not in text(client.get(url("manage-round", slug, 1)))  # nothing left to watch

    no_reason = client.post(url("manage-round-reopen", slug, 1), {"reopen-reason": ""})
    assert no_reason.status_code == 200 and "required" in field_errors(no_reason, "id_reopen-reason")
    reopened = client.post(url("manage-round-reopen", slug, 1), {"reopen-reason": "table 2 miscounted deal 7"})
    assert reopened.status_code == 302
    assert Round.objects.get(pk=round_.pk).status == Round.Status.COMPLETE


def test_a_draft_with_problems_shows_them_and_is_not_published(competition: Competition, roles: Roles) -> None:
    round_ = create_round(competition)
    tables = round_tables(round_)
    SeatingWish.objects.create(competition=competition, player_id=tables[0][0], other_id=tables[0][1], kind="apart")
    client = client_of(roles.club_admin)
    page = text(client.get(url("manage-round", competition.slug, 1)))
    assert "Fix these before publishing:" in page

    response = client.post(url("manage-round-publish", competition.slug, 1))
    assert response.status_code == 302 and said(response)
    assert Round.objects.get(pk=round_.pk).status == Round.Status.DRAFT


def test_swapping_a_player_with_themself_is_refused_on_the_field(competition: Competition, roles: Roles) -> None:
    round_ = create_round(competition)
    player = round_tables(round_)[0][0]
    response = client_of(roles.club_admin).post(
        url("manage-round-swap", competition.slug, 1), {"swap-first": player, "swap-second": player}
    )
    assert response.status_code == 200
    assert "two different players" in field_errors(response, "id_swap-second")


def test_a_step_the_round_does_not_allow_is_the_services_message(competition: Competition, roles: Roles) -> None:
    publish_round(create_round(competition))
    client = client_of(roles.club_admin)
    response = client.post(url("manage-round-redraw", competition.slug, 1), {"redraw-method": "random"})
    assert response.status_code == 302
    assert "Round 1 (Published): only a draft seating can be drawn again." in said(response)


def test_a_new_round_needs_enough_players(roles: Roles, competition: Competition) -> None:
    few = CompetitionFactory(club=competition.club)
    register_players(few, PlayerFactory.create_batch(3))
    response = client_of(roles.club_admin).post(url("manage-round-new", few.slug), {"method": "random"})
    assert response.status_code == 302 and response["Location"] == url("manage-competition", few.slug)
    assert said(response) and not few.rounds.exists()


def test_progress_shows_sheets_whose_lines_the_rules_no_longer_accept(competition: Competition, roles: Roles) -> None:
    round_ = publish_round(create_round(competition))
    sheet = ScoreSheet.objects.filter(table__round=round_).order_by("table__number").first()
    record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6}, by=None)
    rule_set = competition.rule_set
    rule_set.overrides = {"ladder": [c for c in rule_set.engine_rules().ladder if c != "alleen"]}
    rule_set.save()  # edited after the entry: the stored line no longer fits

    fragment = text(client_of(roles.club_admin).get(url("manage-round-progress", competition.slug, 1)))
    assert "1 sheet has problems." in fragment
    said = r"deal 1: Alleen is not played under this competition(?:'|&#x27;)s rules"  # as people read it
    assert re.search(r'<ul class="bad"><li>' + said, fragment)


def test_the_progress_table_reads_the_same_few_queries_for_many_tables(roles: Roles) -> None:
    def queries(players: int) -> int:
        competition = CompetitionFactory()
        register_players(competition, PlayerFactory.create_batch(players))
        round_ = publish_round(create_round(competition))
        for sheet in ScoreSheet.objects.filter(table__round=round_):
            fill(sheet, roles.club_admin, 2, seed=sheet.pk)
        client = client_of(roles.organiser)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url("manage-round-progress", competition.slug, 1), headers={"HX-Request": "true"})
        return len(captured)

    assert queries(8) == queries(40)
