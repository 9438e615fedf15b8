"""The PBN reader's complaints (``games.duplicate.pbn``, English for developers) in the reader's language.

The engine names the line, the game or the board and what is wrong, in sentences of a fixed shape; each shape is
matched here and said again in other words, with compass positions and cards as the hand records write them.
A sentence this module does not know yet is shown as the engine wrote it, after a translated lead, so nothing is
lost; ``tests/duplicate/test_pbn_upload.py`` feeds a file for every shape and checks none falls through.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from django.utils.translation import gettext as _

from games.cards import Card
from games.duplicate.boards import COMPASS
from games.errors import GameError
from tournaments.duplicate.cards import card_text, compass_name

QUOTED_MAX = 40  # characters of the file quoted back


def _quoted(written: str) -> str:
    """The engine quotes what it read as a Python literal ('AKX'); a person reads “AKX”."""
    try:
        text = ast.literal_eval(written)
    except (ValueError, SyntaxError):
        text = written
    text = " ".join(str(text).split())  # what followed on the file's next lines is no part of it
    if len(text) > QUOTED_MAX:
        text = text[:QUOTED_MAX] + "…"
    return f"“{text}”"


def _compass(letter: str) -> str:
    return compass_name(COMPASS.index(letter))


def _card(written: str) -> str:
    try:
        return card_text(Card.from_str(written))
    except GameError:
        return written


# (the engine's sentence, what the reader is told); the groups are named as the message's placeholders
Shape = tuple[str, Callable[[dict[str, str]], str]]
QUOTE = r"(?P<text>(?:'[^']*'|\"[^\"]*\"))"
SHAPES: list[Shape] = [
    (
        r"PBN line (?P<line>\d+): a commentary opened with \{ is never closed with \}",
        lambda g: _("Line %(line)s: a comment opened with { is never closed with }.") % g,
    ),
    (
        r"PBN line (?P<line>\d+): a tag pair is written \[Name \"value\"\], not " + QUOTE,
        lambda g: _('Line %(line)s: a tag is written [Name "value"], not %(text)s.') % g,
    ),
    (
        r"PBN line (?P<line>\d+): the tag pair (?P<name>\w+) is not closed with a quote and \]",
        lambda g: _("Line %(line)s: the tag %(name)s is not closed with a quote and ].") % g,
    ),
    (
        r"PBN game (?P<game>\d+): no \[Board \"\.\.\.\"\] tag.*",
        lambda g: _('Game %(game)s of the file has no [Board "…"] tag: its board number is unknown.') % g,
    ),
    (
        r"PBN game (?P<game>\d+): the board number is 1 or more, not " + QUOTE,
        lambda g: _("Game %(game)s of the file: a board number is 1 or more, not %(text)s.") % g,
    ),
    (
        r"board (?P<board>\d+): no \[Deal \"\.\.\.\"\] tag.*",
        lambda g: _('Board %(board)s has no [Deal "…"] tag: its four hands are missing.') % g,
    ),
    (
        r"board (?P<board>\d+): no \[TurnedCard \"\.\.\.\"\] tag.*",
        lambda g: (
            _(
                'Board %(board)s has no [TurnedCard "…"] tag. A Wiezen board needs the turned card, the dealer\'s '
                'last card dealt face up, e.g. [TurnedCard "H7"]; dealing machines do not write it, so add it to '
                "every board."
            )
            % g
        ),
    ),
    (
        r"board (?P<board>\d+): TurnedCard: unknown card " + QUOTE + ".*",
        lambda g: (
            _("Board %(board)s: the turned card %(text)s is not a card: write the suit, then the rank (HT, S7).") % g
        ),
    ),
    (
        r"board (?P<board>\d+): the dealer is N, E, S or W, not " + QUOTE,
        lambda g: _("Board %(board)s: the dealer is N, E, S or W, not %(text)s.") % g,
    ),
    (
        r"board (?P<board>\d+): the turned card (?P<card>\S+) is in the hand of (?P<holder>[NESW]), "
        r"not of the dealer (?P<dealer>[NESW]).*",
        lambda g: (
            _(
                "Board %(board)s: the turned card %(card)s is in the hand of %(holder)s, not of the dealer "
                "(%(dealer)s): the dealer keeps the turned card."
            )
            % g
        ),
    ),
    (
        r"board (?P<board>\d+): the Deal starts with a compass and a colon.*",
        lambda g: _("Board %(board)s: the Deal starts with a compass and a colon (N:, E:, S: or W:).") % g,
    ),
    (
        r"board (?P<board>\d+): the Deal's first compass is N, E, S or W, not " + QUOTE,
        lambda g: _("Board %(board)s: the Deal starts with N:, E:, S: or W:, not %(text)s.") % g,
    ),
    (
        r"board (?P<board>\d+): the Deal has (?P<count>\d+) hands, not 4.*",
        lambda g: _("Board %(board)s: the Deal gives %(count)s hands, not 4.") % g,
    ),
    (
        r"board (?P<board>\d+): the hand of (?P<hand>[NESW]) is not given.*",
        lambda g: _("Board %(board)s: the hand of %(hand)s is not given: a board needs all four hands.") % g,
    ),
    (
        r"board (?P<board>\d+): the hand of (?P<hand>[NESW]) is written as four suits.*",
        lambda g: (
            _(
                "Board %(board)s: the hand of %(hand)s is written as four suits separated by dots: "
                "spades.hearts.diamonds.clubs."
            )
            % g
        ),
    ),
    (
        r"board (?P<board>\d+): the hand of (?P<hand>[NESW]): unknown card " + QUOTE + ".*",
        lambda g: _("Board %(board)s: the hand of %(hand)s holds %(text)s, which is not a card.") % g,
    ),
    (
        r"board (?P<board>\d+): the hand of (?P<hand>[NESW]): (?P<card>\S+) is written twice",
        lambda g: _("Board %(board)s: the hand of %(hand)s holds %(card)s twice.") % g,
    ),
    (
        r"board (?P<board>\d+): (?P<card>\S+) is dealt twice, to (?P<first>[NESW]) and to (?P<second>[NESW])",
        lambda g: _("Board %(board)s: %(card)s is dealt twice, to %(first)s and to %(second)s.") % g,
    ),
    (
        r"board (?P<board>\d+): the hand of (?P<hand>[NESW]) has (?P<count>\d+) cards, not 13",
        lambda g: _("Board %(board)s: the hand of %(hand)s has %(count)s cards, not 13.") % g,
    ),
    (
        r"board (?P<board>\d+) is given twice in the PBN file",
        lambda g: _("Board %(board)s is in the file twice.") % g,
    ),
]
COMPILED = [(re.compile(pattern, re.S), say) for pattern, say in SHAPES]
COMPASS_GROUPS = ("hand", "holder", "dealer", "first", "second")
CARD_GROUPS = ("card",)


def reader_message(error: GameError) -> str:
    """The engine's complaint about a PBN file, said in the reader's language."""
    message = str(error)
    for pattern, say in COMPILED:
        found = pattern.fullmatch(message)
        if found is None:
            continue
        groups = {name: value for name, value in found.groupdict().items() if value is not None}
        for name in COMPASS_GROUPS:
            if name in groups:
                groups[name] = _compass(groups[name])
        for name in CARD_GROUPS:
            if name in groups:
                groups[name] = _card(groups[name])
        if "text" in groups:
            groups["text"] = _quoted(groups["text"])
        return say(groups)
    return _("The file cannot be read as PBN: %(problem)s") % {"problem": message}


def knows(error: GameError) -> bool:
    """Whether ``reader_message`` has its own words for ``error`` (the tests ask)."""
    return any(pattern.fullmatch(str(error)) for pattern, _say in COMPILED)
