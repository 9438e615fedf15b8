"""Plausible random score-sheet lines, for demos, benchmarks and property tests.

Seeded: the same ``random.Random`` seed gives the same session every time.
Every line produced is valid under the rule set in the context of the ones
before it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.cards import ACE, SUITS, Card, Suit, cards_of, deck, mask
from games.contracts import CONTRACTS, Side, TrumpRule
from games.dealing import active_seats, deal_packets
from games.play import legal_cards, trick_winner
from games.records import contract_trump, early_end_test, opening_lead, troel_partner
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
    raised = [lvl for lvl, _ in rules.compiled[cid].tariff.levels] if contract.higher else []
    if contract.side is Side.PAIR:
        line["declarers"] = rng.sample(active, 2)
        target = rules.compiled[cid].target or 8
        if raised and rng.random() < 0.3:  # a higher bid of the same contract
            line["level"] = target = rng.choice(raised)
        line["tricks"] = _tricks_around(rng, target, contract.max_tricks)
    elif contract.side is Side.SOLO:
        line["declarers"] = [rng.choice(active)]
        aim = contract.target
        if raised and rng.random() < 0.3:
            line["level"] = aim = rng.choice(raised)
        elif contract.levels:
            levels = [lvl for lvl, _ in rules.compiled[cid].tariff.levels]
            line["level"] = aim = rng.choice(levels)
        assert aim is not None
        line["tricks"] = _tricks_around(rng, aim, contract.max_tricks)
    else:  # each alone
        n = 2 if rules.multiple_miserie and rng.random() < 0.08 else 1
        line["declarers"] = rng.sample(active, n)
        target = contract.target or 0
        line["tricks"] = [target if rng.random() < 0.6 else target + rng.randint(1, 2) for _ in range(n)]
        if rules.early_end and target == 0:  # play stopped when the last declarer took a first trick
            line["tricks"][-1] = min(line["tricks"][-1], 1)
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


def random_record(
    rules: RuleSet, rng: random.Random, players: int = 4, *, contract: str | None = None, as_line: bool = False
) -> dict[str, Any]:
    """A complete, legal deal record: dealt cards, an auction (or a line) and random legal play.

    ``contract`` forces one (troel only where a hand holds three aces: then
    another contract is drawn if none does).
    """
    dealer = rng.randrange(players)
    seats = active_seats(players, dealer)
    cards = deck(52)
    rng.shuffle(cards)
    dealt = deal_packets(cards, players, dealer, rules.dealing)
    hands = dealt.hands
    aces = {seat: sum(1 for c in hands[seat] if c.rank == ACE) for seat in seats}
    troel_holders = [s for s in seats if aces[s] >= 3]
    choices = [c for c in rules.ladder if c != "troel" or troel_holders]
    cid = contract if contract is not None and contract in choices else None
    if cid is None:
        cid = rng.choices(choices, weights=[_WEIGHTS.get(c, 1) for c in choices])[0]
    spec = CONTRACTS[cid]
    record: dict[str, Any] = {
        "rules": rules.name,
        "players": players,
        "dealer": dealer,
        "turned": str(dealt.turned),
        "hands": [[str(c) for c in hand] for hand in hands],
    }
    level = None
    levels = [lvl for lvl, _ in rules.compiled[cid].tariff.levels] if cid in rules.compiled else []
    if spec.levels or (spec.higher and levels and rng.random() < 0.3):  # abondance; a raised vraag or alleen
        level = rng.choice(levels)
    if cid == "troel":
        holder = rng.choice(troel_holders)
        declarers = [holder, troel_partner(hands, holder, seats)]
        bids: list[list[Any]] = [[holder, "troel"], *([s, "pass"] for s in seats if s not in declarers)]
    elif spec.side is Side.PAIR:
        asker_at = rng.randrange(len(seats) - 1)
        partner_at = rng.randrange(asker_at + 1, len(seats))
        declarers = [seats[asker_at], seats[partner_at]]
        asked: list[Any] = ["vraag"] if level is None else ["vraag", level]
        bids = [
            [s, *(asked if k == asker_at else ["meegaan"] if k == partner_at else ["pass"])]
            for k, s in enumerate(seats)
        ]
    else:
        count = 2 if spec.side is Side.EACH_ALONE and rules.multiple_miserie and rng.random() < 0.1 else 1
        chosen_at = sorted(rng.sample(range(len(seats)), count))
        declarers = [seats[k] for k in chosen_at]
        bid: list[Any] = [cid] if level is None else [cid, level]
        bids = [[s, *bid] if k in chosen_at else [s, "pass"] for k, s in enumerate(seats)]
    trump_rule = rules.trump_rule(cid)
    chosen = rng.choice(SUITS) if trump_rule is TrumpRule.CHOSEN else None
    if as_line:
        record["line"] = {"contract": cid, "declarers": declarers, **({"level": level} if level else {})}
    else:
        record["bids"] = bids
    if chosen is not None:
        record["trump"] = chosen.value
    masks = [mask(h) for h in hands]
    if cid == "kleine_miserie":
        discards: list[str | None] = [None] * players
        for s in seats:
            card = rng.choice(cards_of(masks[s]))
            discards[s] = str(card)
            masks[s] &= ~card.bit
        record["discards"] = discards
    trump = contract_trump(cid, rules, dealt.turned, chosen.value if chosen else None, declarers, hands, [])
    leader, first_card = opening_lead(cid, declarers, seats, hands)
    decided = early_end_test(spec.side, spec.target, declarers, spec.max_tricks) if rules.early_end else None
    record["plays"] = _random_play(rng, masks, seats, leader, first_card, trump, spec.max_tricks, decided)
    return record


def _random_play(
    rng: random.Random,
    masks: list[int],
    seats: list[int],
    leader: int,
    first_card: Card | None,
    trump: Suit | None,
    tricks: int,
    decided: Callable[[list[int]], bool] | None,
) -> list[str]:
    plays: list[str] = []
    winners: list[int] = []
    order = {seat: k for k, seat in enumerate(seats)}
    while len(winners) < tricks and not (decided is not None and winners and decided(winners)):
        trick: list[tuple[int, Card]] = []
        start = order[leader]
        for step in range(len(seats)):
            seat = seats[(start + step) % len(seats)]
            led = trick[0][1].suit if trick else None
            if first_card is not None and not plays:
                card = first_card
            else:
                card = rng.choice(cards_of(legal_cards(masks[seat], led)))
            masks[seat] &= ~card.bit
            trick.append((seat, card))
            plays.append(str(card))
        leader = trick_winner(trick, trump)
        winners.append(leader)
    return plays
