"""Reproducible Zwicken deals and random legal records, for tests and demos.

``deal_record`` shuffles with ``games.dealing.shuffled`` and cuts as the table
does: the cutter lifts a packet, exposes its bottom card and puts it under
the rest (so the exposed card is the pack's bottom card, the talon's last).
A void or Belli cut ends the record there. Otherwise two cards each go
clockwise from the dealer's left, the next card is turned for trump, then one
more each (two in the four-card game); the rest is the talon, top first.
"""

from __future__ import annotations

import random
from typing import Any

from games.cards import CARD_BY_TEXT, Card
from games.dealing import cut, shuffled
from games.errors import GameError, UnknownRuleSet
from games.registry import find
from games.rulesets import RuleSet
from games.zwicken.cards import BELLI, TrumpOrder
from games.zwicken.lines import zwicken_options
from games.zwicken.records import cut_effect, seats_from_left


def _rules_ref(rules: RuleSet) -> str | dict[str, Any]:
    """The rule set as a record names it: its registered name, or the whole rule set."""
    try:
        if find(rules.name) == rules:
            return rules.name
    except UnknownRuleSet:
        pass
    return rules.to_json()


def deal_record(rules: RuleSet, players: int, dealer: int, seed: int) -> dict[str, Any]:
    """The record of a shuffled, cut and dealt deal, before any decision or play (``pot`` 0)."""
    options = zwicken_options(rules)
    if not options.min_players <= players <= options.max_players:
        raise GameError(f"{rules.name} is played by {options.min_players} to {options.max_players}, not {players}")
    if not 0 <= dealer < players:
        raise GameError(f"dealer {dealer} is not a seat at a table of {players}")
    cards = shuffled(options.deck, seed)
    at = random.Random(f"zwicken-cut:{seed}").randrange(1, len(cards))
    exposed = cards[at - 1]
    pack = cut(cards, at)
    record: dict[str, Any] = {
        "rules": _rules_ref(rules),
        "players": players,
        "dealer": dealer,
        "cut": str(exposed),
        "pot": 0,
    }
    if cut_effect(exposed, options) != "none":
        return record
    order = seats_from_left(dealer, players)
    hands: list[list[Card]] = [[] for _ in range(players)]
    position = 0
    for seat in order:
        hands[seat].extend(pack[position : position + 2])
        position += 2
    turned = pack[position]
    position += 1
    rest = options.hand - 2
    for seat in order:
        hands[seat].extend(pack[position : position + rest])
        position += rest
    record["hands"] = [[str(c) for c in hand] for hand in hands]
    record["turned"] = str(turned)
    record["talon"] = [str(c) for c in pack[position:]]
    return record


def random_record(
    rules: RuleSet,
    rng: random.Random,
    players: int,
    *,
    dealer: int | None = None,
    pot: int = 0,
    slip: float = 0.1,
) -> dict[str, Any]:
    """A complete random legal record: decisions, exchanges and plays.

    The trump-ace holder always plays (and with ``may_pass`` off everybody
    does); others play about two times in three. Each player who plays
    exchanges 0 to ``exchange`` random cards while the talon lasts. Cards are
    random legal plays; the duties (lead the trump ace at the first lead, drop
    the Belli on it) are kept, except in a deal where the players slip
    (probability ``slip``): there any legal card goes, so duties may fail.
    """
    options = zwicken_options(rules)
    if dealer is None:
        dealer = rng.randrange(players)
    record = deal_record(rules, players, dealer, rng.getrandbits(48))
    record["pot"] = pot
    if "hands" not in record:
        return record
    hands = [[CARD_BY_TEXT[t] for t in hand] for hand in record["hands"]]
    talon = [CARD_BY_TEXT[t] for t in record["talon"]]
    order = TrumpOrder(CARD_BY_TEXT[record["turned"]].suit, options.sechser_belli)
    ace = order.ace

    decisions: list[list[Any]] = []
    playing: list[int] = []
    for seat in seats_from_left(dealer, players):
        stays = ace in hands[seat] or not options.may_pass or rng.random() < 0.65
        decisions.append([seat, "play" if stays else "pass"])
        if stays:
            playing.append(seat)

    exchanges: list[list[Any]] = []
    drawn = 0
    for seat in playing:
        count = rng.randint(0, min(options.exchange, len(talon) - drawn))
        if not count:
            continue
        hand = hands[seat]
        given: list[str] = []
        for _ in range(count):
            i = rng.randrange(len(hand))
            given.append(str(hand[i]))
            hand[i] = talon[drawn]
            drawn += 1
        exchanges.append([seat, given])

    plays: list[str] = []
    if playing:
        keep_duties = rng.random() >= slip
        ace_holder = next((seat for seat in playing if ace in hands[seat]), None)
        has_led: set[int] = set()
        leader = playing[0]
        n = len(playing)
        for _ in range(options.hand):
            start = playing.index(leader)
            turn = [playing[(start + k) % n] for k in range(n)]
            trick: list[Card] = []
            for seat in turn:
                hand = hands[seat]
                led = order.suit_of(trick[0]) if trick else None
                if keep_duties and not trick and seat == ace_holder and seat not in has_led and ace in hand:
                    card = ace
                elif keep_duties and trick and trick[0] is ace and BELLI in hand:
                    card = BELLI
                else:
                    card = rng.choice(order.legal(hand, led))
                if not trick:
                    has_led.add(seat)
                hand.remove(card)
                trick.append(card)
                plays.append(str(card))
            leader = turn[order.winner(trick)]
    record["decisions"] = decisions
    record["exchanges"] = exchanges
    record["plays"] = plays
    return record
