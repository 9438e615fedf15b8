"""Plausible random score-sheet lines, for demos, benchmarks and property tests.

Seeded: the same ``random.Random`` seed gives the same session every time.
Every line produced is valid under the rule set in the context of the ones
before it.
"""

from __future__ import annotations

import random
from typing import Any

from games.contracts import CONTRACTS, Side, TrumpRule
from games.rulesets import RuleSet
from games.sheet import Sheet

# How often each contract is bid at a real table, roughly: vraag dominates.
_WEIGHTS: dict[str, float] = {
    "vraag": 40,
    "alleen": 12,
    "piccolo": 3,
    "abondance": 8,
    "abondance_troef": 3,
    "miserie": 8,
    "kleine_miserie": 2,
    "troel": 4,
    "open_miserie": 1,
    "solo": 0.3,
    "solo_slim": 0.3,
    "abondance_declaree": 0.5,
}
_SUITS = "CDHS"


def random_line(
    rules: RuleSet, rng: random.Random, deal: int, dealer: int, players: int = 4, *, pass_rate: float = 0.06
) -> dict[str, Any]:
    """One valid line for deal ``deal`` dealt by ``dealer``."""
    roll = rng.random()
    if roll < pass_rate:
        return {"deal": deal, "dealer": dealer, "contract": "pass"}
    if roll < pass_rate + 0.005:
        active = [s for s in range(players) if not (players == 5 and s == dealer)]
        return {"deal": deal, "dealer": dealer, "contract": "penalty", "offender": rng.choice(active)}
    ladder = rules.ladder
    cid = rng.choices(ladder, weights=[_WEIGHTS.get(c, 1) for c in ladder])[0]
    contract = CONTRACTS[cid]
    active = [s for s in range(players) if not (players == 5 and s == dealer)]
    line: dict[str, Any] = {"deal": deal, "dealer": dealer, "contract": cid}
    if contract.side is Side.PAIR:
        line["declarers"] = rng.sample(active, 2)
        line["tricks"] = _tricks_around(rng, 8, contract.max_tricks)
    elif contract.side is Side.SOLO:
        line["declarers"] = [rng.choice(active)]
        target = contract.target
        if contract.levels:
            levels = [lvl for lvl, _ in rules.compiled[cid].tariff.levels]
            line["level"] = target = rng.choice(levels)
        assert target is not None
        line["tricks"] = _tricks_around(rng, target, contract.max_tricks)
    else:  # each alone
        n = 2 if rules.multiple_miserie and rng.random() < 0.08 else 1
        line["declarers"] = rng.sample(active, n)
        target = contract.target or 0
        line["tricks"] = [target if rng.random() < 0.6 else target + rng.randint(1, 2) for _ in range(n)]
    rule = rules.trump_rule(cid)
    if rule is TrumpRule.CHOSEN:
        line["trump"] = rng.choice(_SUITS)
    return line


def _tricks_around(rng: random.Random, target: int, max_tricks: int) -> int:
    if target == max_tricks:  # nobody bids all the tricks without them in hand: mostly made, else one short
        return max_tricks if rng.random() < 0.8 else max_tricks - 1
    if rng.random() < 0.65:
        return min(max_tricks, target + min(rng.randint(0, 3), rng.randint(0, 5)))
    return max(0, target - rng.randint(1, 3))


def random_session(
    rules: RuleSet, rng: random.Random, players: int = 4, deals: int = 16, *, pass_rate: float = 0.06
) -> list[dict[str, Any]]:
    """A whole valid session: the engine's own sheet keeps rotation, redeals, length and tie-break deals."""
    sheet = Sheet(rules, players, deals)
    first_dealer = rng.randrange(players)
    while not sheet.complete:
        dealer = sheet.expected_dealer if sheet.expected_dealer is not None else first_dealer
        sheet.add(random_line(rules, rng, sheet.next_deal, dealer, players, pass_rate=pass_rate))
    return sheet.lines
