"""Settle a validated score-sheet line: one integer per seat, summing to zero (but where a house rule sets a
tariff seat by seat: ``Tariff.split``).

RULES.md §3: ``per_player`` pays each winner X and charges each loser X, except
that a lone player settles with each of three; ``per_pair`` makes every loser
pay every winner X. Miserie-type declarers each settle alone and the results
add up, or, where the rule set pools them (``miserie_settlement``), those who
made it collect from those who failed. The seat that sits out at a table of
five always gets 0.
"""

from __future__ import annotations

from typing import NamedTuple

from games.contracts import Side
from games.rulesets import CompiledContract, MiserieSettlement, RuleSet, Settlement


class Play(NamedTuple):
    """A validated line, in the engine's own terms (see ``games.lines``)."""

    deal: int
    dealer: int
    contract: str
    declarers: tuple[int, ...] = ()
    tricks: tuple[int, ...] = ()  # one count for the side, or one per declarer (each-alone contracts)
    level: int | None = None
    trump: str | None = None
    offender: int | None = None


class Settled(NamedTuple):
    """A settled deal: points by seat, the multiplier applied, and who made it."""

    deal: int
    contract: str
    points: tuple[int, ...]
    multiplier: int
    made: tuple[bool, ...]  # one per side (pair/solo) or per declarer (each-alone); () for pass/penalty
    pot: int = 0  # Zwicken: chips left in the pot after the deal (points then sum to minus the pot's change)


# The seats that play a deal, by (players, dealer): at a table of five the dealer sits out.
_ACTIVE_SEATS: dict[tuple[int, int], tuple[int, ...]] = {
    (players, dealer): tuple(s for s in range(players) if players == 4 or s != dealer)
    for players in (4, 5)
    for dealer in range(players)
}


def contract_amount(compiled: CompiledContract, tricks: int, level: int | None) -> tuple[bool, int]:
    """Whether a declarer side with ``tricks`` made the contract, and the amount per opponent."""
    contract = compiled.contract
    target = level if level is not None else compiled.target
    assert target is not None
    made = tricks == target if contract.exact else tricks >= target
    if made:
        if tricks == contract.max_tricks and compiled.tariff.all_tricks is not None and target < tricks:
            return True, compiled.tariff.all_tricks
        return True, compiled.tariff.made(target, tricks, level)
    return False, compiled.tariff.failed(abs(target - tricks), level)


def multiplier_for(rules: RuleSet, compiled: CompiledContract, pending: int, all_tricks: bool) -> int:
    """The deal's multiplier: pending all-pass doubling x contract factor x onder tafel, capped."""
    m = pending * compiled.factor
    if all_tricks and compiled.doubles_on_all_tricks:
        m *= 2
    cap = rules.multiplier_cap
    return m if cap is None or m <= cap else cap


def _settle_split(
    play: Play, compiled: CompiledContract, active: tuple[int, ...], points: list[int], multiplier: int
) -> Settled:
    """A tariff set seat by seat (``Tariff.split``): the declarers and the other players each get their own amount,
    made or failed; miserie players each settle alone. The points need not sum to zero."""
    declarer_made, others_made, declarer_failed, others_failed = compiled.tariff.split or (0, 0, 0, 0)
    sides = (
        [((d,), (t,)) for d, t in zip(play.declarers, play.tricks, strict=True)]
        if compiled.contract.side is Side.EACH_ALONE
        else [(play.declarers, play.tricks)]
    )
    made_each: list[bool] = []
    for declarers, tricks in sides:
        made, _ = contract_amount(compiled, tricks[0], play.level)
        made_each.append(made)
        mine, theirs = (declarer_made, -others_made) if made else (-declarer_failed, others_failed)
        for seat in active:
            points[seat] += (mine if seat in declarers else theirs) * multiplier
    return Settled(play.deal, play.contract, tuple(points), multiplier, tuple(made_each))


def _pool(points: list[int], results: list[tuple[int, bool, int]], active: tuple[int, ...], multiplier: int) -> None:
    """Pooled miserie (``MiserieSettlement.POOLED``): every loser pays every winner. Those who made it win against
    those who failed; if nobody failed, against the other players; if all failed, the other players win."""
    amounts = {declarer: amount * multiplier for declarer, _, amount in results}
    made = [d for d, ok, _ in results if ok]
    failed = [d for d, ok, _ in results if not ok]
    others = [s for s in active if s not in amounts]
    winners, losers = (made, failed) if made and failed else (made, others) if made else (others, failed)
    for winner in winners:
        for loser in losers:
            x = amounts[loser] if loser in failed else amounts[winner]
            points[winner] += x
            points[loser] -= x


def settle(rules: RuleSet, play: Play, players: int, pending: int = 1) -> Settled:
    """Settle ``play`` (already validated) at a table of ``players`` with a pending all-pass multiplier."""
    points = [0] * players
    active = _ACTIVE_SEATS[players, play.dealer]
    if play.contract == "pass":
        return Settled(play.deal, play.contract, tuple(points), 1, ())
    if play.contract == "penalty":
        offender = play.offender
        assert offender is not None
        for seat in active:
            if seat != offender:
                points[seat] += rules.penalty
                points[offender] -= rules.penalty
        return Settled(play.deal, play.contract, tuple(points), 1, ())

    compiled = rules.compiled[play.contract]
    side = compiled.contract.side
    if compiled.tariff.split is not None:
        return _settle_split(play, compiled, active, points, multiplier_for(rules, compiled, pending, False))
    if side is Side.EACH_ALONE:
        multiplier = multiplier_for(rules, compiled, pending, False)
        results = [
            (declarer, *contract_amount(compiled, tricks, play.level))
            for declarer, tricks in zip(play.declarers, play.tricks, strict=True)
        ]
        if rules.miserie_settlement is MiserieSettlement.POOLED and len(results) > 1:
            _pool(points, results, active, multiplier)
        else:
            for declarer, made, amount in results:
                x = amount * multiplier if made else -amount * multiplier
                for seat in active:
                    if seat != declarer:
                        points[seat] -= x
                        points[declarer] += x
        return Settled(play.deal, play.contract, tuple(points), multiplier, tuple(made for _, made, _ in results))

    tricks = play.tricks[0]
    made, amount = contract_amount(compiled, tricks, play.level)
    multiplier = multiplier_for(rules, compiled, pending, tricks == compiled.contract.max_tricks)
    x = amount * multiplier
    declarers = play.declarers
    defenders = [s for s in active if s not in declarers]
    winners, losers = (declarers, defenders) if made else (defenders, declarers)
    if side is Side.PAIR and rules.settlement is Settlement.PER_PLAYER:
        for seat in winners:
            points[seat] = x
        for seat in losers:
            points[seat] = -x
    else:
        for seat in winners:
            points[seat] = x * len(losers)
        for seat in losers:
            points[seat] = -x * len(winners)
    return Settled(play.deal, play.contract, tuple(points), multiplier, (made,))
