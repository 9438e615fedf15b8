"""A standings row's explanation as the page shows it: in the reader's language, players by name, not by id."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.utils import translation

from scoring.explanations import for_people, shown_value

NAMES = {2: "Anna", 3: "Bert", 5: "Chris", 7: "Dirk"}

# Every phrase scoring.ranking writes (tests/scoring/test_ranking.py, test_league.py), and what English readers see.
SAID = [
    ("10 points", "10 points"),
    ("1 point", "1 point"),
    ("-3 points", "-3 points"),
    ("18.1 points", "18.1 points"),
    ("0.667 points per deal", "0.667 points per deal"),
    ("4 placement points, 12 points", "4 placement points, 12 points"),
    (
        "12 points; tied on total points with #7; separated by sessions won (3 vs 2)",
        "12 points; tied on total points with Dirk; separated by sessions won (3 vs 2)",
    ),
    (
        "10 points; tied on total points with #2 and #3; level on sessions won (2); "
        "separated from #2 and #3 by head-to-head (7 vs 2 for #2, 6 for #3)",
        "10 points; tied on total points with Anna and Bert; level on sessions won (2); "
        "separated from Anna and Bert by head-to-head (7 vs 2 for Anna, 6 for Bert)",
    ),
    (
        "4 points; tied on total points with #5; level on sessions won (1); "
        "level on every tie-break, so the rank is shared with #5",
        "4 points; tied on total points with Chris; level on sessions won (1); "
        "level on every tie-break, so the rank is shared with Chris",
    ),
    (
        "4 points; tied on total points with #3; no tie-break set, so the rank is shared with #3",
        "4 points; tied on total points with Bert; no tie-break set, so the rank is shared with Bert",
    ),
    ("not ranked: played 1 evening, 2 needed; 40 points", "not ranked: played 1 evening, 2 needed; 40 points"),
    (
        "10 points; tied on total points with #2, #3 and #5; "
        "separated by fewer penalties (0 penalty points vs 1 penalty point)",
        "10 points; tied on total points with Anna, Bert and Chris; "
        "separated by fewer penalties (0 penalty points vs 1 penalty point)",
    ),
    ("something new", "something new"),
]


@pytest.mark.parametrize(("stored", "shown"), SAID)
def test_english_readers_read_the_same_words_with_names_for_ids(stored: str, shown: str) -> None:
    with translation.override("en"):
        assert for_people(stored, NAMES) == shown


@pytest.mark.parametrize("language", ["nl", "fr"])
def test_dutch_and_french_readers_get_decimal_commas_and_names(language: str) -> None:
    with translation.override(language):
        said = for_people("0.667 points per deal; tied on points per deal with #7 and #9", NAMES)
    assert "0,667" in said and "Dirk" in said and "#9" in said and "#7" not in said and "0.667" not in said


@pytest.mark.parametrize(
    ("language", "value", "shown"),
    [
        ("en", Fraction(181, 10), "18.1"),
        ("nl", Fraction(181, 10), "18,1"),
        ("fr", Fraction(2, 3), "0,667"),
        ("en", 12, "12"),
        ("nl", (Fraction(4), -12), "4 · -12"),
    ],
)
def test_a_season_total_reads_as_a_number_never_a_fraction(language: str, value: object, shown: str) -> None:
    with translation.override(language):
        assert shown_value(value) == shown


@pytest.mark.parametrize(("language", "separator"), [("fr", "\u00a0; "), ("nl", "; "), ("en", "; ")])
def test_the_parts_are_separated_as_the_readers_language_punctuates(language: str, separator: str) -> None:
    """French sets a semicolon off with a no-break space, as it does a colon (an exploratory test found "16 points;
    à égalité …" in the standings' tie note)."""
    with translation.override(language):
        said = for_people(
            "16 points; tied on total points with #7; no tie-break set, so the rank is shared with #7", NAMES
        )
    assert said.count(separator) == 2
    assert " ;" not in said.replace("\u00a0;", "") and ("\u00a0;" in said) == (language == "fr")
