"""A duplicate round's lines read by compass position: the seat that dealt a board plays its dealer hand, and
each seat's points go to the position it held (at a table of five, the sitting-out dealer holds none)."""

from __future__ import annotations

import pytest

from tests.factories import seated_competition
from tournaments.duplicate.results import played_boards
from tournaments.models import Round, Table
from tournaments.services.entry import record_deal

pytestmark = pytest.mark.django_db


def _vraag(deal: int, dealer: int, declarers: list[int], tricks: int) -> dict[str, object]:
    return {"deal": deal, "dealer": dealer, "contract": "vraag", "declarers": declarers, "tricks": tricks}


def test_every_table_s_line_on_a_board_is_read_by_the_positions_its_seats_held() -> None:
    competition = seated_competition(players=8, duplicate=True, deals_per_session=16)
    round_ = Round.objects.get(competition=competition)
    first, second = Table.objects.filter(round=round_).order_by("number")
    record_deal(first.sheet, _vraag(1, 0, [0, 2], 8))
    record_deal(second.sheet, _vraag(1, 0, [1, 3], 5))
    record_deal(first.sheet, {"deal": 2, "dealer": 1, "contract": "pass"})

    boards = played_boards(round_)

    assert sorted(boards) == [1, 2]
    one = {played.table_number: played for played in boards[1]}
    assert sorted(one) == [first.number, second.number]
    assert one[first.number].seat_of == {0: 0, 1: 1, 2: 2, 3: 3}
    seats = {seat.position: seat.player_id for seat in first.seats.all()}
    assert one[first.number].player_of == seats
    points = first.sheet.entries.get(deal_number=1, is_current=True).points
    assert one[first.number].points_of == {p: points[p] for p in range(4)}
    assert one[first.number].points_of[0] > 0 > one[first.number].points_of[1]
    assert one[second.number].points_of[1] < 0 < one[second.number].points_of[0]  # 5 tricks: vraag lost
    assert [played.contract for played in boards[2]] == ["pass"]


def test_at_a_table_of_five_the_dealer_holds_no_position_and_the_seat_on_its_right_plays_the_dealer_hand() -> None:
    competition = seated_competition(players=5, duplicate=True, deals_per_session=16)
    round_ = Round.objects.get(competition=competition)
    table = Table.objects.get(round=round_)
    assert table.size == 5
    record_deal(table.sheet, _vraag(1, 0, [1, 3], 8))

    (played,) = played_boards(round_)[1]

    assert played.seat_of == {0: 4, 1: 1, 2: 2, 3: 3}
    assert 0 not in played.seat_of.values()
    assert played.points_of[1] > 0 and played.points_of[3] > 0
    assert played.points_of[0] < 0 and played.points_of[2] < 0
