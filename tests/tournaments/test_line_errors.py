"""``person_message``: every engine error as a person at the table reads it (issue 15, item 2).

Seats are numbered as on the table card (engine position + 1) with the player's name; contracts by their display
names; no codes, no Python lists, in the reader's language.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation

import games
from games.codes import CODES, LINE_CODES, RECORD_CODES
from games.errors import FieldError, InvalidLine
from games.lines import check_line
from games.zwicken.lines import check_zwicken_line
from tournaments.line_errors import SENTENCES, person_message

NAMES = ["Ann P.", "Bob D.", "Cas V.", "Dirk M.", "Els W."]
LANGUAGES = ("en", "nl", "fr")
ZERO_SEAT = re.compile(r"\b(seat|plaats|place) 0\b", re.IGNORECASE)
# A value for every name a sentence may fill in, as the engine gives them.
VALUES: dict[str, int | str] = {
    "deal": 5,
    "next_deal": 4,
    "contract": "vraag",
    "value": 4,
    "players": 4,
    "most": 13,
    "tricks": 14,
    "level": 13,
    "levels": "9, 10",
    "declarers": 2,
    "counts": 3,
    "total": 2,
    "pot": 7,
    "settled": 5,
    "cut": "belli",
}
# The codes whose errors name seats (``FieldError.seats``): their sentences name each one.
SEAT_CODES = {
    "dealer_out_of_rotation",
    "missing_partner",
    "partner_on_solo",
    "too_many_declarers",
    "several_declarers_not_allowed",
    "duplicate_declarer",
    "declarer_sits_out",
    "offender_sits_out",
    "duplicate_seat",
    "pass_not_allowed",
    "tricks_by_passed_player",
    "duty_by_passed_player",
    "trump_ace_passed",
    "tricks_out_of_range",
    "tricks_after_early_end",
    "points_mismatch",
    "chips_mismatch",
}
FIELDS = ("", "deal", "dealer", "contract", "declarers", "tricks", "level", "trump", "offender", "played", "note")


def assert_readable(text: str, error: FieldError) -> None:
    assert text.strip(), error
    assert error.code not in text, text
    assert "[" not in text and "]" not in text, text
    assert "_" not in text, text  # no code nor contract id (kleine_miserie) leaks through
    assert not ZERO_SEAT.search(text), text
    assert text != error.message


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("code", sorted(CODES))
def test_every_engine_code_has_a_sentence_with_seats_counted_from_one(code: str, language: str) -> None:
    with translation.override(language):
        for field in FIELDS:
            for seats in ((), (0,), (0, 2)):
                error = FieldError(code, field, f"engine words [{code}] seat 0", seats, VALUES)
                text = person_message(error, NAMES)
                assert_readable(text, error)
                if code in SEAT_CODES and len(seats) == 2:
                    assert "1 (Ann P.)" in text, text
                    if code not in ("declarer_sits_out", "offender_sits_out", "tricks_out_of_range"):
                        assert "3 (Cas V.)" in text, text


def test_line_codes_have_their_own_sentence_record_codes_a_shared_one() -> None:
    assert SENTENCES.keys() >= LINE_CODES >= SEAT_CODES
    assert not RECORD_CODES & SENTENCES.keys() - LINE_CODES


def rejected(line: dict[str, Any], players: int = 4, expected_dealer: int | None = None) -> InvalidLine:
    with pytest.raises(InvalidLine) as exc:
        check_line(
            line, games.find("iwwa"), players, next_deal=line["deal"], expected_dealer=expected_dealer, deals_left=10
        )
    return exc.value


def said(line: dict[str, Any], language: str = "en", **kwargs: Any) -> list[str]:
    with translation.override(language):
        return [person_message(e, NAMES[: kwargs.get("players", 4)]) for e in rejected(line, **kwargs).errors]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "Miserie ends as soon as its declarer takes a trick: type 0 or 1 tricks."),
        ("nl", "Miserie stopt zodra de speler een slag haalt: typ 0 of 1 slag."),
        ("fr", "Misère s'arrête dès que son déclarant fait un pli\u00a0: tapez 0 ou 1 pli."),
    ],
)
def test_a_solo_whist_miserie_with_three_tricks_says_play_stopped_at_the_first(language: str, expected: str) -> None:
    line = {"deal": 1, "dealer": 0, "contract": "miserie", "declarers": [1], "tricks": 3}
    with pytest.raises(InvalidLine) as exc:
        check_line(line, games.find("solo_whist"), 4, next_deal=1, expected_dealer=None, deals_left=10)
    with translation.override(language):
        assert [person_message(e, NAMES[:4]) for e in exc.value.errors] == [expected]


@pytest.mark.parametrize(
    ("preset", "language", "expected"),
    [
        ("iwwa", "en", "Abondance: choose the level (9 to 12 tricks)."),
        ("solo_whist", "en", "Abondance: choose the level (9 tricks)."),
        ("solo_whist", "fr", "Abondance\u00a0: choisissez le niveau (9 plis)."),
        ("solo_whist", "nl", "Abondance: kies het niveau (9 slagen)."),
    ],
)
def test_an_abondance_without_its_level_names_the_levels_the_rule_set_plays(
    preset: str, language: str, expected: str
) -> None:
    """Solo whist bids abondance at 9 only, and the message offered 9 to 12 (found by a persona run)."""
    line = {"deal": 1, "dealer": 0, "contract": "abondance", "declarers": [1], "tricks": 9, "trump": "H"}
    with pytest.raises(InvalidLine) as exc:
        check_line(line, games.find(preset), 4, next_deal=1, expected_dealer=None, deals_left=10)
    with translation.override(language):
        assert [person_message(e, NAMES[:4]) for e in exc.value.errors] == [expected]


def test_two_miserie_players_under_early_end_name_both_seats() -> None:
    rules = games.RuleSet.from_json({"preset": "solo_whist", "multiple_miserie": True})
    line = {"deal": 1, "dealer": 0, "contract": "miserie", "declarers": [1, 3], "tricks": [2, 3]}
    with pytest.raises(InvalidLine) as exc:
        check_line(line, rules, 4, next_deal=1, expected_dealer=None, deals_left=10)
    with translation.override("en"):
        (text,) = [person_message(e, NAMES[:4]) for e in exc.value.errors]
    assert "seat 2 (Bob D.) and seat 4 (Dirk M.)" in text and "0 or 1 tricks" in text


def test_a_vraag_with_one_declarer_names_that_seat_and_player() -> None:
    (text,) = said({"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [2], "tricks": 9})
    assert text == "Vraag en meegaan is played by two: seat 3 (Cas V.) has no partner. Type both seats."


def test_an_alleen_with_a_partner_names_both_seats() -> None:
    (text,) = said({"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [0, 1], "tricks": 5})
    assert text == "Alleen is played alone: type one seat, not seat 1 (Ann P.) and seat 2 (Bob D.)."


def test_at_a_table_of_five_the_dealer_as_declarer_is_named_by_their_seat_on_the_card() -> None:
    line = {"deal": 1, "dealer": 1, "contract": "alleen", "declarers": [1], "tricks": 5}
    (text,) = said(line, players=5)
    assert text.startswith("Seat 2 (Bob D.) deals at a table of five and sits this deal out")
    line = {"deal": 1, "dealer": 0, "contract": "penalty", "offender": 0}
    (text,) = said(line, players=5)
    assert text.startswith("Seat 1 (Ann P.) deals at a table of five")


def test_a_dealer_out_of_rotation_names_who_deals() -> None:
    line = {"deal": 3, "dealer": 3, "contract": "alleen", "declarers": [0], "tricks": 5}
    (text,) = said(line, expected_dealer=2)
    assert text == "Deal 3 is dealt by seat 3 (Cas V.), not by seat 4 (Dirk M.)."
    (text,) = said(line, "fr", expected_dealer=2)
    assert text == "La donne 3 est distribuée par la place 3 (Cas V.), pas par la place 4 (Dirk M.)."


def test_a_field_the_contract_does_not_use_reads_with_the_contracts_name() -> None:
    line = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [0], "tricks": 5, "level": 9}
    (text,) = said(line)
    assert text == "Alleen has no level: leave it empty."
    assert "a alleen line" not in text


def test_many_bad_lines_read_cleanly_in_every_language() -> None:
    lines = [
        {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [0, 0], "tricks": 9},
        {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [0, 1, 2], "tricks": 9},
        {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [0, 1], "tricks": 14},
        {"deal": 1, "dealer": 0, "contract": "miserie", "declarers": [0, 1], "tricks": [0]},
        {"deal": 1, "dealer": 0, "contract": "abondance", "declarers": [0], "tricks": 9},
        {"deal": 1, "dealer": 0, "contract": "abondance", "declarers": [0], "tricks": 9, "level": 13, "trump": "X"},
        {"deal": 1, "dealer": 0, "contract": "miserie", "declarers": [0], "tricks": 0, "trump": "H"},
        {"deal": 1, "dealer": 0, "contract": "kleine_miserie", "declarers": [0], "tricks": 0},
        {"deal": 1, "dealer": 7, "contract": "alleen", "declarers": [0], "tricks": 5},
        {"deal": 1, "dealer": 0, "contract": "vraag", "tricks": 9, "points": [1, 1, 1, 1]},
        {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [0, 1], "tricks": 9, "note": "x" * 300},
    ]
    for language in LANGUAGES:
        for line in lines:
            with translation.override(language):
                for error in rejected(line).errors:
                    assert_readable(person_message(error, NAMES[:4]), error)


def test_a_correction_that_breaks_a_later_deal_says_which_and_why() -> None:
    cause = FieldError("missing_partner", "declarers", "vraag ...", (2,), {"contract": "vraag"})
    error = FieldError("breaks_later_deal", "", "this correction makes deal 7 invalid", values={"deal": 7}, cause=cause)
    text = person_message(error, NAMES[:4])
    assert text.startswith("This correction makes deal 7 invalid: Vraag en meegaan is played by two: seat 3 (Cas V.)")


def test_a_services_own_refusal_keeps_its_words() -> None:
    error = FieldError("round_draft", "", "This round is not published yet.")
    assert person_message(error, NAMES[:4]) == "This round is not published yet."


def zwicken_said(line: dict[str, Any], language: str = "en") -> list[str]:
    with pytest.raises(InvalidLine) as exc:
        check_zwicken_line(line, games.find("zwicken"), 4, next_deal=line["deal"], expected_dealer=None, pot=0)
    with translation.override(language):
        return [person_message(e, NAMES[:4]) for e in exc.value.errors]


def test_zwicken_errors_name_the_seats_that_did_not_play() -> None:
    line = {"deal": 1, "dealer": 0, "played": [0, 1], "tricks": [2, 1, 0, 2]}
    (text,) = zwicken_said(line)
    assert text == "Seat 4 (Dirk M.) did not play, so took no tricks."
    line = {"deal": 1, "dealer": 0, "played": [0, 1, 2], "tricks": [1, 1, 1, 0], "duties_failed": [3, 2]}
    assert "Seat 4 (Dirk M.) did not play, so had no duty to fail." in zwicken_said(line)


def test_bad_zwicken_lines_read_cleanly_in_every_language() -> None:
    lines = [
        {"deal": 1, "dealer": 0, "played": [0, 0], "tricks": [1, 1, 1, 0]},
        {"deal": 1, "dealer": 0, "played": [0, 9], "tricks": [1, 1, 1, 0]},
        {"deal": 1, "dealer": 0, "played": [0, 1, 2], "tricks": [1, 1, 9, 0]},
        {"deal": 1, "dealer": 0, "played": [0, 1, 2], "tricks": [1, 1, 0]},
        {"deal": 1, "dealer": 0, "played": [0, 1, 2], "tricks": [1, 1, 0, 0], "trump_ace": 3},
        {"deal": 1, "dealer": 0, "cut": "sideways", "played": [0]},
        {"deal": 1, "dealer": 0, "played": [0, 1, 2, 3], "tricks": [1, 1, 1, 0], "chips": [1, 1, 1], "pot": -1},
    ]
    for language in LANGUAGES:
        for line in lines:
            with pytest.raises(InvalidLine) as exc:
                check_zwicken_line(line, games.find("zwicken"), 4, next_deal=1, expected_dealer=None, pot=0)
            with translation.override(language):
                for error in exc.value.errors:
                    assert_readable(person_message(error, NAMES[:4]), error)
