"""Reading a duplicate round's boards: as rows, as the engine's boards, as a PBN file, as hand records to print.

Only the organiser's pages call these (``tournaments.duplicate.views``): boards are hand records, and the views
ask ``managed_round`` before anything here runs. ``board_numbers`` and ``board_dealers`` alone tell no card: the
printed table card says which boards a table plays, in which order, and which seat takes which hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.cards import SUIT_MASKS, cards_of
from games.duplicate import Board as EngineBoard
from games.duplicate import to_pbn
from tournaments.duplicate.cards import RED, SUIT_ORDER, card_text, compass_letter, compass_name, rank_text, suit_name
from tournaments.line_text import SUIT_SYMBOLS
from tournaments.models import Board, DealEntry, Round


def round_boards(round_: Round) -> list[Board]:
    return list(Board.objects.filter(round=round_).order_by("number"))


def board_numbers(round_: Round) -> list[int]:
    """The numbers of the round's boards in the order every table plays them (this movement: 1..N)."""
    return list(Board.objects.filter(round=round_).order_by("number").values_list("number", flat=True))


def board_dealers(round_: Round) -> list[tuple[int, int]]:
    """(number, dealer's compass position) of the round's boards in play order: which seat takes which hand, for
    the table card, and still no card."""
    return list(Board.objects.filter(round=round_).order_by("number").values_list("number", "dealer"))


def engine_boards(round_: Round) -> list[EngineBoard]:
    return [board.engine_board() for board in round_boards(round_)]


def pbn_event(round_: Round) -> str:
    return f"{round_.competition.name}, round {round_.number}"


def round_pbn(round_: Round) -> str:
    """The round's boards as a PBN file (``games.duplicate.to_pbn``: the turned card in its own tag)."""
    return to_pbn(engine_boards(round_), event=pbn_event(round_))


def pbn_filename(round_: Round) -> str:
    return f"{round_.competition.slug}-round-{round_.number}-boards.pbn"


def replaceable(round_: Round) -> bool:
    """Whether a PBN file may still replace the boards (``services.import_round_boards`` decides on upload)."""
    return (
        round_.competition.closed_at is None
        and round_.status != Round.Status.FINALISED
        and not DealEntry.objects.filter(sheet__table__round=round_).exists()
    )


def dealt_seed(boards: list[Board]) -> int | None:
    """The seed the boards were dealt from, or None when they came from a PBN file."""
    seeds = {board.seed for board in boards}
    return seeds.pop() if len(seeds) == 1 else None


# -- hand records ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rank:
    text: str  # "A", "10", "7" (the reader's letters: Dutch "H" for the king)
    turned: bool  # the turned card: the dealer deals it face up


@dataclass(frozen=True)
class SuitLine:
    symbol: str
    name: str  # "spades", for those who hear the page
    red: bool
    ranks: list[Rank]  # high to low; empty for a void


@dataclass(frozen=True)
class HandView:
    position: int
    name: str  # "North"
    letter: str  # "N"
    dealer: bool
    suits: list[SuitLine]


@dataclass(frozen=True)
class BoardView:
    number: int
    dealer: HandView
    turned: str  # "♥10"
    turned_red: bool
    hands: list[HandView]  # N, E, S, W

    @property
    def north(self) -> HandView:
        return self.hands[0]

    @property
    def east(self) -> HandView:
        return self.hands[1]

    @property
    def south(self) -> HandView:
        return self.hands[2]

    @property
    def west(self) -> HandView:
        return self.hands[3]


def _hand(board: EngineBoard, position: int) -> HandView:
    hand = board.hands[position]
    dealer = position == board.dealer
    suits = []
    for suit in SUIT_ORDER:
        cards = sorted(cards_of(hand & SUIT_MASKS[suit.order]), key=lambda card: card.rank, reverse=True)
        ranks = [Rank(rank_text(card.rank), dealer and card == board.turned) for card in cards]
        suits.append(SuitLine(SUIT_SYMBOLS[suit.value], suit_name(suit), suit in RED, ranks))
    return HandView(position, compass_name(position), compass_letter(position), dealer, suits)


def board_view(board: EngineBoard) -> BoardView:
    """One board as a hand record shows it, in the reader's language (call it with their language active)."""
    hands = [_hand(board, position) for position in range(4)]
    return BoardView(
        number=board.number,
        dealer=hands[board.dealer],
        turned=card_text(board.turned),
        turned_red=board.turned.suit in RED,
        hands=hands,
    )


def hand_records(round_: Round) -> list[BoardView]:
    return [board_view(board) for board in engine_boards(round_)]
