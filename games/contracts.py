"""The Wiezen and Solo whist contracts: what each one asks of its side.

A contract's *shape* (side size, trick target, trump rule) lives here; what it
pays and whether it is allowed at all belongs to a rule set.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from games.errors import GameError


class Side(StrEnum):
    """Who plays a contract."""

    PAIR = "pair"  # asker and partner against the other two: one trick count for the side
    SOLO = "solo"  # one declarer against the other three
    EACH_ALONE = "each_alone"  # miserie family: one or more declarers, each settled alone
    NONE = "none"  # all-pass: nobody plays
    PENALTY = "penalty"  # a fault: an offender pays the others


class TrumpRule(StrEnum):
    """Where a contract's trump comes from."""

    TURNED = "turned"  # the dealer's turned card; the line may record it
    CHOSEN = "chosen"  # named by the declarer; the line must record it
    FOURTH_ACE = "fourth_ace"  # troel: the suit of the fourth ace; the line may record it
    NONE = "none"  # no trump; the line must not name one


@dataclass(frozen=True, slots=True)
class Contract:
    """The shape of a contract.

    ``target`` is the number of tricks the side needs (``None`` when the bid
    level sets it, as for abondance); ``exact`` means the side needs exactly
    ``target`` tricks (piccolo, miserie) rather than at least.
    """

    id: str
    side: Side
    target: int | None
    trump: TrumpRule
    exact: bool = False
    max_tricks: int = 13
    levels: tuple[int, ...] = ()  # the bid names its level (abondance 9..12), always
    higher: tuple[int, ...] = ()  # trick counts above ``target`` a rule set may let the side bid (its tariff's levels)

    @property
    def bid_levels(self) -> tuple[int, ...]:
        """Every level a line of this contract may name: its own levels, or the higher bids a rule set may play."""
        return self.levels or self.higher

    @property
    def is_played(self) -> bool:
        return self.side in (Side.PAIR, Side.SOLO, Side.EACH_ALONE)

    def __str__(self) -> str:
        return self.id


# Ladder order, low to high, as RULES.md §2 lists them; presets enable subsets.
CONTRACTS: dict[str, Contract] = {
    c.id: c
    for c in (
        # "vragen en meegaan" for 9 to 13 tricks, "alleen" for 6 to 8, where the rule set's tariff gives those levels
        Contract("vraag", Side.PAIR, 8, TrumpRule.TURNED, higher=(9, 10, 11, 12, 13)),
        Contract("alleen", Side.SOLO, 5, TrumpRule.TURNED, higher=(6, 7, 8)),
        Contract("piccolo", Side.EACH_ALONE, 1, TrumpRule.NONE, exact=True),
        Contract("abondance", Side.SOLO, None, TrumpRule.CHOSEN, levels=(9, 10, 11, 12)),
        Contract("abondance_troef", Side.SOLO, 9, TrumpRule.TURNED),
        Contract("miserie", Side.EACH_ALONE, 0, TrumpRule.NONE, exact=True),
        # every player first discards one card unseen, so only 12 tricks are played
        Contract("kleine_miserie", Side.EACH_ALONE, 0, TrumpRule.NONE, exact=True, max_tricks=12),
        Contract("troel", Side.PAIR, 8, TrumpRule.FOURTH_ACE),
        Contract("open_miserie", Side.EACH_ALONE, 0, TrumpRule.NONE, exact=True),
        Contract("solo", Side.SOLO, 13, TrumpRule.CHOSEN),
        Contract("solo_slim", Side.SOLO, 13, TrumpRule.CHOSEN),
        Contract("abondance_declaree", Side.SOLO, 13, TrumpRule.NONE),
        Contract("pass", Side.NONE, None, TrumpRule.NONE),
        Contract("penalty", Side.PENALTY, None, TrumpRule.NONE),
    )
}

LADDER_ORDER: tuple[str, ...] = tuple(c for c in CONTRACTS if CONTRACTS[c].is_played)

# Always available, whatever the ladder: every session can have an all-pass or a fault.
ALWAYS_ENABLED: frozenset[str] = frozenset({"pass", "penalty"})


def find_contract(contract_id: str) -> Contract:
    try:
        return CONTRACTS[contract_id]
    except (KeyError, TypeError):
        raise GameError(f"unknown contract {contract_id!r}: expected one of {', '.join(CONTRACTS)}") from None
