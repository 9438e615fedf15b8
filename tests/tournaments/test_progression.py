"""The standings progression: each player's rank and points after every round, on its page and the player page.

The rank after round k is checked against the standings the real pipeline stored right after round k was entered
(``recompute_standings``), not against the code that computes the progression.
"""

from __future__ import annotations

from html import unescape
from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Standing
from tests.factories import PlayerFactory, seated_competition
from tests.roles import make_roles
from tests.tournaments.test_pages import Element, page
from tests.tournaments.test_public_pages import ALLEEN_4, ALLEEN_6, computed, fill, quietly
from tournaments.models import Competition, Player, Round, ScoreSheet
from tournaments.progression import selectors, services
from tournaments.progression.selectors import competition_progression
from tournaments.progression.services import Cell, Line, chart
from tournaments.services.competitions import register_players
from tournaments.services.entry import record_deal
from tournaments.services.penalties import give_penalty
from tournaments.services.privacy import anonymise_player, public_name
from tournaments.services.rounds import create_round, publish_round

pytestmark = pytest.mark.django_db

Snapshot = dict[int, tuple[int, int, bool]]  # player id: rank, points, shared


def sheets_of(round_: Round) -> list[ScoreSheet]:
    return list(ScoreSheet.objects.filter(table__round=round_).order_by("table__number"))


def stored(competition: Competition) -> Snapshot:
    return {s.player_id: (s.rank, s.points, s.shared) for s in Standing.objects.filter(competition=competition)}


def play_round(competition: Competition, seed: int, players: list[int] | None = None) -> Round:
    """Seat, publish and fill the next round (a whole session at each table), then compute the standings."""
    round_ = publish_round(create_round(competition, players=players))
    for offset, sheet in enumerate(sheets_of(round_)):
        fill(sheet, seed=seed * 10 + offset)
    computed(competition)
    return round_


def column(progression: services.Progression, index: int) -> Snapshot:
    return {
        line.player_id: (cell.rank, cell.points, cell.shared)
        for line in progression.lines
        if (cell := line.cells[index]) is not None
    }


def url_of(competition: Competition, **query: Any) -> str:
    address = reverse("progression", args=[competition.slug])
    return address + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def row_of(doc: Element, player_id: int) -> Element:
    """The progression table's row of one player."""
    body = doc.find("table", id="progression").find("tbody")
    return next(tr for tr in body.find_all("tr") if tr.find("a").attrs["href"] == reverse("player", args=[player_id]))


# -- the ranks ------------------------------------------------------------------------------------------------------


def test_the_rank_after_each_round_is_what_the_standings_said_right_after_it() -> None:
    competition = seated_competition(players=8, rounds=0, kind="league", tie_breaks=["sessions_won"])
    snapshots: list[Snapshot] = []
    for number in (1, 2, 3):
        round_ = play_round(competition, seed=number)
        if number == 2:  # a penalty dated round 2 counts from round 2 on
            victim = Player.objects.filter(competitions=competition).order_by("pk").first()
            give_penalty(competition, victim, 5, "late", round_=round_)
            computed(competition)
        snapshots.append(stored(competition))

    progression = competition_progression(competition, manages=False)

    assert progression.rounds == (1, 2, 3)
    for index, expected in enumerate(snapshots):
        assert column(progression, index) == expected, f"after round {index + 1}"
    ordered = list(Standing.objects.filter(competition=competition).order_by("rank", "player_id"))
    assert [line.player_id for line in progression.lines] == [s.player_id for s in ordered]


def test_players_level_on_everything_share_their_rank_in_every_column() -> None:
    competition = seated_competition(players=4)
    sheet = sheets_of(competition.rounds.get())[0]
    with quietly():
        record_deal(sheet, ALLEEN_6)  # seat 2 +9, the three others -3 each
    computed(competition)

    progression = competition_progression(competition, manages=False)

    cells = {line.player_id: line.cells[0] for line in progression.lines}
    winner = sheet.table.seats.get(position=2).player_id
    assert cells[winner] == Cell(1, 9, False, True)
    assert sorted((c.rank, c.points, c.shared) for pid, c in cells.items() if pid != winner) == [(2, -3, True)] * 3
    table = page(Client().get(url_of(competition))).find("table", id="progression")
    assert sorted(row.find_all("td")[0].text().replace(" ", "") for row in table.find("tbody").find_all("tr")) == [
        "1",
        *["2="] * 3,
    ]


def test_a_player_who_skipped_a_round_keeps_a_rank_for_it_marked_as_not_played() -> None:
    competition = seated_competition(players=5, rounds=0)
    ids = sorted(Player.objects.filter(competitions=competition).values_list("pk", flat=True))
    play_round(competition, seed=1, players=ids[:4])
    after_one = stored(competition)
    play_round(competition, seed=2, players=ids[1:])
    after_two = stored(competition)

    progression = competition_progression(competition, manages=False)

    first, last = progression.line_of(ids[0]), progression.line_of(ids[4])
    assert first is not None and last is not None
    assert first.cells[0] is not None and first.cells[0].played
    assert first.cells[1] is not None and not first.cells[1].played  # skipped round 2
    assert (first.cells[1].rank, first.cells[1].points) == after_two[ids[0]][:2]
    assert first.cells[1].points == first.cells[0].points  # nothing added while away
    assert last.cells[0] is not None and not last.cells[0].played  # registered, not seated in round 1
    assert (last.cells[0].rank, last.cells[0].points) == after_one[ids[4]][:2]
    doc = page(Client().get(url_of(competition)))
    row = row_of(doc, ids[0])
    assert "did not play then" in row.find_all("td")[2].text()
    assert "did not play then" not in row.find_all("td")[0].text()


def test_a_draft_round_does_not_count_for_the_public_but_does_for_those_who_run_it() -> None:
    competition = seated_competition(players=4)
    sheet = sheets_of(competition.rounds.get())[0]
    with quietly():
        record_deal(sheet, ALLEEN_6)
    computed(competition)
    Round.objects.filter(pk=sheet.table.round_id).update(status=Round.Status.DRAFT)  # taken back to a draft

    assert competition_progression(competition, manages=False).rounds == ()
    assert competition_progression(competition, manages=True).rounds == (1,)


# -- the page -------------------------------------------------------------------------------------------------------


@pytest.fixture
def played() -> Competition:
    competition = seated_competition(players=4)
    sheet = sheets_of(competition.rounds.get())[0]
    with quietly():
        record_deal(sheet, ALLEEN_6)
    computed(competition)
    return competition


def test_a_hidden_competition_is_a_404_for_the_public_and_shown_to_those_who_run_it(played: Competition) -> None:
    roles = make_roles(played)
    played.visibility = Competition.Visibility.HIDDEN
    played.save()
    assert Client().get(url_of(played)).status_code == 404
    outsider = Client()
    outsider.force_login(roles.outsider)
    assert outsider.get(url_of(played)).status_code == 404
    admin = Client()
    admin.force_login(roles.club_admin)
    assert admin.get(url_of(played)).status_code == 200
    played.visibility = Competition.Visibility.STANDINGS  # the standings' progression, as the season table
    played.save()
    assert Client().get(url_of(played)).status_code == 200


def test_the_public_sees_public_names_and_those_who_run_it_full_names(played: Competition) -> None:
    roles = make_roles(played)
    shy = Player.objects.filter(competitions=played).order_by("pk").first()
    shy.display_name = "Mystery Guest"
    shy.save()
    gone = Player.objects.filter(competitions=played).order_by("pk")[1]
    anonymise_player(gone)

    public = Client().get(url_of(played)).content.decode()
    assert "Mystery Guest" in public and shy.last_name not in public
    assert f"Anonymous player {gone.pk}" in public
    for player in Player.objects.filter(competitions=played):
        assert public_name(player) in public
        if player.pk not in (shy.pk, gone.pk):
            assert player.last_name not in public
    admin = Client()
    admin.force_login(roles.club_admin)
    assert shy.name in admin.get(url_of(played)).content.decode()


def test_the_chart_draws_the_top_ten_and_the_players_found_and_the_table_pages_through_everyone() -> None:
    competition = seated_competition(players=4)
    register_players(competition, PlayerFactory.create_batch(56))  # 60 in all, 56 not seated yet
    sheet = sheets_of(competition.rounds.get())[0]
    with quietly():
        record_deal(sheet, ALLEEN_6)
    computed(competition)
    progression = competition_progression(competition, manages=False)
    last = progression.lines[-1]

    doc = page(Client().get(url_of(competition)))
    legend = doc.find("ul", id="progression-legend").find_all("li")
    assert [li.find("a").text() for li in legend] == [line.name for line in progression.lines[:10]]
    body = doc.find("table", id="progression").find("tbody").find_all("tr")
    assert len(body) == 50 and "Page 1 of 2" in doc.text()
    second = page(Client().get(url_of(competition, page=2)))
    assert len(second.find("table", id="progression").find("tbody").find_all("tr")) == 10

    found = page(Client().get(url_of(competition, q=last.name.upper().replace(" ", "+"), top=5)))
    legend = found.find("ul", id="progression-legend").find_all("li")
    assert len(legend) == 6 and legend[0].attrs.get("class") == "bold" and legend[0].find("a").text() == last.name
    assert [tr.find("a").text() for tr in found.find("table", id="progression").find("tbody").find_all("tr")] == [
        last.name
    ]
    assert found.find(id="progression-matches").text().startswith("1 player found")


def test_an_unconfirmed_sheet_marks_its_points_provisional(played: Competition) -> None:
    doc = page(Client().get(url_of(played)))
    assert "provisional" in doc.find(id="progression-notes").text()
    sheet = sheets_of(played.rounds.get())[0]
    fill_rest = sheet.entries.count()
    assert fill_rest == 1
    ScoreSheet.objects.filter(pk=sheet.pk).update(state=ScoreSheet.State.CONFIRMED)
    doc = page(Client().get(url_of(played)))
    assert "provisional" not in doc.find(id="progression-notes").text()


def test_the_competition_page_links_the_progression(played: Competition) -> None:
    doc = page(Client().get(reverse("competition", args=[played.slug])))
    assert doc.find("p", id="progression-link").find("a").attrs["href"] == url_of(played)


def test_the_chart_is_translated_and_its_coordinates_never_localised(played: Competition) -> None:
    body = Client().get(url_of(played), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    doc = page(Client().get(url_of(played), HTTP_ACCEPT_LANGUAGE="nl"))
    path = doc.find("path").attrs["d"]
    assert "," not in path and path.startswith("M")
    assert 'lang="nl"' in body
    # French has no "1e": an ordinal there is "1re" or "2e", so the tooltip names the place by its number
    french = unescape(Client().get(url_of(played), HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    assert "place 1 après la manche 1" in french and "1e place" not in french


# -- the cache ------------------------------------------------------------------------------------------------------


def counting() -> tuple[mock.Mock, mock.Mock, Any]:
    """Count whole computations (``selectors.computed``) and rounds ranked (``services.rank_competition``)."""
    whole = mock.Mock(wraps=selectors.computed)
    ranked = mock.Mock(wraps=services.rank_competition)
    patches = mock.patch.object(selectors, "computed", whole), mock.patch.object(services, "rank_competition", ranked)
    return whole, ranked, patches


def test_the_progression_is_computed_once_per_standings_version(played: Competition) -> None:
    whole, ranked, (first, second) = counting()
    with first, second:
        Client().get(url_of(played))
        assert (whole.call_count, ranked.call_count) == (1, 1)  # one round
        Client().get(url_of(played))
        Client().get(url_of(played, q="x"))
        Client().get(reverse("progression-player", args=[played.slug, Player.objects.first().pk]))
        assert (whole.call_count, ranked.call_count) == (1, 1)  # kept in the shared cache

        sheet = sheets_of(played.rounds.get())[0]
        with quietly():
            record_deal(sheet, ALLEEN_4)
        Client().get(url_of(played))
        assert whole.call_count == 1  # the stored standings have not moved yet: the same version
        computed(played)
        doc = page(Client().get(url_of(played)))
        assert (whole.call_count, ranked.call_count) == (2, 2)  # a new standings version: with the new line
    winner = sheet.table.seats.get(position=2).player_id
    expected = Standing.objects.get(competition=played, player_id=winner).points
    assert expected == 9 - 12
    row = row_of(doc, winner)
    assert row.find_all("td")[1].text().split()[0] == str(expected)


def test_a_new_line_in_the_last_round_ranks_only_that_round_again() -> None:
    competition = seated_competition(players=4, rounds=0)
    play_round(competition, seed=1)
    play_round(competition, seed=2)
    sheet = sheets_of(publish_round(create_round(competition)))[0]
    with quietly():
        record_deal(sheet, ALLEEN_6)
    computed(competition)
    whole, ranked, (first, second) = counting()
    with first, second:
        before = competition_progression(competition, manages=False)
        assert ranked.call_count == 3
        with quietly():
            record_deal(sheet, ALLEEN_4)  # round 3's next line
        computed(competition)
        after = competition_progression(competition, manages=False)
        assert (whole.call_count, ranked.call_count) == (2, 4)  # rounds 1 and 2 kept, round 3 ranked again
    assert [line.cells[:2] for line in after.lines] == [
        before.line_of(line.player_id).cells[:2] for line in after.lines
    ]
    assert column(after, 2) == stored(competition)


def test_a_rename_or_another_language_is_another_cache_entry_without_ranking_again(played: Competition) -> None:
    whole, ranked, (first, second) = counting()
    with first, second:
        Client().get(url_of(played))
        Client().get(url_of(played), HTTP_ACCEPT_LANGUAGE="fr")
        assert whole.call_count == 2
        player = Player.objects.filter(competitions=played).first()
        player.display_name = "New Name"
        player.save()
        assert "New Name" in Client().get(url_of(played)).content.decode()
        assert (whole.call_count, ranked.call_count) == (3, 1)  # the round's standings are the same


def test_a_round_taken_back_to_a_draft_or_a_new_registration_shows_at_once(played: Competition) -> None:
    assert competition_progression(played, manages=False).rounds == (1,)  # kept in the shared cache
    newcomer = PlayerFactory()
    register_players(played, [newcomer])
    assert newcomer.pk in {line.player_id for line in competition_progression(played, manages=False).lines}
    Round.objects.filter(competition=played).update(status=Round.Status.DRAFT)  # no standings version moves
    assert competition_progression(played, manages=False).rounds == ()
    assert competition_progression(played, manages=True).rounds == (1,)


def test_a_cache_outage_costs_speed_not_the_page(played: Competition) -> None:
    with mock.patch.object(cache, "get", side_effect=ConnectionError("down")):
        assert Client().get(url_of(played)).status_code == 200


# -- the player page ------------------------------------------------------------------------------------------------


def test_the_player_page_draws_their_own_line_bold_over_the_top_players() -> None:
    competition = seated_competition(players=8, rounds=0)
    play_round(competition, seed=1)
    play_round(competition, seed=2)
    player = Player.objects.filter(competitions=competition).order_by("pk").last()
    progression = competition_progression(competition, manages=False)
    own = progression.line_of(player.pk)

    doc = page(Client().get(reverse("player", args=[player.pk])))

    placeholder = doc.find("section", id="progression").find("div", id=f"progression-{competition.pk}")
    fragment_url = reverse("progression-player", args=[competition.slug, player.pk])
    assert placeholder.attrs["hx-get"] == fragment_url and placeholder.attrs["hx-trigger"] == "load"
    assert placeholder.find("a").attrs["href"] == f"{url_of(competition)}?p={player.pk}"  # without script
    with CaptureQueriesContext(connection) as counted:
        Client().get(reverse("player", args=[player.pk]))
    # the page reads the player's own sessions once; the progression is computed by the fragment, not here
    assert sum("tournaments_seatresult" in q["sql"] for q in counted.captured_queries) == 1

    section = page(Client().get(fragment_url))
    svg = section.find("svg")
    paths = svg.find_all("path")
    bold = [p for p in paths if p.attrs["stroke-width"] == "3"]
    faint = [p for p in paths if p.attrs["stroke-width"] == "1"]
    assert len(bold) == 1 and len(faint) == 7  # everyone else of the 8 is in the top ten
    assert paths[-1] is bold[0]  # drawn last: over the others
    assert svg.find("title").text() == f"Rank of {public_name(player)} after each round"
    table_rows = [
        [td.text().replace(" ", "") for td in tr.find_all("td")] for tr in section.find("tbody").find_all("tr")
    ]
    assert [row[:2] for row in table_rows] == [
        [str(number), str(cell.rank) + ("=" if cell.shared else "")]
        for number, cell in zip(progression.rounds, own.cells, strict=True)
    ]

    chosen = page(Client().get(f"{url_of(competition)}?p={player.pk}"))  # the link under the chart
    legend = chosen.find("ul", id="progression-legend").find_all("li")
    assert legend[0].attrs.get("class") == "bold" and legend[0].find("a").text() == public_name(player)


def test_the_player_fragment_follows_the_competition_page_rule(played: Competition) -> None:
    player = Player.objects.filter(competitions=played).first()
    url = reverse("progression-player", args=[played.slug, player.pk])
    assert Client().get(url).status_code == 200
    stranger = PlayerFactory()
    assert Client().get(reverse("progression-player", args=[played.slug, stranger.pk])).status_code == 404
    played.visibility = Competition.Visibility.HIDDEN
    played.save()
    assert Client().get(url).status_code == 404


def test_the_player_page_shows_no_progression_of_a_competition_whose_results_are_hidden(played: Competition) -> None:
    player = Player.objects.filter(competitions=played).first()
    played.visibility = Competition.Visibility.STANDINGS
    played.save()
    doc = page(Client().get(reverse("player", args=[player.pk])))
    assert not doc.find_all("section", id="progression")


# -- the chart's geometry ---------------------------------------------------------------------------------------------


def test_rank_one_is_at_the_top_and_a_round_without_a_rank_leaves_a_gap() -> None:
    lead = Line(1, "A", (Cell(1, 10, False, True), Cell(2, 12, False, True), Cell(1, 20, False, True)))
    late = Line(2, "B", (Cell(0, 0, False, False), Cell(1, 15, False, True), Cell(3, 15, False, False)))
    drawn = chart((1, 2, 3), [(lead, "normal"), (late, "bold")])
    assert drawn is not None
    a, b = drawn.series
    assert [v.y for v in a.vertices] == [drawn.top, drawn.bottom / 2 + drawn.top / 2, drawn.top]
    assert b.path.count("M") == 1 and len(b.vertices) == 2 and b.vertices[0].round == 2  # no point before ranked
    assert drawn.worst == 3 and b.end is not None and b.end.cell.rank == 3 and b.style == "bold"
    assert chart((1,), [(Line(3, "C", (None,)), "normal")]) is None
    season = chart(tuple(range(1, 31)), [(Line(4, "D", tuple(Cell(1, 0, False, True) for _ in range(30))), "normal")])
    assert season is not None and [t.label for t in season.x_ticks] == [*range(1, 30, 2), 30]  # legible labels
