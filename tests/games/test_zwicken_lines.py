"""Zwicken score-sheet lines and sessions: validation codes, settlement, rotation, the running pot.

Expected chips are worked out by hand (arithmetic in the comments): the dealer
antes 3, each trick takes a third of the pot, a bete is 3 into the next pot.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import InvalidLine, InvalidSheet, SessionError, find
from games.rulesets import RuleSet, apply_overrides
from games.sessions import open_sheet, sheet_from_lines
from games.zwicken import ZwickenSheet

ZWICKEN = find("zwicken")
PRESETS = ("zwicken", "dreierzwicken", "zwicken_styrian", "zwicken_4cards")


def dealt(deal: Any, dealer: Any, played: Any, tricks: Any, **extra: Any) -> dict[str, Any]:
    return {"deal": deal, "dealer": dealer, "played": played, "tricks": tricks, **extra}


def cut(deal: int, dealer: int, kind: Any) -> dict[str, Any]:
    return {"deal": deal, "dealer": dealer, "cut": kind}


def codes_of(sheet: ZwickenSheet, line: object) -> set[str]:
    with pytest.raises(InvalidLine) as refused:
        sheet.add(line)
    return refused.value.codes


def snapshot(sheet: ZwickenSheet) -> tuple[Any, ...]:
    return (sheet.state, list(sheet.totals), copy.deepcopy(sheet.lines), list(sheet.results))


# --- opening a session ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "players"), [("zwicken", 1), ("zwicken", 6), ("dreierzwicken", 4), ("dreierzwicken", 2)]
)
def test_a_zwicken_table_seats_the_rule_sets_range_of_players(preset: str, players: int) -> None:
    with pytest.raises(SessionError, match=str(players)):
        ZwickenSheet(find(preset), players)


def test_a_wiezen_rule_set_cannot_open_a_zwicken_sheet() -> None:
    with pytest.raises(SessionError, match="flemish"):
        ZwickenSheet(find("flemish"), 4)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_new_zwicken_sheet_is_empty_open_ended_and_never_complete(players: int) -> None:
    sheet = ZwickenSheet(ZWICKEN, players)
    assert (sheet.totals, sheet.pot, sheet.lines, sheet.results) == ([0] * players, 0, [], [])
    assert (sheet.next_deal, sheet.expected_dealer, sheet.deals, sheet.complete) == (1, None, None, False)


def test_open_sheet_gives_a_zwicken_sheet_for_a_zwicken_rule_set_only_without_a_length() -> None:
    assert isinstance(open_sheet(ZWICKEN, 3, None), ZwickenSheet)
    with pytest.raises(SessionError, match="no fixed length"):
        open_sheet(ZWICKEN, 4, 16)


def test_sheet_from_lines_builds_a_zwicken_session() -> None:
    sheet = sheet_from_lines(ZWICKEN, [dealt(1, 0, [1, 2], [0, 2, 1, 0]), cut(2, 1, "void")], 4, None)
    assert sheet.totals == [-3, 2, 1, 0] and sheet.expected_dealer == 1


# --- settlement and the running pot -----------------------------------------------------------------------------------


def test_a_session_carries_the_pot_and_its_totals_plus_the_pot_are_zero() -> None:
    sheet = ZwickenSheet(ZWICKEN, 4)
    sheet.add(dealt(1, 0, [], [0, 0, 0, 0]))  # all pass: dealer -3, pot 3
    sheet.add(dealt(2, 1, [0, 2, 3], [0, 0, 2, 1]))  # pot 6, a third 2: seat 2 +4, seat 3 +2, seat 0 bete; pot 3
    assert sheet.results[1].points == (-3, -3, 4, 2)
    assert sheet.pot == 3
    sheet.add(cut(3, 2, "belli"))  # dealer 2 antes 3 (pot 6), pays 3 to seats 3 and 0; seat 1 cuts
    assert sheet.results[2].points == (3, 0, -9, 3) and sheet.pot == 6
    assert sheet.expected_dealer == 1
    sheet.add(dealt(4, 1, [0, 1, 2, 3], [3, 0, 0, 0]))  # pot 9: Durchmarsch seat 0 +9; 1, 2, 3 betes: pot 9
    assert sheet.results[3].points == (9, -6, -3, -3) and sheet.pot == 9
    assert sheet.totals == [6, -9, -8, 2]
    assert sum(sheet.totals) + sheet.pot == 0


def test_the_remainder_of_a_pot_that_does_not_split_in_three_stays_in_the_pot() -> None:
    rules = apply_overrides(ZWICKEN, {"zwicken": {"ante": 4}})
    sheet = ZwickenSheet(rules, 3)
    settled = sheet.add(dealt(1, 0, [0, 1, 2], [1, 1, 1]))  # pot 4: a third is 1, 1 chip stays
    assert settled.points == (-3, 1, 1) and settled.pot == 1


def test_a_durchmarsch_takes_the_remainder_too() -> None:
    rules = apply_overrides(ZWICKEN, {"zwicken": {"ante": 4}})
    settled = ZwickenSheet(rules, 3).add(dealt(1, 0, [1, 2], [0, 3, 0]))  # pot 4, all to seat 1; seat 2 bete 3
    assert settled.points == (-4, 4, -3) and settled.pot == 3


def test_a_player_who_took_no_trick_and_failed_a_duty_pays_two_betes() -> None:
    settled = ZwickenSheet(ZWICKEN, 3).add(dealt(1, 0, [0, 1, 2], [0, 3, 0], duties_failed=[2]))
    assert settled.points == (-6, 3, -6)  # pot 3 to seat 1; seat 0: ante + bete; seat 2: two betes
    assert settled.pot == 9


def test_results_name_the_kind_of_deal() -> None:
    sheet = ZwickenSheet(ZWICKEN, 3)
    sheet.add(cut(1, 0, "void"))
    sheet.add(cut(2, 0, "belli"))
    sheet.add(dealt(3, 2, [0], [3, 0, 0]))
    assert [r.contract for r in sheet.results] == ["void", "belli", "zwicken"]
    assert all(r.multiplier == 1 and r.made == () for r in sheet.results)


def test_hand_entered_chips_and_pot_that_match_the_settlement_are_accepted() -> None:
    sheet = ZwickenSheet(ZWICKEN, 4)
    settled = sheet.add(dealt(1, 0, [1, 2], [0, 2, 1, 0], chips=[-3, 2, 1, 0], pot=0, note="fast one"))
    assert settled.points == (-3, 2, 1, 0) and sheet.lines[0]["note"] == "fast one"


# --- rotation ---------------------------------------------------------------------------------------------------------


def test_the_deal_rotates_clockwise_stays_after_a_void_cut_and_passes_to_the_cutter_after_a_belli_cut() -> None:
    sheet = ZwickenSheet(ZWICKEN, 4)
    sheet.add(dealt(1, 2, [], [0, 0, 0, 0]))
    assert sheet.expected_dealer == 3
    sheet.add(cut(2, 3, "void"))
    assert sheet.expected_dealer == 3
    sheet.add(cut(3, 3, "belli"))
    assert sheet.expected_dealer == 2  # the cutter sits on the dealer's right
    sheet.add(cut(4, 2, "belli"))
    assert sheet.expected_dealer == 1
    assert codes_of(sheet, dealt(5, 3, [], [0, 0, 0, 0])) == {"dealer_out_of_rotation"}


# --- validation codes -------------------------------------------------------------------------------------------------

BAD_LINES: list[tuple[str, object]] = [
    ("not_an_object", [1, 0]),
    ("unknown_field", dealt(1, 0, [1], [0, 3, 0, 0], winner=1)),
    ("missing_field", {"dealer": 0, "played": [1], "tricks": [0, 3, 0, 0]}),
    ("missing_field", {"deal": 1, "played": [1], "tricks": [0, 3, 0, 0]}),
    ("missing_field", {"deal": 1, "dealer": 0, "tricks": [0, 3, 0, 0]}),
    ("missing_field", {"deal": 1, "dealer": 0, "played": [1]}),
    ("wrong_type", dealt("1", 0, [1], [0, 3, 0, 0])),
    ("wrong_type", dealt(1, 0.0, [1], [0, 3, 0, 0])),
    ("wrong_type", dealt(1, 0, "1", [0, 3, 0, 0])),
    ("wrong_type", dealt(1, 0, [1], [0, "3", 0, 0])),
    ("wrong_type", dealt(1, 0, [1], 3)),
    ("wrong_type", dealt(1, 0, [1], [0, 3, 0, 0], trump_ace="1")),
    ("wrong_type", dealt(1, 0, [1], [0, 3, 0, 0], chips=[0, 0, 0])),
    ("wrong_type", dealt(1, 0, [1], [0, 3, 0, 0], pot=-1)),
    ("wrong_type", dealt(1, 0, [1], [0, 3, 0, 0], note=7)),
    ("too_long", dealt(1, 0, [1], [0, 3, 0, 0], note="n" * 201)),
    ("wrong_type", cut(1, 0, True)),
    ("deal_out_of_sequence", dealt(2, 0, [1], [0, 3, 0, 0])),
    ("seat_out_of_range", dealt(1, 4, [1], [0, 3, 0, 0])),
    ("seat_out_of_range", dealt(1, 0, [1, 4], [0, 3, 0, 0])),
    ("seat_out_of_range", dealt(1, 0, [1], [0, 3, 0, 0], trump_ace=9)),
    ("unknown_cut", cut(1, 0, "ace")),
    ("unexpected_field", {**cut(1, 0, "void"), "tricks": [0, 0, 0, 0]}),
    ("duplicate_seat", dealt(1, 0, [1, 1], [0, 3, 0, 0])),
    ("duplicate_seat", dealt(1, 0, [1, 2], [0, 2, 1, 0], duties_failed=[2, 2])),
    ("tricks_shape", dealt(1, 0, [1], [0, 3, 0])),
    ("tricks_out_of_range", dealt(1, 0, [1], [0, 4, 0, 0])),
    ("tricks_out_of_range", dealt(1, 0, [1, 2], [0, 4, -1, 0])),
    ("tricks_by_passed_player", dealt(1, 0, [1, 2], [0, 1, 1, 1])),
    ("tricks_by_passed_player", dealt(1, 0, [], [0, 1, 1, 1])),
    ("tricks_impossible", dealt(1, 0, [1, 2], [0, 1, 1, 0])),
    ("duty_by_passed_player", dealt(1, 0, [1, 2], [0, 2, 1, 0], duties_failed=[3])),
    ("trump_ace_passed", dealt(1, 0, [1, 2], [0, 2, 1, 0], trump_ace=3)),
    ("trump_ace_passed", dealt(1, 0, [], [0, 0, 0, 0], trump_ace=0)),
    ("chips_not_conserved", dealt(1, 0, [1, 2], [0, 2, 1, 0], chips=[-3, 2, 1, 0], pot=3)),
    ("chips_mismatch", dealt(1, 0, [1, 2], [0, 2, 1, 0], chips=[-3, 1, 2, 0])),
    ("pot_mismatch", dealt(1, 0, [1, 2], [0, 2, 1, 0], pot=3)),
]


@pytest.mark.parametrize(("code", "line"), BAD_LINES, ids=[f"{code}-{i}" for i, (code, _) in enumerate(BAD_LINES)])
def test_a_bad_line_is_refused_with_its_code_and_changes_nothing(code: str, line: object) -> None:
    sheet = ZwickenSheet(ZWICKEN, 4)
    before = snapshot(sheet)
    assert code in codes_of(sheet, line)
    assert snapshot(sheet) == before


def test_every_code_of_the_line_checker_has_a_bad_line() -> None:
    from games.zwicken import lines

    documented = set(re.findall(r"``([a-z_]+)``", (lines.__doc__ or "").split("The codes:")[1]))
    tested = {code for code, _ in BAD_LINES} | {"dealer_out_of_rotation", "pass_not_allowed", "cut_not_enabled"}
    assert documented == tested


def test_every_problem_of_a_line_is_reported_at_once() -> None:
    line = {"deal": 3, "dealer": 7, "played": [1, 1], "tricks": [0, 3], "bogus": 1, "pot": "x"}
    codes = codes_of(ZwickenSheet(ZWICKEN, 4), line)
    assert codes == {"deal_out_of_sequence", "seat_out_of_range", "duplicate_seat", "tricks_shape"} | {
        "unknown_field",
        "wrong_type",
    }


def test_dreierzwicken_refuses_a_line_where_someone_passed() -> None:
    sheet = ZwickenSheet(find("dreierzwicken"), 3)
    assert codes_of(sheet, dealt(1, 0, [0, 1], [1, 2, 0])) == {"pass_not_allowed"}
    assert codes_of(sheet, dealt(1, 0, [], [0, 0, 0])) == {"pass_not_allowed"}


def test_a_cut_line_is_refused_where_the_rules_play_no_hop_and_jump() -> None:
    rules = apply_overrides(ZWICKEN, {"zwicken": {"hop_and_jump": False}})
    assert codes_of(ZwickenSheet(rules, 4), cut(1, 0, "belli")) == {"cut_not_enabled"}


def test_entered_chips_are_checked_against_the_pot_carried_in() -> None:
    sheet = ZwickenSheet(ZWICKEN, 4)
    sheet.add(dealt(1, 0, [], [0, 0, 0, 0]))  # pot 3
    # pot 3 + 3 = 6, a third is 2: seat 2 +4, seat 3 +2, seat 0 played without a trick: -3; pot 0 + 3
    line = dealt(2, 1, [0, 2, 3], [0, 0, 2, 1], chips=[-3, -3, 4, 2], pot=3)
    assert sheet.add(line).points == (-3, -3, 4, 2)
    assert codes_of(sheet, dealt(3, 2, [1], [0, 3, 0, 0], chips=[0, 6, -3, 0], pot=3)) == {"chips_not_conserved"}


# --- corrections and whole sheets -------------------------------------------------------------------------------------


def test_replacing_a_deal_resettles_the_pot_of_every_later_deal() -> None:
    sheet = ZwickenSheet(ZWICKEN, 3)
    sheet.add(dealt(1, 0, [], [0, 0, 0]))  # pot 3
    sheet.add(dealt(2, 1, [0, 1, 2], [1, 1, 1]))  # pot 6: 2 a trick
    assert sheet.results[1].points == (2, -1, 2)
    results = sheet.replace(1, dealt(1, 0, [1, 2], [0, 1, 2]))  # pot 3: 1 a trick, nothing carried
    assert [r.points for r in results] == [(-3, 1, 2), (1, -2, 1)]
    assert sheet.pot == 0 and sheet.totals == [-2, -1, 3]


def test_a_correction_that_breaks_a_later_line_is_refused_and_the_sheet_kept() -> None:
    sheet = ZwickenSheet(ZWICKEN, 3)
    sheet.add(dealt(1, 0, [], [0, 0, 0]))
    sheet.add(dealt(2, 1, [0, 1, 2], [1, 1, 1]))
    before = snapshot(sheet)
    with pytest.raises(InvalidSheet) as refused:
        sheet.replace(1, cut(1, 0, "void"))  # the same dealer deals again: deal 2 by seat 1 is out of rotation
    assert refused.value.lines[0].line_number == 2
    assert refused.value.codes == {"dealer_out_of_rotation"}
    assert snapshot(sheet) == before


@pytest.mark.parametrize("deal", [0, 2, -1])
def test_only_a_deal_on_the_sheet_can_be_replaced(deal: int) -> None:
    sheet = ZwickenSheet(ZWICKEN, 3)
    sheet.add(dealt(1, 0, [], [0, 0, 0]))
    with pytest.raises(SessionError):
        sheet.replace(deal, dealt(deal, 0, [], [0, 0, 0]))


def test_from_lines_names_every_bad_line_and_judges_later_lines_as_if_it_were_fine() -> None:
    lines = [
        dealt(1, 0, [1], [0, 3, 0, 0]),
        cut(2, 1, "belli"),
        dealt(3, 0, [1, 2], [0, 1, 1, 0]),  # tricks_impossible; the cutter (seat 0) dealt as he should
        dealt(4, 1, [1], [0, 3, 0, 0]),  # fine after the bad line
        dealt(5, 1, [1], [0, 3, 0, 0]),  # out of rotation
    ]
    with pytest.raises(InvalidSheet) as refused:
        ZwickenSheet.from_lines(ZWICKEN, lines, 4)
    assert [(e.line_number, e.codes) for e in refused.value.lines] == [
        (3, {"tricks_impossible"}),
        (5, {"dealer_out_of_rotation"}),
    ]


# --- conservation, as a property --------------------------------------------------------------------------------------


@st.composite
def sessions(draw: st.DrawFn) -> tuple[RuleSet, int, list[dict[str, Any]]]:
    rules = find(draw(st.sampled_from(PRESETS)))
    options = rules.zwicken
    assert options is not None
    players = draw(st.integers(options.min_players, options.max_players))
    dealer = draw(st.integers(0, players - 1))
    lines: list[dict[str, Any]] = []
    for deal in range(1, draw(st.integers(1, 25)) + 1):
        kind = draw(st.sampled_from(["zwicken"] * 6 + ["void", "belli"]))
        if kind != "zwicken":
            lines.append(cut(deal, dealer, kind))
            dealer = dealer if kind == "void" else (dealer - 1) % players
            continue
        seats = list(range(players))
        played = seats if not options.may_pass else sorted(draw(st.sets(st.sampled_from(seats))))
        tricks = [0] * players
        for _ in range(options.hand if played else 0):
            tricks[draw(st.sampled_from(played))] += 1
        duties = sorted(draw(st.sets(st.sampled_from(played)))) if played else []
        lines.append(dealt(deal, dealer, played, tricks, duties_failed=duties))
        dealer = (dealer + 1) % players
    return rules, players, lines


@settings(max_examples=200, deadline=None)
@given(sessions())
def test_chips_and_pot_are_conserved_over_any_session(session: tuple[RuleSet, int, list[dict[str, Any]]]) -> None:
    rules, players, lines = session
    sheet = ZwickenSheet(rules, players)
    for line in lines:
        pot = sheet.pot
        settled = sheet.add(line)
        assert sum(settled.points) + settled.pot - pot == 0
        assert settled.pot == sheet.pot >= 0
        assert sum(sheet.totals) + sheet.pot == 0
    assert [sum(column) for column in zip(*(r.points for r in sheet.results), strict=True)] == sheet.totals
