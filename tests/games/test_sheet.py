"""A table's session: context between lines, doubling, corrections, totals.

Expected points are worked out by hand from RULES.md §3-§5 (arithmetic in the comments).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games import InvalidLine, InvalidSheet, RuleSet, SessionError, Sheet, find


def vraag(deal: int, dealer: int, declarers: list[int] | None = None, tricks: int = 9, **extra: Any) -> dict[str, Any]:
    line = {"deal": deal, "dealer": dealer, "contract": "vraag", "declarers": declarers or [1, 3], "tricks": tricks}
    return {**line, **extra}


def alleen(deal: int, dealer: int, declarer: int, tricks: int = 5) -> dict[str, Any]:
    return {"deal": deal, "dealer": dealer, "contract": "alleen", "declarers": [declarer], "tricks": tricks}


def passed(deal: int, dealer: int) -> dict[str, Any]:
    return {"deal": deal, "dealer": dealer, "contract": "pass"}


def penalty(deal: int, dealer: int, offender: int) -> dict[str, Any]:
    return {"deal": deal, "dealer": dealer, "contract": "penalty", "offender": offender}


def snapshot(sheet: Sheet) -> tuple[Any, ...]:
    return (sheet.state, list(sheet.totals), copy.deepcopy(sheet.lines), list(sheet.results))


# --- opening a session -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 6, 0, 2])
def test_a_table_seats_four_or_five_players(players: int) -> None:
    with pytest.raises(SessionError, match=str(players)):
        Sheet(find("flemish"), players=players)


@pytest.mark.parametrize("deals", [20, 0, 15, 32])
def test_a_session_has_sixteen_or_twenty_four_deals(deals: int) -> None:
    with pytest.raises(SessionError, match=str(deals)) as exc:
        Sheet(find("flemish"), deals=deals)
    assert isinstance(exc.value, ValueError)


@pytest.mark.parametrize(("players", "deals"), [(4, 16), (4, 24), (5, 16), (5, 24), (4, None)])
def test_a_new_sheet_is_empty(players: int, deals: int | None) -> None:
    sheet = Sheet(find("iwwa"), players=players, deals=deals)
    assert sheet.totals == [0] * players
    assert sheet.lines == [] and sheet.results == []
    assert sheet.next_deal == 1
    assert sheet.expected_dealer is None
    assert sheet.pending_multiplier == 1
    assert not sheet.complete


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_the_first_line_may_be_dealt_by_any_seat(dealer: int) -> None:
    sheet = Sheet(find("flemish"))
    sheet.add(alleen(1, dealer, (dealer + 2) % 4))
    assert sheet.expected_dealer == (dealer + 1) % 4


def test_the_first_line_at_a_table_of_five_may_be_dealt_by_seat_four() -> None:
    sheet = Sheet(find("flemish"), players=5)
    sheet.add(alleen(1, 4, 0))
    assert sheet.expected_dealer == 0


# --- rotation --------------------------------------------------------------------------------------------------


def test_the_deal_rotates_clockwise_one_seat_per_deal() -> None:
    sheet = Sheet(find("iwwa"))
    for deal, dealer in enumerate([2, 3, 0, 1, 2], start=1):
        assert sheet.next_deal == deal
        sheet.add(alleen(deal, dealer, (dealer + 1) % 4))
    assert sheet.expected_dealer == 3


def test_the_counter_clockwise_variant_rotates_the_other_way() -> None:
    sheet = Sheet(find("flemish+counter_clockwise"))
    for deal, dealer in enumerate([1, 0, 3, 2], start=1):
        sheet.add(alleen(deal, dealer, (dealer + 1) % 4))
    assert sheet.expected_dealer == 1


def test_a_penalty_and_an_all_pass_round_move_the_deal_on_under_flemish() -> None:
    sheet = Sheet(find("flemish"))
    sheet.add(passed(1, 0))
    sheet.add(penalty(2, 1, 3))
    assert sheet.expected_dealer == 2


def test_belgian_keeps_the_dealer_through_consecutive_all_pass_rounds() -> None:
    sheet = Sheet(find("belgian"))
    sheet.add(passed(1, 1))
    sheet.add(passed(2, 1))
    assert sheet.expected_dealer == 1
    sheet.add(alleen(3, 1, 2))
    assert sheet.expected_dealer == 2


# --- doubling --------------------------------------------------------------------------------------------------


def test_an_all_pass_round_doubles_the_next_deal_under_flemish() -> None:
    sheet = Sheet(find("flemish"))
    assert sheet.add(passed(1, 0)).points == (0, 0, 0, 0)
    assert sheet.pending_multiplier == 2
    settled = sheet.add(vraag(2, 1))
    # vraag 9 tricks = 2 + 1 = 3 each, x2 after the all-pass round = 6
    assert settled.multiplier == 2
    assert settled.points == (-6, 6, -6, 6)


def test_the_doubling_is_reset_after_a_played_deal() -> None:
    sheet = Sheet(find("flemish"))
    sheet.add(passed(1, 0))
    sheet.add(vraag(2, 1))
    assert sheet.pending_multiplier == 1
    settled = sheet.add(vraag(3, 2))
    # vraag 9 tricks = 3 each, undoubled
    assert settled.multiplier == 1
    assert settled.points == (-3, 3, -3, 3)


def test_two_all_pass_rounds_still_double_only_once_under_flemish() -> None:
    # RULES §3: x2 on the deal after an all-pass round; x2 per consecutive round is an option, not the default
    sheet = Sheet(find("flemish"))
    sheet.add(passed(1, 0))
    sheet.add(passed(2, 1))
    # alleen 5 tricks = 2 per opponent, x2 = 4; declarer 3 x 4 = 12
    assert sheet.add(alleen(3, 2, 0)).points == (12, -4, -4, -4)


def test_the_per_pass_option_doubles_for_every_consecutive_all_pass_round() -> None:
    sheet = Sheet(RuleSet.from_json({"preset": "flemish", "doubling": "per_pass"}))
    sheet.add(passed(1, 0))
    sheet.add(passed(2, 1))
    settled = sheet.add(alleen(3, 2, 0))
    # alleen 5 tricks = 2 per opponent, x2 x2 = 8; declarer 3 x 8 = 24
    assert settled.multiplier == 4
    assert settled.points == (24, -8, -8, -8)


@pytest.mark.parametrize("preset", ["iwwa", "belgian", "solo_whist"])
def test_an_all_pass_round_doubles_nothing_where_the_preset_says_so(preset: str) -> None:
    sheet = Sheet(find(preset))
    sheet.add(passed(1, 0))
    dealer = 0 if preset == "belgian" else 1  # belgian: the same dealer redeals
    assert sheet.add(vraag(2, dealer, tricks=8)).multiplier == 1


def test_troel_after_an_all_pass_round_counts_four_times() -> None:
    # RULES §3: "Multipliers multiply (troel after an all-pass round: x4)"
    sheet = Sheet(find("flemish"))
    sheet.add(passed(1, 0))
    settled = sheet.add({"deal": 2, "dealer": 1, "contract": "troel", "declarers": [0, 2], "tricks": 8})
    # troel 8 tricks: vraag tariff 2, x2 troel, x2 all-pass = 8 each
    assert settled.multiplier == 4
    assert settled.points == (8, -8, 8, -8)


def test_the_multiplier_cap_option_stops_at_two() -> None:
    sheet = Sheet(RuleSet.from_json({"preset": "flemish", "multiplier_cap": 2}))
    sheet.add(passed(1, 0))
    settled = sheet.add({"deal": 2, "dealer": 1, "contract": "troel", "declarers": [0, 2], "tricks": 8})
    # troel 8 = 2, x4 capped at x2 = 4 each
    assert settled.multiplier == 2
    assert settled.points == (4, -4, 4, -4)


def test_a_penalty_is_not_doubled_and_leaves_the_doubling_for_the_next_played_deal() -> None:
    sheet = Sheet(find("flemish"))
    sheet.add(passed(1, 0))
    # flemish penalty: offender -15, the three others +5 each, never multiplied
    fault = sheet.add(penalty(2, 1, 1))
    assert fault.points == (5, -15, 5, 5)
    assert sheet.pending_multiplier == 2
    # vraag 9 tricks = 3 each, x2 still pending = 6
    settled = sheet.add(vraag(3, 2))
    assert settled.multiplier == 2
    assert settled.points == (-6, 6, -6, 6)
    assert sheet.pending_multiplier == 1


def test_an_all_pass_round_doubles_a_miserie_too() -> None:
    sheet = Sheet(find("flemish"))
    sheet.add(passed(1, 0))
    settled = sheet.add({"deal": 2, "dealer": 1, "contract": "miserie", "declarers": [3], "tricks": [0]})
    # miserie 5 per opponent, x2 = 10; declarer 3 x 10 = 30
    assert settled.points == (-10, -10, -10, 30)


# --- a table of five -------------------------------------------------------------------------------------------


def test_at_a_table_of_five_the_dealer_sits_out_with_zero() -> None:
    sheet = Sheet(find("flemish"), players=5)
    # flemish vraag 8 tricks = 2 each (per_player); seat 0 deals and sits out
    assert sheet.add(vraag(1, 0, [1, 3], 8)).points == (0, 2, -2, 2, -2)
    # alleen 5 tricks = 2 per opponent: the three opponents are 2, 3, 4 (seat 1 deals)
    assert sheet.add(alleen(2, 1, 0)).points == (6, 0, -2, -2, -2)
    # penalty: the offender pays 5 to each of the three other active players; the dealer (2) gets 0
    assert sheet.add(penalty(3, 2, 4)).points == (5, 5, 0, 5, -15)
    # totals: 0: 0+6+5 = 11; 1: 2+0+5 = 7; 2: -2-2+0 = -4; 3: 2-2+5 = 5; 4: -2-2-15 = -19
    assert sheet.totals == [11, 7, -4, 5, -19]


# --- totals and completeness ------------------------------------------------------------------------------------


def test_totals_add_up_the_deals_and_sum_to_zero() -> None:
    sheet = Sheet.from_lines(
        find("flemish"),
        [
            vraag(1, 0),  # 3 each: (-3, 3, -3, 3)
            alleen(2, 1, 2, tricks=6),  # 3 per opponent: (-3, -3, 9, -3)
            {"deal": 3, "dealer": 2, "contract": "miserie", "declarers": [0], "tricks": [1]},  # 5: (15, -5, -5, -5)
        ],
    )
    # miserie failed: seat 0 pays 5 to each -> (-15, 5, 5, 5)
    assert [r.points for r in sheet.results] == [(-3, 3, -3, 3), (-3, -3, 9, -3), (-15, 5, 5, 5)]
    assert sheet.totals == [-21, 5, 11, 5]
    assert sum(sheet.totals) == 0


def test_a_sixteen_deal_session_is_complete_after_sixteen_deals() -> None:
    sheet = Sheet(find("iwwa"))
    for deal in range(1, 17):
        assert not sheet.complete
        sheet.add(alleen(deal, (deal - 1) % 4, deal % 4))
    assert sheet.complete


def test_a_twenty_four_deal_session_is_not_complete_after_sixteen() -> None:
    sheet = Sheet(find("iwwa"), deals=24)
    for deal in range(1, 17):
        sheet.add(alleen(deal, (deal - 1) % 4, deal % 4))
    assert not sheet.complete


def test_an_all_pass_deal_counts_toward_completeness_unless_the_rule_set_says_otherwise() -> None:
    lines = [alleen(d, (d - 1) % 4, d % 4) for d in range(1, 16)] + [passed(16, 3)]
    assert Sheet.from_lines(find("flemish"), lines).complete
    not_counting = RuleSet.from_json({"preset": "flemish", "passes_count": False})
    sheet = Sheet.from_lines(not_counting, lines)
    assert not sheet.complete
    sheet.add(alleen(17, 0, 1))
    assert sheet.complete


def test_an_open_ended_session_is_never_complete() -> None:
    sheet = Sheet(find("iwwa"), deals=None)
    for deal in range(1, 25):
        sheet.add(alleen(deal, (deal - 1) % 4, deal % 4))
    assert not sheet.complete


# --- from_lines --------------------------------------------------------------------------------------------------


def test_from_lines_reports_every_invalid_line_with_its_number() -> None:
    lines: list[object] = [
        vraag(1, 0),
        vraag(2, 1, tricks=14),  # tricks_out_of_range
        vraag(3, 2),  # fine: judged as if line 2 had been right
        vraag(4, 0),  # dealer_out_of_rotation: seat 3 deals deal 4
        "not a line",  # not_an_object
        vraag(6, 1),  # fine
    ]
    with pytest.raises(InvalidSheet) as exc:
        Sheet.from_lines(find("flemish"), lines)
    failures = exc.value.lines
    assert [f.line_number for f in failures] == [2, 4, 5]
    assert [f.codes for f in failures] == [{"tricks_out_of_range"}, {"dealer_out_of_rotation"}, {"not_an_object"}]
    assert exc.value.codes == {"tricks_out_of_range", "dealer_out_of_rotation", "not_an_object"}
    assert isinstance(exc.value, ValueError)
    assert "line 2" in str(exc.value) and "line 4" in str(exc.value)


def test_from_lines_judges_later_lines_as_if_an_invalid_all_pass_had_been_valid() -> None:
    # line 1 is a pass with a bad note: belgian then expects the same dealer again on line 2
    lines = [{"deal": 1, "dealer": 2, "contract": "pass", "note": 1}, alleen(2, 2, 0), alleen(3, 3, 0)]
    with pytest.raises(InvalidSheet) as exc:
        Sheet.from_lines(find("belgian"), lines)
    assert [f.line_number for f in exc.value.lines] == [1]


def test_from_lines_builds_the_same_sheet_as_adding_one_by_one() -> None:
    lines = [vraag(1, 0), passed(2, 1), alleen(3, 2, 0, tricks=7), penalty(4, 3, 1)]
    built = Sheet.from_lines(find("flemish"), lines)
    added = Sheet(find("flemish"))
    for line in lines:
        added.add(line)
    assert snapshot(built) == snapshot(added)


# --- corrections -------------------------------------------------------------------------------------------------

FOUR_DEALS = [
    vraag(1, 0, [1, 3], 9),  # 2 + 1 = 3 each: (-3, 3, -3, 3)
    alleen(2, 1, 2, tricks=6),  # 2 + 1 = 3 per opponent: (-3, -3, 9, -3)
    alleen(3, 2, 3, tricks=5),  # 2 per opponent: (-2, -2, -2, 6)
    vraag(4, 3, [0, 2], 8),  # 2 each: (2, -2, 2, -2)
]


def test_replacing_a_played_deal_by_an_all_pass_round_doubles_the_next_deal() -> None:
    sheet = Sheet.from_lines(find("flemish"), FOUR_DEALS)
    # totals before: seat 0: -3-3-2+2 = -6; 1: 3-3-2-2 = -4; 2: -3+9-2+2 = 6; 3: 3-3+6-2 = 4
    assert sheet.totals == [-6, -4, 6, 4]
    later = sheet.replace(3, passed(3, 2))
    # deal 3 now pays nothing and deal 4 counts double: vraag 8 = 2, x2 = 4 -> (4, -4, 4, -4)
    assert [(r.deal, r.points, r.multiplier) for r in later] == [(3, (0, 0, 0, 0), 1), (4, (4, -4, 4, -4), 2)]
    assert sheet.results[3].points == (4, -4, 4, -4)
    # totals after: 0: -3-3+0+4 = -2; 1: 3-3+0-4 = -4; 2: -3+9+0+4 = 10; 3: 3-3+0-4 = -4
    assert sheet.totals == [-2, -4, 10, -4]
    assert sheet.lines[2] == passed(3, 2)
    assert sheet.next_deal == 5 and sheet.expected_dealer == 0 and sheet.pending_multiplier == 1


def test_replacing_the_last_deal_by_an_all_pass_round_leaves_a_doubling_pending() -> None:
    sheet = Sheet.from_lines(find("flemish"), FOUR_DEALS)
    sheet.replace(4, passed(4, 3))
    assert sheet.pending_multiplier == 2
    # vraag 9 = 3, x2 = 6
    assert sheet.add(vraag(5, 0)).points == (-6, 6, -6, 6)


def test_replacing_a_deal_keeps_the_earlier_results() -> None:
    sheet = Sheet.from_lines(find("flemish"), FOUR_DEALS)
    earlier = sheet.results[:2]
    sheet.replace(3, alleen(3, 2, 3, tricks=4))
    assert sheet.results[:2] == earlier
    # alleen 4 tricks fails by one: 3 per opponent -> (3, 3, 3, -9)
    assert sheet.results[2].points == (3, 3, 3, -9)


def test_a_correction_that_breaks_a_later_dealer_is_refused_and_changes_nothing() -> None:
    # belgian: after an all-pass round the same dealer redeals, so deal 3's dealer (2) is now out of rotation
    lines = [alleen(1, 0, 1), alleen(2, 1, 2), alleen(3, 2, 3), alleen(4, 3, 0)]
    sheet = Sheet.from_lines(find("belgian"), lines)
    before = snapshot(sheet)
    with pytest.raises(InvalidSheet) as exc:
        sheet.replace(2, passed(2, 1))
    assert [(f.line_number, f.codes) for f in exc.value.lines] == [
        (3, {"dealer_out_of_rotation"}),
        (4, {"dealer_out_of_rotation"}),
    ]
    assert snapshot(sheet) == before


def test_a_correction_that_makes_later_entered_points_wrong_is_refused_and_changes_nothing() -> None:
    lines = [*FOUR_DEALS[:3], vraag(4, 3, [0, 2], 8, points=[2, -2, 2, -2])]
    sheet = Sheet.from_lines(find("flemish"), lines)
    before = snapshot(sheet)
    with pytest.raises(InvalidSheet) as exc:
        sheet.replace(3, passed(3, 2))  # deal 4 would count double: (4, -4, 4, -4)
    assert [(f.line_number, f.codes) for f in exc.value.lines] == [(4, {"points_mismatch"})]
    assert snapshot(sheet) == before


def test_an_invalid_correction_is_refused_naming_its_line() -> None:
    sheet = Sheet.from_lines(find("flemish"), FOUR_DEALS)
    before = snapshot(sheet)
    with pytest.raises(InvalidSheet) as exc:
        sheet.replace(2, alleen(2, 1, 2, tricks=14))
    assert [(f.line_number, f.codes) for f in exc.value.lines] == [(2, {"tricks_out_of_range"})]
    assert snapshot(sheet) == before


@pytest.mark.parametrize("deal", [0, 5, -1])
def test_only_a_deal_on_the_sheet_can_be_corrected(deal: int) -> None:
    sheet = Sheet.from_lines(find("flemish"), FOUR_DEALS)
    with pytest.raises(SessionError, match=str(deal)):
        sheet.replace(deal, passed(deal, 0))


def test_a_sheet_still_rejects_a_bad_next_line_after_a_correction() -> None:
    sheet = Sheet.from_lines(find("flemish"), FOUR_DEALS)
    sheet.replace(1, vraag(1, 0, [0, 2], 9))
    with pytest.raises(InvalidLine):
        sheet.add(vraag(5, 1))  # seat 0 deals deal 5
    sheet.add(vraag(5, 0))


def test_a_belgian_session_that_ends_tied_gets_one_extra_deal() -> None:
    # 000: "les égalités, bien que rares, se départagent en jouant une donne supplémentaire"
    sheet = Sheet(find("belgian"), players=4, deals=16)
    for deal in range(1, 17):
        sheet.add({"deal": deal, "dealer": 0, "contract": "pass"})  # belgian: the same dealer redeals
    assert sheet.totals == [0, 0, 0, 0]
    assert sheet.extra_deal_due and not sheet.complete
    sheet.add({"deal": 17, "dealer": 0, "contract": "alleen", "declarers": [1], "tricks": 5})
    assert sheet.complete
    with pytest.raises(InvalidLine) as rejected:
        sheet.add({"deal": 18, "dealer": 1, "contract": "pass"})
    assert "deal_beyond_session" in rejected.value.codes


def test_a_tied_session_gets_no_extra_deal_where_the_rule_set_has_no_tie_break() -> None:
    sheet = Sheet(find("iwwa"), players=4, deals=16)
    for deal in range(1, 17):
        sheet.add({"deal": deal, "dealer": (deal - 1) % 4, "contract": "pass"})
    assert sheet.complete and not sheet.extra_deal_due
    with pytest.raises(InvalidLine) as rejected:
        sheet.add({"deal": 17, "dealer": 0, "contract": "pass"})
    assert "deal_beyond_session" in rejected.value.codes
