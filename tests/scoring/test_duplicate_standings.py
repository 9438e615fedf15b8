"""Standings by comparison (issue 19, item 4): each board's score against the same hand at the other tables.

Matchpoints (2 for each table beaten, 1 for each tie) as a percentage of the top, averaged over the boards a player
played; cross-IMPs summed. Hand-checked on plain records first, then end to end: lines entered at three tables of
a duplicate round, the standings job, the public page.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.test import APIClient

from scoring.explanations import for_people, shown_value
from scoring.methods import METHODS, CrossImps, Matchpoints, Percentage, board_imps, board_percentage, find_method
from scoring.models import Standing
from scoring.ranking import rank
from scoring.records import BoardScore, ScoringError, SessionResult
from scoring.selectors import competition_sessions
from scoring.services import recompute_standings
from tests.factories import CompetitionFactory, seated_competition
from tournaments.models import Competition, Round, Table
from tournaments.services.competitions import update_competition
from tournaments.services.entry import record_deal


def session(player: int, *boards: BoardScore, sheet: int = 1, evening: int = 1) -> SessionResult:
    """A session whose only content that matters here is its boards."""
    return SessionResult(player, sheet, evening, 0, len(boards), (0,), (player,), boards=boards)


def one_board(scores: list[int], board: int = 1) -> list[BoardScore]:
    """One hand of one board as each table's player holding it sees it: their score and the others'."""
    return [BoardScore(board, own, tuple(scores[:i] + scores[i + 1 :])) for i, own in enumerate(scores)]


# --- the calculators, by hand ----------------------------------------------------------------------------------------


def test_three_tables_on_one_board_give_known_matchpoints_percentages_and_imps() -> None:
    best, middle, worst = one_board([10, 4, -2])
    # matchpoints: 10 beats both (4), 4 beats one (2), -2 none (0); the top is 2 * (3 - 1) = 4
    assert [board_percentage(b) for b in (best, middle, worst)] == [100, 50, 0]
    # IMPs: 10 - 4 = 6 is 3, 10 - (-2) = 12 is 5: average 4; 4: -3 and +3: 0; -2: -5 and -3: -4
    assert [board_imps(b) for b in (best, middle, worst)] == [4, 0, -4]
    assert [Matchpoints().value([session(i, b)], []) for i, b in enumerate((best, middle, worst))] == [100, 50, 0]
    assert [CrossImps().value([session(i, b)], []) for i, b in enumerate((best, middle, worst))] == [4, 0, -4]


def test_a_tie_shares_the_matchpoints() -> None:
    first, second, third = one_board([6, 6, -12])
    assert [board_percentage(b) for b in (first, second, third)] == [75, 75, 0]  # (2 + 1) of 4
    assert [board_imps(b) for b in (first, second, third)] == [3, 3, -6]  # 0 and 6 IMPs, averaged


def test_the_percentage_is_the_average_over_the_boards_played_not_the_matchpoints_pooled() -> None:
    # 100 % on a board of 3 tables, 0 % on a board of 2: 50 %, whatever the number of tables
    boards = (BoardScore(1, 10, (4, -2)), BoardScore(2, -6, (2,)))
    assert Matchpoints().value([session(7, *boards)], []) == 50
    assert Matchpoints().describe(Fraction(200, 3)) == "66.7%"
    assert Matchpoints().describe(Fraction(50)) == "50.0%"
    assert CrossImps().describe(Fraction(11, 3)) == "3.667 IMPs"
    assert CrossImps().describe(Fraction(1)) == "1 IMP"


def test_a_percentage_is_shown_with_one_decimal_and_its_sign_in_the_readers_language() -> None:
    from django.utils import translation

    value = Matchpoints().value([session(1, BoardScore(1, 10, (4, -2)), BoardScore(2, 4, (10, 4)))], [])
    assert isinstance(value, Percentage) and value == Fraction(125, 2)  # (100 + 25) / 2: one tie of two is 1 of 4
    with translation.override("nl"):
        assert shown_value(Percentage(Fraction(200, 3))) == "66,7%"  # the season table's total
    with translation.override("en"):
        assert shown_value(Percentage(Fraction(200, 3))) == "66.7%"
        assert shown_value(Fraction(11, 3)) == "3.667"  # cross-IMPs: a number like any other


def test_a_board_played_at_one_table_only_gives_nothing_and_is_not_counted_as_played() -> None:
    alone = BoardScore(3, 12)
    assert board_percentage(alone) is None and board_imps(alone) is None
    compared = BoardScore(1, 10, (4,))  # 100 %
    assert Matchpoints().value([session(1, compared, alone)], []) == 100  # not (100 + 50) / 2
    assert CrossImps().value([session(1, compared, alone)], []) == 3
    assert Matchpoints().value([session(1, alone)], []) == 0  # nothing compared yet


def test_penalties_do_not_change_a_comparison_value() -> None:
    from scoring.records import Penalty

    played = [session(1, BoardScore(1, 10, (4,)))]
    assert Matchpoints().value(played, [Penalty(1, 50)]) == Matchpoints().value(played, [])


def test_a_board_twice_in_one_session_is_refused() -> None:
    with pytest.raises(ScoringError, match="a board is listed twice"):
        session(1, BoardScore(1, 2, (3,)), BoardScore(1, 4, (3,)))
    with pytest.raises(ScoringError, match="board numbers start at 1"):
        BoardScore(0, 2)


def test_the_comparison_methods_are_registered_and_say_they_compare_boards() -> None:
    assert find_method("matchpoints").name == "Matchpoints (%)"
    assert find_method("cross_imps").name == "Cross-IMPs"
    assert {key for key, method in METHODS.items() if method.compares_boards} == {"matchpoints", "cross_imps"}


def test_equal_percentages_are_separated_by_the_organisers_tie_breaks_in_order() -> None:
    # players 1 and 2 both 50 % (one board won, one lost); 2 has the more points, 1 the better session
    sessions = [
        SessionResult(1, 10, 1, 4, 2, (4, -4), (1, 3), boards=(BoardScore(1, 10, (4,)), BoardScore(2, -6, (2,)))),
        SessionResult(2, 11, 1, 6, 2, (6, -6), (2, 4), boards=(BoardScore(1, 2, (-2,)), BoardScore(2, 4, (8,)))),
        SessionResult(3, 10, 1, -4, 2, (4, -4), (1, 3), boards=(BoardScore(1, 4, (10,)), BoardScore(2, 2, (-6,)))),
    ]
    by_points = rank([1, 2, 3], sessions, [], "matchpoints", ["points"])
    assert [(row.rank, row.player_id, row.value) for row in by_points] == [(1, 2, 50), (2, 1, 50), (3, 3, 50)]
    assert by_points[0].explanation == (
        "50.0%; tied on matchpoints (%) with #1 and #3; separated from #1 and #3 by points (6 vs 4 for #1, -4 for #3)"
    )
    by_best = rank([1, 2, 3], sessions, [], "matchpoints", ["best_session", "points"])
    assert [row.player_id for row in by_best] == [2, 1, 3]
    level = rank([1, 2], sessions[:2], [], "matchpoints", ["sessions_won"])
    assert [row.rank for row in level] == [1, 1]  # both won their session: still level, the rank is shared
    assert level[0].explanation == "50.0%; tied on matchpoints (%) with #2; level on sessions won (1); " + (
        "level on every tie-break, so the rank is shared with #2"
    )


def test_the_explanation_is_said_in_the_readers_language() -> None:
    from django.utils import translation

    stored = "66.7%; tied on matchpoints (%) with #2; separated by points (6 vs 4)"
    with translation.override("en"):
        assert for_people(stored, {2: "An"}) == "66.7%; tied on matchpoints (%) with An; separated by points (6 vs 4)"
        assert for_people("-3.5 IMPs; tied on cross-imps with #2", {2: "An"}) == (
            "-3.5 IMPs; tied on Cross-IMPs with An"
        )
    with translation.override("nl"):
        assert for_people("66.7%", {}) == "66,7%"
        assert for_people("1.5 IMPs", {}).startswith("1,5")


# --- properties ------------------------------------------------------------------------------------------------------

TABLES = st.lists(st.integers(min_value=-60, max_value=60), min_size=2, max_size=8).flatmap(
    lambda s: st.tuples(st.just(s), st.integers(0, len(s) - 1), st.integers(0, len(s) - 1))
)


@given(TABLES)
def test_swapping_two_tables_lines_on_a_board_swaps_their_players_values(case: tuple[list[int], int, int]) -> None:
    scores, i, j = case
    swapped = list(scores)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    for method in (Matchpoints(), CrossImps()):
        before = [method.value([session(p, b)], []) for p, b in enumerate(one_board(scores))]
        after = [method.value([session(p, b)], []) for p, b in enumerate(one_board(swapped))]
        before[i], before[j] = before[j], before[i]
        assert after == before


@given(st.lists(st.integers(min_value=-60, max_value=60), min_size=2, max_size=8))
def test_a_boards_percentages_average_fifty_and_its_imps_sum_to_zero(scores: list[int]) -> None:
    boards = one_board(scores)
    assert sum(board_percentage(b) or 0 for b in boards) == 50 * len(scores)
    assert sum(board_imps(b) or 0 for b in boards) == 0


# --- end to end: entries, the standings job, the page ----------------------------------------------------------------


def vraag(deal: int, dealer: int, tricks: int, declarers: tuple[int, int] = (0, 2)) -> dict[str, Any]:
    return {"deal": deal, "dealer": dealer, "contract": "vraag", "declarers": list(declarers), "tricks": tricks}


def tables_of(competition: Competition) -> list[Table]:
    return list(Table.objects.filter(round__competition=competition).order_by("number"))


def players_by_seat(table: Table) -> list[int]:
    return [seat.player_id for seat in table.seats.order_by("position")]


def standing_values(competition: Competition) -> dict[int, str]:
    return dict(Standing.objects.filter(competition=competition).values_list("player_id", "value"))


def as_if_finalised(competition: Competition) -> None:
    """The rounds taken as finalised, and the standings computed: these tests compare a board or two, and the
    standings count a duplicate round once it is finalised (the whole evening is in ``test_the_standings_wait_...``)."""
    Round.objects.filter(competition=competition).update(status=Round.Status.FINALISED)
    recompute_standings(competition.pk, claim=False)


@pytest.mark.django_db
def test_three_tables_entering_a_board_rank_by_matchpoints(django_capture_on_commit_callbacks: Any) -> None:
    competition = seated_competition(
        players=12, duplicate=True, deals_per_session=16, standings_method="matchpoints", tie_breaks=["points"]
    )
    first, second, third = tables_of(competition)
    with django_capture_on_commit_callbacks(execute=True):
        record_deal(first.sheet, vraag(1, 0, 8))  # made
        record_deal(second.sheet, vraag(1, 0, 9))  # an overtrick: the best for the declarers' hands
        record_deal(third.sheet, vraag(1, 0, 7))  # one down: the best for the defenders' hands
    as_if_finalised(competition)

    values = standing_values(competition)
    north, east, south, west = range(4)
    for table, declaring, defending in (
        (second, "100.0%", "0.0%"),
        (first, "50.0%", "50.0%"),
        (third, "0.0%", "100.0%"),
    ):
        seats = players_by_seat(table)
        assert [values[seats[s]] for s in (north, south)] == [declaring, declaring]
        assert [values[seats[s]] for s in (east, west)] == [defending, defending]
    # the four at 100 %: table 3's defenders (+6 each) before table 2's declarers (+3 each), by the points tie-break
    ranks = dict(Standing.objects.filter(competition=competition).values_list("player_id", "rank"))
    assert sorted(ranks.values()) == [1, 1, 3, 3, 5, 5, 7, 7, 9, 9, 11, 11]
    assert [ranks[p] for p in players_by_seat(third)] == [11, 1, 11, 1]  # its declarers: 0 % and -6 each
    assert [ranks[p] for p in players_by_seat(second)] == [3, 9, 3, 9]
    response = competition_page(competition, "en")
    assert "Matchpoints (%)" in response and "100.0%" in response and "50.0%" in response
    assert "100,0%" in competition_page(competition, "nl")

    api = APIClient().get(f"/api/v1/competitions/{competition.pk}/standings/", HTTP_ACCEPT_LANGUAGE="nl").json()
    top = next(row for row in api if row["player"] == players_by_seat(third)[1])
    assert top["rank"] == 1 and top["value"] == "100,0%"
    assert top["explanation"].startswith("100,0%; ")
    partner = next(row for row in api if row["player"] == players_by_seat(third)[3])
    assert top["explanation"].endswith(partner["player_name"])  # "...so the rank is shared with <partner>", in Dutch


@pytest.mark.django_db
def test_cross_imps_after_one_board_at_three_tables(django_capture_on_commit_callbacks: Any) -> None:
    competition = seated_competition(players=12, duplicate=True, deals_per_session=16, standings_method="cross_imps")
    tables = tables_of(competition)
    with django_capture_on_commit_callbacks(execute=True):
        for table, tricks in zip(tables, (8, 9, 7), strict=True):
            record_deal(table.sheet, vraag(1, 0, tricks))
    as_if_finalised(competition)
    points = [table.sheet.entries.get(deal_number=1, is_current=True).points[0] for table in tables]
    expected = [board_imps(b) for b in one_board(points)]
    values = standing_values(competition)
    for table, imps in zip(tables, expected, strict=True):
        assert values[players_by_seat(table)[0]] == CrossImps().describe(imps or 0)
    assert expected[1] is not None and expected[1] > 0 > (expected[2] or 0)


@pytest.mark.django_db
def test_at_a_table_of_five_the_sitting_out_dealer_has_no_hand_to_compare() -> None:
    competition = seated_competition(players=13, duplicate=True, deals_per_session=16, standings_method="matchpoints")
    tables = tables_of(competition)
    assert sorted(t.size for t in tables) == [4, 4, 5]
    for table in tables:
        record_deal(table.sheet, vraag(1, 0, 8, declarers=(1, 3)))
        record_deal(table.sheet, {"deal": 2, "dealer": 1, "contract": "pass"})
    five = next(t for t in tables if t.size == 5)
    seats = players_by_seat(five)
    sessions = {(s.session_id, s.player_id): s for s in competition_sessions(competition.pk, settled_only=False)}
    boards = {seat: [b.board for b in sessions[five.sheet.pk, pid].boards] for seat, pid in enumerate(seats)}
    assert boards[0] == [2]  # dealt board 1, so sat it out
    assert boards[1] == [1]  # dealt board 2
    assert all(boards[seat] == [1, 2] for seat in (2, 3, 4))
    held = sessions[five.sheet.pk, seats[2]].boards[0]
    assert len(held.others) == 2  # the same hand at the two tables of four
    four = next(t for t in tables if t.size == 4)
    assert all(len(b.others) == 2 for pid in players_by_seat(four) for b in sessions[four.sheet.pk, pid].boards)
    # board 2 was passed everywhere: every hand ties (50 %); the sitting-out dealer of board 1 averages board 2 alone
    assert Matchpoints().value([sessions[five.sheet.pk, seats[0]]], []) == 50
    # seats 1 and 3 hold the same positions at every table (at the five, seat 4 holds the fours' seat 0 hand) and made
    # the same vraag everywhere: a three-way tie on board 1, 50 %, and the same IMPs, none
    assert Matchpoints().value([sessions[five.sheet.pk, seats[1]]], []) == 50
    (board_one,) = sessions[five.sheet.pk, seats[1]].boards
    assert board_one.others == (board_one.points, board_one.points)
    assert CrossImps().value([sessions[five.sheet.pk, seats[4]]], []) == 0


@pytest.mark.django_db
def test_other_competitions_records_carry_no_boards() -> None:
    competition = seated_competition(players=8, duplicate=True, deals_per_session=16)  # ranked by total points
    first, second = tables_of(competition)
    record_deal(first.sheet, vraag(1, 0, 8))
    record_deal(second.sheet, vraag(1, 0, 9))
    assert all(s.boards == () for s in competition_sessions(competition.pk, settled_only=False))


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["matchpoints", "cross_imps"])
def test_a_comparison_method_is_refused_for_a_competition_that_is_not_duplicate(method: str) -> None:
    competition = CompetitionFactory(duplicate=False)
    with pytest.raises(ValidationError) as refused:
        update_competition(competition, standings_method=method)
    (message,) = refused.value.message_dict["standings_method"]
    assert "for duplicate competitions only" in message
    update_competition(competition, standings_method=method, duplicate=True)  # taken with duplicate play
    assert Competition.objects.get(pk=competition.pk).standings_method == method


def competition_page(competition: Competition, language: str) -> str:
    from django.test import Client

    response = Client().get(reverse("competition", args=[competition.slug]), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()
