"""Who sits out how often at a table of five (tournaments.sit_outs)."""

from __future__ import annotations

import games
from tournaments.sit_outs import sheet_sit_out_counts, sit_out_counts

FLEMISH = games.find("flemish")


def test_24_deals_at_five_give_seats_1_to_4_five_sit_outs_and_seat_5_four():
    assert sit_out_counts(FLEMISH, 5, 24) == [5, 5, 5, 5, 4]


def test_the_first_dealer_moves_the_short_count():
    assert sit_out_counts(FLEMISH, 5, 24, first_dealer=2) == [5, 4, 5, 5, 5]


def test_counter_clockwise_rotation():
    rules = FLEMISH.with_(rotation=games.rulesets.Rotation.COUNTER_CLOCKWISE)
    assert sit_out_counts(rules, 5, 24) == [5, 4, 5, 5, 5]


def test_16_deals_and_tables_of_four():
    assert sit_out_counts(FLEMISH, 5, 16) == [4, 3, 3, 3, 3]
    assert sit_out_counts(FLEMISH, 4, 24) == [0, 0, 0, 0]


def test_a_sheet_counts_its_lines_and_plans_the_rest():
    lines = [{"deal": 1, "dealer": 1, "contract": "pass"}, {"deal": 2, "dealer": 2, "contract": "vraag"}]
    counts = sheet_sit_out_counts(FLEMISH, 5, 24, lines)
    assert sum(counts) == 24 + (0 if FLEMISH.passes_count else 1)
    assert counts[1] == 5 and counts[2] == 5
