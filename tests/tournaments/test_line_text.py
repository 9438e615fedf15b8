"""Sheet lines in players' words: tournaments.line_text.describe_line."""

from __future__ import annotations

from django.utils import translation

import games
from tournaments.line_text import describe_line

NAMES = ["Ann", "Bob", "Cas", "Dirk"]


def en(line: dict, game: str = "wiezen", names: list[str] = NAMES) -> str:
    with translation.override("en"):
        return describe_line(line, names, game)


def test_an_abondance_shows_level_trump_declarer_by_seat_and_name_and_tricks():
    line = {"deal": 2, "dealer": 0, "contract": "abondance", "declarers": [0], "tricks": 10, "level": 9, "trump": "H"}
    assert en(line) == "Abondance 9 ♥ hearts — seat 1 Ann — 10 tricks, made"


def test_a_failed_pair_names_both_declarers():
    line = {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [1, 3], "tricks": 7}
    assert en(line) == "Vraag en meegaan — seat 2 Bob and seat 4 Dirk — 7 tricks, failed"


def test_troel_is_made_or_failed_by_the_target_of_the_rules_it_was_played_under():
    line = {"deal": 4, "dealer": 0, "contract": "troel", "declarers": [1, 3], "tricks": 8}
    nine = games.apply_overrides(games.find("flemish"), {"troel_target": 9})
    with translation.override("en"):
        assert describe_line(line, NAMES, "wiezen", games.find("flemish")).endswith("8 tricks, made")
        assert describe_line(line, NAMES, "wiezen", nine).endswith("8 tricks, failed")
        assert describe_line({**line, "tricks": 9}, NAMES, "wiezen", nine).endswith("9 tricks, made")


def test_a_higher_vraag_says_its_level_and_is_made_by_it():
    raised = games.apply_overrides(games.find("iwwa"), {"tariffs": {"vraag": {"levels": {"10": 5}}}})
    line = {"deal": 1, "dealer": 0, "contract": "vraag", "level": 10, "declarers": [1, 3], "tricks": 9}
    with translation.override("en"):
        assert describe_line(line, NAMES, "wiezen", raised) == (
            "Vraag en meegaan 10 — seat 2 Bob and seat 4 Dirk — 9 tricks, failed"
        )


def test_each_miserie_player_made_or_failed():
    line = {"deal": 3, "dealer": 0, "contract": "miserie", "declarers": [0, 2], "tricks": [0, 1]}
    assert en(line) == "Miserie — seat 1 Ann made (0 tricks), seat 3 Cas failed (1 trick)"


def test_a_pass_and_a_penalty():
    assert en({"deal": 1, "dealer": 0, "contract": "pass"}) == "Pas (iedereen past)"
    assert (
        en({"deal": 1, "dealer": 0, "contract": "penalty", "offender": 2}) == "Strafpunten (fout) — fault by seat 3 Cas"
    )


def test_zwicken_tricks_by_name_passes_and_failed_duties():
    line = {"deal": 3, "dealer": 1, "played": [0, 2, 3], "tricks": [2, 0, 0, 1], "duties_failed": [2]}
    assert en(line, "zwicken") == (
        "seat 1 Ann 2 tricks, seat 2 Bob passed, seat 3 Cas 0 tricks, seat 4 Dirk 1 trick — duty failed: seat 3 Cas"
    )
    assert en({"deal": 4, "dealer": 1, "played": [], "tricks": [0, 0, 0, 0]}, "zwicken") == "Everybody passed"


def test_no_python_list_reaches_the_text():
    line = {"deal": 3, "dealer": 0, "contract": "miserie", "declarers": [0, 1], "tricks": [0, 0]}
    assert "[" not in en(line)


def test_a_seat_without_a_name_is_still_numbered_from_one():
    line = {"deal": 1, "dealer": 0, "contract": "solo", "declarers": [3], "tricks": 13, "trump": "S"}
    assert en(line, names=[]) == "Solo ♠ spades — seat 4 — 13 tricks, made"
