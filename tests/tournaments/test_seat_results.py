"""Per-seat session totals follow every entry and correction, in the same transaction."""

from __future__ import annotations

import random

import pytest

from games import find
from games.generate import random_session
from tests.factories import seated_competition
from tournaments.models import ScoreSheet, SeatResult
from tournaments.services.entry import record_deal

pytestmark = pytest.mark.django_db


def test_seat_results_hold_each_seats_totals_deals_and_contracts() -> None:
    sheet = ScoreSheet.objects.get(table__round__competition=seated_competition(players=5, preset="iwwa"))
    # a table of five: the dealer sits out and scores 0
    record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6})  # +9 / -3
    record_deal(sheet, {"deal": 2, "dealer": 1, "contract": "vraag", "declarers": [2, 3], "tricks": 7})  # fails: -6
    rows = {r.position: r for r in SeatResult.objects.filter(sheet=sheet)}
    seats = dict(sheet.table.seats.values_list("position", "player_id"))
    assert {p: r.player_id for p, r in rows.items()} == seats
    # seat 2: +9 then -6; seat 0: sat out deal 1, then +6 as a defender of the failed vraag
    assert [rows[p].points for p in range(5)] == [6, -3, 3, -9, 3]
    assert [rows[p].deals for p in range(5)] == [1, 1, 2, 2, 2]
    assert (rows[2].contracts_bid, rows[2].contracts_made) == (2, 1)
    assert (rows[3].contracts_bid, rows[3].contracts_made) == (1, 0)


def test_a_correction_updates_the_seat_results() -> None:
    sheet = ScoreSheet.objects.get(table__round__competition=seated_competition(players=4, preset="flemish"))
    for line in random_session(find("flemish"), random.Random(4), 4, 16):
        record_deal(sheet, line)
    first = sheet.entries.get(deal_number=1, is_current=True).line
    record_deal(sheet, {"deal": 1, "dealer": first["dealer"], "contract": "pass"}, expected_version=1)
    totals = [0, 0, 0, 0]
    for entry in sheet.entries.filter(is_current=True):
        totals = [a + b for a, b in zip(totals, entry.points, strict=True)]
    assert [r.points for r in SeatResult.objects.filter(sheet=sheet).order_by("position")] == totals
