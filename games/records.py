"""Full deal records: the cards dealt, the auction and every card played.

A record (JSON)::

    {"rules": "iwwa", "players": 4, "dealer": 0, "turned": "7H",
     "hands": [["AS", "KS", ...], [...], [...], [...]],
     "bids": [[1, "vraag"], [2, "pass"], [3, "meegaan"], [0, "pass"]],
     "trump": null, "plays": ["QS", "2S", "AS", "5S", ...]}

- ``rules``: a rule set name, or a rule set object (``RuleSet.to_json`` or
  overrides with ``"preset"``). Zwicken records are described in
  ``games.zwicken``.
- ``players``: 4 (default) or 5; ``dealer``: the dealer's seat.
- ``hands``: by seat, 13 cards each, empty for the seat that sits out at a
  table of five; together the 52 cards once each.
- ``turned``: the turned card; it lies in the hand of the player who was
  dealt the last card: the dealer, or at a table of five the seat on the
  dealer's right.
- ``bids`` in order as ``[seat, bid]`` (see ``games.auction``); or instead
  ``line``: the score-sheet line without ``tricks`` (contract, declarers,
  level, trump).
- ``trump``: the declarer's suit where the contract's trump is chosen.
- ``discards``: kleine miserie only: the card each playing seat lays away.
- ``plays``: the cards in the order played. Play stops early only where
  the rule set's ``early_end`` allows it and the contract is decided.

``check_record`` validates all of it, derives the winner of every trick and
the score-sheet line with its tricks, and settles it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from games.auction import run_auction
from games.cards import ACE, CARDS, Card, Suit, mask
from games.contracts import CONTRACTS, Side, TrumpRule
from games.dealing import active_seats, deal_packets, shuffled
from games.errors import FieldError, GameError, InvalidLine, InvalidRecord
from games.lines import check_line, seat_text
from games.play import parse_card, play_tricks
from games.registry import find
from games.rulesets import Game, RuleSet
from games.settlement import Settled, settle

__all__ = [
    "RecordResult",
    "check_record",
    "contract_trump",
    "deal_record",
    "early_end_test",
    "opening_lead",
    "troel_errors",
    "troel_partner",
    "troel_partner_card",
]

_FIELDS = frozenset(
    {"rules", "players", "dealer", "turned", "hands", "bids", "line", "trump", "discards", "plays", "deal"}
)
_FIRST_LEADS_DECLARER = frozenset({"solo_slim", "abondance_declaree"})


class RecordResult(NamedTuple):
    line: dict[str, Any]  # the derived score-sheet line, with its tricks
    settled: Settled
    winners: tuple[int, ...] = ()  # the seat that won each trick (Wiezen and Solo whist)


def load_rules(spec: object) -> RuleSet:
    if isinstance(spec, str):
        return find(spec)
    return RuleSet.from_json(spec)


def check_record(record: object) -> RecordResult:
    """Validate a full deal record and settle the line it proves; raise ``InvalidRecord`` with every problem."""
    if not isinstance(record, Mapping):
        raise InvalidRecord([FieldError("not_an_object", "", f"a record must be a JSON object, got {record!r}")])
    try:
        rules = load_rules(record.get("rules"))
    except GameError as exc:
        raise InvalidRecord([FieldError("invalid_rules", "rules", str(exc))]) from exc
    if rules.game is Game.ZWICKEN:
        from games.zwicken import check_record as check_zwicken_record

        checked = check_zwicken_record(record)
        return RecordResult(checked.line, checked.settled)
    return _check_trick_record(record, rules)


def deal_record(rules: RuleSet, players: int = 4, dealer: int = 0, seed: int = 0) -> dict[str, Any]:
    """A reproducible dealt record without bids or plays: the same seed deals the same cards."""
    if rules.game is Game.ZWICKEN:
        from games.zwicken import deal_record as deal_zwicken_record

        dealt_zwicken: dict[str, Any] = deal_zwicken_record(rules, players, dealer, seed)
        return dealt_zwicken
    if players not in (4, 5) or not 0 <= dealer < players:
        raise GameError(f"a deal needs 4 or 5 players and a dealer among them, not {players} and {dealer}")
    dealt = deal_packets(shuffled(52, seed), players, dealer, rules.dealing)
    return {
        "rules": rules.name,
        "players": players,
        "dealer": dealer,
        "turned": str(dealt.turned),
        "hands": [[str(c) for c in hand] for hand in dealt.hands],
    }


def _check_trick_record(record: Mapping[str, Any], rules: RuleSet) -> RecordResult:
    errors = [FieldError("unknown_field", str(k), f"unknown field {k!r}") for k in record if k not in _FIELDS]
    players = record.get("players", 4)
    dealer = record.get("dealer")
    if players not in (4, 5) or type(players) is not int:
        raise InvalidRecord([*errors, FieldError("wrong_type", "players", f"players is 4 or 5, not {players!r}")])
    if type(dealer) is not int or not 0 <= dealer < players:
        raise InvalidRecord([*errors, FieldError("seat_out_of_range", "dealer", f"dealer {dealer!r} is not a seat")])
    seats = active_seats(players, dealer)
    hands, hand_errors = _hands(record.get("hands"), players, seats)
    errors += hand_errors
    turned = parse_card(record.get("turned"))
    if turned is None:
        errors.append(FieldError("unknown_card", "turned", f"turned card {record.get('turned')!r} is not a card"))
    elif hands and turned not in hands[seats[-1]]:
        errors.append(
            FieldError(
                "turned_not_dealers",
                "turned",
                f"the turned card {turned} is not in the hand of seat {seats[-1] + 1}, who was dealt the last card",
            )
        )
    if errors or turned is None:
        raise InvalidRecord(errors)

    aces = {seat: sum(1 for c in hands[seat] if c.rank == ACE) for seat in seats}
    partners = {seat: troel_partner(hands, seat, seats) for seat in seats if aces[seat] >= 3}
    contract, declarers, level, chosen = _contract(record, rules, seats, aces, partners, errors)
    if errors:
        raise InvalidRecord(errors)

    line: dict[str, Any] = {"deal": record.get("deal", 1), "dealer": dealer, "contract": contract}
    if contract == "pass":
        if record.get("plays"):
            errors.append(FieldError("play_after_end", "plays", "nobody plays a passed deal: plays must be empty"))
            raise InvalidRecord(errors)
        return _settled(line, rules, players, [])

    spec = CONTRACTS[contract]
    trump = contract_trump(spec.id, rules, turned, chosen, declarers, hands, errors)
    if contract == "troel":
        errors += troel_errors(declarers, partners, aces)
    masks = [mask(h) for h in hands]
    tricks_in_play = spec.max_tricks
    if contract == "kleine_miserie":
        masks = _discard(record.get("discards"), masks, seats, errors)
    if errors:
        raise InvalidRecord(errors)

    leader, first_card = opening_lead(contract, declarers, seats, hands)
    plays = record.get("plays")
    if not isinstance(plays, list):
        raise InvalidRecord([FieldError("wrong_type", "plays", f"plays must be a list of cards, got {plays!r}")])
    decided = early_end_test(spec.side, spec.target, declarers, tricks_in_play) if rules.early_end else None
    outcome = play_tricks(
        masks, seats, leader, plays, trump, tricks=tricks_in_play, first_card=first_card, decided=decided
    )
    errors += outcome.errors
    if not errors and len(outcome.winners) < tricks_in_play and not outcome.ended_early:
        errors.append(
            FieldError(
                "incomplete_play",
                "plays",
                f"play stops after {len(outcome.winners)} of {tricks_in_play} tricks with the contract undecided"
                + ("" if rules.early_end else f" (no early end under {rules.name!r})"),
            )
        )
    if errors:
        raise InvalidRecord(errors)

    won = outcome.winners
    line["declarers"] = list(declarers)
    if spec.side is Side.EACH_ALONE:
        line["tricks"] = [won.count(d) for d in declarers]
    else:
        line["tricks"] = sum(1 for w in won if w in declarers)
    if level is not None:
        line["level"] = level
    if rules.trump_rule(contract) is TrumpRule.CHOSEN and trump is not None:
        line["trump"] = trump.value
    return _settled(line, rules, players, won)


def opening_lead(
    contract: str, declarers: list[int], seats: list[int], hands: list[list[Card]]
) -> tuple[int, Card | None]:
    """Who leads the first trick, and the card they must lead (RULES.md §1)."""
    if contract in _FIRST_LEADS_DECLARER:
        return declarers[0], None
    if contract == "troel" and sum(1 for c in hands[declarers[0]] if c.rank == ACE) == 3:
        partner = declarers[1]
        return partner, next(c for c in hands[partner] if c.rank == ACE)  # the fourth ace, led by its holder
    return seats[0], None


def _settled(line: dict[str, Any], rules: RuleSet, players: int, winners: list[int]) -> RecordResult:
    deal = line["deal"]
    try:
        play = check_line(line, rules, players, next_deal=deal, expected_dealer=None, deals_left=None)
    except InvalidLine as exc:
        raise InvalidRecord(list(exc.errors)) from exc
    return RecordResult(line, settle(rules, play, players), tuple(winners))


def _hands(value: object, players: int, seats: list[int]) -> tuple[list[list[Card]], list[FieldError]]:
    errors: list[FieldError] = []
    if not isinstance(value, list) or len(value) != players or not all(isinstance(h, list) for h in value):
        return [], [FieldError("wrong_type", "hands", f"hands must be {players} lists of cards, one per seat")]
    hands: list[list[Card]] = []
    holder: dict[Card, int] = {}
    for seat, raw in enumerate(value):
        hand: list[Card] = []
        for k, text in enumerate(raw):
            card = parse_card(text)
            if card is None:
                errors.append(
                    FieldError("unknown_card", f"hands[{seat}][{k}]", f"seat {seat + 1}: {text!r} is not a card")
                )
                continue
            if card in holder:
                errors.append(
                    FieldError(
                        "duplicate_card",
                        f"hands[{seat}][{k}]",
                        f"{card} is dealt twice: to seat {holder[card] + 1} and to seat {seat + 1}",
                    )
                )
                continue
            holder[card] = seat
            hand.append(card)
        wanted = 13 if seat in seats else 0
        if len(raw) != wanted:
            why = "sits out this deal" if wanted == 0 else "is dealt 13 cards"
            errors.append(FieldError("hand_size", f"hands[{seat}]", f"seat {seat + 1} {why}, got {len(raw)} cards"))
        hands.append(hand)
    return hands, errors


def _contract(
    record: Mapping[str, Any],
    rules: RuleSet,
    seats: list[int],
    aces: dict[int, int],
    partners: dict[int, int],
    errors: list[FieldError],
) -> tuple[str, list[int], int | None, object]:
    """The contract, declarers, level and chosen trump: from the auction, or from a given line."""
    chosen = record.get("trump")
    if "bids" in record and "line" in record:
        errors.append(FieldError("unexpected_field", "line", "give bids or a line, not both"))
    if "bids" in record:
        auction = run_auction(record["bids"], rules, seats, aces, partners)
        errors += auction.errors
        declarers = auction.declarers
        if auction.contract == "troel" and len(declarers) == 1:  # troel bid during the auction, not announced first
            declarers = [declarers[0], partners.get(declarers[0], -1)]
        return auction.contract, declarers, auction.level, chosen
    line = record.get("line")
    if not isinstance(line, Mapping):
        errors.append(FieldError("missing_field", "bids", "a record gives its bids, or the score-sheet line it played"))
        return "pass", [], None, chosen
    if "tricks" in line:
        errors.append(FieldError("unexpected_field", "line.tricks", "the tricks come from the plays"))
    contract = line.get("contract")
    if not isinstance(contract, str) or contract not in CONTRACTS:
        errors.append(FieldError("unknown_contract", "line.contract", f"{contract!r} is not a contract"))
        return "pass", [], None, chosen
    if contract == "penalty" or not rules.enables(contract):
        errors.append(FieldError("contract_not_enabled", "line.contract", f"{contract!r} is not played here"))
        return "pass", [], None, chosen
    players = len(record["hands"]) if isinstance(record.get("hands"), list) else len(seats)
    declarers = _line_declarers(line.get("declarers", []), CONTRACTS[contract].side, seats, players, errors)
    return contract, declarers, line.get("level"), line.get("trump", chosen)


def _line_declarers(value: object, side: Side, seats: list[int], players: int, errors: list[FieldError]) -> list[int]:
    """A given line's declarers, checked before play uses them: seats that play, the side's size."""
    if side is Side.NONE:
        return []
    if not isinstance(value, list) or not all(type(d) is int for d in value):
        errors.append(FieldError("wrong_type", "line.declarers", f"declarers must be a list of seats, got {value!r}"))
        return []
    for d in value:
        if d not in seats:
            code = "declarer_sits_out" if 0 <= d < players else "seat_out_of_range"
            errors.append(FieldError(code, "line.declarers", f"the declarer at {seat_text(d)} does not play this deal"))
    if len(set(value)) != len(value):
        errors.append(
            FieldError("duplicate_declarer", "line.declarers", f"a seat is listed twice in {seat_text(value)}")
        )
    wanted = {Side.PAIR: (2, 2), Side.SOLO: (1, 1)}.get(side, (1, 4))
    if not wanted[0] <= len(value) <= wanted[1]:
        code = "missing_declarer" if not value else "partner_on_solo" if side is Side.SOLO else "missing_partner"
        if side is Side.PAIR and len(value) > 2:
            code = "too_many_declarers"
        errors.append(FieldError(code, "line.declarers", f"{seat_text(value)} do not fit the contract's side"))
    return list(value) if not errors else []


def contract_trump(
    cid: str,
    rules: RuleSet,
    turned: Card,
    chosen: object,
    declarers: list[int],
    hands: list[list[Card]],
    errors: list[FieldError],
) -> Suit | None:
    """The deal's trump suit, or ``None`` for a no-trump contract; problems go to ``errors``."""
    rule = rules.trump_rule(cid)
    if rule is TrumpRule.NONE:
        if chosen is not None:
            errors.append(FieldError("trump_not_allowed", "trump", f"{cid} is played without trump, got {chosen!r}"))
        return None
    if rule is TrumpRule.CHOSEN:
        if not isinstance(chosen, str) or chosen.upper() not in ("C", "D", "H", "S"):
            errors.append(
                FieldError("trump_required", "trump", f"{cid}: the declarer names a trump suit, got {chosen!r}")
            )
            return None
        return Suit.from_str(chosen)
    if rule is TrumpRule.TURNED:
        if chosen is not None and chosen != turned.suit.value:
            errors.append(
                FieldError(
                    "trump_not_turned",
                    "trump",
                    f"{cid} is played in the turned suit {turned.suit}",
                    values={"contract": cid, "trump": turned.suit.value, "turned": str(turned), "given": str(chosen)},
                )
            )
        return turned.suit
    # troel: the suit of the partner's card (the fourth ace; with all four aces, a heart); hearts for a declarer
    # without three aces, whose troel the record check refuses anyway
    holder = declarers[0] if declarers else -1
    hand = hands[holder] if 0 <= holder < len(hands) else []
    if sum(1 for c in hand if c.rank == ACE) >= 3:
        return troel_partner_card(hand).suit
    return Suit.HEARTS


def troel_partner_card(hand: Iterable[Card]) -> Card:
    """The card whose holder partners troel's declarer (``hand``, three or four aces): the ace it lacks; with all
    four aces, the highest heart it lacks. The one place this rule is written: records, boards and the solver
    all ask it."""
    own = set(hand)
    aces = [card for card in CARDS if card.rank == ACE and card not in own]
    if len(aces) == 1:
        return aces[0]
    return max((card for card in CARDS if card.suit is Suit.HEARTS and card not in own), key=lambda card: card.rank)


def troel_partner(hands: list[list[Card]], seat: int, seats: list[int]) -> int:
    """The seat holding ``troel_partner_card`` of ``seat``'s hand."""
    card = troel_partner_card(hands[seat])
    return next((s for s in seats if s != seat and card in hands[s]), -1)


def troel_errors(declarers: list[int], partners: dict[int, int], aces: dict[int, int]) -> list[FieldError]:
    """Troel's side: the holder of three (or four) aces first, then ``partners[holder]`` (``troel_partner``).

    The errors name their seats (``FieldError.seats``): the holder; for a wrong partner the holder, the partner
    named and the right one.
    """
    if len(declarers) != 2:
        return [
            FieldError(
                "missing_partner",
                "declarers",
                f"troel is played by two, got {declarers}",
                tuple(declarers),
                {"contract": "troel"},
            )
        ]
    holder, partner = declarers
    if aces.get(holder, 0) < 3:
        return [
            FieldError(
                "troel_without_three_aces",
                "declarers",
                f"seat {holder + 1} plays troel with {aces.get(holder, 0)} aces",
                (holder,),
                {"aces": aces.get(holder, 0)},
            )
        ]
    if partners[holder] != partner:
        return [
            FieldError(
                "troel_wrong_partner",
                "declarers",
                f"troel's partner is seat {partners[holder] + 1}, who holds the fourth ace"
                f" (or the highest heart the declarer lacks), not {seat_text(partner)}",
                (holder, partner, partners[holder]),
                {"aces": aces[holder]},
            )
        ]
    return []


def _discard(value: object, masks: list[int], seats: list[int], errors: list[FieldError]) -> list[int]:
    """Kleine miserie: every playing seat lays one card away unseen before play."""
    if not isinstance(value, list) or len(value) != len(masks):
        errors.append(FieldError("missing_field", "discards", "kleine miserie: one discarded card per seat"))
        return masks
    out = list(masks)
    for seat in seats:
        card = parse_card(value[seat])
        if card is None or not out[seat] & card.bit:
            errors.append(
                FieldError("card_not_in_hand", f"discards[{seat}]", f"seat {seat + 1} cannot discard {value[seat]!r}")
            )
            continue
        out[seat] &= ~card.bit
    return out


def early_end_test(side: Side, target: int | None, declarers: list[int], tricks: int) -> Any:
    """RULES.md §1 early end: a miserie is lost at its declarers' first tricks, a slam at its first lost trick."""
    if side is Side.EACH_ALONE and target == 0:
        return lambda winners: all(d in winners for d in declarers)
    if target == tricks:
        return lambda winners: any(w not in declarers for w in winners)
    return None
