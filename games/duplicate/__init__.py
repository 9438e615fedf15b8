"""Duplicate Wiezen: boards dealt in advance, their PBN files, and scoring by comparison.

Every table of a round plays the same boards; each player's score on a board is
compared with those of the players who held the same hand at the other tables,
so the cards' luck cancels out and the play decides.
"""

from games.duplicate.boards import Board, aces_held, deal_board, deal_boards, holder, troel_first_lead, troel_holder
from games.duplicate.comparison import IMP_SCALE, cross_imps, imps, matchpoints, percentages
from games.duplicate.pbn import TURNED_TAG, from_pbn, to_pbn
from games.duplicate.seats import board_dealer, dealer_seat, hands_by_seat, positions_by_seat, seats_by_position

__all__ = [
    "IMP_SCALE",
    "TURNED_TAG",
    "Board",
    "aces_held",
    "board_dealer",
    "cross_imps",
    "deal_board",
    "deal_boards",
    "dealer_seat",
    "from_pbn",
    "hands_by_seat",
    "holder",
    "imps",
    "matchpoints",
    "percentages",
    "positions_by_seat",
    "seats_by_position",
    "to_pbn",
    "troel_first_lead",
    "troel_holder",
]
