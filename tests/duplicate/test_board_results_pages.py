"""The public board pages of a duplicate round: after the round, every board's hands, the solver's table, the par
and every table's result on it, and per player the split of the round's points into cards and play; before it,
a 404 for everyone but those who run the competition. The competition's visibility rules them as it rules the
round's results."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.cards import Suit
from games.duplicate import Board as EngineBoard
from games.solver import analysis as solver
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory, seated_competition
from tests.roles import make_roles
from tests.tournaments.test_pages import page
from tournaments.duplicate.analysis import bounds_text
from tournaments.models import BoardAnalysis, Competition, Round, ScoreSheet, Seat
from tournaments.services.entry import record_deal
from tournaments.services.privacy import public_name

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "outsider", "player", "captain", "organiser", "other_admin", "club_admin", "superuser")
RUN_IT = {"organiser", "club_admin", "superuser"}


@dataclass(frozen=True)
class FakeSolved:
    contract: str
    declarers: tuple[int, ...]
    trump: Suit | None
    leader: int
    low: int
    high: int


def fake_analyse(board: EngineBoard, *, budget: int | None = None) -> list[FakeSolved]:
    """Every board: N+S take 9 in vraag, East 4 to 7 alone, West makes miserie."""
    return [
        FakeSolved("vraag", (0, 2), board.trump, 1, 9, 9),
        FakeSolved("alleen", (1,), board.trump, 1, 4, 7),
        FakeSolved("miserie", (3,), None, 1, 0, 0),
    ]


@dataclass
class World:
    competition: Competition  # public, duplicate, 8 players: round 1 published, two tables, board 1 played by both
    users: dict[str, Any]

    @property
    def round(self) -> Round:
        return self.competition.rounds.get(number=1)

    def sheet(self, table: int) -> ScoreSheet:
        return ScoreSheet.objects.get(table__round=self.round, table__number=table)

    def finalise(self) -> None:
        Round.objects.filter(pk=self.round.pk).update(status=Round.Status.FINALISED)

    def client(self, role: str) -> Client:
        client = Client()
        if role == "captain":
            entry = reverse("sheet-entry", args=[self.competition.slug, 1, 1])
            assert client.get(entry, {"code": self.sheet(1).captain_code}).status_code == 302
        elif role != "anonymous":
            client.force_login(self.users[role])
        return client


@pytest.fixture
def world(monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Callable[..., Any]) -> World:
    monkeypatch.setattr(solver, "analyse", fake_analyse)
    club = ClubFactory()
    with django_capture_on_commit_callbacks(execute=True):  # the boards' analyses run at the commit
        competition = seated_competition(players=8, club=club, duplicate=True, deals_per_session=16)
    roles = make_roles(competition)
    organiser = UserFactory(username="director")
    competition.organisers.add(organiser)
    other_admin = UserFactory(username="otheradmin", is_staff=True)
    MembershipFactory(club=ClubFactory(), player=PlayerFactory(user=other_admin), is_admin=True)
    world = World(
        competition,
        {
            "outsider": roles.outsider,
            "player": roles.player,
            "organiser": organiser,
            "other_admin": other_admin,
            "club_admin": roles.club_admin,
            "superuser": roles.organiser,
        },
    )
    record_deal(world.sheet(1), {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [0, 2], "tricks": 9})
    record_deal(world.sheet(2), {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [1], "tricks": 4})
    return world


def board_url(world: World, number: int = 1) -> str:
    return reverse("board", args=[world.competition.slug, 1, number])


def boards_url(world: World) -> str:
    return reverse("round-boards", args=[world.competition.slug, 1])


@pytest.mark.parametrize("role", ROLES)
def test_before_the_round_is_finalised_its_boards_are_a_404_for_all_but_those_who_run_it(
    world: World, role: str
) -> None:
    client = world.client(role)
    for url in (board_url(world), boards_url(world)):
        response = client.get(url)
        if role in RUN_IT:
            assert response.status_code == 200
            assert "no-store" in response["Cache-Control"]  # hand records of a round in play: no cache keeps them
            assert page(response).find(class_="secret")  # and the page says whose eyes only
        else:
            assert response.status_code == 404, (role, url)


@pytest.mark.parametrize("role", ROLES)
def test_after_the_round_a_public_competitions_boards_are_for_everyone(world: World, role: str) -> None:
    world.finalise()
    client = world.client(role)
    for url in (board_url(world), boards_url(world)):
        response = client.get(url)
        assert response.status_code == 200, (role, url)
        assert not page(response).find_all(class_="secret")


def test_the_board_page_shows_the_hands_the_solvers_table_the_par_and_every_tables_result(world: World) -> None:
    world.finalise()
    doc = page(world.client("anonymous").get(board_url(world)))

    diagram = doc.find(id="diagram")
    assert [s.find("h2").text().split(" (")[0] for s in diagram.find_all("section")] == [
        "North",
        "East",
        "South",
        "West",
    ]
    assert sum(len(s.find_all("li")) for s in diagram.find_all("section")) == 16  # four suits a hand
    assert diagram.find(class_="turned")  # the turned card is boxed in the dealer's hand

    solo = {
        row.find("th").text(): [td.text() for td in row.find_all("td")]
        for row in doc.find(id="solver-table").find("tbody").find_all("tr")
    }
    alleen = next(cells for name, cells in solo.items() if name.startswith("Alleen"))
    assert alleen == ["–", "4–7", "–", "–"]  # East's range: the budget ran out
    assert solo["Miserie"] == ["–", "–", "–", "0"]
    pairs = doc.find(id="pairs-table").find("tbody").find_all("tr")
    assert [td.text() for td in pairs[0].find_all("td")] == ["N + S", "9"]

    assert doc.find(id="par-line").text() == "Open miserie by West, 0 tricks"
    # at par West plays its open miserie: what every position scores then, and each one's own best contract
    assert [td.text() for td in doc.find(id="par-points").find_all("td")] == ["-14", "-14", "-14", "42"]
    assert [td.text() for td in doc.find(id="best-points").find_all("td")] == ["3", "0", "3", "42"]

    first = doc.find(id="table-1")
    cells = [td.text() for td in first.find_all("td")]
    assert cells[0] == "1" and cells[-4:] == ["3", "-3", "3", "-3"]
    against = doc.find_all(class_="vs-par-row")[0]  # the row under table 1's
    assert [td.text() for td in against.find_all("td")][-4:] == ["+17", "+11", "+17", "-45"]
    north = Seat.objects.get(table__round=world.round, table__number=1, position=0).player
    assert f"N: {public_name(north)}" in first.text()
    second = [td.text() for td in doc.find(id="table-2").find_all("td")]
    assert int(second[-3]) < 0 < int(second[-4])  # East's alleen went down


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "Open miserie by West, 0 tricks"), ("nl", "Open miserie door West, 0 slagen"), ("fr", "par Ouest, 0 pli")],
)
def test_the_par_line_counts_its_tricks_as_the_language_does(world: World, language: str, said: str) -> None:
    """French says "0 pli" where English and Dutch use the plural: the demo's board 4 read "0 plis"."""
    world.finalise()
    doc = page(world.client("anonymous").get(board_url(world), HTTP_ACCEPT_LANGUAGE=language))
    assert doc.find(id="par-line").text().endswith(said)


@pytest.mark.parametrize(
    ("language", "explained"),
    [
        ("en", "pay the same whatever the count"),
        ("nl", "betalen hetzelfde, hoeveel slagen het ook zijn"),
        ("fr", "paient la même chose quel que soit le nombre"),
    ],
)
def test_a_failed_miserie_and_a_short_abondance_show_the_range_that_pays_alike_and_say_why(
    world: World, language: str, explained: str
) -> None:
    # what the solver's first pass leaves open (games.solver.analysis): no tariff reads further; a second pass
    # narrows it later
    world.finalise()
    analysis = BoardAnalysis.objects.get(board__round=world.round, board__number=1)
    turned = analysis.board.engine_board().trump
    other = next(suit for suit in Suit if suit is not turned)
    analysis.rows = [
        *analysis.rows,
        {"contract": "miserie", "declarers": [0], "trump": None, "leader": 1, "low": 1, "high": 13},
        {"contract": "abondance", "declarers": [2], "trump": str(other), "leader": 1, "low": 2, "high": 8},
    ]
    analysis.save(update_fields=["rows"])

    doc = page(world.client("anonymous").get(board_url(world), HTTP_ACCEPT_LANGUAGE=language))
    cells = [
        [td.text() for td in row.find_all("td")] for row in doc.find(id="solver-table").find("tbody").find_all("tr")
    ]
    assert ["≥1", "–", "–", "0"] in cells  # North's miserie fails, West's is made
    assert ["–", "–", "2–8", "–"] in cells  # South's abondance in the other suit falls short of 9
    text = " ".join(doc.text().split())
    assert explained in text
    assert "searches their counts further" in text if language == "en" else "pay the same" not in text


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "some counts are only ranges: see the board"),
        ("nl", "sommige aantallen zijn maar een bereik: zie het bord"),
        ("fr", "certains nombres ne sont que des fourchettes : voir l'étui"),
    ],
)
def test_a_par_that_rests_on_a_range_says_so_on_the_round_page(world: World, language: str, said: str) -> None:
    world.finalise()
    analysis = BoardAnalysis.objects.get(board__round=world.round, board__number=1)
    # North and South's vraag: 8 or 9 tricks, which pay differently; it is North's own best
    analysis.rows = [{**row, "low": 8} if row["contract"] == "vraag" else row for row in analysis.rows]
    analysis.save(update_fields=["rows"])

    rows = page(world.client("anonymous").get(boards_url(world), HTTP_ACCEPT_LANGUAGE=language)).find(id="boards")
    first, second = rows.find("tbody").find_all("tr")[:2]
    assert said in " ".join(first.text().split())
    assert "(" not in second.text()  # board 2's counts are exact


def test_the_round_page_lists_the_boards_with_their_par_and_splits_each_players_points(world: World) -> None:
    world.finalise()
    doc = page(world.client("anonymous").get(boards_url(world)))

    boards = doc.find(id="boards").find("tbody").find_all("tr")
    assert len(boards) == 16
    assert "Open miserie by West" in boards[0].text()
    assert boards[0].find("a").attrs["href"] == board_url(world)

    rows = doc.find(id="luck").find("tbody").find_all("tr")
    assert len(rows) == 8  # everyone played board 1
    split = [[int(td.text()) for td in row.find_all("td")[1:]] for row in rows]
    for boards_played, points, cards, play in split:
        assert boards_played == 1 and cards + play == points
    # what the cards are worth at par adds up to 0 at each table, as the points do: so does the play
    assert sum(cards for _, _, cards, _ in split) == 0 and sum(play for *_, play in split) == 0
    north = Seat.objects.get(table__round=world.round, table__number=1, position=0).player
    mine = [int(td.text()) for td in doc.find(id=f"player-{north.pk}").find_all("td")[1:]]
    assert mine == [1, 3, -14, 17]  # at par West's open miserie costs North 14; North's vraag made 3 instead
    west = Seat.objects.get(table__round=world.round, table__number=1, position=3).player
    assert [int(td.text()) for td in doc.find(id=f"player-{west.pk}").find_all("td")[1:]] == [1, -3, 42, -45]


def test_a_table_that_plays_the_par_contract_to_its_count_is_level_with_par_in_every_position(world: World) -> None:
    # board 2 (deal 2) at table 1, where seat 4 holds West's hand: West's open miserie, the par contract, made
    record_deal(world.sheet(1), {"deal": 2, "dealer": 1, "contract": "open_miserie", "declarers": [3], "tricks": [0]})
    world.finalise()

    doc = page(world.client("anonymous").get(board_url(world, 2)))
    assert [td.text() for td in doc.find(id="table-1").find_all("td")][-4:] == ["-14", "-14", "-14", "42"]
    assert [td.text() for td in doc.find_all(class_="vs-par-row")[0].find_all("td")][-4:] == ["0", "0", "0", "0"]

    luck = page(world.client("anonymous").get(boards_url(world))).find(id="luck")
    for seat in Seat.objects.filter(table__round=world.round, table__number=1).select_related("player"):
        boards_played, points, cards, play = (
            int(td.text()) for td in luck.find(id=f"player-{seat.player.pk}").find_all("td")[1:]
        )
        # board 2's points are all cards: the play is board 1's alone (its row under table 1, above)
        assert boards_played == 2 and cards == 2 * [-14, -14, -14, 42][seat.position]
        assert play == [17, 11, 17, -45][seat.position] and cards + play == points


def test_a_board_not_yet_analysed_says_so(world: World) -> None:
    world.finalise()
    BoardAnalysis.objects.filter(board__round=world.round, board__number=2).update(status="pending")
    BoardAnalysis.objects.filter(board__round=world.round, board__number=3).delete()
    client = world.client("anonymous")
    for number in (2, 3):
        doc = page(client.get(board_url(world, number)))
        assert "being analysed" in doc.find(id="analysis-status").text()
        assert not doc.find_all(id="solver-table") and not doc.find_all(id="par")


def test_a_failed_analysis_says_so_without_its_reason(world: World) -> None:
    world.finalise()
    BoardAnalysis.objects.filter(board__round=world.round, board__number=4).update(
        status="failed", error="SolverUnavailable: /srv/wiezen/_wiezendd.so"
    )
    response = world.client("anonymous").get(board_url(world, 4))
    assert "could not analyse" in page(response).find(id="analysis-status").text()
    assert "_wiezendd" not in response.content.decode()  # the reason is for those who run the site


@pytest.mark.parametrize("visibility", [Competition.Visibility.STANDINGS, Competition.Visibility.HIDDEN])
def test_a_competition_whose_results_are_not_public_keeps_its_boards_from_the_public(
    world: World, visibility: str
) -> None:
    world.finalise()
    world.competition.visibility = visibility
    world.competition.save(update_fields=["is_public", "public_results"])
    for role in ROLES:
        status = world.client(role).get(board_url(world)).status_code
        assert status == (200 if role in RUN_IT else 404), role


def test_a_competition_that_is_not_duplicate_has_no_public_board_pages() -> None:
    competition = seated_competition(players=4)
    Round.objects.filter(competition=competition).update(status=Round.Status.FINALISED)
    superuser = UserFactory(username="root", is_superuser=True, is_staff=True)
    client = Client()
    client.force_login(superuser)
    assert client.get(reverse("round-boards", args=[competition.slug, 1])).status_code == 404
    assert client.get(reverse("board", args=[competition.slug, 1, 1])).status_code == 404


def test_a_board_the_round_does_not_have_is_a_404(world: World) -> None:
    world.finalise()
    assert world.client("anonymous").get(board_url(world, 17)).status_code == 404


def test_a_finalised_board_page_is_revalidated_by_its_etag(world: World) -> None:
    world.finalise()
    client = world.client("anonymous")
    first = client.get(board_url(world))
    assert first.status_code == 200 and first.has_header("ETag")
    again = client.get(board_url(world), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_the_hand_diagram_fits_a_phone(world: World) -> None:
    """Under 30rem the diagram is two columns (N over W and E, S below) and the hands' lines may wrap."""
    world.finalise()
    html = world.client("anonymous").get(board_url(world)).content.decode()
    assert "@media (max-width: 30rem)" in html and 'grid-template-areas: "n n" "w e" "s s"' in html
    assert "white-space: normal" in html


@pytest.mark.parametrize(
    ("low", "high", "text"), [(5, 5, "5"), (7, 13, "≥7"), (0, 3, "≤3"), (7, 9, "7–9"), (0, 13, "0–13")]
)
def test_a_count_the_solver_only_bounded_is_shown_as_its_range(low: int, high: int, text: str) -> None:
    assert bounds_text(low, high) == text
