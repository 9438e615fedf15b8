"""The pages players read: live standings, round results, table sheets, player and club pages.

Each competition is shown as its visibility allows (hidden, standings only, everything), except to those who run
it, who see all of it; and no page issues more queries when the data grows (10 vs 200 players, 3 vs 30 sessions).
Points are worked out by hand from RULES.md §3-4 (preset ``iwwa``): alleen is 2 per opponent +1 per overtrick.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.generate import random_session
from scoring.models import StandingsState
from scoring.services import recompute_standings, recompute_statistics
from tests.factories import ClubFactory, UserFactory, seated_competition
from tests.roles import Roles, make_roles
from tests.tournaments.test_pages import Element, page, rows
from tournaments.models import Competition, Player, Round, ScoreSheet
from tournaments.services.entry import record_deal
from tournaments.services.privacy import public_name
from tournaments.services.sheets import confirm_sheet

pytestmark = pytest.mark.django_db

ALLEEN_6 = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6}  # seat 2: +9, others -3
ALLEEN_4 = {"deal": 2, "dealer": 1, "contract": "alleen", "declarers": [2], "tricks": 4}  # seat 2 one down: -12 / +4


def sheet_of(competition: Competition, round_number: int = 1, table_number: int = 1) -> ScoreSheet:
    return ScoreSheet.objects.get(
        table__round__competition=competition, table__round__number=round_number, table__number=table_number
    )


def computed(competition: Competition) -> None:
    """The standings and statistics, as the worker computes them after an entry."""
    recompute_standings(competition.pk, claim=False)
    recompute_statistics(competition.pk)


def quietly() -> Any:
    """Enter lines without queuing a recomputation each (``computed`` does it once, after)."""
    return mock.patch("tournaments.services.standings.request_standings", lambda competition_id: False)


def fill(sheet: ScoreSheet, seed: int = 1) -> None:
    """A whole session from the engine's generator, entered through the service: the sheet ends "entered"."""
    competition = sheet.table.round.competition
    lines = random_session(competition.rule_set.engine_rules(), random.Random(seed), sheet.table.size, 16)
    with quietly(), transaction.atomic():
        for line in lines:
            record_deal(sheet, line)


# -- visibility ---------------------------------------------------------------------------------------------------


@dataclass
class World:
    competition: Competition  # four players, round 1 with one line entered, standings and statistics computed
    sheet: ScoreSheet
    player: Player  # seat 2, who played the line
    roles: Roles


@pytest.fixture
def world() -> World:
    competition = seated_competition(players=4, kind="league")
    sheet = sheet_of(competition)
    with quietly():
        record_deal(sheet, ALLEEN_6)
    computed(competition)
    return World(competition, sheet, sheet.table.seats.get(position=2).player, make_roles(competition))


def pages_of(world: World) -> dict[str, str]:
    slug = world.competition.slug
    return {
        "competition": reverse("competition", args=[slug]),
        "standings": reverse("competition-standings", args=[slug]),
        "season": reverse("season", args=[slug]),
        "round": reverse("round", args=[slug, 1]),
        "sheet": reverse("sheet", args=[slug, 1, world.sheet.table.number]),
    }


HIDDEN = {"competition": 404, "standings": 404, "season": 404, "round": 404, "sheet": 404}
STANDINGS = {"competition": 200, "standings": 200, "season": 200, "round": 404, "sheet": 404}
EVERYTHING = {"competition": 200, "standings": 200, "season": 200, "round": 200, "sheet": 200}
EXPECTED = {
    # level: (what the public sees, whether a player page lists the competition's sessions and statistics)
    Competition.Visibility.HIDDEN: (HIDDEN, False),
    Competition.Visibility.STANDINGS: (STANDINGS, False),
    Competition.Visibility.EVERYTHING: (EVERYTHING, True),
}
VIEWERS = ("anonymous", "outsider", "player", "club_admin", "listed_organiser", "superuser")
MANAGERS = {"club_admin", "listed_organiser", "superuser"}


def client_of(world: World, viewer: str) -> Client:
    client = Client()
    users = {
        "outsider": world.roles.outsider,
        "player": world.roles.player,
        "club_admin": world.roles.club_admin,
        "superuser": world.roles.organiser,
    }
    if viewer == "listed_organiser":
        director = UserFactory(username="director")
        world.competition.organisers.add(director)
        client.force_login(director)
    elif viewer != "anonymous":
        client.force_login(users[viewer])
    return client


@pytest.mark.parametrize("viewer", VIEWERS)
@pytest.mark.parametrize("level", list(EXPECTED))
def test_each_visibility_shows_the_public_what_it_allows_and_those_who_run_it_everything(
    world: World, level: str, viewer: str
) -> None:
    world.competition.visibility = level
    world.competition.save()
    client = client_of(world, viewer)
    public, sessions_shown = EXPECTED[level]
    manages = viewer in MANAGERS

    statuses = {name: client.get(url).status_code for name, url in pages_of(world).items()}

    assert statuses == (EVERYTHING if manages else public)
    player_page = page(client.get(reverse("player", args=[world.player.pk])))
    shown = bool(player_page.find_all("table", id="sessions"))
    assert shown == (manages or sessions_shown)
    assert (world.competition.name in player_page.text()) == (manages or sessions_shown)
    assert bool(player_page.find_all("table", id="contracts")) == (manages or sessions_shown)
    club = page(client.get(reverse("club", args=[world.competition.club.slug])))
    assert (world.competition.name in club.text()) == (manages or level != Competition.Visibility.HIDDEN)


def test_standings_only_shows_no_rounds_to_the_public_and_says_so_to_those_who_run_it(world: World) -> None:
    world.competition.visibility = Competition.Visibility.STANDINGS
    world.competition.save()
    url = reverse("competition", args=[world.competition.slug])

    public = page(Client().get(url))
    assert public.find_all("table", id="standings") and not public.find_all("ul", id="rounds")
    assert reverse("round", args=[world.competition.slug, 1]) not in {a.attrs.get("href") for a in public.find_all("a")}
    assert not public.find_all(id="visibility-note")

    client = Client()
    client.force_login(world.roles.club_admin)
    organiser = page(client.get(url))
    assert organiser.find("ul", id="rounds").find("a").attrs["href"] == reverse(
        "round", args=[world.competition.slug, 1]
    )
    assert "the standings only" in organiser.find(id="visibility-note").text()


def test_the_public_sees_public_names_and_those_who_run_it_full_names_on_the_round_page(world: World) -> None:
    url = reverse("round", args=[world.competition.slug, 1])
    public = Client().get(url).content.decode()
    assert public_name(world.player) in public and world.player.last_name not in public
    client = Client()
    client.force_login(world.roles.club_admin)
    assert world.player.name in client.get(url).content.decode()


# -- live standings -----------------------------------------------------------------------------------------------


def test_the_competition_page_polls_the_standings_fragment_every_five_seconds(world: World) -> None:
    doc = page(Client().get(reverse("competition", args=[world.competition.slug])))

    live = doc.find("div", id="standings-live")
    assert live.attrs["hx-get"] == reverse("competition-standings", args=[world.competition.slug])
    assert live.attrs["hx-trigger"] == "every 5s"
    assert live.find_all("table", id="standings")  # the first view comes with the page, not after a poll
    assert not [name for el in doc.iter() for name in el.attrs if name.startswith(("on", "hx-on"))]  # CSP: no inline


def test_the_fragment_is_the_standings_table_alone_with_its_age(world: World) -> None:
    StandingsState.objects.filter(competition=world.competition).update(
        computed_at=timezone.now() - timedelta(seconds=12)
    )

    response = Client().get(reverse("competition-standings", args=[world.competition.slug]), HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html and "<body" not in html and "<h1" not in html
    doc = page(response)
    # under a minute in words that stand for the whole minute: a poll's validator does not change every second
    assert doc.find(id="standings-age").text() == "Updated less than a minute ago"
    assert doc.find("time").attrs["datetime"]
    leader = rows(doc.find("table", id="standings"))[0]
    assert leader[1] == f"{public_name(world.player)} provisional"
    assert not doc.find_all(id="standings-stale")


def test_the_fragment_says_when_the_standings_are_older_than_the_entries(world: World) -> None:
    StandingsState.objects.filter(competition=world.competition).update(
        computed_at=timezone.now() - timedelta(minutes=3)
    )
    Competition.objects.filter(pk=world.competition.pk).update(entries_version=F("entries_version") + 1)

    doc = page(Client().get(reverse("competition-standings", args=[world.competition.slug]), HTTP_HX_REQUEST="true"))

    assert doc.find(id="standings-age").text().startswith("Updated 3 minutes ago")
    assert "newer entries are being counted" in doc.find(id="standings-stale").text()


def test_a_closed_season_that_has_caught_up_stops_the_polling(world: World) -> None:
    Competition.objects.filter(pk=world.competition.pk).update(closed_at=timezone.now())
    slug = world.competition.slug

    doc = page(Client().get(reverse("competition", args=[slug])))
    assert "hx-trigger" not in doc.find("div", id="standings-live").attrs
    assert Client().get(reverse("competition-standings", args=[slug]), HTTP_HX_REQUEST="true").status_code == 286
    assert Client().get(reverse("competition-standings", args=[slug])).status_code == 200  # a plain visit reads it


def test_an_entry_shows_in_the_next_poll_without_a_reload(
    world: World, django_capture_on_commit_callbacks: Any
) -> None:
    url = reverse("competition-standings", args=[world.competition.slug])
    before = rows(page(Client().get(url, HTTP_HX_REQUEST="true")).find("table", id="standings"))
    assert before[0][2] == "9"

    with django_capture_on_commit_callbacks(execute=True):
        record_deal(world.sheet, ALLEEN_4)  # seat 2 goes one down: 9 - 12 = -3; the others -3 + 4 = 1

    after = rows(page(Client().get(url, HTTP_HX_REQUEST="true")).find("table", id="standings"))
    points = {cells[1].removesuffix(" provisional"): cells[2] for cells in after}
    assert points[public_name(world.player)] == "-3"
    assert sorted(points.values()) == ["-3", "1", "1", "1"]


def test_a_poll_brings_the_rounds_progress_out_of_band_and_a_plain_visit_only_the_standings(world: World) -> None:
    url = reverse("competition-standings", args=[world.competition.slug])

    polled = page(Client().get(url, HTTP_HX_REQUEST="true"))
    (live,) = polled.find_all("div", id="rounds-live")
    assert live.attrs["hx-swap-oob"] == "true"
    assert [li.text() for li in live.find("ul", id="rounds").find_all("li")] == [
        "Round 1 · In play · 0 of 1 table confirmed"
    ]
    assert not page(Client().get(url)).find_all("ul", id="rounds")  # a plain visit: the standings alone
    assert "HX-Request" in Client().get(url)["Vary"]


def test_a_poll_brings_the_rounds_again_only_when_they_changed(world: World, settings: Any) -> None:
    settings.LIVE_PARTS_SECONDS = 0  # the change below is a bare update, which the live parts see after their second
    competition_page = page(Client().get(reverse("competition", args=[world.competition.slug])))
    assert "#rounds-seen" in competition_page.find("div", id="standings-live").attrs["hx-include"]
    seen = competition_page.find("input", id="rounds-seen").attrs["value"]
    url = reverse("competition-standings", args=[world.competition.slug])

    unchanged = page(Client().get(f"{url}?rounds_seen={seen}", HTTP_HX_REQUEST="true"))
    assert unchanged.find_all("table", id="standings") and not unchanged.find_all("ul", id="rounds")
    Round.objects.filter(pk=world.sheet.table.round_id).update(status=Round.Status.COMPLETE)
    changed = page(Client().get(f"{url}?rounds_seen={seen}", HTTP_HX_REQUEST="true"))
    assert "Round 1 · Complete ·" in changed.find("ul", id="rounds").text()
    assert changed.find("input", id="rounds-seen").attrs["value"] != seen


def test_a_poll_brings_the_contract_statistics_again_only_when_they_changed(world: World) -> None:
    competition_page = page(Client().get(reverse("competition", args=[world.competition.slug])))
    assert "#statistics-seen" in competition_page.find("div", id="standings-live").attrs["hx-include"]
    seen = competition_page.find("input", id="statistics-seen").attrs["value"]
    url = f"{reverse('competition-standings', args=[world.competition.slug])}?statistics_seen={seen}"

    assert not page(Client().get(url, HTTP_HX_REQUEST="true")).find_all("div", id="statistics-live")
    with quietly():
        record_deal(world.sheet, ALLEEN_4)
    computed(competition=world.competition)
    (live,) = page(Client().get(url, HTTP_HX_REQUEST="true")).find_all("div", id="statistics-live")
    assert live.attrs["hx-swap-oob"] == "true"
    assert rows(live.find("table", id="contracts-played")) == [["Alleen", "2", "1", "50"]]


def test_a_poll_brings_no_rounds_where_the_public_sees_only_the_standings(world: World) -> None:
    world.competition.visibility = Competition.Visibility.STANDINGS
    world.competition.save()
    url = reverse("competition-standings", args=[world.competition.slug])

    assert not page(Client().get(url, HTTP_HX_REQUEST="true")).find_all("ul", id="rounds")


def test_the_round_page_polls_itself_and_a_poll_gets_its_tables_alone(world: World) -> None:
    url = reverse("round", args=[world.competition.slug, 1])

    live = page(Client().get(url)).find("div", id="round-live")
    assert live.attrs["hx-get"].startswith(f"{url}?seen=") and live.attrs["hx-trigger"] == "every 5s"
    response = Client().get(url, HTTP_HX_REQUEST="true")
    assert "HX-Request" in response["Vary"]
    html = response.content.decode()
    assert "<html" not in html and "<h1" not in html
    (card,) = page(response).find_all("section", class_="card")
    assert card.find("p").text() == "Draft (provisional) · 1 of 16 deals"


def test_a_poll_of_an_unchanged_round_swaps_nothing_and_one_after_an_entry_swaps_the_tables(world: World) -> None:
    url = reverse("round", args=[world.competition.slug, 1])
    poll = page(Client().get(url)).find("div", id="round-live").attrs["hx-get"]

    assert Client().get(poll, HTTP_HX_REQUEST="true").status_code == 204  # nothing new: nothing swapped
    with quietly():
        record_deal(world.sheet, ALLEEN_4)
    response = Client().get(poll, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    (card,) = page(response).find_all("section", class_="card")
    assert card.find("p").text() == "Draft (provisional) · 2 of 16 deals"
    assert page(response).find("div", id="round-live").attrs["hx-get"] != poll  # the next poll compares with this


def test_a_finalised_round_stops_the_polling(world: World) -> None:
    Round.objects.filter(pk=world.sheet.table.round_id).update(status=Round.Status.FINALISED)
    url = reverse("round", args=[world.competition.slug, 1])

    assert "hx-trigger" not in page(Client().get(url)).find("div", id="round-live").attrs
    assert Client().get(url, HTTP_HX_REQUEST="true").status_code == 286


# -- provisional rows ---------------------------------------------------------------------------------------------


def provisional_names(competition: Competition) -> set[str]:
    doc = page(Client().get(reverse("competition", args=[competition.slug])))
    return {
        row.find("a").text()
        for row in doc.find("table", id="standings").find("tbody").find_all("tr", class_="provisional")
    }


def test_rows_that_count_an_unconfirmed_sheet_are_provisional_until_a_second_person_confirms_it() -> None:
    competition = seated_competition(players=8)  # two tables
    first, second = sheet_of(competition, 1, 1), sheet_of(competition, 1, 2)
    fill(first)
    computed(competition)
    at_first = {public_name(seat.player) for seat in first.table.seats.all()}
    assert provisional_names(competition) == at_first  # the other table has entered nothing: nothing to doubt
    first.refresh_from_db()
    assert first.state == ScoreSheet.State.ENTERED
    sheet_page = page(Client().get(reverse("sheet", args=[competition.slug, 1, 1])))
    assert sheet_page.find(id="sheet-state").text().startswith("Entered (provisional) ·")

    confirm_sheet(first, by=UserFactory(username="second-pair-of-eyes"))

    assert provisional_names(competition) == set()
    doc = page(Client().get(reverse("competition", args=[competition.slug])))
    assert not doc.find_all(id="provisional-note")
    round_page = page(Client().get(reverse("round", args=[competition.slug, 1])))
    states = [card.find("p").text() for card in round_page.find_all("section", class_="card")]
    assert states == ["Confirmed · 16 of 16 deals", "Draft · 0 of 16 deals"]
    assert second.seat_results.count() == 0


# -- the round page -----------------------------------------------------------------------------------------------


def test_the_round_page_shows_each_table_with_its_players_totals_state_and_sheet_link(world: World) -> None:
    doc = page(Client().get(reverse("round", args=[world.competition.slug, 1])))

    (card,) = doc.find_all("section", class_="card")
    link = card.find("h2").find("a")
    assert link.attrs["href"] == reverse("sheet", args=[world.competition.slug, 1, 1]) and link.text() == "Table 1"
    assert card.find("p").text() == "Draft (provisional) · 1 of 16 deals"
    names = [public_name(seat.player) for seat in world.sheet.table.seats.order_by("position")]
    assert rows(card.find("table")) == [[names[0], "-3"], [names[1], "-3"], [names[2], "9"], [names[3], "-3"]]


def test_a_draft_round_is_hidden_from_the_public_and_shown_to_those_who_run_it(world: World) -> None:
    from tournaments.services.rounds import create_round

    create_round(world.competition)
    url = reverse("round", args=[world.competition.slug, 2])
    assert Client().get(url).status_code == 404
    client = Client()
    client.force_login(world.roles.club_admin)
    doc = page(client.get(url))
    entry = reverse("sheet-entry", args=[world.competition.slug, 2, 1])
    assert entry in {a.attrs.get("href") for a in doc.find_all("a")}


def test_the_sheet_page_sums_each_seat_and_links_the_players(world: World) -> None:
    with quietly():
        record_deal(world.sheet, ALLEEN_4)

    doc = page(Client().get(reverse("sheet", args=[world.competition.slug, 1, 1])))

    totals = doc.find("table", id="sheet-totals")
    names = [public_name(seat.player) for seat in world.sheet.table.seats.order_by("position")]
    assert rows(totals) == [["1", names[0], "1"], ["2", names[1], "1"], ["3", names[2], "-3"], ["4", names[3], "1"]]
    contracts = [cells[0] for cells in rows(doc.find("table", class_="sheet"))[0::3]]
    # the declarer at position 2 sits in seat 3
    assert contracts == [
        f"Alleen — seat 3 {names[2]} — 6 tricks, made",
        f"Alleen — seat 3 {names[2]} — 4 tricks, failed",
    ]
    assert totals.find("a").attrs["href"] == reverse("player", args=[world.sheet.table.seats.get(position=0).player_id])
    assert doc.find("a", href=reverse("round", args=[world.competition.slug, 1]))


# -- the player page ----------------------------------------------------------------------------------------------


def session_rows(doc: Element) -> list[list[str]]:
    return rows(doc.find("table", id="sessions"))


def test_the_player_page_charts_cumulative_points_and_lists_them_as_a_table() -> None:
    competition = seated_competition(players=4, rounds=3, kind="league")
    player = sheet_of(competition).table.seats.get(position=2).player
    with quietly():
        for number, line in ((1, ALLEEN_6), (2, {**ALLEEN_6, "deal": 1, "tricks": 4}), (3, ALLEEN_6)):
            sheet = sheet_of(competition, number)
            seat = sheet.table.seats.get(player=player).position
            record_deal(sheet, {**line, "declarers": [seat]})
    computed(competition)

    doc = page(Client().get(reverse("player", args=[player.pk])))

    # alleen made (+9), one down (-12), made (+9): 9, -3, 6
    assert [(r[1], r[3], r[5]) for r in session_rows(doc)] == [("1", "9", "9"), ("2", "-12", "-3"), ("3", "9", "6")]
    figure = doc.find("figure")
    svg = figure.find("svg")
    assert svg.attrs["role"] == "img"
    assert svg.find("title").text() == "Cumulative points after each session"
    assert "the table below gives every value" in svg.find("desc").text()
    assert len(svg.find_all("circle")) == 3
    polyline = svg.find("polyline").attrs["points"] or ""
    ys = [float(point.split(",")[1]) for point in polyline.split()]
    assert len(ys) == 4  # from zero, then after each session
    assert ys[1] < ys[0] and ys[2] > ys[0] and ys[1] < ys[3] < ys[2]  # up 9, down to -3, up to 6 (SVG y grows down)
    assert [c.find("title").text() for c in svg.find_all("circle")][1] == f"{competition.name}, 2: -3"


def test_the_player_page_counts_contracts_bid_and_made() -> None:
    competition = seated_competition(players=4)
    sheet = sheet_of(competition)
    player = sheet.table.seats.get(position=2).player
    with quietly():
        record_deal(sheet, ALLEEN_6)  # seat 2 alleen, made
        record_deal(sheet, ALLEEN_4)  # seat 2 alleen, one down
        record_deal(sheet, {"deal": 3, "dealer": 2, "contract": "vraag", "declarers": [2, 0], "tricks": 8})  # made
    computed(competition)

    doc = page(Client().get(reverse("player", args=[player.pk])))

    assert rows(doc.find("table", id="contracts")) == [
        ["Alleen", "2", "1", "50"],
        ["Vraag en meegaan", "1", "1", "100"],
    ]
    assert "3 deals" in doc.find("section", **{"aria-labelledby": "contracts-heading"}).text()


def test_french_pages_name_the_contracts_in_french(world: World) -> None:
    doc = page(Client().get(reverse("player", args=[world.player.pk]), HTTP_ACCEPT_LANGUAGE="fr"))
    assert rows(doc.find("table", id="contracts"))[0][0] == "Seul"  # alleen


def test_a_player_without_sessions_gets_a_page_without_a_chart() -> None:
    competition = seated_competition(players=4)
    player = competition.players.first()
    doc = page(Client().get(reverse("player", args=[player.pk])))
    assert not doc.find_all("figure") and "No sessions yet." in doc.text() and "No statistics yet." in doc.text()


# -- the club page ------------------------------------------------------------------------------------------------


def test_the_club_page_lists_its_public_competitions_and_all_of_them_for_its_administrators() -> None:
    club = ClubFactory(name="Klaverblad")
    public = seated_competition(players=4, club=club, name="Open", kind="league")
    results_private = seated_competition(players=4, club=club, name="Ladder", public_results=False)
    hidden = seated_competition(players=4, club=club, name="Intern", is_public=False)
    elsewhere = seated_competition(players=4, name="Elders")
    roles = make_roles(public)
    url = reverse("club", args=[club.slug])

    doc = page(Client().get(url))
    links = {a.attrs["href"] for a in doc.find("ul", id="competitions").find_all("a")}
    assert links == {
        reverse("competition", args=[public.slug]),
        reverse("season", args=[public.slug]),
        reverse("checkin", args=[public.slug]),  # an open league: its players check in on league evenings
        reverse("competition", args=[results_private.slug]),
    }
    assert doc.find("h1").text() == "Klaverblad" and elsewhere.name not in doc.text()

    client = Client()
    client.force_login(roles.club_admin)
    items = [li.text() for li in page(client.get(url)).find("ul", id="competitions").find_all("li")]
    assert any(item.startswith("Intern") and "hidden from the public" in item for item in items)
    assert any(item.startswith("Ladder") and "public: standings only" in item for item in items)
    assert hidden.name not in Client().get(url).content.decode()
    assert Client().get(reverse("club", args=["no-such-club"])).status_code == 404
    assert url in {a.attrs.get("href") for a in page(Client().get(reverse("home"))).find_all("a")}


def test_a_season_with_decay_shows_its_totals_as_numbers_in_the_readers_language() -> None:
    competition = seated_competition(players=4, rounds=2, kind="league", evening_decay=0.9)
    with quietly():
        record_deal(sheet_of(competition, 1), ALLEEN_6)  # seat 2: +9 on the first evening, which counts 0.9 times
        record_deal(sheet_of(competition, 2), ALLEEN_6)
    url = reverse("season", args=[competition.slug])

    totals = {row[-2] for row in rows(page(Client().get(url)).find("table", id="season"))}
    dutch = {row[-2] for row in rows(page(Client().get(url, HTTP_ACCEPT_LANGUAGE="nl")).find("table", id="season"))}

    assert not any("/" in total for total in totals | dutch), totals | dutch
    assert "-5.7" in totals and "-5,7" in dutch  # -3 x 0.9 - 3: a decimal, as each reader writes it


# -- queries do not grow with the data ----------------------------------------------------------------------------


def queries(client: Client, url: str, **headers: Any) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **headers)
    assert response.status_code == 200, url
    return len(captured.captured_queries)


@dataclass
class Sized:
    competition: Competition
    player: Player


def sized(players: int) -> Sized:
    """A tournament of ``players`` with two rounds: a line at each of round 1's first two tables (one confirmed
    full sheet, one provisional line), a line in round 2; standings and statistics computed."""
    competition = seated_competition(players=players, rounds=2)
    fill(sheet_of(competition, 1, 1))
    confirm_sheet(sheet_of(competition, 1, 1), by=UserFactory())
    with quietly():
        record_deal(sheet_of(competition, 1, 2), ALLEEN_6)
        record_deal(sheet_of(competition, 2, 1), ALLEEN_6)
    computed(competition)
    return Sized(competition, sheet_of(competition, 2, 1).table.seats.get(position=2).player)


def page_queries(world: Sized, client: Client) -> dict[str, int]:
    """Counted from nothing kept: no part of a page read from what an earlier request or job left in the cache."""
    slug = world.competition.slug
    cache.clear()
    return {
        "standings page": queries(client, reverse("competition", args=[slug])),
        "standings fragment": queries(client, reverse("competition-standings", args=[slug]), HTTP_HX_REQUEST="true"),
        "round page": queries(client, reverse("round", args=[slug, 1])),
        "sheet page": queries(client, reverse("sheet", args=[slug, 1, 1])),
        "player page": queries(client, reverse("player", args=[world.player.pk])),
        "club page": queries(client, reverse("club", args=[world.competition.club.slug])),
        "season page": queries(client, reverse("season", args=[slug])),
    }


@pytest.mark.parametrize("viewer", ["anonymous", "club_admin"])
def test_no_page_issues_more_queries_with_200_players_than_with_10(viewer: str) -> None:
    small, large = sized(10), sized(200)
    assert large.competition.standings.count() == 200
    clients = {}
    for world in (small, large):
        client = Client()
        if viewer == "club_admin":
            admin = UserFactory()
            make_admin = Player.objects.create(first_name="Ad", last_name="Min", user=admin)
            world.competition.club.memberships.create(player=make_admin, is_admin=True)
            client.force_login(admin)
        clients[world.competition.pk] = client

    counted = [page_queries(world, clients[world.competition.pk]) for world in (small, large)]

    assert counted[0] == counted[1], f"10 players: {counted[0]}; 200 players: {counted[1]}"
    assert max(counted[0].values()) <= 12, counted[0]


def test_the_player_page_issues_as_many_queries_with_30_sessions_as_with_3() -> None:
    counts = []
    for sessions in (3, 30):
        competition = seated_competition(players=4, rounds=sessions, kind="league")
        player = sheet_of(competition).table.seats.get(position=2).player
        with quietly():
            for number in range(1, sessions + 1):
                sheet = sheet_of(competition, number)
                record_deal(sheet, {**ALLEEN_6, "declarers": [sheet.table.seats.get(player=player).position]})
        computed(competition)
        doc_queries = queries(Client(), reverse("player", args=[player.pk]))
        assert len(session_rows(page(Client().get(reverse("player", args=[player.pk]))))) == sessions
        counts.append(doc_queries)
    assert counts[0] == counts[1], counts
