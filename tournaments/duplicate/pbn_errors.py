"""The PBN reader's complaints (``games.duplicate.pbn.PbnError``: a code and its parameters) in the reader's
language, with compass positions and cards as the hand records write them and the file's own text quoted back.

A code this module has no words for is shown as the engine wrote it, after a translated lead, so nothing is lost;
``tests/duplicate/test_pbn_upload.py`` checks every code of ``PBN_PROBLEMS`` has its words here.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _

from games.cards import Card
from games.duplicate.boards import COMPASS
from games.duplicate.pbn import PbnError
from games.errors import GameError
from tournaments.duplicate.cards import card_text, compass_name

QUOTED_MAX = 40  # characters of the file quoted back


def _quoted(written: object) -> str:
    """What the file says, on one line and not too long: “AKX”."""
    text = " ".join(str(written).split())  # what followed on the file's next lines is no part of it
    if len(text) > QUOTED_MAX:
        text = text[:QUOTED_MAX] + "…"
    return f"“{text}”"


def _compass(letter: object) -> str:
    return compass_name(COMPASS.index(str(letter)))


def _card(card: object) -> str:
    return card_text(card) if isinstance(card, Card) else str(card)


# Each code's words; the parameters are said as the reader reads them (``_said``) before they are put in.
WORDS: dict[str, Callable[[], str]] = {
    "commentary_unclosed": lambda: _("Line %(line)s: a comment opened with { is never closed with }."),
    "tag_malformed": lambda: _('Line %(line)s: a tag is written [Name "value"], not %(text)s.'),
    "tag_unclosed": lambda: _("Line %(line)s: the tag %(name)s is not closed with a quote and ]."),
    "board_tag_missing": lambda: _('Game %(game)s of the file has no [Board "…"] tag: its board number is unknown.'),
    "board_number": lambda: _("Game %(game)s of the file: a board number is 1 or more, not %(text)s."),
    "deal_missing": lambda: _('Board %(board)s has no [Deal "…"] tag: its four hands are missing.'),
    "turned_missing": lambda: _(
        'Board %(board)s has no [TurnedCard "…"] tag. A Wiezen board needs the turned card, the dealer\'s '
        'last card dealt face up, e.g. [TurnedCard "H7"]; dealing machines do not write it, so add it to '
        "every board."
    ),
    "turned_unknown": lambda: _(
        "Board %(board)s: the turned card %(text)s is not a card: write the suit, then the rank (HT, S7)."
    ),
    "dealer_unknown": lambda: _("Board %(board)s: the dealer is N, E, S or W, not %(text)s."),
    "turned_not_dealers": lambda: _(
        "Board %(board)s: the turned card %(card)s is in the hand of %(holder)s, not of the dealer "
        "(%(dealer)s): the dealer keeps the turned card."
    ),
    "deal_no_compass": lambda: _("Board %(board)s: the Deal starts with a compass and a colon (N:, E:, S: or W:)."),
    "deal_compass_unknown": lambda: _("Board %(board)s: the Deal starts with N:, E:, S: or W:, not %(text)s."),
    "deal_hand_count": lambda: _("Board %(board)s: the Deal gives %(count)s hands, not 4."),
    "hand_missing": lambda: _("Board %(board)s: the hand of %(hand)s is not given: a board needs all four hands."),
    "hand_not_four_suits": lambda: _(
        "Board %(board)s: the hand of %(hand)s is written as four suits separated by dots: "
        "spades.hearts.diamonds.clubs."
    ),
    "hand_unknown_card": lambda: _("Board %(board)s: the hand of %(hand)s holds %(text)s, which is not a card."),
    "hand_card_twice": lambda: _("Board %(board)s: the hand of %(hand)s holds %(card)s twice."),
    "card_dealt_twice": lambda: _("Board %(board)s: %(card)s is dealt twice, to %(first)s and to %(second)s."),
    "hand_size": lambda: _("Board %(board)s: the hand of %(hand)s has %(count)s cards, not 13."),
    "board_twice": lambda: _("Board %(board)s is in the file twice."),
}
COMPASS_PARAMS = ("hand", "holder", "dealer", "first", "second")


def _said(params: dict[str, object]) -> dict[str, object]:
    said = dict(params)
    for name in COMPASS_PARAMS:
        if name in said:
            said[name] = _compass(said[name])
    if "card" in said:
        said["card"] = _card(said["card"])
    if "text" in said:
        said["text"] = _quoted(said["text"])
    return said


def reader_message(error: GameError) -> str:
    """The engine's complaint about a PBN file, said in the reader's language."""
    if isinstance(error, PbnError) and error.code in WORDS:
        return WORDS[error.code]() % _said(error.params)
    return _("The file cannot be read as PBN: %(problem)s") % {"problem": str(error)}


def knows(error: GameError) -> bool:
    """Whether ``reader_message`` has its own words for ``error`` (the tests ask)."""
    return isinstance(error, PbnError) and error.code in WORDS
