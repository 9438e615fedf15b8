"""PBN (Portable Bridge Notation 2.1) export and import of boards, the format dealing machines read and write.

A board is written as tag pairs, one per line, and boards are separated by a
blank line::

    [Event "Club night"]
    [Board "1"]
    [Dealer "N"]
    [Vulnerable "None"]
    [Deal "N:AKQ2.JT9.876.543 ..."]
    [TurnedCard "HT"]

- ``Deal``: the compass of the first hand given, a colon, then the four hands
  clockwise; each hand is its spades, hearts, diamonds and clubs separated by
  dots, ranks ``AKQJT98765432`` high to low, a void written as nothing.
- ``TurnedCard`` is this project's own tag (PBN allows new tags; bridge has no
  turned card): the dealer's last card, dealt face up, whose suit is the turned
  trump. It is written as PBN writes cards elsewhere (in ``Play``): suit letter
  then rank, ``T`` for the ten, e.g. ``HT``, ``S7``. Import also reads the
  engine's notation (``10H``, ``TH``): suit and rank letters never overlap.
- ``Vulnerable "None"`` means nothing in Wiezen; it is written because PBN
  counts it among the mandatory tags, so bridge software expects it.

Import accepts what such files contain: ``%`` comment lines, ``;`` comments,
``{...}`` commentary, auction and play sections and unknown tags (all skipped),
CRLF or LF, a ``Deal`` starting from any compass, ``-`` for a void, lower-case
ranks and ``10`` for the ten. It requires ``Board``, ``Deal`` and
``TurnedCard``: a machine deals no turned card, so a file without that tag
cannot say which card the dealer turned, and guessing would give every table a
trump the cards did not. ``Dealer`` may be left out: the turned card's holder is
the dealer. Every error names the board and what is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from games.cards import CARD_BY_TEXT, CARDS, SUIT_MASKS, Card, Suit, cards_of, mask
from games.duplicate.boards import COMPASS, Board
from games.errors import GameError

TURNED_TAG = "TurnedCard"
HEADER = (
    "% PBN 2.1",
    f"% Duplicate Wiezen boards: [{TURNED_TAG}] is the dealer's last card, dealt face up; its suit is trump",
)
PBN_RANKS = "AKQJT98765432"  # high to low, as a hand lists them
PBN_SUIT_ORDER: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_RANK_OF_LETTER = {letter: 14 - i for i, letter in enumerate(PBN_RANKS)}
_LETTER_OF_RANK = {rank: letter for letter, rank in _RANK_OF_LETTER.items()}

# What can be wrong with a PBN file, by code: the English message, its parameters named. ``line``, ``game``,
# ``board`` and ``count`` are numbers; ``hand``, ``holder``, ``dealer``, ``first`` and ``second`` compass letters;
# ``card`` a card in the engine's notation; ``text`` what the file says, quoted back as read.
PBN_PROBLEMS: dict[str, str] = {
    "commentary_unclosed": "PBN line {line}: a commentary opened with {{ is never closed with }}",
    "tag_malformed": 'PBN line {line}: a tag pair is written [Name "value"], not {text!r}',
    "tag_unclosed": "PBN line {line}: the tag pair {name} is not closed with a quote and ]",
    "board_tag_missing": 'PBN game {game}: no [Board "..."] tag, so its board number is unknown',
    "board_number": "PBN game {game}: the board number is 1 or more, not {text!r}",
    "deal_missing": 'board {board}: no [Deal "..."] tag: the four hands are missing',
    "turned_missing": (
        f'board {{board}}: no [{TURNED_TAG} "..."] tag: a Wiezen board needs the turned card '
        f'(the dealer\'s last card, e.g. [{TURNED_TAG} "H7"])'
    ),
    "turned_unknown": (
        f"board {{board}}: {TURNED_TAG}: unknown card {{text!r}}: write suit then rank (HT, S7) or rank then suit "
        "(10H, TH, 7S)"
    ),
    "dealer_unknown": "board {board}: the dealer is N, E, S or W, not {text!r}",
    "turned_not_dealers": (
        "board {board}: the turned card {card} is in the hand of {holder}, not of the dealer {dealer}: "
        "the dealer takes the turned card"
    ),
    "deal_no_compass": "board {board}: the Deal starts with a compass and a colon (N:, E:, S: or W:), not {text!r}",
    "deal_compass_unknown": "board {board}: the Deal's first compass is N, E, S or W, not {text!r}",
    "deal_hand_count": "board {board}: the Deal has {count} hands, not 4: {text!r}",
    "hand_missing": "board {board}: the hand of {hand} is not given ('-'): a board needs all four hands",
    "hand_not_four_suits": (
        "board {board}: the hand of {hand} is written as four suits, spades.hearts.diamonds.clubs, not {text!r}"
    ),
    "hand_unknown_card": "board {board}: the hand of {hand}: unknown card {text!r} in {suit} {ranks!r}",
    "hand_card_twice": "board {board}: the hand of {hand}: {card} is written twice",
    "card_dealt_twice": "board {board}: {card} is dealt twice, to {first} and to {second}",
    "hand_size": "board {board}: the hand of {hand} has {count} cards, not 13",
    "board_twice": "board {board} is given twice in the PBN file",
}


class PbnError(GameError):
    """What is wrong with a PBN file: ``code`` (a key of ``PBN_PROBLEMS``) and its ``params``, so that a caller can
    say it in its reader's words; the message is the English one."""

    def __init__(self, code: str, **params: object) -> None:
        self.code = code
        self.params = params
        super().__init__(PBN_PROBLEMS[code].format(**params))


# --- export ----------------------------------------------------------------------------------------------------------


def card_to_pbn(card: Card) -> str:
    """``HT`` for the ten of hearts: suit letter, then rank."""
    return card.suit.value + _LETTER_OF_RANK[card.rank]


def hand_to_pbn(hand: int) -> str:
    """``AKQ2.JT9..876543``: spades, hearts, diamonds, clubs, each high to low."""
    suits = []
    for suit in PBN_SUIT_ORDER:
        ranks = sorted((card.rank for card in cards_of(hand & SUIT_MASKS[suit.order])), reverse=True)
        suits.append("".join(_LETTER_OF_RANK[rank] for rank in ranks))
    return ".".join(suits)


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def board_to_pbn(board: Board, *, event: str = "") -> str:
    """One board's tag pairs, one per line, without the blank line that ends it."""
    deal = "N:" + " ".join(hand_to_pbn(hand) for hand in board.hands)
    tags = (
        ("Event", event),
        ("Board", str(board.number)),
        ("Dealer", COMPASS[board.dealer]),
        ("Vulnerable", "None"),
        ("Deal", deal),
        (TURNED_TAG, card_to_pbn(board.turned)),
    )
    return "\n".join(f"[{name} {_quote(value)}]" for name, value in tags)


def to_pbn(boards: Sequence[Board], *, event: str = "") -> str:
    """A PBN file (LF line ends) of ``boards`` in the order given; ``from_pbn`` reads it back to equal boards."""
    parts = ["\n".join(HEADER), *(board_to_pbn(board, event=event) for board in boards)]
    return "\n\n".join(parts) + "\n"


# --- import ----------------------------------------------------------------------------------------------------------


@dataclass
class _Game:
    """The tag pairs of one PBN game, in the order read (later copies of a tag start a new game)."""

    ordinal: int  # 1, 2, 3... among the file's games
    tags: dict[str, str] = field(default_factory=dict)


def _read_games(text: str) -> list[_Game]:
    """Split PBN text into games of tag pairs; comments, commentary and section data are skipped.

    An empty line ends a game, as PBN says; a tag that the current game already has starts a new one too, for
    files whose boards are not separated.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    games: list[_Game] = []
    current = _Game(1)
    line = 1
    content = False  # the current line holds something other than white space
    i = 0

    def close() -> None:
        nonlocal current
        if current.tags:
            games.append(current)
            current = _Game(current.ordinal + 1)

    while i < len(text):
        char = text[i]
        if char == "\n":
            if not content:
                close()
            line += 1
            content = False
            i += 1
        elif char in " \t":
            i += 1
        elif (char == "%" and not content) or char == ";":  # an escape line (the header) or a comment
            i = _end_of_line(text, i)
            content = True
        elif char == "{":  # commentary, possibly over several lines
            end = text.find("}", i)
            if end < 0:
                raise PbnError("commentary_unclosed", line=line)
            line += text.count("\n", i, end)
            i = end + 1
            content = True
        elif char == "[":
            name, value, i, line = _read_tag(text, i, line)
            if name in current.tags:
                close()
            current.tags[name] = value
            content = True
        else:  # the data of an auction, play or table section: not needed for the deal
            while i < len(text) and text[i] not in "\n{;[":
                i += 1
            content = True
    close()
    return games


def _end_of_line(text: str, i: int) -> int:
    end = text.find("\n", i)
    return len(text) if end < 0 else end


def _skip_blanks(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t":
        i += 1
    return i


def _read_tag(text: str, i: int, line: int) -> tuple[str, str, int, int]:
    """``[Name "value"]`` at ``text[i]``: the name, the value unescaped, the index after it and the line it ends on."""
    start_line = line
    j = _skip_blanks(text, i + 1)
    end = j
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    name = text[j:end]
    j = _skip_blanks(text, end)
    if not name or j >= len(text) or text[j] != '"':
        raise PbnError("tag_malformed", line=start_line, text=text[i : i + 40])
    j += 1
    value: list[str] = []
    while j < len(text) and text[j] != '"':
        if text[j] == "\\" and j + 1 < len(text):
            j += 1
        if text[j] == "\n":
            line += 1
        value.append(text[j])
        j += 1
    j = _skip_blanks(text, j + 1)
    if j >= len(text) or text[j] != "]":
        raise PbnError("tag_unclosed", line=start_line, name=name)
    return name, "".join(value), j + 1, line


def card_from_pbn(text: str) -> Card:
    """A card written ``HT``/``H10`` (PBN: suit then rank) or ``TH``/``10H`` (the engine's notation)."""
    written = text.strip().upper()
    if len(written) >= 2 and written[0] in "CDHS" and written[1] not in "CDHS":
        written = written[1:] + written[0]
    card = CARD_BY_TEXT.get(written)
    if card is None:
        raise GameError(f"unknown card {text!r}: write suit then rank (HT, S7) or rank then suit (10H, TH, 7S)")
    return card


def _compass(text: str) -> int:
    """N, E, S, W → 0..3; -1 for anything else."""
    return COMPASS.find(text.strip().upper()) if len(text.strip()) == 1 else -1


def _hand_from_pbn(text: str, board: int, hand: str) -> list[Card]:
    """The cards of ``AKQ2.JT9..876543`` (``-`` for a void, ``10`` for the ten, any case)."""
    suits = text.split(".")
    if len(suits) != 4:
        raise PbnError("hand_not_four_suits", board=board, hand=hand, text=text)
    cards: list[Card] = []
    for suit, ranks in zip(PBN_SUIT_ORDER, suits, strict=True):
        written = ranks.upper().replace("10", "T")
        if written == "-":
            continue
        for letter in written:
            rank = _RANK_OF_LETTER.get(letter)
            if rank is None:
                raise PbnError(
                    "hand_unknown_card", board=board, hand=hand, text=letter, suit=suit.name.lower(), ranks=ranks
                )
            card = CARDS[suit.order * 13 + rank - 2]
            if card in cards:
                raise PbnError("hand_card_twice", board=board, hand=hand, card=card)
            cards.append(card)
    return cards


def _board_from_game(game: _Game) -> Board:
    tags = game.tags
    number_text = tags.get("Board")
    if number_text is None:
        raise PbnError("board_tag_missing", game=game.ordinal)
    if not number_text.strip().isdecimal() or int(number_text) < 1:
        raise PbnError("board_number", game=game.ordinal, text=number_text)
    number = int(number_text)
    deal = tags.get("Deal")
    if deal is None:
        raise PbnError("deal_missing", board=number)
    turned_text = tags.get(TURNED_TAG)
    if turned_text is None:
        raise PbnError("turned_missing", board=number)
    try:
        turned = card_from_pbn(turned_text)
    except GameError:
        raise PbnError("turned_unknown", board=number, text=turned_text) from None
    hands = _deal_from_pbn(deal, number)
    holders = [position for position, hand in enumerate(hands) if turned in hand]
    dealer_text = tags.get("Dealer")
    if dealer_text is None:
        dealer = holders[0]  # the dealer keeps the turned card
    else:
        dealer = _compass(dealer_text)
        if dealer < 0:
            raise PbnError("dealer_unknown", board=number, text=dealer_text)
        if dealer not in holders:
            holder = COMPASS[holders[0]]
            raise PbnError("turned_not_dealers", board=number, card=turned, holder=holder, dealer=COMPASS[dealer])
    n, e, s, w = (mask(hand) for hand in hands)
    return Board(number, dealer, (n, e, s, w), turned)


def _deal_from_pbn(deal: str, board: int) -> list[list[Card]]:
    """The four hands by position N, E, S, W of a ``Deal`` value, checked: 13 cards each, 52 distinct."""
    value = deal.strip()
    if len(value) < 2 or value[1] != ":":
        raise PbnError("deal_no_compass", board=board, text=deal)
    first = _compass(value[0])
    if first < 0:
        raise PbnError("deal_compass_unknown", board=board, text=value[0])
    written = value[2:].split()
    if len(written) != 4:
        raise PbnError("deal_hand_count", board=board, count=len(written), text=deal)
    hands: list[list[Card]] = [[] for _ in range(4)]
    owner: dict[Card, int] = {}
    for offset, text in enumerate(written):
        position = (first + offset) % 4
        name = COMPASS[position]
        if text == "-":
            raise PbnError("hand_missing", board=board, hand=name)
        cards = _hand_from_pbn(text, board, name)
        for card in cards:
            if card in owner:
                raise PbnError("card_dealt_twice", board=board, card=card, first=COMPASS[owner[card]], second=name)
            owner[card] = position
        hands[position] = cards
    for position, cards in enumerate(hands):
        if len(cards) != 13:
            raise PbnError("hand_size", board=board, hand=COMPASS[position], count=len(cards))
    return hands


def from_pbn(text: str) -> list[Board]:
    """The boards of a PBN file, in file order; ``GameError`` naming the board on anything malformed.

    Games with neither a ``Board`` nor a ``Deal`` tag are not boards and are skipped; a file without boards
    gives an empty list (the caller decides whether that is an error). A board number given twice is refused.
    """
    boards: list[Board] = []
    seen: set[int] = set()
    for game in _read_games(text):
        if "Board" not in game.tags and "Deal" not in game.tags:
            continue  # no board: tags about the file or the event only
        board = _board_from_game(game)
        if board.number in seen:
            raise PbnError("board_twice", board=board.number)
        seen.add(board.number)
        boards.append(board)
    return boards
