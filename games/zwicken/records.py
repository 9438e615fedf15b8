"""Check a full Zwicken deal record: the cut, the cards, the decisions, the exchanges, every play.

The format is described in ``games.zwicken``. A record is checked in stages
(header, cut, cards, decisions, exchanges, plays); every problem of a stage is
reported at once, and a stage with problems stops the check, since later
stages would only repeat them. Play stops at the first illegal card. Codes:

header: ``not_an_object``, ``unknown_field``, ``missing_field``, ``wrong_type``,
``unknown_rules``, ``not_zwicken``, ``invalid_rules``, ``players_out_of_range``,
``seat_out_of_range``, ``unknown_card``, ``card_not_in_deck``; cut:
``cut_ends_deal`` (cards recorded after a void or Belli cut); cards:
``hands_shape``, ``duplicate_card``, ``missing_card``, ``cut_not_bottom`` (the
cut card ends at the bottom of the pack: the talon's last card); decisions:
``decision_out_of_order``, ``unknown_decision``, ``decisions_incomplete``,
``too_many_decisions``, ``trump_ace_passed``, ``pass_not_allowed``; exchanges:
``exchange_by_passed_player``, ``exchange_out_of_order``, ``too_many_exchanged``,
``card_not_in_hand``, ``talon_exhausted``; plays: ``card_not_in_hand``,
``wrong_leader``, ``out_of_turn``, ``play_by_passed_player``, ``renege``,
``must_trump``, ``incomplete_play``, ``too_many_plays``.

The trump-ace duty: whoever holds the trump ace when play starts must lead it
at his first lead (if he plays it to another's lead first, he had no chance to
fail). The Belli duty: when the trump ace is led, another player who still
holds the Belli must play it to that trick. Both are legal plays: failing
one is recorded in ``duties_failed`` and costs a bete. The derived line's
``trump_ace`` is the seat *dealt* the trump ace (the one that may not pass).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from games.cards import CARD_BY_TEXT, Card, Suit, deck
from games.errors import FieldError, InvalidRecord, RuleSetError
from games.lines import note_problem, seat_text
from games.registry import find
from games.rulesets import Game, RuleSet, ZwickenOptions
from games.settlement import Settled
from games.zwicken.cards import BELLI, TrumpOrder
from games.zwicken.lines import ZwickenPlay, check_zwicken_line
from games.zwicken.settlement import settle_zwicken

HEADER_FIELDS = ("rules", "players", "dealer", "cut", "pot", "deal", "note")
DEAL_FIELDS = ("hands", "turned", "talon", "decisions", "exchanges", "plays")
KNOWN_FIELDS = frozenset(HEADER_FIELDS + DEAL_FIELDS)
SUIT_NAMES = {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts", Suit.SPADES: "spades"}


class RecordResult(NamedTuple):
    """A checked record: its score-sheet line (``games.zwicken`` line format) and that line's settlement."""

    line: dict[str, Any]
    settled: Settled


def cut_effect(card: Card, options: ZwickenOptions) -> str:
    """``"void"`` (an ace or a seven other than the 7♦), ``"belli"`` (the 7♦) or ``"none"``."""
    if not options.hop_and_jump:
        return "none"
    if card is BELLI:
        return "belli"
    if card.rank in (14, 7):
        return "void"
    return "none"


def seats_from_left(dealer: int, players: int) -> list[int]:
    """Every seat, clockwise from the dealer's left; the dealer last."""
    return [(dealer + i) % players for i in range(1, players + 1)]


def resolve_rules(value: object) -> RuleSet:
    """A rule set from a record's ``rules``: a registered name, or a rule-set object (``RuleSet.from_json``)."""
    rules = find(value) if isinstance(value, str) else RuleSet.from_json(value)
    if rules.game is not Game.ZWICKEN:
        raise _NotZwicken(f"rule set {rules.name!r} is a {rules.game.value} rule set, not a Zwicken one")
    return rules


class _NotZwicken(RuleSetError):
    pass


class _Stop(Exception):
    """The stage has problems: report them."""


class _Check:
    def __init__(self) -> None:
        self.errors: list[FieldError] = []

    def add(self, code: str, field: str, message: str) -> None:
        self.errors.append(FieldError(code, field, message))

    def stage_done(self) -> None:
        if self.errors:
            raise _Stop


def _is_int(value: Any) -> bool:
    return type(value) is int


def check_record(record: object) -> RecordResult:
    """Check a full deal record; return its line and settlement or raise ``InvalidRecord`` with its problems."""
    check = _Check()
    try:
        return _check(record, check)
    except _Stop:
        raise InvalidRecord(check.errors) from None


def _card(value: Any, field: str, in_deck: frozenset[Card], check: _Check) -> Card | None:
    card = CARD_BY_TEXT.get(value.upper()) if isinstance(value, str) else None
    if card is None:
        check.add("unknown_card", field, f"{value!r} is not a card: write rank then suit, e.g. AS, 10H, 7D")
        return None
    if card not in in_deck:
        check.add("card_not_in_deck", field, f"{card} is not in the {len(in_deck)}-card deck")
        return None
    return card


def _check(record: object, check: _Check) -> RecordResult:
    if not isinstance(record, Mapping):
        check.add("not_an_object", "", f"a record must be a JSON object, got {type(record).__name__}")
        check.stage_done()
    assert isinstance(record, Mapping)
    for key in record:
        if key not in KNOWN_FIELDS:
            check.add("unknown_field", str(key), f"unknown field {key!r} (known: {', '.join(sorted(KNOWN_FIELDS))})")

    rules: RuleSet | None = None
    if "rules" not in record:
        check.add("missing_field", "rules", "the record names its rule set")
    else:
        try:
            rules = resolve_rules(record["rules"])
        except _NotZwicken as exc:
            check.add("not_zwicken", "rules", str(exc))
        except RuleSetError as exc:
            code = "unknown_rules" if isinstance(record["rules"], str) else "invalid_rules"
            check.add(code, "rules", str(exc))
    players = record.get("players")
    if players is None:
        check.add("missing_field", "players", "the record gives the number of players")
    elif not _is_int(players):
        check.add("wrong_type", "players", f"players must be a whole number, got {players!r}")
        players = None
    elif rules is not None and rules.zwicken is not None:
        low, high = rules.zwicken.min_players, rules.zwicken.max_players
        if not low <= players <= high:
            check.add("players_out_of_range", "players", f"{rules.name} is played by {low} to {high}, not {players}")
            players = None
    dealer = record.get("dealer")
    if dealer is None:
        check.add("missing_field", "dealer", "the record names its dealer")
    elif not _is_int(dealer):
        check.add("wrong_type", "dealer", f"dealer must be a seat number, got {dealer!r}")
    elif isinstance(players, int) and not 0 <= dealer < players:
        check.add("seat_out_of_range", "dealer", f"dealer {dealer} is not a seat at a table of {players}")
    pot = record.get("pot", 0)
    if not _is_int(pot) or pot < 0:
        check.add("wrong_type", "pot", f"pot (carried before the ante) must be a whole number, 0 or more, got {pot!r}")
    deal = record.get("deal", 1)
    if not _is_int(deal) or deal < 1:
        check.add("wrong_type", "deal", f"deal must be a deal number, 1 or more, got {deal!r}")
    problem = note_problem(record.get("note"))
    if problem is not None:
        check.add(problem[0], "note", problem[1])
    check.stage_done()
    assert rules is not None and rules.zwicken is not None
    assert isinstance(players, int) and isinstance(dealer, int) and isinstance(pot, int) and isinstance(deal, int)
    options = rules.zwicken
    in_deck = frozenset(deck(options.deck))

    cut: Card | None = None
    if "cut" in record:
        cut = _card(record["cut"], "cut", in_deck, check)
    elif options.hop_and_jump:
        check.add("missing_field", "cut", "the record gives the card exposed by the hop-and-jump cut")
    check.stage_done()
    effect = "none" if cut is None else cut_effect(cut, options)
    if effect != "none":
        for key in DEAL_FIELDS:
            if key in record:
                check.add("cut_ends_deal", key, f"the cut exposed {cut}: the deal ends at the cut ({effect}), no {key}")
        check.stage_done()
        cut_line: dict[str, Any] = {"deal": deal, "dealer": dealer, "cut": effect}
        return RecordResult(cut_line, settle_zwicken(options, ZwickenPlay(deal, dealer, effect), players, pot))

    for key in ("hands", "turned", "talon", "decisions", "plays"):
        if key not in record:
            check.add("missing_field", key, f"a dealt record gives its {key}")
    check.stage_done()
    hands, turned, talon = _cards(record, options, players, in_deck, cut, check)
    order = TrumpOrder(turned.suit, options.sechser_belli)
    ace = order.ace
    dealt_ace = next((seat for seat, hand in enumerate(hands) if ace in hand), None)

    playing = _decisions(record["decisions"], options, players, dealer, dealt_ace, check)
    _exchanges(record.get("exchanges", []), options, dealer, players, playing, hands, talon, in_deck, check)
    tricks, duties = _plays(record["plays"], options, order, dealer, players, playing, hands, in_deck, check)

    line: dict[str, Any] = {
        "deal": deal,
        "dealer": dealer,
        "played": sorted(playing),
        "tricks": tricks,
        "duties_failed": sorted(duties),
    }
    if dealt_ace is not None:
        line["trump_ace"] = dealt_ace
    play = check_zwicken_line(line, rules, players, next_deal=deal, expected_dealer=None, pot=pot)
    return RecordResult(line, settle_zwicken(options, play, players, pot))


def _cards(
    record: Mapping[str, Any],
    options: ZwickenOptions,
    players: int,
    in_deck: frozenset[Card],
    cut: Card | None,
    check: _Check,
) -> tuple[list[list[Card]], Card, list[Card]]:
    where: dict[Card, str] = {}

    def place(card: Card | None, field: str) -> None:
        if card is None:
            return
        if card in where:
            check.add("duplicate_card", field, f"{card} is dealt twice: in {where[card]} and in {field}")
        else:
            where[card] = field

    hands: list[list[Card]] = []
    value = record["hands"]
    if not isinstance(value, list) or len(value) != players:
        check.add("hands_shape", "hands", f"hands must be {players} lists of {options.hand} cards, one per seat")
    else:
        for seat, hand in enumerate(value):
            field = f"hands[{seat}]"
            if not isinstance(hand, list) or len(hand) != options.hand:
                check.add("hands_shape", field, f"seat {seat + 1} must be dealt {options.hand} cards, got {hand!r}")
                continue
            cards = [_card(text, f"{field}[{i}]", in_deck, check) for i, text in enumerate(hand)]
            for card in cards:
                place(card, field)
            hands.append([c for c in cards if c is not None])
    turned = _card(record["turned"], "turned", in_deck, check)
    place(turned, "turned")
    talon: list[Card] = []
    value = record["talon"]
    if not isinstance(value, list):
        check.add("wrong_type", "talon", f"talon must be a list of cards, top first, got {value!r}")
    else:
        for i, text in enumerate(value):
            card = _card(text, f"talon[{i}]", in_deck, check)
            place(card, "talon")
            if card is not None:
                talon.append(card)
    if not check.errors:
        missing = [str(c) for c in deck(options.deck) if c not in where]
        if missing:
            check.add("missing_card", "talon", f"cards {', '.join(missing)} are nowhere: the talon holds the rest")
        elif cut is not None and talon[-1] is not cut:
            check.add(
                "cut_not_bottom",
                "cut",
                f"the cut puts the exposed {cut} at the bottom of the pack, so it is the talon's last card,"
                f" not {talon[-1]}",
            )
    check.stage_done()
    assert turned is not None
    return hands, turned, talon


def _decisions(
    value: Any, options: ZwickenOptions, players: int, dealer: int, dealt_ace: int | None, check: _Check
) -> list[int]:
    if not isinstance(value, list):
        check.add("wrong_type", "decisions", f'decisions must be a list of [seat, "play" or "pass"], got {value!r}')
        check.stage_done()
    order = seats_from_left(dealer, players)
    playing: list[int] = []
    for i, entry in enumerate(value):
        field = f"decisions[{i}]"
        if not (isinstance(entry, list) and len(entry) == 2 and _is_int(entry[0])):
            check.add("wrong_type", field, f'a decision is [seat, "play" or "pass"], got {entry!r}')
            continue
        seat, said = entry
        if i >= players:
            check.add("too_many_decisions", field, f"every seat decides once: {players} decisions, not {len(value)}")
            break
        if seat != order[i]:
            check.add(
                "decision_out_of_order",
                field,
                f"decision {i + 1} is seat {order[i] + 1}'s (from the dealer's left), not {seat_text(seat)}'s",
            )
            continue
        if said == "play":
            playing.append(seat)
        elif said == "pass":
            if seat == dealt_ace:
                check.add("trump_ace_passed", field, f"seat {seat + 1} holds the trump ace and may not pass")
            elif not options.may_pass:
                check.add("pass_not_allowed", field, f"nobody may pass under these rules: seat {seat + 1} passed")
        else:
            check.add("unknown_decision", field, f'seat {seat + 1} must say "play" or "pass", not {said!r}')
    if len(value) < players:
        check.add(
            "decisions_incomplete", "decisions", f"every seat decides: {players} decisions expected, got {len(value)}"
        )
    check.stage_done()
    return playing


def _exchanges(
    value: Any,
    options: ZwickenOptions,
    dealer: int,
    players: int,
    playing: list[int],
    hands: list[list[Card]],
    talon: list[Card],
    in_deck: frozenset[Card],
    check: _Check,
) -> None:
    """Apply the exchanges to ``hands``: each discard is replaced by the talon's next card."""
    if not isinstance(value, list):
        check.add("wrong_type", "exchanges", f"exchanges must be a list of [seat, [cards]], got {value!r}")
        check.stage_done()
    position = {seat: i for i, seat in enumerate(seats_from_left(dealer, players))}
    last = -1
    drawn = 0
    for i, entry in enumerate(value):
        field = f"exchanges[{i}]"
        if not (isinstance(entry, list) and len(entry) == 2 and _is_int(entry[0]) and isinstance(entry[1], list)):
            check.add("wrong_type", field, f"an exchange is [seat, [cards given up, in order]], got {entry!r}")
            continue
        seat, discards = entry
        if seat not in playing:
            check.add("exchange_by_passed_player", field, f"seat {seat + 1} does not play, so exchanges nothing")
            continue
        if position[seat] <= last:
            check.add(
                "exchange_out_of_order",
                field,
                f"seat {seat + 1} exchanges out of turn: exchanges go once each, clockwise from the dealer's left",
            )
            continue
        last = position[seat]
        if len(discards) > options.exchange:
            check.add(
                "too_many_exchanged",
                field,
                f"seat {seat + 1} exchanges {len(discards)} cards, at most {options.exchange}",
            )
            continue
        hand = hands[seat]
        for j, text in enumerate(discards):
            card = _card(text, f"{field}[{j}]", in_deck, check)
            if card is None:
                break
            if card not in hand:
                check.add(
                    "card_not_in_hand",
                    field,
                    f"seat {seat + 1} gives up {card}, which is not in its hand {_text(hand)}",
                )
                break
            if drawn >= len(talon):
                check.add("talon_exhausted", field, f"seat {seat + 1} exchanges {card} but the talon is empty")
                break
            hand[hand.index(card)] = talon[drawn]
            drawn += 1
    check.stage_done()


def _text(cards: Sequence[Card]) -> str:
    return "[" + " ".join(str(c) for c in cards) + "]"


def _plays(
    value: Any,
    options: ZwickenOptions,
    order: TrumpOrder,
    dealer: int,
    players: int,
    playing: list[int],
    hands: list[list[Card]],
    in_deck: frozenset[Card],
    check: _Check,
) -> tuple[list[int], set[int]]:
    """Play the record's cards; return the tricks by seat and the seats that failed a duty."""
    tricks = [0] * players
    duties: set[int] = set()
    if not isinstance(value, list):
        check.add("wrong_type", "plays", f"plays must be a list of cards in the order played, got {value!r}")
        check.stage_done()
    needed = options.hand * len(playing)
    if not playing:
        if value:
            check.add("too_many_plays", "plays", "nobody plays this deal, so no card is played")
        check.stage_done()
        return tricks, duties
    ace = order.ace
    ace_holder = next((seat for seat in playing if ace in hands[seat]), None)
    has_led: set[int] = set()
    leader = playing[0]  # playing is in order from the dealer's left
    n = len(playing)
    i = 0
    for t in range(1, options.hand + 1):
        start = playing.index(leader)
        turn = [playing[(start + k) % n] for k in range(n)]
        trick: list[Card] = []
        for seat in turn:
            field = f"plays[{i}]"
            if i >= len(value):
                check.add("incomplete_play", "plays", f"trick {t} is not finished: {len(value)} of {needed} cards")
                check.stage_done()
            card = _card(value[i], field, in_deck, check)
            check.stage_done()
            assert card is not None
            where = f"trick {t}, card {card}"
            hand = hands[seat]
            if card not in hand:
                owner = next((s for s in range(players) if card in hands[s]), None)
                if owner is not None and owner not in playing:
                    check.add("play_by_passed_player", field, f"{where}: the card is seat {owner + 1}'s, who passed")
                elif owner is not None and not trick:
                    check.add(
                        "wrong_leader", field, f"{where}: seat {seat + 1} leads, but {card} is seat {owner + 1}'s"
                    )
                elif owner is not None:
                    check.add(
                        "out_of_turn", field, f"{where}: it is seat {seat + 1}'s turn, but {card} is seat {owner + 1}'s"
                    )
                else:
                    check.add(
                        "card_not_in_hand", field, f"{where}: seat {seat + 1} does not hold it (holds {_text(hand)})"
                    )
                check.stage_done()
            if trick:
                led = order.suit_of(trick[0])
                allowed = order.legal(hand, led)
                if card not in allowed:
                    if order.suit_of(allowed[0]) is led:
                        name = "trumps" if led is order.trump else SUIT_NAMES[led]
                        check.add(
                            "renege", field, f"{where}: seat {seat + 1} must follow {name} with one of {_text(allowed)}"
                        )
                    else:
                        check.add(
                            "must_trump",
                            field,
                            f"{where}: seat {seat + 1} cannot follow, so must trump: {_text(allowed)}",
                        )
                    check.stage_done()
                if trick[0] is ace and seat != ace_holder and BELLI in hand and card is not BELLI:
                    duties.add(seat)  # the Belli must fall on the led trump ace
            else:
                if seat == ace_holder and seat not in has_led and ace in hand and card is not ace:
                    duties.add(seat)  # the trump ace must be led at the first opportunity
                has_led.add(seat)
            hand.remove(card)
            trick.append(card)
            i += 1
        leader = turn[order.winner(trick)]
        tricks[leader] += 1
    if len(value) > needed:
        check.add("too_many_plays", f"plays[{needed}]", f"the deal is over after {needed} cards, got {len(value)}")
        check.stage_done()
    return tricks, duties
