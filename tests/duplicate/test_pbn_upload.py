"""What the PBN reader refuses reaches the organiser in their language: every code of the engine's complaints has
its own words in ``tournaments.duplicate.pbn_errors`` (none falls through to the English fallback), with
compass positions and cards as the hand records write them, and never a Python list or an internal code."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.duplicate import from_pbn
from games.duplicate.pbn import PBN_PROBLEMS, PbnError
from games.errors import GameError
from tournaments.duplicate.cards import spans
from tournaments.duplicate.pbn_errors import WORDS, knows, reader_message

HANDS = "N:T.AQ97.AJ92.KQJ6 J94.842.K87.AT74 AK872.T65.Q64.83 Q653.KJ3.T53.952"
GOOD = f'[Board "1"]\n[Dealer "N"]\n[Deal "{HANDS}"]\n[TurnedCard "H7"]\n'


def board(**tags: str) -> str:
    """Board 1 with some tags changed (an empty value leaves the tag out)."""
    values = {"Board": "1", "Dealer": "N", "Deal": HANDS, "TurnedCard": "H7", **tags}
    return "".join(f'[{name} "{value}"]\n' for name, value in values.items() if value)


# One broken file for every complaint the PBN reader has (``PBN_PROBLEMS``), and what the reader is told.
BROKEN: dict[str, tuple[str, str]] = {
    "comment-not-closed": ("{ never closed\n" + GOOD, "Line 1: a comment opened with { is never closed with }."),
    "tag-malformed": ("[Board 1]\n", 'Line 1: a tag is written [Name "value"], not “[Board 1]”.'),
    "tag-not-closed": ('[Board "1"\n', "Line 1: the tag Board is not closed with a quote and ]."),
    "no-board-tag": (board(Board=""), 'Game 1 of the file has no [Board "…"] tag: its board number is unknown.'),
    "board-number": (board(Board="x"), "Game 1 of the file: a board number is 1 or more, not “x”."),
    "no-deal": (board(Deal=""), 'Board 1 has no [Deal "…"] tag: its four hands are missing.'),
    "no-turned-card": (board(TurnedCard=""), 'Board 1 has no [TurnedCard "…"] tag.'),
    "turned-not-a-card": (
        board(TurnedCard="Z9"),
        "Board 1: the turned card “Z9” is not a card: write the suit, then the rank (HT, S7).",
    ),
    "dealer-unknown": (board(Dealer="Q"), "Board 1: the dealer is N, E, S or W, not “Q”."),
    "turned-elsewhere": (
        board(TurnedCard="HJ"),
        "Board 1: the turned card ♥J is in the hand of West, not of the dealer (North): "
        "the dealer keeps the turned card.",
    ),
    "deal-no-colon": (board(Deal=HANDS[2:]), "Board 1: the Deal starts with a compass and a colon (N:, E:, S: or W:)."),
    "deal-first-compass": (board(Deal="X" + HANDS[1:]), "Board 1: the Deal starts with N:, E:, S: or W:, not “X”."),
    "deal-three-hands": (board(Deal=HANDS.rsplit(" ", 1)[0]), "Board 1: the Deal gives 3 hands, not 4."),
    "hand-missing": (
        board(Deal=HANDS.rsplit(" ", 1)[0] + " -"),
        "Board 1: the hand of West is not given: a board needs all four hands.",
    ),
    "hand-not-four-suits": (
        board(Deal=HANDS.replace("T.AQ97", "TAQ97")),
        "Board 1: the hand of North is written as four suits separated by dots: spades.hearts.diamonds.clubs.",
    ),
    "hand-unknown-card": (
        board(Deal=HANDS.replace("T.AQ97", "X.AQ97")),
        "Board 1: the hand of North holds “X”, which is not a card.",
    ),
    "hand-card-twice": (board(Deal=HANDS.replace("T.AQ97", "TT.AQ97")), "Board 1: the hand of North holds ♠10 twice."),
    "card-dealt-twice": (
        board(Deal=HANDS.replace("J94.", "JT94.")),
        "Board 1: ♠10 is dealt twice, to North and to East.",
    ),
    "hand-short": (board(Deal=HANDS.replace("T.AQ97", ".AQ97")), "Board 1: the hand of North has 12 cards, not 13."),
    "board-twice": (GOOD + "\n" + GOOD, "Board 1 is in the file twice."),
}


def engine_error(text: str) -> PbnError:
    with pytest.raises(PbnError) as refused:
        from_pbn(text)
    return refused.value


def test_there_is_a_broken_file_for_every_complaint_and_words_for_each() -> None:
    assert sorted(engine_error(text).code for text, _said in BROKEN.values()) == sorted(PBN_PROBLEMS)
    assert sorted(WORDS) == sorted(PBN_PROBLEMS)


@pytest.mark.parametrize(("text", "said"), BROKEN.values(), ids=list(BROKEN))
def test_each_complaint_has_its_own_words(text: str, said: str) -> None:
    error = engine_error(text)
    assert knows(error), f"no words for: {error}"
    assert reader_message(error).startswith(said)


@pytest.mark.parametrize("language", ["nl", "fr"])
@pytest.mark.parametrize(("text", "said"), BROKEN.values(), ids=list(BROKEN))
def test_each_complaint_is_translated(language: str, text: str, said: str) -> None:
    error = engine_error(text)
    with translation.override(language):
        message = reader_message(error)
    assert message and not message.startswith(said[:12]), f"{language}: still English: {message}"
    assert "['" not in message and "'," not in message  # no Python list or repr


def test_compass_positions_and_cards_are_the_readers() -> None:
    error = engine_error(BROKEN["turned-elsewhere"][0])
    with translation.override("nl"):
        assert reader_message(error) == (
            "Bord 1: de gedraaide kaart ♥B zit in de hand van West, niet van de deler (Noord): "
            "de deler houdt de gedraaide kaart."
        )


def test_a_complaint_without_words_of_its_own_keeps_the_engines_after_a_translated_lead() -> None:
    with translation.override("nl"):
        message = reader_message(GameError("something new"))
    assert message.endswith(": something new") and not message.startswith("The file")


@pytest.mark.parametrize(
    ("numbers", "written"),
    [([1, 2, 3, 5, 7, 8], "1–3, 5, 7–8"), ([4], "4"), (list(range(1, 17)), "1–16"), ([5, 6, 1, 2], "5–6, 1–2")],
)
def test_board_numbers_are_written_as_people_write_them(numbers: list[int], written: str) -> None:
    assert spans(numbers) == written
