"""Settle a validated Zwicken line: chips by seat and the pot after the deal.

Per deal (001, as resolved in RULES.md §6):

- The dealer antes ``ante`` chips into the pot.
- A void cut (an ace, or a seven other than the 7♦) gives the ante back: no
  chip moves and the same dealer deals again.
- A Belli cut (the 7♦): the ante stays in the pot, the dealer pays ``ante``
  to every player but himself and the cutter (the seat on his right), and the
  cutter deals next.
- Nobody played: the pot (with the ante) carries over.
- Otherwise the pot is cut into ``hand`` equal shares (integer division; the
  remainder stays in the pot) and each trick takes a share. *Durchmarsch*
  (one player took every trick): he takes the whole pot, remainder included.
- Betes, paid into the pot for the next deal: one per player who played and
  took no trick, and one per failed duty (``duties_failed``). They add up: a
  Belli holder who failed his duty and took no trick pays two betes.

Chips are conserved: the chips of a deal plus the pot's change sum to zero.
"""

from __future__ import annotations

from games.rulesets import ZwickenOptions
from games.settlement import Settled
from games.zwicken.lines import ZwickenPlay


def cutter(dealer: int, players: int) -> int:
    """The seat on the dealer's right: it cuts, and deals next after a Belli cut."""
    return (dealer - 1) % players


def next_dealer(kind: str, dealer: int, players: int) -> int:
    """Clockwise rotation; the same dealer after a void cut, the cutter after a Belli cut."""
    if kind == "void":
        return dealer
    if kind == "belli":
        return cutter(dealer, players)
    return (dealer + 1) % players


def settle_zwicken(options: ZwickenOptions, play: ZwickenPlay, players: int, pot: int) -> Settled:
    """Settle ``play`` (already validated) given the pot carried into the deal."""
    chips = [0] * players
    if play.kind == "void":
        return Settled(play.deal, "void", tuple(chips), 1, (), pot)
    ante, dealer = options.ante, play.dealer
    chips[dealer] -= ante
    pot += ante
    if play.kind == "belli":
        cut_by = cutter(dealer, players)
        for seat in range(players):
            if seat not in (dealer, cut_by):
                chips[seat] += ante
                chips[dealer] -= ante
        return Settled(play.deal, "belli", tuple(chips), 1, (), pot)
    if not play.played:
        return Settled(play.deal, "zwicken", tuple(chips), 1, (), pot)

    hand, tricks = options.hand, play.tricks
    if hand in tricks:  # Durchmarsch
        chips[tricks.index(hand)] += pot
        pot = 0
    else:
        share, pot = divmod(pot, hand)
        for seat, taken in enumerate(tricks):
            chips[seat] += share * taken
    bete = options.bete
    for seat in play.played:
        if not tricks[seat]:
            chips[seat] -= bete
            pot += bete
    for seat in play.duties_failed:
        chips[seat] -= bete
        pot += bete
    return Settled(play.deal, "zwicken", tuple(chips), 1, (), pot)
