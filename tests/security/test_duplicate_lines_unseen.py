"""A duplicate round's scores stay with those who run it until the round is finalised.

Every table plays the same boards, at once or in turn (a relay), so a line one table has entered tells another
what a board still to be played holds: that seat 2 went alone, that a miserie was made; a total after the first
deal says as much. The sheet pages, the round page, the player pages, the API's sheets and their exports all read
them; ``tournaments.visibility`` keeps them from everyone who does not run the competition until the round is
finalised (the standings stay live).

The doors are not listed by hand: every GET route of the URL conf (pages, API, admin) is opened with every
object of the world in its address, by the public, a table-code holder of another table and another club's
administrator, and none may answer with the line (its note, or its text as the sheet page reads it), nor with a
board of the round (its hands, as any page, the PBN file or the stored deal writes them, or the solver's table).
The same walk, by the organiser and after the round is finalised, finds both, so the walk reaches the doors it
checks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import get_resolver, reverse

from scoring.services import recompute_statistics
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory, seated_competition
from tests.urlconf import routes
from tournaments.duplicate.selectors import round_pbn
from tournaments.models import Board, Competition, DealEntry, Round, ScoreSheet
from tournaments.services.entry import record_deal
from tournaments.services.rounds import finalise_round

pytestmark = pytest.mark.django_db

NOTE = "seat two alone kept-from-table-2"
LINE_TEXT = "Alleen — seat 2"  # the line as the sheet page says it (which does not show the note)
LINE = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [1], "tricks": 6, "note": NOTE}
# a route's address parts and what fills them; a route with any other part is left out (``UNFILLED``)
NUMBERS = {"number": 1, "round_number": 1, "table_number": 1, "board_number": 1, "deal": 1}
IDS = ("pk", "object_id", "id", "player_id")
# routes whose address holds a part no object of the world fills, and why they hold no line
UNFILLED = {
    "admin:view_on_site": "a redirect to an object's own page, which the walk opens itself",
    "admin:app_list": "the admin's list of an app's models",
    "admin/(?P<url>.*)$": "the admin's answer to an address it does not know",
    "api/v1/^(?:.*/)?$": "the API's JSON 404 for an address it does not know",
    "ruleset-score-preset": "scores a line under a preset the engine ships: no competition's lines",
}


@dataclass
class World:
    competition: Competition  # public with its results, duplicate, round 1 in play at two tables
    sheet: ScoreSheet  # table 1's, with the line
    other: ScoreSheet  # table 2's, empty
    organiser: Any
    other_admin: Any

    def ids(self) -> set[int]:
        """Every object an address may name: the competition, its club, round, tables, sheets, lines, board and
        the players of table 1."""
        round_ = self.sheet.table.round
        ids = {self.competition.pk, self.competition.club_id, round_.pk, self.sheet.pk, self.other.pk}
        ids |= {self.sheet.table_id, self.other.table_id}
        ids |= set(DealEntry.objects.filter(sheet=self.sheet).values_list("pk", flat=True))
        ids |= set(Board.objects.filter(round=round_, number=1).values_list("pk", flat=True))
        ids |= set(self.sheet.table.seats.values_list("player_id", flat=True))
        return ids


@pytest.fixture
def world() -> World:
    competition = seated_competition(players=8, club=ClubFactory(), duplicate=True, name="Relay Cup")
    assert competition.visibility == Competition.Visibility.EVERYTHING and competition.is_public
    organiser = UserFactory(username="director")
    competition.organisers.add(organiser)
    other_admin = UserFactory(username="otheradmin", is_staff=True)
    MembershipFactory(club=ClubFactory(), player=PlayerFactory(user=other_admin), is_admin=True)
    sheets = ScoreSheet.objects.filter(table__round__competition=competition).order_by("table__number")
    sheet, other = sheets
    record_deal(sheet, LINE, by=organiser)
    return World(competition, sheet, other, organiser, other_admin)


PART = re.compile(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>[^)]*\)")


def addresses(world: World) -> tuple[list[str], set[str]]:
    """Every GET address of the URL conf with the world's objects in it, and the routes left unfilled."""
    slugs = (world.competition.slug, world.competition.club.slug)
    found: list[str] = []
    unfilled: set[str] = set()
    for route, named in routes(get_resolver().url_patterns):
        name = named or route  # an unnamed route is told by its path
        parts = [a or b for a, b in PART.findall(route)]
        if "format" in parts:
            continue  # the API's ".json" twin of a route the walk opens
        if any(p not in NUMBERS and p not in IDS and p != "slug" for p in parts):
            unfilled.add(name)
            continue
        values: list[dict[str, str]] = [{}]
        for part in dict.fromkeys(parts):
            if part in NUMBERS:
                choices = [str(NUMBERS[part])]
            elif part == "slug":
                choices = list(slugs)
            else:
                choices = [str(i) for i in sorted(world.ids())]
            values = [{**v, part: c} for v in values for c in choices]
        for value in values:
            address = PART.sub(lambda m, value=value: value[m.group(1) or m.group(2)], route)
            address = "/" + address.replace("^", "").replace("$", "").replace("\\.", ".").replace("/?", "/")
            if re.search(r"[\\()\[\]{}*+?|^$]", address):
                unfilled.add(name)
                continue
            found.append(address)
            if address.startswith("/api/"):
                found.append(address + "?fmt=csv")
    return found, unfilled


def client_of(world: World, role: str) -> Client:
    if role == "table_2":  # a table-code holder: table 2's entry page opened with its code, and the code sent along
        client = Client(HTTP_X_TABLE_CODE=world.other.captain_code)
        entry = reverse("sheet-entry", args=[world.competition.slug, 1, 2])
        assert client.get(entry, {"code": world.other.captain_code}).status_code == 302
        return client
    client = Client()
    if role != "anonymous":
        client.force_login(getattr(world, role))
    return client


def board_markers(world: World) -> list[bytes]:
    """A board as any answer could show it: drawn as a hand or a diagram, the solver's table, a PBN record and its
    hands, or the deal as it is stored (one owner a card)."""
    round_ = world.sheet.table.round
    pbn = round_pbn(round_)
    hands = [hand for deal in re.findall(r'\[Deal "N:([^"]+)"\]', pbn) for hand in deal.split()]
    stored = list(Board.objects.filter(round=round_).values_list("deal", flat=True))
    assert hands and stored, "the round has no boards to look for"
    drawn = ['class="hand"', 'class="diagram"', 'id="solver-table"', "[Deal "]
    return [marker.encode() for marker in drawn + hands + stored]


def walk(client: Client, found: list[str], world: World) -> dict[str, list[str]]:
    """The addresses (with their status) that show the line, and those that show a board of the round."""
    line, board = [NOTE.encode(), LINE_TEXT.encode()], board_markers(world)
    shown: dict[str, list[str]] = {"line": [], "board": []}
    for address in found:
        response = client.get(address)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        for kind, markers in (("line", line), ("board", board)):
            if any(marker in body for marker in markers):
                shown[kind].append(f"{address}: {response.status_code}")
    return shown


def test_every_route_is_filled_or_said_why_not(world: World) -> None:
    found, unfilled = addresses(world)
    assert len(found) > 200, "the walk found too few addresses"
    assert unfilled == set(UNFILLED), f"routes the walk cannot fill: {sorted(unfilled - set(UNFILLED))}"


@pytest.mark.parametrize("role", ["anonymous", "table_2", "other_admin"])
def test_nobody_outside_reads_a_line_or_a_board_of_a_duplicate_round_in_play(world: World, role: str) -> None:
    found, _ = addresses(world)
    assert walk(client_of(world, role), found, world) == {"line": [], "board": []}


def test_the_organiser_reads_the_line_and_the_board_on_the_pages_the_api_and_its_exports(world: World) -> None:
    found, _ = addresses(world)
    shown = walk(client_of(world, "organiser"), found, world)
    sheet = reverse("sheet", args=[world.competition.slug, 1, 1])
    expected = [sheet, f"/api/v1/sheets/{world.sheet.pk}/", f"/api/v1/sheets/{world.sheet.pk}/export/"]
    for address in expected:
        assert f"{address}: 200" in shown["line"], shown["line"]
    assert f"/api/v1/sheets/{world.sheet.pk}/export/?fmt=csv: 200" in shown["line"]
    boards = [
        reverse(name, args=[world.competition.slug, 1])
        for name in ("manage-boards", "manage-boards-pbn", "manage-boards-print")
    ]
    for address in [*boards, reverse("board", args=[world.competition.slug, 1, 1])]:
        assert f"{address}: 200" in shown["board"], shown["board"]


def test_once_the_round_is_finalised_everyone_reads_the_line_and_the_board(world: World) -> None:
    Round.objects.filter(pk=world.sheet.table.round_id).update(status=Round.Status.COMPLETE)
    finalise_round(Round.objects.get(pk=world.sheet.table.round_id), by=world.organiser)
    found, _ = addresses(world)
    shown = walk(client_of(world, "anonymous"), found, world)
    assert f"{reverse('sheet', args=[world.competition.slug, 1, 1])}: 200" in shown["line"]
    assert f"/api/v1/sheets/{world.sheet.pk}/: 200" in shown["line"]
    assert f"{reverse('board', args=[world.competition.slug, 1, 1])}: 200" in shown["board"]
    assert not any("/manage/" in address for address in shown["board"]), shown["board"]


SAID = {
    "en": "The scores are shown once the round is finalised: other tables are still playing these boards.",
    "nl": "De scores verschijnen zodra de ronde afgesloten is: aan andere tafels worden deze borden nog gespeeld.",
    "fr": "Les scores s'affichent à la clôture de la manche\u00a0: d'autres tables jouent encore ces étuis.",
}
DECLARERS_TOTAL = '<td class="num">9</td>'  # seat 2's points for going alone and making six tricks


def read(address: str, client: Client | None = None, language: str = "en") -> str:
    client = client or Client()
    client.cookies["django_language"] = language
    response = client.get(address)
    assert response.status_code == 200, address
    return response.content.decode().replace("&#x27;", "'")


@pytest.mark.parametrize("language", sorted(SAID))
def test_the_sheet_and_round_pages_say_why_the_scores_wait(world: World, language: str) -> None:
    for address in (
        reverse("sheet", args=[world.competition.slug, 1, 1]),
        reverse("round", args=[world.competition.slug, 1]),
    ):
        body = read(address, language=language)
        assert SAID[language] in body, address
        assert NOTE not in body and "Alleen" not in body and DECLARERS_TOTAL not in body, address


def test_the_round_page_shows_how_far_each_table_is_but_not_its_points(world: World) -> None:
    address = reverse("round", args=[world.competition.slug, 1])
    public = read(address)
    assert "1 of 16 deals" in public and "0 of 16 deals" in public
    assert DECLARERS_TOTAL not in public
    assert DECLARERS_TOTAL in read(address, client_of(world, "organiser"))
    assert SAID["en"] not in read(address, client_of(world, "organiser"))


def test_a_player_page_counts_the_session_once_the_round_is_finalised(world: World) -> None:
    declarer = world.sheet.table.seats.get(position=1).player
    address = reverse("player", args=[declarer.pk])
    assert "No sessions yet." in read(address)
    assert "1 session played." in read(address, client_of(world, "organiser"))
    Round.objects.filter(pk=world.sheet.table.round_id).update(status=Round.Status.COMPLETE)
    finalise_round(Round.objects.get(pk=world.sheet.table.round_id), by=world.organiser)
    assert "1 session played." in read(address)
    assert DECLARERS_TOTAL in read(reverse("round", args=[world.competition.slug, 1]))


def test_a_player_page_counts_the_contracts_once_the_round_is_finalised(world: World) -> None:
    """The counts move deal by deal: going alone once more says what the player's last board held."""
    recompute_statistics(world.competition.pk, full=True)
    declarer = world.sheet.table.seats.get(position=1).player
    address = reverse("player", args=[declarer.pk])
    assert "Alleen" not in read(address)
    assert "Alleen" in read(address, client_of(world, "organiser"))
    Round.objects.filter(pk=world.sheet.table.round_id).update(status=Round.Status.COMPLETE)
    finalise_round(Round.objects.get(pk=world.sheet.table.round_id), by=world.organiser)
    assert "Alleen" in read(address)


def test_a_table_still_reads_its_own_lines_on_its_entry_page_and_with_its_code(world: World) -> None:
    table = Client(HTTP_X_TABLE_CODE=world.sheet.captain_code)
    entry = reverse("sheet-entry", args=[world.competition.slug, 1, 1])
    page = table.get(entry, {"code": world.sheet.captain_code}, follow=True)
    assert page.status_code == 200 and LINE_TEXT in page.content.decode()
    assert NOTE in table.get(f"/api/v1/sheets/{world.sheet.pk}/").content.decode()
    assert NOTE in table.get(f"/api/v1/sheets/{world.sheet.pk}/export/?fmt=csv").content.decode()
