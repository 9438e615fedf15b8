"""The organiser's board pages of a duplicate round: the list, the PBN file down and up, the printed hand records,
the table card's line, the settings form; and the boards kept from everyone else on every route.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, reverse

from games.cards import cards_of
from games.duplicate import deal_boards, from_pbn, to_pbn
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory, seated_competition
from tests.roles import make_roles
from tests.tournaments.test_pages import page
from tournaments.duplicate import selectors
from tournaments.duplicate import urls as duplicate_urls
from tournaments.models import Competition, Round, ScoreSheet
from tournaments.services.entry import record_deal
from tournaments.services.rounds import finalise_round

pytestmark = pytest.mark.django_db

DEAL_1 = {"deal": 1, "dealer": 0, "contract": "pass"}


@dataclass
class World:
    competition: Competition  # public, duplicate, 8 players: round 1 published, two tables
    hidden: Competition  # duplicate, not public, same club and organiser
    plain: Competition  # the same club's competition that is not duplicate
    users: dict[str, Any]

    @property
    def round(self) -> Round:
        return self.competition.rounds.get(number=1)

    @property
    def sheet(self) -> ScoreSheet:
        return ScoreSheet.objects.get(table__round=self.round, table__number=1)

    def client(self, role: str, language: str | None = None) -> Client:
        client = Client()
        if language:
            client.cookies["django_language"] = language
        if role == "captain":  # a table-code holder: the session opened table 1's entry page with its code
            url = reverse("sheet-entry", args=[self.competition.slug, 1, 1])
            assert client.get(url, {"code": self.sheet.captain_code}).status_code == 302
        elif role != "anonymous":
            client.force_login(self.users[role])
        return client


@pytest.fixture
def world() -> World:
    club = ClubFactory()
    competition = seated_competition(players=8, club=club, duplicate=True, name="Duplicate Cup")
    hidden = seated_competition(players=4, club=club, duplicate=True, is_public=False)
    plain = seated_competition(players=4, club=club)
    roles = make_roles(competition)
    organiser = UserFactory(username="director")
    for c in (competition, hidden, plain):
        c.organisers.add(organiser)
    other_admin = UserFactory(username="otheradmin", is_staff=True)
    MembershipFactory(club=ClubFactory(), player=PlayerFactory(user=other_admin), is_admin=True)
    users = {
        "outsider": roles.outsider,
        "player": roles.player,
        "other_admin": other_admin,
        "organiser": organiser,
        "club_admin": roles.club_admin,
        "superuser": roles.organiser,
    }
    return World(competition, hidden, plain, users)


def url(name: str, competition: Competition, number: int = 1) -> str:
    return reverse(name, args=[competition.slug, number])


def pbn_upload(text: str, name: str = "boards.pbn") -> dict[str, Any]:
    return {"file": SimpleUploadedFile(name, text.encode(), content_type="application/octet-stream")}


def refusal(response: Any) -> str:
    """The refusal shown beside the file field."""
    found = re.search(r'<ul class="errorlist"[^>]*>\s*<li>(.*?)</li>', response.content.decode(), re.S)
    assert found is not None, "no refusal beside the field"
    return found.group(1)


# -- the boards list -----------------------------------------------------------------------------------------------


def test_the_organiser_lists_the_rounds_boards_with_their_hands(world: World) -> None:
    response = world.client("organiser").get(url("manage-boards", world.competition))
    doc = page(response)
    rows = doc.find("table", class_="boards").find("tbody").find_all("tr")
    assert [r.attrs["id"] for r in rows] == [f"board-{n}" for n in range(1, 17)]
    first = selectors.engine_boards(world.round)[0]
    cells = rows[0].find_all("td")
    assert cells[1].text() == "North" and cells[2].text() == selectors.board_view(first).turned
    assert len(cells[3].find_all("li")) == 4  # North's four suits
    assert "no-store" in response["Cache-Control"]  # hand records stay out of shared caches
    seed = selectors.round_boards(world.round)[0].seed
    assert f"seed {seed}" in response.content.decode()


def test_the_boards_page_says_how_many_sets_to_deal_and_warns_when_too_few_tables_compare(world: World) -> None:
    doc = page(world.client("organiser").get(url("manage-boards", world.competition)))
    assert "deal 2 sets of the boards" in doc.find(id="sets").text()  # 8 players: two tables, one set each
    assert "needs 3 tables or more" in doc.find(id="few-tables").text()

    bigger = seated_competition(players=12, duplicate=True)
    bigger.organisers.add(world.users["organiser"])
    doc = page(world.client("organiser").get(url("manage-boards", bigger)))
    assert "deal 3 sets" in doc.find(id="sets").text()
    assert not doc.find_all(id="few-tables")


def test_the_round_page_links_a_duplicate_rounds_boards_only(world: World) -> None:
    client = world.client("organiser")
    duplicate = client.get(reverse("manage-round", args=[world.competition.slug, 1])).content.decode()
    plain = client.get(reverse("manage-round", args=[world.plain.slug, 1])).content.decode()
    assert url("manage-boards", world.competition) in duplicate
    assert 'id="boards-link"' not in plain


def test_a_competition_that_is_not_duplicate_has_no_board_pages(world: World) -> None:
    client = world.client("organiser")
    for name in ("manage-boards", "manage-boards-pbn", "manage-boards-print"):
        assert client.get(url(name, world.plain)).status_code == 404
    upload = pbn_upload(to_pbn(deal_boards(16, 1)))
    assert client.post(url("manage-boards-import", world.plain), upload).status_code == 404


# -- PBN down and up ------------------------------------------------------------------------------------------------


def test_the_pbn_download_is_a_text_file_named_after_the_round_holding_its_boards(world: World) -> None:
    response = world.client("organiser").get(url("manage-boards-pbn", world.competition))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="{world.competition.slug}-round-1-boards.pbn"'
    assert "no-store" in response["Cache-Control"]
    text = response.content.decode()
    assert from_pbn(text) == selectors.engine_boards(world.round)
    assert '[Event "Duplicate Cup, round 1"]' in text and '[TurnedCard "' in text


def test_a_pbn_file_uploaded_replaces_the_boards(world: World) -> None:
    boards = deal_boards(16, 4242)
    client = world.client("club_admin")
    response = client.post(url("manage-boards-import", world.competition), pbn_upload(to_pbn(boards)))
    assert response.status_code == 302 and response["Location"] == url("manage-boards", world.competition)
    assert selectors.engine_boards(world.round) == boards
    shown = client.get(response["Location"]).content.decode()
    assert "Round 1 plays the file&#x27;s 16 boards." in shown and "Read from a PBN file." in shown


def test_the_download_goes_back_up_unchanged(world: World) -> None:
    client = world.client("organiser")
    before = selectors.engine_boards(world.round)
    text = client.get(url("manage-boards-pbn", world.competition)).content.decode()
    assert client.post(url("manage-boards-import", world.competition), pbn_upload(text)).status_code == 302
    assert selectors.engine_boards(world.round) == before


def test_a_file_of_the_wrong_board_count_is_refused_beside_the_field_in_dutch(world: World) -> None:
    before = selectors.engine_boards(world.round)
    client = world.client("organiser", language="nl")
    response = client.post(url("manage-boards-import", world.competition), pbn_upload(to_pbn(deal_boards(32, 1))))
    assert response.status_code == 200
    message = refusal(response)
    assert message == (
        "Het bestand heeft 32 borden, genummerd 1–32. Deze ronde speelt borden 1 tot 16, één per spel: "
        "geef een bestand met precies die borden."
    )
    assert selectors.engine_boards(world.round) == before


def test_a_machines_file_without_the_turned_card_is_refused_in_french(world: World) -> None:
    text = to_pbn(deal_boards(16, 1)).replace('[TurnedCard "', '[Note "')
    client = world.client("organiser", language="fr")
    message = refusal(client.post(url("manage-boards-import", world.competition), pbn_upload(text)))
    assert message.startswith("L&#x27;étui 1 n&#x27;a pas de balise [TurnedCard")
    assert "[Board" not in message.split("[TurnedCard", 1)[0]


def test_a_binary_file_is_refused_as_not_text(world: World) -> None:
    response = world.client("organiser").post(
        url("manage-boards-import", world.competition), pbn_upload("\x00\x01PK", "boards.zip")
    )
    assert "not a text file" in refusal(response)


def test_a_latin_1_file_is_read(world: World) -> None:
    boards = deal_boards(16, 8)
    text = to_pbn(boards, event="Café de la Gare")
    upload = {"file": SimpleUploadedFile("b.pbn", text.encode("latin-1"))}
    assert world.client("organiser").post(url("manage-boards-import", world.competition), upload).status_code == 302
    assert selectors.engine_boards(world.round) == boards


def test_after_the_first_line_the_upload_is_refused_and_no_longer_offered(world: World) -> None:
    record_deal(world.sheet, DEAL_1)
    before = selectors.engine_boards(world.round)
    client = world.client("organiser")
    response = client.post(url("manage-boards-import", world.competition), pbn_upload(to_pbn(deal_boards(16, 9))))
    assert refusal(response).startswith("Round 1 has scores entered: its boards stay the ones its tables played.")
    assert selectors.engine_boards(world.round) == before
    doc = client.get(url("manage-boards", world.competition)).content.decode()
    assert url("manage-boards-import", world.competition) not in doc


# -- hand records ---------------------------------------------------------------------------------------------------


def test_the_hand_records_print_one_board_per_half_page_with_hands_dealer_and_turned_card(world: World) -> None:
    response = world.client("organiser").get(url("manage-boards-print", world.competition))
    text = response.content.decode()
    assert "@page { size: A4" in text and "height: 138mm" in text and ".board:nth-of-type(2n)" in text
    doc = page(response)
    boards = doc.find_all("article", class_="board")
    assert [b.attrs["data-board"] for b in boards] == [str(n) for n in range(1, 17)]
    engine = selectors.engine_boards(world.round)[1]  # board 2: East deals
    second = boards[1]
    assert second.find("h1").text() == "Board 2"
    assert second.find(class_="dealer").text() == "Dealer: East"
    turned = selectors.board_view(engine).turned
    assert second.find(class_="turned-card").text() == f"Turned card: {turned}"
    positions = second.find_all("section", class_="position")
    assert [p.find("h2").text() for p in positions] == ["North", "East (dealer)", "South", "West"]
    for position, section in enumerate(positions):
        lines = section.find_all("li")
        assert [line.find("span").text() for line in lines] == ["♠", "♥", "♦", "♣"]
        cards = sum(len(re.findall(r"10|[2-9AKQJ]", line.text()[1:])) for line in lines)
        assert cards == 13, (position, [line.text() for line in lines])
    east = positions[1]
    assert east.find("strong", class_="turned").text() == turned[1:]  # the turned card boxed in the dealer's hand


def test_the_hand_records_speak_dutch_with_dutch_rank_letters(world: World) -> None:
    response = world.client("organiser", language="nl").get(url("manage-boards-print", world.competition))
    doc = page(response)
    first = doc.find_all("article", class_="board")[0]
    assert first.find("h1").text() == "Bord 1"
    assert first.find(class_="dealer").text() == "Deler: Noord"
    assert [p.find("h2").text() for p in first.find_all("section", class_="position")] == [
        "Noord (deler)",
        "Oost",
        "Zuid",
        "West",
    ]
    ranks = " ".join(li.text() for li in first.find_all("li"))
    assert not re.search(r"[KQJ]", ranks)  # heer, vrouw, boer: H, V, B
    engine = selectors.engine_boards(world.round)[0]
    kings = sum(1 for hand in engine.hands for card in cards_of(hand) if card.rank == 13)
    assert ranks.count("H") == kings == 4


# -- the table card -------------------------------------------------------------------------------------------------


def test_the_table_card_says_which_boards_in_which_order_and_shows_no_cards(world: World) -> None:
    response = Client().get(reverse("round-print", args=[world.competition.slug, 1]), {"only": "cards"})
    doc = page(response)
    cards = doc.find_all("article", class_="table-card")
    assert len(cards) == 2
    assert all(card.find(class_="board-order").text() == "Boards, one a deal, in this order: 1–16" for card in cards)
    assert not _cards_in(response, world, world.competition)
    plain = Client().get(reverse("round-print", args=[world.plain.slug, 1])).content.decode()
    assert 'class="note board-order"' not in plain


# -- the setting in the competition form -----------------------------------------------------------------------------


def form_data(competition: Competition, **changes: Any) -> dict[str, Any]:
    data = {
        "name": competition.name,
        "slug": competition.slug,
        "kind": competition.kind,
        "game": "wiezen",
        "preset": "iwwa",
        "overrides": "{}",
        "deals_per_session": "16",
        "visibility": "everything",
        "seating_method": "mixer",
        "standings_method": "total_points",
        "min_evenings": "0",
        "evening_decay": "1.0",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_the_organiser_makes_a_new_competition_duplicate_in_its_settings(world: World) -> None:
    client = world.client("club_admin")
    data = form_data(world.competition, name="New cup", slug="new-cup", duplicate="on")
    data["club"] = str(world.competition.club_id)
    response = client.post(reverse("manage-competition-new"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Competition.objects.get(slug="new-cup").duplicate
    shown = page(client.get(reverse("manage-competition-edit", args=["new-cup"])))
    assert "checked" in shown.find("input", name="duplicate").attrs


def test_the_form_refuses_duplicate_zwicken_beside_the_field_in_dutch(world: World) -> None:
    client = world.client("club_admin", language="nl")
    data = form_data(world.competition, name="Zw", slug="zw", game="zwicken", preset="zwicken", duplicate="on")
    data["club"] = str(world.competition.club_id)
    del data["deals_per_session"]
    response = client.post(reverse("manage-competition-new"), data)
    doc = page(response)
    group = doc.find("div", id="duplicate-group")
    assert "data-games" not in group.attrs  # shown, whatever the game, while it carries the refusal
    error = group.find("ul", class_="errorlist").text()
    assert error.startswith("Duplicaat spelen kan alleen bij Wiezen: Zwicken")
    assert not Competition.objects.filter(slug="zw").exists()


# -- the boards are kept from everyone else ----------------------------------------------------------------------------

# Every route of tournaments/duplicate/urls.py, with the request a hostile visitor would make of it.
ROUTES: dict[str, str] = {
    "manage-boards": "get",
    "manage-boards-pbn": "get",
    "manage-boards-print": "get",
    "manage-boards-import": "post",
}
HOSTILE = ("anonymous", "captain", "player", "outsider", "other_admin")
MANAGERS = ("organiser", "club_admin", "superuser")
EXPECTED = {"anonymous": 302, "captain": 302, "player": 403, "outsider": 403, "other_admin": 403}


def test_every_board_route_is_in_the_table() -> None:
    names = {p.name for p in duplicate_urls.urlpatterns if isinstance(p, URLPattern)}
    assert names == set(ROUTES)


def _request(client: Client, world: World, name: str, competition: Competition) -> Any:
    if ROUTES[name] == "post":
        return client.post(url(name, competition), pbn_upload(to_pbn(deal_boards(16, 77))))
    return client.get(url(name, competition))


def _cards_in(response: Any, world: World, competition: Competition) -> bool:
    """Whether the answer shows any board: a hand as the pages draw it, or as the PBN file writes it."""
    body = response.content.decode(errors="replace")
    pbn = selectors.round_pbn(competition.rounds.get(number=1))
    hands = [hand for deal in re.findall(r'\[Deal "N:([^"]+)"\]', pbn) for hand in deal.split()]
    return 'class="hand"' in body or "[Deal " in body or any(hand in body for hand in hands)


@pytest.mark.parametrize("role", HOSTILE)
@pytest.mark.parametrize("name", list(ROUTES))
def test_hostile_visitors_get_nothing_from_a_board_route(world: World, role: str, name: str) -> None:
    before = selectors.engine_boards(world.round)
    response = _request(world.client(role), world, name, world.competition)
    assert response.status_code == EXPECTED[role], response.status_code
    if response.status_code == 302:
        assert response["Location"].startswith(reverse("login"))
    assert not _cards_in(response, world, world.competition)
    assert selectors.engine_boards(world.round) == before


@pytest.mark.parametrize("role", HOSTILE)
@pytest.mark.parametrize("name", list(ROUTES))
def test_a_hidden_competitions_board_routes_are_not_found_for_hostile_visitors(
    world: World, role: str, name: str
) -> None:
    before = selectors.engine_boards(world.hidden.rounds.get(number=1))
    response = _request(world.client(role), world, name, world.hidden)
    assert response.status_code == (302 if role in ("anonymous", "captain") else 404)
    assert not _cards_in(response, world, world.hidden)
    assert selectors.engine_boards(world.hidden.rounds.get(number=1)) == before


@pytest.mark.parametrize("role", MANAGERS)
@pytest.mark.parametrize("name", list(ROUTES))
def test_those_who_run_the_competition_reach_every_board_route(world: World, role: str, name: str) -> None:
    response = _request(world.client(role), world, name, world.competition)
    assert response.status_code == (302 if ROUTES[name] == "post" else 200)


def test_the_boards_stay_hidden_from_players_even_after_the_round(world: World) -> None:
    """No public page shows a board yet; a finalised round's boards are still the organisers' alone."""
    Round.objects.filter(pk=world.round.pk).update(status=Round.Status.COMPLETE)
    finalise_round(world.round)
    for role in HOSTILE:
        for name in ROUTES:
            response = _request(world.client(role), world, name, world.competition)
            assert response.status_code in (302, 403) and not _cards_in(response, world, world.competition)
    public = [
        reverse("round", args=[world.competition.slug, 1]),
        reverse("round-print", args=[world.competition.slug, 1]),
        reverse("sheet", args=[world.competition.slug, 1, 1]),
        reverse("competition", args=[world.competition.slug]),
    ]
    for address in public:
        response = world.client("player").get(address)
        assert response.status_code == 200 and not _cards_in(response, world, world.competition), address


def test_the_boards_page_follows_each_boards_analysis(world: World, django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):  # the analyses are queued as the boards are stored
        analysed = seated_competition(players=4, duplicate=True)
    analysed.organisers.add(world.users["organiser"])
    doc = page(world.client("organiser").get(url("manage-boards", analysed)))
    cells = [row.find_all("td")[-1].text() for row in doc.find("table", class_="boards").find("tbody").find_all("tr")]
    assert cells == ["Analysed"] * 16
    waiting = page(world.client("organiser").get(url("manage-boards", world.competition)))
    assert waiting.find("table", class_="boards").find("tbody").find_all("tr")[0].find_all("td")[-1].text() in (
        "Not queued yet",
        "Waiting for the solver",
    )
