"""Score-sheet line validation: every stable error code of ``games.lines``, and RULES.md §7.

Each test breaks exactly one rule of an otherwise valid line (in session
context where the rule depends on earlier lines) and checks the code and the
field of the error. Expected points are worked out by hand from RULES.md §3-§4.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

import pytest

from games import FieldError, InvalidLine, RuleSet, Sheet, find

# --- helpers -----------------------------------------------------------------------------------------------------


def rules_of(spec: str | dict[str, Any]) -> RuleSet:
    return find(spec) if isinstance(spec, str) else RuleSet.from_json(spec)


def sheet_after(
    rules: str | dict[str, Any] = "flemish", before: Iterable[dict[str, Any]] = (), players: int = 4, deals: int = 16
) -> Sheet:
    sheet = Sheet(rules_of(rules), players=players, deals=deals)
    for line in before:
        sheet.add(line)
    return sheet


def rejection(
    line: object,
    rules: str | dict[str, Any] = "flemish",
    before: Iterable[dict[str, Any]] = (),
    players: int = 4,
    deals: int = 16,
) -> InvalidLine:
    sheet = sheet_after(rules, before, players, deals)
    with pytest.raises(InvalidLine) as exc:
        sheet.add(line)
    return exc.value


def the_error(exc: InvalidLine, code: str) -> FieldError:
    found = [e for e in exc.errors if e.code == code]
    assert len(found) == 1, exc.errors
    return found[0]


def assert_only(exc: InvalidLine, code: str, field: str) -> FieldError:
    """The line broke exactly one rule: ``code`` on ``field``."""
    assert exc.codes == {code}, exc.errors
    error = the_error(exc, code)
    assert error.field == field
    return error


def vraag(deal: int = 1, dealer: int = 0, **extra: Any) -> dict[str, Any]:
    line: dict[str, Any] = {"deal": deal, "dealer": dealer, "contract": "vraag", "declarers": [1, 3], "tricks": 9}
    line.update(extra)
    return line


def alleen(deal: int, dealer: int, players: int = 4) -> dict[str, Any]:
    """A valid alleen, played by the seat left of the dealer (never the dealer, so fine at a table of five)."""
    return {"deal": deal, "dealer": dealer, "contract": "alleen", "declarers": [(dealer + 1) % players], "tricks": 5}


def passed(deal: int, dealer: int) -> dict[str, Any]:
    return {"deal": deal, "dealer": dealer, "contract": "pass"}


def clockwise_session(count: int, players: int = 4) -> list[dict[str, Any]]:
    return [alleen(n, (n - 1) % players, players) for n in range(1, count + 1)]


# --- the line itself ------------------------------------------------------------------------------------------


def test_a_valid_line_is_accepted_and_settled() -> None:
    # flemish vraag 9 tricks: base 2 + 1 overtrick = 3 per player (per_player) -> declarers 1, 3 get +3, 0 and 2 pay 3
    settled = sheet_after().add(vraag())
    assert settled.points == (-3, 3, -3, 3)


@pytest.mark.parametrize("line", [[1, 2, 3], "vraag", 7, None])
def test_it_rejects_a_line_that_is_not_an_object(line: object) -> None:
    assert_only(rejection(line), "not_an_object", "")


def test_it_rejects_an_unknown_field_and_names_it() -> None:
    error = assert_only(rejection(vraag(colour="red")), "unknown_field", "colour")
    assert "colour" in error.message


@pytest.mark.parametrize("field", ["deal", "dealer", "contract"])
def test_it_rejects_a_line_without_a_required_field(field: str) -> None:
    line = vraag()
    del line[field]
    # without a contract, declarers and tricks have nothing to be checked against: only the missing field
    assert_only(rejection(line), "missing_field", field)


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ({"deal": 1, "dealer": 0, "contract": "vraag", "tricks": 9}, "declarers"),
        ({"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [1, 3]}, "tricks"),
        ({"deal": 1, "dealer": 0, "contract": "abondance", "trump": "S", "declarers": [1], "tricks": 9}, "level"),
        ({"deal": 1, "dealer": 0, "contract": "penalty"}, "offender"),
    ],
)
def test_it_rejects_a_played_line_without_the_fields_its_contract_needs(line: dict[str, Any], field: str) -> None:
    assert_only(rejection(line), "missing_field", field)


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("deal", "1", "'1'"),
        ("deal", 1.0, "1.0"),
        ("deal", True, "True"),
        ("dealer", "0", "'0'"),
        ("dealer", True, "True"),
        ("contract", 3, "3"),
        ("declarers", "1,3", "'1,3'"),
        ("declarers", [1, "3"], "'3'"),  # the message names the bad seat
        ("tricks", "9", "'9'"),
        ("tricks", 9.0, "9.0"),
        ("points", "0", "'0'"),
        ("points", [1, -1, 0], "[1, -1, 0]"),
        ("points", [3.0, -3, 3, -3], "[3.0, -3, 3, -3]"),
        ("note", 42, "42"),
    ],
)
def test_it_rejects_a_field_of_the_wrong_type_and_names_the_value(field: str, value: object, named: str) -> None:
    line = vraag()
    line[field] = value
    error = assert_only(rejection(line), "wrong_type", field)
    assert named in error.message


def test_it_rejects_a_note_over_its_length_and_keeps_one_at_it() -> None:
    from games.lines import NOTE_MAX_LENGTH

    line = vraag()
    line["note"] = "n" * (NOTE_MAX_LENGTH + 1)
    error = assert_only(rejection(line), "too_long", "note")
    assert str(NOTE_MAX_LENGTH) in error.message
    line["note"] = "n" * NOTE_MAX_LENGTH
    sheet_after().add(line)


def test_it_rejects_a_level_of_the_wrong_type() -> None:
    line = {
        "deal": 1,
        "dealer": 0,
        "contract": "abondance",
        "level": "10",
        "trump": "S",
        "declarers": [1],
        "tricks": 10,
    }
    assert_only(rejection(line), "wrong_type", "level")


def test_it_rejects_miserie_tricks_that_are_not_numbers() -> None:
    line = {"deal": 1, "dealer": 0, "contract": "miserie", "declarers": [1, 2], "tricks": ["0", 1]}
    assert_only(rejection(line), "wrong_type", "tricks")


# --- deal numbers and session length --------------------------------------------------------------------------


def test_it_rejects_a_first_line_that_is_not_deal_one() -> None:
    error = assert_only(rejection(vraag(deal=2)), "deal_out_of_sequence", "deal")
    assert "2" in error.message and "1" in error.message


def test_it_rejects_a_deal_number_that_skips_one() -> None:
    before = [alleen(1, 0)]
    error = assert_only(rejection(alleen(3, 1), before=before), "deal_out_of_sequence", "deal")
    assert "3" in error.message


def test_it_rejects_a_repeated_deal_number() -> None:
    before = [alleen(1, 0), alleen(2, 1)]
    assert_only(rejection(alleen(2, 2), before=before), "deal_out_of_sequence", "deal")


def test_it_rejects_the_seventeenth_counted_deal_of_a_sixteen_deal_session() -> None:
    before = clockwise_session(16)
    error = assert_only(rejection(alleen(17, 0), before=before), "deal_beyond_session", "deal")
    assert "17" in error.message


def test_it_rejects_the_twenty_fifth_deal_of_a_twenty_four_deal_session() -> None:
    before = clockwise_session(24)
    assert_only(rejection(alleen(25, 0), before=before, deals=24), "deal_beyond_session", "deal")


def test_it_counts_an_all_pass_deal_toward_the_session_by_default() -> None:
    # 15 played deals and one all-pass round: 16 deals counted (RULES §5 default), the next one is beyond
    before = [*clockwise_session(15), passed(16, 3)]
    assert_only(rejection(alleen(17, 0), before=before), "deal_beyond_session", "deal")


def test_with_passes_not_counting_an_all_pass_deal_does_not_use_up_the_session() -> None:
    rules = {"preset": "flemish", "passes_count": False}
    # deals 1-15 played, deal 16 all-pass (not counted), deal 17 is the 16th counted deal: accepted
    before = [*clockwise_session(15), passed(16, 3), alleen(17, 0)]
    sheet = sheet_after(rules, before)
    assert sheet.complete
    with pytest.raises(InvalidLine) as exc:
        sheet.add(alleen(18, 1))
    assert_only(exc.value, "deal_beyond_session", "deal")


def test_with_passes_not_counting_the_seventeenth_line_is_accepted() -> None:
    rules = {"preset": "flemish", "passes_count": False}
    sheet = sheet_after(rules, [*clockwise_session(15), passed(16, 3)])
    assert not sheet.complete
    sheet.add(alleen(17, 0))
    assert len(sheet.lines) == 17


def test_an_open_ended_session_has_no_last_deal() -> None:
    sheet = Sheet(find("flemish"), deals=None)
    for line in clockwise_session(30):
        sheet.add(line)
    assert sheet.next_deal == 31
    assert not sheet.complete


# --- seats and the dealer -------------------------------------------------------------------------------------


def test_it_rejects_a_dealer_who_is_not_a_seat() -> None:
    error = assert_only(rejection(vraag(dealer=4)), "seat_out_of_range", "dealer")
    assert "4" in error.message


def test_it_rejects_a_negative_dealer_seat() -> None:
    assert_only(rejection(vraag(dealer=-1)), "seat_out_of_range", "dealer")


def test_it_accepts_seat_four_as_dealer_at_a_table_of_five() -> None:
    sheet = sheet_after(players=5)
    settled = sheet.add(vraag(dealer=4))
    # flemish vraag 9 tricks = 3 per player; seat 4 deals and sits out with 0
    assert settled.points == (-3, 3, -3, 3, 0)


def test_it_rejects_a_declarer_who_is_not_a_seat() -> None:
    error = assert_only(rejection(vraag(declarers=[1, 4])), "seat_out_of_range", "declarers")
    assert "4" in error.message


def test_it_rejects_an_offender_who_is_not_a_seat() -> None:
    line = {"deal": 1, "dealer": 0, "contract": "penalty", "offender": 7}
    assert_only(rejection(line), "seat_out_of_range", "offender")


def test_it_rejects_a_dealer_out_of_clockwise_rotation() -> None:
    error = assert_only(rejection(alleen(2, 2), before=[alleen(1, 0)]), "dealer_out_of_rotation", "dealer")
    # the message names the dealer given and the seat that had to deal, as the table card numbers them
    assert "dealer at seat 3" in error.message and "dealt by seat 2" in error.message
    assert error.seats == (2, 1) and error.values == {"deal": 2}


def test_the_clockwise_rotation_wraps_from_the_last_seat_to_seat_zero() -> None:
    sheet = sheet_after(before=[alleen(1, 3)])
    sheet.add(alleen(2, 0))
    with pytest.raises(InvalidLine) as exc:
        sheet.add(alleen(3, 0))
    assert_only(exc.value, "dealer_out_of_rotation", "dealer")


def test_it_rejects_a_clockwise_dealer_under_the_counter_clockwise_variant() -> None:
    before = [alleen(1, 0)]
    assert_only(rejection(alleen(2, 1), "iwwa+counter_clockwise", before), "dealer_out_of_rotation", "dealer")


def test_the_counter_clockwise_variant_passes_the_deal_to_the_right() -> None:
    sheet = sheet_after("iwwa+counter_clockwise", [alleen(1, 0)])
    sheet.add(alleen(2, 3))
    sheet.add(alleen(3, 2))
    assert sheet.expected_dealer == 1


def test_under_belgian_the_same_dealer_redeals_after_an_all_pass_round() -> None:
    # RULES §4 belgian: "All-pass: same dealer redeals"
    sheet = sheet_after("belgian", [passed(1, 2)])
    with pytest.raises(InvalidLine) as exc:
        sheet.add(alleen(2, 3))
    error = assert_only(exc.value, "dealer_out_of_rotation", "dealer")
    assert "dealt by seat 3" in error.message
    sheet.add(alleen(2, 2))


def test_under_belgian_the_deal_moves_on_after_a_played_deal() -> None:
    assert_only(rejection(alleen(2, 2), "belgian", [alleen(1, 2)]), "dealer_out_of_rotation", "dealer")


def test_under_flemish_the_next_dealer_deals_after_an_all_pass_round() -> None:
    # RULES §4 flemish: "All-pass: next dealer deals"
    assert_only(rejection(alleen(2, 2), "flemish", [passed(1, 2)]), "dealer_out_of_rotation", "dealer")


def test_at_a_table_of_five_the_rotation_uses_all_five_seats() -> None:
    sheet = sheet_after(players=5, before=[alleen(1, 3, 5)])
    with pytest.raises(InvalidLine) as exc:
        sheet.add(alleen(2, 0, 5))
    assert_only(exc.value, "dealer_out_of_rotation", "dealer")
    sheet.add(alleen(2, 4, 5))
    assert sheet.expected_dealer == 0


# --- contracts ------------------------------------------------------------------------------------------------


def test_it_rejects_an_unknown_contract_and_names_it() -> None:
    line = {"deal": 1, "dealer": 0, "contract": "grand"}
    error = assert_only(rejection(line), "unknown_contract", "contract")
    assert "grand" in error.message


def test_it_rejects_piccolo_under_iwwa() -> None:
    # RULES §4: iwwa has no piccolo (belgian adds it)
    line = {"deal": 1, "dealer": 0, "contract": "piccolo", "declarers": [1], "tricks": [1]}
    error = assert_only(rejection(line, "iwwa"), "contract_not_enabled", "contract")
    assert "piccolo" in error.message and "iwwa" in error.message


def test_it_rejects_solo_under_flemish() -> None:
    # RULES §4 flemish ladder: solo_slim but no plain solo
    line = {"deal": 1, "dealer": 0, "contract": "solo", "trump": "H", "declarers": [1], "tricks": 13}
    assert_only(rejection(line, "flemish"), "contract_not_enabled", "contract")


def test_it_rejects_vraag_under_the_one_against_three_variant() -> None:
    assert_only(rejection(vraag(), "flemish+1v3"), "contract_not_enabled", "contract")


def test_it_accepts_piccolo_under_belgian() -> None:
    line = {"deal": 1, "dealer": 0, "contract": "piccolo", "declarers": [1], "tricks": [1]}
    assert sheet_after("belgian").add(line).made == (True,)


@pytest.mark.parametrize(
    ("line", "field"),
    [
        (vraag(level=10), "level"),
        (vraag(offender=2), "offender"),
        ({"deal": 1, "dealer": 0, "contract": "pass", "declarers": [1]}, "declarers"),
        ({"deal": 1, "dealer": 0, "contract": "pass", "tricks": 0}, "tricks"),
        ({"deal": 1, "dealer": 0, "contract": "penalty", "offender": 1, "trump": "H"}, "trump"),
        ({"deal": 1, "dealer": 0, "contract": "miserie", "declarers": [1], "tricks": [0], "level": 9}, "level"),
    ],
)
def test_it_rejects_a_field_that_has_no_meaning_on_the_contract(line: dict[str, Any], field: str) -> None:
    assert_only(rejection(line), "unexpected_field", field)


# --- declarers ------------------------------------------------------------------------------------------------


def test_it_rejects_an_empty_list_of_declarers() -> None:
    line = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [], "tricks": 5}
    assert_only(rejection(line), "missing_declarer", "declarers")


def test_it_rejects_a_vraag_without_a_partner() -> None:
    error = assert_only(rejection(vraag(declarers=[1])), "missing_partner", "declarers")
    assert "vraag" in error.message and "seat 2 lacks a partner" in error.message and error.seats == (1,)


def test_it_rejects_a_troel_without_a_partner() -> None:
    line = {"deal": 1, "dealer": 0, "contract": "troel", "declarers": [2], "tricks": 8}
    assert_only(rejection(line), "missing_partner", "declarers")


def test_it_rejects_a_partner_on_a_solo() -> None:
    line = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [1, 2], "tricks": 6}
    error = assert_only(rejection(line), "partner_on_solo", "declarers")
    assert "seats 2 and 3" in error.message and error.seats == (1, 2)


def test_it_rejects_a_partner_on_an_abondance() -> None:
    line = {"deal": 1, "dealer": 0, "contract": "abondance", "level": 9, "trump": "S", "declarers": [0, 2], "tricks": 9}
    assert_only(rejection(line), "partner_on_solo", "declarers")


def test_it_rejects_three_players_on_a_vraag() -> None:
    assert_only(rejection(vraag(declarers=[0, 1, 3])), "too_many_declarers", "declarers")


def test_it_rejects_several_miserie_declarers_when_the_rule_set_forbids_it() -> None:
    rules = {"preset": "flemish", "multiple_miserie": False}
    line = {"deal": 1, "dealer": 0, "contract": "miserie", "declarers": [0, 2], "tricks": [0, 0]}
    assert_only(rejection(line, rules), "several_declarers_not_allowed", "declarers")


def test_it_accepts_several_miserie_declarers_by_default() -> None:
    line = {"deal": 1, "dealer": 0, "contract": "miserie", "declarers": [0, 2], "tricks": [0, 1]}
    # flemish miserie 5, each declarer alone against the other three:
    # seat 0 makes it: +15 for 0, -5 for 1, 2, 3; seat 2 fails: -15 for 2, +5 for 0, 1, 3
    # -> (15+5, -5+5, -5-15, -5+5) = (20, 0, -20, 0)
    assert sheet_after().add(line).points == (20, 0, -20, 0)


def test_it_rejects_a_seat_listed_twice_among_the_declarers() -> None:
    assert_only(rejection(vraag(declarers=[1, 1])), "duplicate_declarer", "declarers")


def test_it_rejects_a_miserie_declarer_listed_twice() -> None:
    line = {"deal": 1, "dealer": 0, "contract": "miserie", "declarers": [2, 2], "tricks": [0, 0]}
    assert_only(rejection(line), "duplicate_declarer", "declarers")


def test_it_rejects_the_sitting_out_dealer_as_a_declarer_at_a_table_of_five() -> None:
    error = assert_only(rejection(vraag(dealer=0, declarers=[0, 2]), players=5), "declarer_sits_out", "declarers")
    assert "declarer at seat 1 is the dealer" in error.message and error.seats == (0,)


def test_it_rejects_the_sitting_out_dealer_as_a_declarer_later_in_the_session() -> None:
    # deal 2 is dealt by seat 1, who sits it out
    line = {"deal": 2, "dealer": 1, "contract": "alleen", "declarers": [1], "tricks": 5}
    assert_only(rejection(line, players=5, before=[alleen(1, 0, 5)]), "declarer_sits_out", "declarers")


def test_at_a_table_of_four_the_dealer_may_declare() -> None:
    assert sheet_after().add(vraag(dealer=1, declarers=[1, 3])).points == (-3, 3, -3, 3)


def test_it_rejects_the_sitting_out_dealer_as_the_offender_of_a_penalty() -> None:
    line = {"deal": 1, "dealer": 2, "contract": "penalty", "offender": 2}
    assert_only(rejection(line, players=5), "offender_sits_out", "offender")


# --- tricks ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("tricks", [14, -1, 99])
def test_it_rejects_tricks_outside_zero_to_thirteen(tricks: int) -> None:
    error = assert_only(rejection(vraag(tricks=tricks)), "tricks_out_of_range", "tricks")
    assert str(tricks) in error.message


@pytest.mark.parametrize("tricks", [0, 13])
def test_it_accepts_tricks_at_both_ends_of_the_range(tricks: int) -> None:
    sheet_after().add(vraag(tricks=tricks))


def test_it_rejects_a_list_of_tricks_on_a_vraag() -> None:
    # RULES §7: "2 v 2 trick totals are one number for the side"
    error = assert_only(rejection(vraag(tricks=[5, 4])), "tricks_shape", "tricks")
    assert "[5, 4]" in error.message


def test_it_rejects_one_trick_count_for_two_miserie_declarers() -> None:
    line = {"deal": 1, "dealer": 0, "contract": "miserie", "declarers": [0, 2], "tricks": [0]}
    assert_only(rejection(line), "tricks_shape", "tricks")


def test_it_accepts_a_plain_trick_count_for_a_single_miserie_declarer() -> None:
    line = {"deal": 1, "dealer": 0, "contract": "miserie", "declarers": [1], "tricks": 0}
    # flemish miserie 5 per opponent: declarer +15, the three others -5
    assert sheet_after().add(line).points == (-5, 15, -5, -5)


def test_it_rejects_a_miserie_trick_count_above_thirteen() -> None:
    line = {"deal": 1, "dealer": 0, "contract": "miserie", "declarers": [1, 2], "tricks": [0, 14]}
    assert_only(rejection(line), "tricks_out_of_range", "tricks")


def test_it_rejects_thirteen_tricks_in_kleine_miserie_where_only_twelve_are_played() -> None:
    # RULES §2: kleine_miserie, every player first discards one card, so 12 tricks
    line = {"deal": 1, "dealer": 0, "contract": "kleine_miserie", "declarers": [1], "tricks": [13]}
    error = assert_only(rejection(line, "belgian"), "tricks_out_of_range", "tricks")
    assert "13" in error.message and "12" in error.message


def test_it_accepts_twelve_tricks_in_kleine_miserie() -> None:
    line = {"deal": 1, "dealer": 0, "contract": "kleine_miserie", "declarers": [1], "tricks": [12]}
    # belgian kleine_miserie 10, failed: the declarer pays 10 to each of three
    assert sheet_after("belgian").add(line).points == (10, -30, 10, 10)


def test_it_rejects_miserie_declarers_who_took_more_than_thirteen_tricks_together() -> None:
    line = {"deal": 1, "dealer": 0, "contract": "miserie", "declarers": [0, 2], "tricks": [7, 7]}
    error = assert_only(rejection(line), "tricks_impossible", "tricks")
    assert "14" in error.message


def test_it_rejects_kleine_miserie_declarers_who_took_more_than_twelve_tricks_together() -> None:
    line = {"deal": 1, "dealer": 0, "contract": "kleine_miserie", "declarers": [0, 2], "tricks": [6, 7]}
    assert_only(rejection(line, "belgian"), "tricks_impossible", "tricks")


def test_it_accepts_miserie_declarers_who_took_all_thirteen_tricks_together() -> None:
    line = {"deal": 1, "dealer": 0, "contract": "miserie", "declarers": [0, 2], "tricks": [6, 7]}
    sheet_after().add(line)


# --- abondance levels -----------------------------------------------------------------------------------------


def abondance(level: object, tricks: int = 10, **extra: Any) -> dict[str, Any]:
    line: dict[str, Any] = {"deal": 1, "dealer": 0, "contract": "abondance", "level": level, "trump": "S"}
    line.update({"declarers": [1], "tricks": tricks, **extra})
    return line


@pytest.mark.parametrize("level", [8, 13, 0])
def test_it_rejects_an_abondance_level_outside_nine_to_twelve(level: int) -> None:
    error = assert_only(rejection(abondance(level)), "level_out_of_range", "level")
    assert str(level) in error.message


@pytest.mark.parametrize("level", [9, 10, 11, 12])
def test_it_accepts_every_abondance_level_from_nine_to_twelve(level: int) -> None:
    sheet_after().add(abondance(level, tricks=level))


def test_it_rejects_an_abondance_level_the_rule_set_removed() -> None:
    rules = {"preset": "flemish", "tariffs": {"abondance": {"levels": {"12": None}}}}
    error = assert_only(rejection(abondance(12, tricks=12), rules), "level_not_enabled", "level")
    assert "12" in error.message
    sheet_after(rules).add(abondance(11, tricks=11))


def test_it_rejects_an_abondance_level_solo_whist_does_not_play() -> None:
    # RULES §4 solo_whist: abondance is 9 tricks
    assert_only(rejection(abondance(10), "solo_whist"), "level_not_enabled", "level")


# --- trump ----------------------------------------------------------------------------------------------------


def test_it_rejects_a_trump_on_miserie() -> None:
    line = {"deal": 1, "dealer": 0, "contract": "miserie", "declarers": [1], "tricks": [0], "trump": "H"}
    error = assert_only(rejection(line), "trump_not_allowed", "trump")
    assert "'H'" in error.message


def test_it_rejects_a_trump_on_piccolo() -> None:
    line = {"deal": 1, "dealer": 0, "contract": "piccolo", "declarers": [1], "tricks": [1], "trump": "C"}
    assert_only(rejection(line, "belgian"), "trump_not_allowed", "trump")


def test_it_rejects_a_trump_on_abondance_declaree() -> None:
    # RULES §4 solo_whist: abondance declaree, 13 tricks, **no trump**
    line = {"deal": 1, "dealer": 0, "contract": "abondance_declaree", "declarers": [1], "tricks": 13, "trump": "S"}
    assert_only(rejection(line, "solo_whist"), "trump_not_allowed", "trump")


def test_it_rejects_an_abondance_without_its_trump() -> None:
    line = abondance(10)
    del line["trump"]
    assert_only(rejection(line), "trump_required", "trump")


def test_it_rejects_a_solo_slim_without_its_trump() -> None:
    line = {"deal": 1, "dealer": 0, "contract": "solo_slim", "declarers": [1], "tricks": 13}
    assert_only(rejection(line), "trump_required", "trump")


def test_it_accepts_a_vraag_without_trump_where_the_trump_is_turned() -> None:
    line = vraag()
    assert "trump" not in line
    sheet_after("flemish").add(line)


def test_it_accepts_a_troel_without_trump_and_with_the_suit_of_the_fourth_ace() -> None:
    sheet = sheet_after()
    sheet.add({"deal": 1, "dealer": 0, "contract": "troel", "declarers": [2, 3], "tricks": 8})
    sheet.add({"deal": 2, "dealer": 1, "contract": "troel", "declarers": [2, 3], "tricks": 8, "trump": "D"})


def test_it_rejects_a_vraag_without_trump_under_kleurenwiezen() -> None:
    # kleurenwiezen: the trump is always chosen by the declarer, so it must be written down
    assert_only(rejection(vraag(), "flemish+kleurenwiezen"), "trump_required", "trump")
    sheet_after("flemish+kleurenwiezen").add(vraag(trump="H"))


@pytest.mark.parametrize("trump", ["X", "hearts", "", 3])
def test_it_rejects_a_trump_that_is_not_a_suit(trump: object) -> None:
    error = assert_only(rejection(abondance(10, trump=trump)), "unknown_suit", "trump")
    assert repr(trump) in error.message


# --- points entered by hand -----------------------------------------------------------------------------------


def test_it_rejects_points_that_do_not_sum_to_zero() -> None:
    error = assert_only(rejection(vraag(points=[-3, 3, -3, 2])), "points_not_zero_sum", "points")
    assert "-1" in error.message


def test_it_rejects_points_that_differ_from_the_settlement() -> None:
    # flemish vraag 9 tricks is worth 3 each (2 + 1 overtrick), not 2
    error = assert_only(rejection(vraag(points=[-2, 2, -2, 2])), "points_mismatch", "points")
    assert "[-2, 2, -2, 2]" in error.message and "[-3, 3, -3, 3]" in error.message


def test_it_accepts_points_that_match_the_settlement() -> None:
    assert sheet_after().add(vraag(points=[-3, 3, -3, 3])).points == (-3, 3, -3, 3)


def test_it_checks_entered_points_against_the_doubled_settlement_after_an_all_pass_round() -> None:
    # flemish: the deal after an all-pass round counts double: 3 x 2 = 6
    before = [passed(1, 0)]
    assert_only(rejection(vraag(2, 1, points=[-3, 3, -3, 3]), before=before), "points_mismatch", "points")
    sheet_after(before=before).add(vraag(2, 1, points=[-6, 6, -6, 6]))


def test_it_rejects_four_points_at_a_table_of_five() -> None:
    assert_only(rejection(vraag(points=[-3, 3, -3, 3]), players=5), "wrong_type", "points")


# --- every error at once; nothing changes ---------------------------------------------------------------------


def test_it_reports_every_problem_of_a_line_at_once() -> None:
    line = {
        "deal": 1,
        "dealer": 0,
        "contract": "alleen",
        "declarers": [1, 2],  # partner_on_solo
        "tricks": 14,  # tricks_out_of_range
        "trump": "X",  # unknown_suit
        "colour": "red",  # unknown_field
    }
    exc = rejection(line)
    assert exc.codes == {"partner_on_solo", "tricks_out_of_range", "unknown_suit", "unknown_field"}
    assert len(exc.errors) == 4
    assert {(e.code, e.field) for e in exc.errors} == {
        ("partner_on_solo", "declarers"),
        ("tricks_out_of_range", "tricks"),
        ("unknown_suit", "trump"),
        ("unknown_field", "colour"),
    }


def test_it_reports_session_problems_together_with_the_line_s_own() -> None:
    before = [alleen(1, 0)]
    line = {"deal": 3, "dealer": 3, "contract": "abondance", "level": 8, "declarers": [2], "tricks": 9}
    exc = rejection(line, before=before)
    assert {(e.code, e.field) for e in exc.errors} == {
        ("deal_out_of_sequence", "deal"),
        ("dealer_out_of_rotation", "dealer"),
        ("level_out_of_range", "level"),
        ("trump_required", "trump"),
    }


def test_the_error_message_of_a_rejected_line_lists_every_problem() -> None:
    exc = rejection(vraag(tricks=14, dealer=9))
    text = str(exc)
    assert "tricks_out_of_range" in text and "seat_out_of_range" in text
    assert isinstance(exc, ValueError)


def snapshot(sheet: Sheet) -> tuple[Any, ...]:
    return (sheet.state, list(sheet.totals), copy.deepcopy(sheet.lines), list(sheet.results))


@pytest.mark.parametrize(
    "bad",
    [
        vraag(3, 1),  # deal out of sequence
        vraag(2, 1, tricks=14),
        vraag(2, 1, points=[-1, 1, -1, 1]),  # only found once settled
        {"deal": 2, "dealer": 1, "contract": "pass", "colour": 1},
        "not a line",
    ],
)
def test_a_rejected_line_leaves_the_sheet_unchanged(bad: object) -> None:
    sheet = sheet_after(before=[vraag(1, 0)])
    before = snapshot(sheet)
    with pytest.raises(InvalidLine):
        sheet.add(bad)
    assert snapshot(sheet) == before
    # and the sheet still takes the right next line
    sheet.add(vraag(2, 1))
    assert sheet.totals == [-6, 6, -6, 6]


def test_a_rejected_pass_does_not_leave_a_doubling_behind() -> None:
    sheet = sheet_after()
    with pytest.raises(InvalidLine):
        sheet.add({"deal": 1, "dealer": 0, "contract": "pass", "note": 5})
    assert sheet.pending_multiplier == 1
    # vraag 9 tricks undoubled: 3 each
    assert sheet.add(vraag(1, 0)).points == (-3, 3, -3, 3)


def test_check_validates_without_adding() -> None:
    sheet = sheet_after()
    play = sheet.check(vraag())
    assert play.contract == "vraag" and play.declarers == (1, 3) and play.tricks == (9,)
    assert sheet.lines == [] and sheet.next_deal == 1
    with pytest.raises(InvalidLine):
        sheet.check(vraag(tricks=-1))
