"""``manage.py load_demo``: a seeded, complete tournament to try the product with, loaded once."""

from __future__ import annotations

from collections import Counter
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db.models import Sum
from django.http import HttpRequest
from django.test import Client
from django.urls import reverse

from scoring.models import Standing
from tests.tournaments.test_pages import page
from tournaments.management.commands import load_demo as load_demo_command
from tournaments.models import AuditEvent, Club, Competition, DealEntry, Membership, Player, Round, ScoreSheet, Seat
from tournaments.permissions import can_enter_scores
from tournaments.seating import table_sizes
from tournaments.services.entry import engine_sheet

pytestmark = pytest.mark.django_db

DEMO_PLAYERS = 18
ROUNDS = 3
DEALS = 16


def load_demo(**options: Any) -> str:
    out = StringIO()
    call_command("load_demo", stdout=out, **options)
    return out.getvalue()


DEMO = "demo-tournament"


def the_competition() -> Competition:
    return Competition.objects.get(slug=DEMO)


def snapshot() -> dict[tuple[int, int], dict[str, Any]]:
    """Every sheet of the demo by (round, table): who sits where (by federation id) and its current lines."""
    out: dict[tuple[int, int], dict[str, Any]] = {}
    sheets = ScoreSheet.objects.filter(table__round__competition__slug=DEMO).select_related("table__round")
    for sheet in sheets.order_by("table__round__number", "table__number"):
        key = (sheet.table.round.number, sheet.table.number)
        out[key] = {
            "seats": list(sheet.table.seats.order_by("position").values_list("player__federation_id", flat=True)),
            "lines": list(sheet.entries.filter(is_current=True).order_by("deal_number").values_list("line", flat=True)),
            "points": list(
                sheet.entries.filter(is_current=True).order_by("deal_number").values_list("points", flat=True)
            ),
        }
    return out


def test_the_demo_is_one_club_of_18_players_and_a_tournament_of_three_rounds() -> None:
    load_demo()

    club = Club.objects.get()
    assert Player.objects.count() == DEMO_PLAYERS
    assert Membership.objects.filter(club=club).count() == DEMO_PLAYERS
    competition = the_competition()
    assert competition.club == club and competition.registrations.count() == DEMO_PLAYERS
    rounds = list(competition.rounds.order_by("number"))
    assert [r.number for r in rounds] == list(range(1, ROUNDS + 1))
    for round_ in rounds:
        assert list(round_.tables.order_by("number").values_list("size", flat=True)) == [5, 5, 4, 4]
        seated = list(Seat.objects.filter(round=round_).values_list("player_id", flat=True))
        assert sorted(seated) == sorted(competition.registrations.values_list("player_id", flat=True))


def test_every_demo_sheet_holds_a_complete_session_of_16_deals() -> None:
    load_demo()

    sheets = list(
        ScoreSheet.objects.filter(table__round__competition__slug=DEMO).select_related(
            "table__round__competition__rule_set"
        )
    )
    assert len(sheets) == ROUNDS * len(table_sizes(DEMO_PLAYERS))
    for sheet in sheets:
        replayed = engine_sheet(sheet)  # the engine accepts the stored lines as they are
        assert replayed.state.counted == DEALS and replayed.complete
        for entry in sheet.entries.filter(is_current=True):
            assert sum(entry.points) == 0 and len(entry.points) == sheet.table.size


def test_the_demo_confirms_rounds_1_and_2_and_leaves_round_3_in_play_with_two_sheets_unconfirmed() -> None:
    load_demo()

    rounds = {r.number: r for r in the_competition().rounds.all()}
    assert rounds[1].status == rounds[2].status == Round.Status.COMPLETE
    assert rounds[3].status == Round.Status.IN_PLAY
    states = {
        (s.table.round.number, s.table.number): s.state
        for s in ScoreSheet.objects.filter(table__round__competition__slug=DEMO).select_related("table__round")
    }
    confirmed = {key for key, state in states.items() if state == ScoreSheet.State.CONFIRMED}
    assert {key for key in states if key not in confirmed} == {(3, 3), (3, 4)}
    assert all(states[key] == ScoreSheet.State.ENTERED for key in [(3, 3), (3, 4)])
    # confirmed through the service, as a second person would: each confirmation is in the sheet's history
    organiser = get_user_model().objects.get(username="organiser")
    reviews = AuditEvent.objects.filter(action=AuditEvent.Action.CONFIRM, competition_id=the_competition().pk)
    assert reviews.count() == len(confirmed) and set(reviews.values_list("user_id", flat=True)) == {organiser.pk}


def test_the_demo_standings_show_both_confirmed_and_provisional_rows(client: Client) -> None:
    load_demo()

    competition = the_competition()
    unconfirmed_tables = ScoreSheet.objects.filter(
        table__round__competition=competition, table__round__number=3, state=ScoreSheet.State.ENTERED
    )
    waiting = set(Seat.objects.filter(table__sheet__in=unconfirmed_tables).values_list("player_id", flat=True))
    assert len(waiting) == 8  # the two tables of four of round 3

    doc = page(client.get(reverse("competition", args=[competition.slug])))
    body = doc.find("table", id="standings").find("tbody").find_all("tr")
    provisional = [row for row in body if "provisional" in (row.attrs.get("class") or "")]
    assert len(body) == DEMO_PLAYERS and len(provisional) == len(waiting)
    assert all(row.find("small").text() == "provisional" for row in provisional)
    assert doc.find_all(id="provisional-note")


def test_the_demo_standings_rank_all_18_players_and_add_up_to_zero() -> None:
    load_demo()

    competition = the_competition()
    standings = Standing.objects.filter(competition=competition)
    assert standings.count() == DEMO_PLAYERS
    assert set(standings.values_list("player_id", flat=True)) == set(Player.objects.values_list("pk", flat=True))
    assert standings.aggregate(total=Sum("points"))["total"] == 0
    assert sorted(standings.values_list("rank", flat=True))[0] == 1


def test_the_demo_organiser_logs_in_and_administers_the_club(client: Client) -> None:
    load_demo()

    competition = the_competition()
    assert client.login(request=HttpRequest(), username="organiser", password="wiezen-demo")  # axes needs a request
    user = get_user_model().objects.get(username="organiser")
    assert not user.is_superuser  # allowed as the club's administrator, not as a superuser
    assert Membership.objects.filter(club=competition.club, player__user=user, is_admin=True).exists()
    assert can_enter_scores(user, competition)


def test_loading_the_demo_again_adds_nothing() -> None:
    load_demo()
    before = (Player.objects.count(), Competition.objects.count(), DealEntry.objects.count(), Club.objects.count())

    load_demo()

    after = (Player.objects.count(), Competition.objects.count(), DealEntry.objects.count(), Club.objects.count())
    assert after == before


def test_a_reset_loads_the_same_seeded_demo_again() -> None:
    load_demo()
    first = snapshot()
    old_competition = the_competition().pk

    load_demo(reset=True)

    assert the_competition().pk != old_competition  # really loaded anew
    assert Player.objects.count() == DEMO_PLAYERS and Club.objects.count() == 1
    again = snapshot()
    assert len(again) == ROUNDS * len(table_sizes(DEMO_PLAYERS))
    assert again == first


@pytest.mark.django_db
def test_the_readme_restore_drill_restores_the_demo_with_the_same_standings(tmp_path: Any, monkeypatch: Any) -> None:
    import shlex
    from pathlib import Path

    load_demo()
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    drill = [
        line.split("#")[0].split() for line in readme.splitlines() if "manage.py" in line and "_competition" in line
    ]
    assert [words[2] for words in drill] == ["export_competition", "import_competition"]
    monkeypatch.chdir(tmp_path)  # the drill writes backup.json in the current folder
    for words in drill:
        call_command(*shlex.split(" ".join(words[2:])))
    original = Competition.objects.get(slug="demo-tournament")
    restored = Competition.objects.get(slug="demo-restored")

    def table(competition: Competition) -> list[tuple[int, str, int]]:
        rows = Standing.objects.filter(competition=competition).order_by("rank", "player__last_name")
        return list(rows.values_list("rank", "player__last_name", "points"))

    assert table(restored) == table(original) and len(table(original)) == DEMO_PLAYERS


def test_the_demo_has_a_finalised_duplicate_evening_whose_boards_every_table_played(
    django_capture_on_commit_callbacks: Any,
) -> None:
    from games.duplicate import deal_boards, positions_by_seat
    from tournaments.duplicate.analysis import read
    from tournaments.duplicate.results import played_boards
    from tournaments.models import Board, BoardAnalysis

    with django_capture_on_commit_callbacks(execute=True):  # the boards' analyses are queued at the commit
        load_demo()

    duplicate = Competition.objects.get(slug="demo-duplicate")
    assert duplicate.duplicate and duplicate.registrations.count() == 13
    assert duplicate.movement == Competition.Movement.RELAY  # one set of boards travels round the three tables
    (round_,) = duplicate.rounds.all()
    assert round_.status == Round.Status.FINALISED
    assert sorted(round_.tables.values_list("size", flat=True)) == [4, 4, 5]
    assert list(Board.objects.filter(round=round_).values_list("number", flat=True)) == list(range(1, DEALS + 1))
    # dealt from the demo's seed, so every load shows the same cards (a real round's seed is a secret one)
    demo_seed = load_demo_command.SEED * 10 + load_demo_command.ROUNDS + 1
    assert set(Board.objects.filter(round=round_).values_list("seed", flat=True)) == {demo_seed}
    dealings = AuditEvent.objects.filter(competition_id=duplicate.pk, note__endswith="boards dealt")
    assert dealings.count() == 1  # dealt once, from that seed
    dealt = [board.engine_board() for board in Board.objects.filter(round=round_).order_by("number")]
    assert [(b.hands, b.dealer, b.turned) for b in dealt] == [
        (b.hands, b.dealer, b.turned) for b in deal_boards(DEALS, demo_seed)
    ]
    boards = played_boards(round_)
    assert sorted(boards) == list(range(1, DEALS + 1))
    for number, tables in boards.items():
        assert len(tables) == 3, f"board {number} is compared at three tables"
        assert len({played.deal for played in tables}) == 3  # each table played it as another deal
        for played in tables:
            dealer = played.line["dealer"]
            size = round_.tables.get(number=played.table_number).size
            assert played.seat_of == {p: s for s, p in positions_by_seat(size, dealer, (number - 1) % 4).items()}
    contracts = {number: {played.contract for played in tables} for number, tables in boards.items()}
    assert sum(len(kinds) == 1 for kinds in contracts.values()) >= DEALS // 2  # mostly the same contract
    analyses = BoardAnalysis.objects.filter(board__round=round_)
    assert analyses.count() == DEALS and set(analyses.values_list("status", flat=True)) == {"done"}
    assert all(analysis.rows for analysis in analyses)
    # the tables mostly bid the board's par contract: the results and the board pages tell one story
    rules = duplicate.rule_set.engine_rules()
    par_contract = {}
    for board in Board.objects.filter(round=round_).select_related("analysis"):
        line = read(board, board.analysis, rules).par.line
        par_contract[board.number] = "pass" if line is None else line.contract
    most_played = {
        number: Counter(p.contract for p in tables).most_common(1)[0][0] for number, tables in boards.items()
    }
    assert sum(most_played[n] == par_contract[n] for n in boards) >= DEALS * 3 // 4, (most_played, par_contract)
    standings = Standing.objects.filter(competition=duplicate)
    assert duplicate.standings_method == "matchpoints" and standings.count() == 13
