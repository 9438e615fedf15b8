"""Full deal records (``games.records``): cards dealt, auction, every card played (RULES.md §1, §2, §7).

Three kinds of test:

- random legal playouts from ``games.generate.random_record`` for every contract of every preset (and two
  variants), replayed by an independent reference in this file, must be accepted and settle like their line;
- hand-built deals whose trick winners and points are worked out by hand from RULES.md §1 and §4;
- one-rule mutations of the hand-built deals, each rejected with that rule's code; play errors name the trick
  and the card. Junk of any shape only ever raises ``GameError``.
"""

from __future__ import annotations

import contextlib
import copy
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import CONTRACTS, RuleSet, Side, Suit, TrumpRule, find, settle
from games.cards import ACE, SUITS, Card
from games.errors import FieldError, GameError, InvalidRecord
from games.generate import random_record
from games.lines import check_line
from games.records import RecordResult, check_record, troel_partner, troel_partner_card

# --- helpers -------------------------------------------------------------------------------------------------------

RANKS_DOWN = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")


def suit_down(suit: str) -> list[str]:
    """The thirteen cards of a suit, ace first."""
    return [rank + suit for rank in RANKS_DOWN]


def rejected(record: object) -> InvalidRecord:
    with pytest.raises(InvalidRecord) as exc:
        check_record(record)
    return exc.value


def the_error(exc: InvalidRecord, code: str) -> FieldError:
    found = [e for e in exc.errors if e.code == code]
    assert len(found) == 1, exc.errors
    return found[0]


def only(exc: InvalidRecord, code: str, field: str | None = None) -> FieldError:
    """The record broke exactly one rule, ``code`` (on ``field`` if given)."""
    assert exc.codes == {code}, exc.errors
    error = the_error(exc, code)
    if field is not None:
        assert error.field == field, error
    return error


def with_(record: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A deep copy of ``record`` with fields changed; a value of ``None`` removes the field."""
    out = copy.deepcopy(record)
    for key, value in changes.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


def active(players: int, dealer: int) -> list[int]:
    """The seats that play, clockwise from the dealer's left (the dealer sits out at a table of five)."""
    order = [(dealer + k) % players for k in range(1, players + 1)]
    return [s for s in order if players == 4 or s != dealer]


# --- hand-built deals ----------------------------------------------------------------------------------------------

# SCRIPT: dealer 0, seat 1 leads. Everybody follows suit for twelve tricks (three per suit), the four twos make
# the last trick. Each trick lists (seat, card) in play order; the winner is worked out by hand.
SCRIPT_TRICKS: list[tuple[int, list[tuple[int, str]]]] = [
    (1, [(1, "AS"), (2, "3S"), (3, "4S"), (0, "5S")]),  # 1: AS
    (1, [(1, "KS"), (2, "6S"), (3, "7S"), (0, "8S")]),  # 2: KS
    (2, [(1, "9S"), (2, "QS"), (3, "10S"), (0, "JS")]),  # 3: QS
    (2, [(2, "AC"), (3, "3C"), (0, "4C"), (1, "5C")]),  # 4: AC
    (3, [(2, "6C"), (3, "KC"), (0, "7C"), (1, "8C")]),  # 5: KC
    (0, [(3, "9C"), (0, "QC"), (1, "10C"), (2, "JC")]),  # 6: QC
    (0, [(0, "AD"), (1, "3D"), (2, "4D"), (3, "5D")]),  # 7: AD
    (2, [(0, "6D"), (1, "7D"), (2, "KD"), (3, "8D")]),  # 8: KD
    (3, [(2, "9D"), (3, "QD"), (0, "10D"), (1, "JD")]),  # 9: QD
    (3, [(3, "AH"), (0, "3H"), (1, "4H"), (2, "5H")]),  # 10: AH
    (0, [(3, "6H"), (0, "KH"), (1, "7H"), (2, "8H")]),  # 11: KH
    (1, [(0, "9H"), (1, "QH"), (2, "10H"), (3, "JH")]),  # 12: QH
    # 13: the twos, each seat void in the led spade by now: the trump two wins; without trump the 2S (seat 1)
    (0, [(1, "2S"), (2, "2C"), (3, "2D"), (0, "2H")]),
]
SCRIPT_HANDS: list[list[str]] = [
    [card for _, trick in SCRIPT_TRICKS for s, card in trick if s == seat] for seat in range(4)
]
SCRIPT_PLAYS: list[str] = [card for _, trick in SCRIPT_TRICKS for _, card in trick]
TWELVE = [winner for winner, _ in SCRIPT_TRICKS[:12]]  # [1, 1, 2, 2, 3, 0, 0, 2, 3, 3, 0, 1]
# trick 13 by trump suit: the two of trumps wins; without trump the led 2S
LAST_TRICK_BY_TRUMP = {"H": 0, "S": 1, "C": 2, "D": 3, None: 1}

VRAAG_1_3 = [[1, "vraag"], [2, "pass"], [3, "meegaan"], [0, "pass"]]
VRAAG_2_0 = [[1, "pass"], [2, "vraag"], [3, "pass"], [0, "meegaan"]]


def alone(seat: int, *bid: Any, seats: tuple[int, ...] = (1, 2, 3, 0)) -> list[list[Any]]:
    """One round in which ``seat`` bids ``bid`` and the others pass."""
    return [[s, *bid] if s == seat else [s, "pass"] for s in seats]


def script(rules: object = "iwwa", bids: Any = VRAAG_1_3, **extra: Any) -> dict[str, Any]:
    """The SCRIPT deal; ``bids=None`` leaves the bids out (give a ``line`` instead)."""
    record: dict[str, Any] = {
        "rules": rules,
        "players": 4,
        "dealer": 0,
        "turned": "2H",  # trump hearts where the turned card decides
        "hands": copy.deepcopy(SCRIPT_HANDS),
        "plays": list(SCRIPT_PLAYS),
    }
    return with_(record, bids=copy.deepcopy(bids), **extra)


# SUITS: dealer 0 holds the clubs (turned 2C: trump clubs), seat 1 the spades, seat 2 the hearts, seat 3 the
# diamonds. In RUFF_PLAYS seat 1 leads the AS, the others are void: seat 0 ruffs with the 2C and then runs
# its clubs; nobody else can follow, so seat 0 takes all 13 tricks.
SUITS_HANDS = [suit_down("C"), suit_down("S"), suit_down("H"), suit_down("D")]
RUFF_PLAYS = ["AS", "AH", "AD", "2C"] + [
    card
    for k in range(12)
    for card in (suit_down("C")[k], suit_down("S")[k + 1], suit_down("H")[k + 1], suit_down("D")[k + 1])
]
# seat 2 (hearts) leads all thirteen hearts; the others (3, 0, 1 in turn) discard
HEARTS_RUN = [
    card for k in range(13) for card in (suit_down("H")[k], suit_down("D")[k], suit_down("C")[k], suit_down("S")[k])
]


def suits(rules: object = "iwwa", bids: Any = None, **extra: Any) -> dict[str, Any]:
    """The SUITS deal; by default the dealer (seat 0) plays alleen and ruffs the first trick."""
    record: dict[str, Any] = {
        "rules": rules,
        "players": 4,
        "dealer": 0,
        "turned": "2C",
        "hands": copy.deepcopy(SUITS_HANDS),
        "bids": bids if bids is not None else alone(0, "alleen"),
        "plays": list(RUFF_PLAYS),
    }
    return with_(record, **extra)


# TROEL3: seat 1 holds AS AC AD, seat 2 all hearts (the fourth ace): troel in hearts with seat 2, who must
# lead the AH; everyone else is void in hearts, so seat 2 takes all 13 tricks.
TROEL3_HANDS = [
    [*suit_down("C")[1:], "QS"],
    [c for c in suit_down("S") if c not in ("QS", "JS")] + ["AC", "AD"],
    suit_down("H"),
    [*suit_down("D")[1:], "JS"],
]
TROEL3_PLAYS = [
    card for k in range(13) for card in (TROEL3_HANDS[2][k], TROEL3_HANDS[3][k], TROEL3_HANDS[0][k], TROEL3_HANDS[1][k])
]
TROEL3_BIDS = [[1, "troel"], [3, "pass"], [0, "pass"]]


def troel3(rules: object = "iwwa", **extra: Any) -> dict[str, Any]:
    record = {
        "rules": rules,
        "players": 4,
        "dealer": 0,
        "turned": "2C",
        "hands": copy.deepcopy(TROEL3_HANDS),
        "bids": copy.deepcopy(TROEL3_BIDS),
        "plays": list(TROEL3_PLAYS),
    }
    return with_(record, **extra)


# TROEL4: seat 1 holds all four aces; the highest heart it lacks, the KH, is seat 2's: troel in hearts with
# seat 2. Nobody is told to lead an ace, so the dealer's left (seat 1) leads.
TROEL4_HANDS = [
    [*suit_down("C")[1:], "QS"],
    ["AS", "KS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S", "AC", "AD", "AH"],
    [*suit_down("H")[1:], "10S"],
    [*suit_down("D")[1:], "JS"],
]
TROEL4_TRICKS: list[tuple[int, list[str]]] = [
    (1, ["AH", "2H", "2D", "2C"]),  # 1: seats 1, 2, 3, 0: AH, trump
    (1, ["AS", "10S", "JS", "QS"]),  # 2: AS
    (2, ["AC", "3H", "3D", "3C"]),  # 3: seat 2 has no club and trumps with the 3H
    (2, ["KH", "4D", "4C", "2S"]),  # 4: seats 2, 3, 0, 1: KH, nobody else has a heart
    *[
        (2, [heart, diamond, club, spade])  # 5-13: seat 2 runs its hearts
        for heart, diamond, club, spade in zip(
            ["QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H", "4H"],
            ["KD", "QD", "JD", "10D", "9D", "8D", "7D", "6D", "5D"],
            ["KC", "QC", "JC", "10C", "9C", "8C", "7C", "6C", "5C"],
            ["KS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "AD"],
            strict=True,
        )
    ],
]


def troel4(rules: object = "iwwa", **extra: Any) -> dict[str, Any]:
    record = {
        "rules": rules,
        "players": 4,
        "dealer": 0,
        "turned": "2C",
        "hands": copy.deepcopy(TROEL4_HANDS),
        "bids": [[1, "troel"], [3, "pass"], [0, "pass"]],
        "plays": [card for _, trick in TROEL4_TRICKS for card in trick],
    }
    return with_(record, **extra)


def test_troel_s_partner_is_the_missing_ace_s_holder_or_with_four_the_highest_heart_s() -> None:
    cards = [[Card.from_str(text) for text in hand] for hand in TROEL4_HANDS]
    assert troel_partner_card(cards[1]) == Card.from_str("KH")  # four aces, the AH among them
    assert troel_partner(cards, 1, [0, 1, 2, 3]) == 2
    # give the KH to seat 1 (and its 2S to seat 2): the QH, still seat 2's, makes the partner
    cards[1] = [c for c in cards[1] if str(c) != "2S"] + [Card.from_str("KH")]
    cards[2] = [c for c in cards[2] if str(c) != "KH"] + [Card.from_str("2S")]
    assert troel_partner_card(cards[1]) == Card.from_str("QH")
    # three aces: seat 1 gives its AD to seat 3 for the 2D; the AD is the partner's card, whatever the hearts
    cards[1] = [c for c in cards[1] if str(c) != "AD"] + [Card.from_str("2D")]
    cards[3] = [c for c in cards[3] if str(c) != "2D"] + [Card.from_str("AD")]
    assert troel_partner_card(cards[1]) == Card.from_str("AD")
    assert troel_partner(cards, 1, [0, 1, 2, 3]) == 3


# FIVE: a table of five, dealer 2 sits out; seats 3, 4, 0, 1 play. Seat 1 was dealt the last card (2C, turned,
# trump clubs) and holds all clubs; seat 3 spades, seat 4 hearts, seat 0 diamonds. Seat 3 leads the AS,
# seat 1 ruffs and runs the clubs.
FIVE_HANDS = [suit_down("D"), suit_down("C"), [], suit_down("S"), suit_down("H")]
FIVE_PLAYS = ["AS", "AH", "AD", "2C"] + [
    card
    for k in range(12)
    for card in (suit_down("C")[k], suit_down("S")[k + 1], suit_down("H")[k + 1], suit_down("D")[k + 1])
]


def five(rules: object = "iwwa", **extra: Any) -> dict[str, Any]:
    record = {
        "rules": rules,
        "players": 5,
        "dealer": 2,
        "turned": "2C",
        "hands": copy.deepcopy(FIVE_HANDS),
        "bids": alone(1, "alleen", seats=(3, 4, 0, 1)),
        "plays": list(FIVE_PLAYS),
    }
    return with_(record, **extra)


def test_the_hand_built_deals_deal_every_card_once_thirteen_each() -> None:
    everything = {str(c) for c in (Card.from_str(s + r) for r in "CDHS" for s in RANKS_DOWN)}
    for hands in (SCRIPT_HANDS, SUITS_HANDS, TROEL3_HANDS, TROEL4_HANDS, FIVE_HANDS):
        dealt = [c for hand in hands for c in hand]
        assert len(dealt) == 52 and set(dealt) == everything
        assert sorted(len(h) for h in hands if h) == [13, 13, 13, 13]


# --- (a) random legal playouts -------------------------------------------------------------------------------------


def reference_winners(record: dict[str, Any], rules: RuleSet, line: dict[str, Any]) -> list[int]:
    """Replay ``record`` from scratch (RULES.md §1), asserting every play legal; the seat winning each trick."""
    seats = active(record["players"], record["dealer"])
    hands = {s: {Card.from_str(t) for t in record["hands"][s]} for s in seats}
    contract, declarers = line["contract"], line["declarers"]
    rule = rules.trump_rule(contract)
    if rule is TrumpRule.TURNED:
        trump: Suit | None = Card.from_str(record["turned"]).suit
    elif rule is TrumpRule.CHOSEN:
        trump = Suit(record["trump"])
    elif rule is TrumpRule.NONE:
        trump = None
    else:  # troel: the suit of the ace the declarer lacks, hearts with all four
        own = {c.suit for c in hands[declarers[0]] if c.rank == ACE}
        trump = next(s for s in SUITS if s not in own) if len(own) == 3 else Suit.HEARTS
    if contract == "kleine_miserie":
        for s in seats:
            hands[s].remove(Card.from_str(record["discards"][s]))
    leader = seats[0]
    if contract in ("solo_slim", "abondance_declaree"):
        leader = declarers[0]
    plays = [Card.from_str(t) for t in record["plays"]]
    if contract == "troel" and sum(1 for c in hands[declarers[0]] if c.rank == ACE) == 3:
        leader = declarers[1]
        assert plays[0].rank == ACE and plays[0].suit is trump, "troel: the fourth ace leads"
    n = len(seats)
    assert len(plays) % n == 0
    winners: list[int] = []
    for t in range(len(plays) // n):
        trick = plays[t * n : (t + 1) * n]
        at = seats.index(leader)
        order = seats[at:] + seats[:at]
        led = trick[0].suit
        for seat, card in zip(order, trick, strict=True):
            assert card in hands[seat], (t, seat, card)
            assert card.suit is led or not any(c.suit is led for c in hands[seat]), (t, seat, card)
            hands[seat].remove(card)
        best = max(range(n), key=lambda k: (trick[k].suit is trump, trick[k].suit is led, trick[k].rank))
        leader = order[best]
        winners.append(leader)
    return winners


def decided_by(rules: RuleSet, contract: str, declarers: list[int]) -> Callable[[list[int]], bool]:
    """RULES.md §1 early end: a miserie ends once each declarer won a trick, a 13-trick contract at its first loss."""
    spec = CONTRACTS[contract]
    if not rules.early_end:
        return lambda winners: False
    if spec.side is Side.EACH_ALONE and spec.target == 0:
        return lambda winners: all(d in winners for d in declarers)
    if spec.target == spec.max_tricks:
        return lambda winners: any(w not in declarers for w in winners)
    return lambda winners: False


def check_playout(record: dict[str, Any], rules: RuleSet, players: int) -> RecordResult:
    result = check_record(record)
    line = result.line
    contract = line["contract"]
    spec = CONTRACTS[contract]
    winners = reference_winners(record, rules, line)
    assert list(result.winners) == winners
    decided = decided_by(rules, contract, line["declarers"])
    assert len(winners) == spec.max_tricks or decided(winners), "play stops only when the contract is decided"
    assert not any(decided(winners[:k]) for k in range(1, len(winners))), "play goes on after the contract is decided"
    if spec.side is Side.EACH_ALONE:
        assert line["tricks"] == [winners.count(d) for d in line["declarers"]]
    else:
        assert line["tricks"] == sum(1 for w in winners if w in line["declarers"])
    points = result.settled.points
    assert len(points) == players and sum(points) == 0
    if players == 5:
        assert points[record["dealer"]] == 0
    play = check_line(line, rules, players, next_deal=line["deal"], expected_dealer=None, deals_left=None)
    assert result.settled == settle(rules, play, players)
    return result


PLAYOUT_RULES = ("iwwa", "flemish", "belgian", "solo_whist", "iwwa+kleurenwiezen", "flemish+1v3")
PER_CONTRACT = 70  # records per contract per (rule set, table, bids/line): 1,680 to 2,520 per rule set
TROEL_TRIES = 3000


@pytest.mark.parametrize("as_line", [False, True], ids=["bids", "line"])
@pytest.mark.parametrize("players", [4, 5])
@pytest.mark.parametrize("name", PLAYOUT_RULES)
def test_random_legal_records_of_every_contract_are_accepted_and_settle_like_their_line(
    name: str, players: int, as_line: bool
) -> None:
    rules = find(name)
    base = PLAYOUT_RULES.index(name) * 1_000_000 + players * 100_000 + as_line * 50_000
    early = 0
    for k, cid in enumerate(rules.ladder):
        seeds = iter(range(base + k * 5_000, base + k * 5_000 + TROEL_TRIES))
        checked = 0
        while checked < PER_CONTRACT:
            record = random_record(rules, random.Random(next(seeds)), players, contract=cid, as_line=as_line)
            drawn = record["line"]["contract"] if as_line else record["bids"][0][1]
            if cid == "troel" and drawn != "troel":
                continue  # no hand held three aces: the generator drew another contract
            result = check_playout(record, rules, players)
            assert result.line["contract"] == cid
            if as_line:
                assert result.line["declarers"] == record["line"]["declarers"]
            early += len(result.winners) < CONTRACTS[cid].max_tricks
            checked += 1
    if rules.early_end:
        assert early > 0, "some solo whist miseries and slams end early"
    else:
        assert early == 0


def test_a_random_troel_with_four_aces_plays_in_hearts_with_the_highest_missing_heart() -> None:
    rules = find("iwwa")
    found = 0
    for seed in range(20_000):
        record = random_record(rules, random.Random(seed), 4, contract="troel")
        if record["bids"][0][1] != "troel":
            continue
        holder = record["bids"][0][0]
        hand = [Card.from_str(c) for c in record["hands"][holder]]
        if sum(1 for c in hand if c.rank == ACE) < 4:
            continue
        result = check_playout(record, rules, 4)
        top_missing = next(Card.from_str(rank + "H") for rank in RANKS_DOWN if Card.from_str(rank + "H") not in hand)
        partner = next(s for s in range(4) if str(top_missing) in record["hands"][s])
        assert result.line["declarers"] == [holder, partner]
        found += 1
        if found == 5:
            break
    assert found == 5


# --- (b) hand-built records: tricks and points by hand --------------------------------------------------------------


def test_script_vraag_derives_every_trick_winner_and_fails_by_two_under_iwwa() -> None:
    result = check_record(script())
    assert list(result.winners) == [1, 1, 2, 2, 3, 0, 0, 2, 3, 3, 0, 1, 0]
    # seats 1 and 3: tricks 1, 2, 12 and 5, 9, 10: 6 of 8, two under: 6 + 2 x 1 = 8 each way
    assert result.line == {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [1, 3], "tricks": 6}
    assert result.settled.points == (8, -8, 8, -8)
    assert result.settled.made == (False,)


def test_script_vraag_of_seats_2_and_0_fails_by_one() -> None:
    # seats 2 and 0: tricks 3, 4, 8 and 6, 7, 11, 13: 7 of 8
    result = check_record(script(bids=VRAAG_2_0))
    assert result.line["declarers"] == [2, 0]
    assert result.line["tricks"] == 7
    assert result.settled.points == (-6, 6, -6, 6)  # iwwa: failure 6
    assert check_record(script("flemish", VRAAG_2_0)).settled.points == (-3, 3, -3, 3)  # flemish: fail_base 3
    # belgian per pair: failure 2, each loser pays each of two winners 2
    assert check_record(script("belgian", VRAAG_2_0)).settled.points == (-4, 4, -4, 4)


def test_the_record_keeps_its_deal_number_on_the_derived_line() -> None:
    result = check_record(script(deal=7))
    assert result.line["deal"] == 7
    assert result.settled.deal == 7


def test_a_ten_may_be_written_t_and_cards_in_lower_case() -> None:
    record = script()
    record["hands"] = [[c.replace("10", "T").lower() for c in hand] for hand in record["hands"]]
    record["plays"] = [c.replace("10", "t") for c in record["plays"]]
    assert check_record(record).winners == check_record(script()).winners


@pytest.mark.parametrize(("trump", "last"), [("H", 0), ("S", 1), ("C", 2), ("D", 3)])
def test_the_chosen_trump_decides_the_last_trick(trump: str, last: int) -> None:
    # abondance 9 by seat 0: tricks 6, 7, 11 and the 13th if seat 0's 2H is trump
    result = check_record(script(bids=alone(0, "abondance", 9), trump=trump))
    assert list(result.winners) == [*TWELVE, last]
    assert result.line == {
        "deal": 1,
        "dealer": 0,
        "contract": "abondance",
        "declarers": [0],
        "tricks": 4 if trump == "H" else 3,
        "level": 9,
        "trump": trump,
    }
    assert result.settled.points == (-15, 5, 5, 5)  # iwwa abondance 9: 5 per opponent, made or failed


@pytest.mark.parametrize(("trump", "tricks", "points"), [("C", 6, (8, -8, 8, -8)), ("D", 7, (6, -6, 6, -6))])
def test_kleurenwiezen_vraag_is_played_in_the_trump_the_asker_names(
    trump: str, tricks: int, points: tuple[int, ...]
) -> None:
    # the 13th trick goes to the two of the named suit: 2C is seat 2's, 2D seat 3's (the asker's partner)
    result = check_record(script("iwwa+kleurenwiezen", trump=trump))
    assert result.line["tricks"] == tricks
    assert result.line["trump"] == trump
    assert result.settled.points == points


def test_miserie_is_played_without_trump_and_several_declarers_settle_each_alone() -> None:
    # seats 1 and 2 both play miserie; no trump, so the 2S takes the last trick: seat 1 has 4 tricks, seat 2 has 3
    result = check_record(script(bids=[[1, "miserie"], [2, "miserie"], [3, "pass"], [0, "pass"]]))
    assert list(result.winners) == [*TWELVE, 1]
    assert result.line == {"deal": 1, "dealer": 0, "contract": "miserie", "declarers": [1, 2], "tricks": [4, 3]}
    # iwwa miserie 7: each fails alone: seat 1 -21 and +7 each to 0, 2, 3; seat 2 -21 and +7 each to 0, 1, 3
    assert result.settled.points == (14, -14, -14, 14)
    assert result.settled.made == (False, False)


def test_a_second_miserie_is_too_low_where_the_rule_set_allows_one_declarer() -> None:
    rules = {"preset": "iwwa", "multiple_miserie": False}
    exc = rejected(script(rules, bids=[[1, "miserie"], [2, "miserie"], [3, "pass"], [0, "pass"]]))
    only(exc, "bid_too_low", "bids[1]")


def test_piccolo_under_belgian_is_played_without_trump() -> None:
    # seat 3 takes tricks 5, 9, 10: three, not exactly one; belgian piccolo 4 per opponent
    result = check_record(script("belgian", alone(3, "piccolo")))
    assert result.line["tricks"] == [3]
    assert result.settled.points == (4, 4, 4, -12)


def test_kleine_miserie_plays_twelve_tricks_after_each_seat_discards() -> None:
    # every seat lays away its two: the first twelve tricks of SCRIPT are played, without trump
    record = script("belgian", alone(1, "kleine_miserie"), discards=["2H", "2S", "2C", "2D"], plays=SCRIPT_PLAYS[:48])
    result = check_record(record)
    assert list(result.winners) == TWELVE
    assert result.line["tricks"] == [3]  # tricks 1, 2, 12
    assert result.settled.points == (10, -30, 10, 10)  # belgian kleine_miserie 10 per opponent


def test_alleen_taking_all_thirteen_tricks_pays_double() -> None:
    # seat 0 ruffs the AS and runs the clubs: 13 tricks, 8 over: (2 + 8) x 2 = 20 per opponent under iwwa
    result = check_record(suits())
    assert list(result.winners) == [0] * 13
    assert result.line == {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [0], "tricks": 13}
    assert result.settled.points == (60, -20, -20, -20)
    assert result.settled.multiplier == 2
    assert check_record(suits("flemish")).settled.points == (60, -20, -20, -20)  # 2 + 8, doubled
    assert check_record(suits("belgian")).settled.points == (9, -3, -3, -3)  # fixed 3, no doubling


def test_vraag_taking_all_thirteen_tricks_pays_double() -> None:
    # seat 1 asks, the dealer joins: 13 tricks, 5 over: (2 + 5) x 2 = 14 each under iwwa
    result = check_record(suits(bids=[[1, "vraag"], [2, "pass"], [3, "pass"], [0, "meegaan"]]))
    assert result.line["declarers"] == [1, 0]
    assert result.line["tricks"] == 13
    assert result.settled.points == (14, 14, -14, -14)


def test_solo_slim_is_led_by_its_declarer() -> None:
    # seat 2 names hearts and leads them all: 13 tricks, iwwa solo slim 30 per opponent, no doubling
    record = suits(bids=alone(2, "solo_slim"), trump="H", plays=HEARTS_RUN)
    result = check_record(record)
    assert list(result.winners) == [2] * 13
    assert result.line == {
        "deal": 1,
        "dealer": 0,
        "contract": "solo_slim",
        "declarers": [2],
        "tricks": 13,
        "trump": "H",
    }
    assert result.settled.points == (-30, -30, 90, -30)


def test_solo_slim_led_by_the_dealers_left_is_rejected() -> None:
    # the same cards, but seat 1 leads each trick as in an ordinary contract: it is seat 2's lead
    rotated = [card for k in range(13) for card in (suit_down("S")[k], *HEARTS_RUN[4 * k : 4 * k + 3])]
    exc = rejected(suits(bids=alone(2, "solo_slim"), trump="H", plays=rotated))
    error = only(exc, "card_not_in_hand", "plays[0]")
    assert "trick 1" in error.message and "AS" in error.message and "seat 3" in error.message


def test_a_table_of_five_deals_the_dealer_out_and_his_right_hand_neighbour_holds_the_turned_card() -> None:
    # seat 1 ruffs the AS with the turned 2C and runs the clubs: 13 tricks, (2 + 8) x 2 = 20 per opponent
    result = check_record(five())
    assert list(result.winners) == [1] * 13
    assert result.line == {"deal": 1, "dealer": 2, "contract": "alleen", "declarers": [1], "tricks": 13}
    assert result.settled.points == (-20, 60, 0, -20, -20)


def test_troel_with_three_aces_is_led_by_the_fourth_ace_and_played_in_its_suit() -> None:
    result = check_record(troel3())
    assert list(result.winners) == [2] * 13
    assert result.line == {"deal": 1, "dealer": 0, "contract": "troel", "declarers": [1, 2], "tricks": 13}
    # iwwa troel: 4 + 2 x 5 = 14, all 13 tricks: x2 = 28 each
    assert result.settled.points == (-28, 28, 28, -28)
    # flemish troel: as vraag (2 + 5 = 7), doubled for troel; all 13 tricks does not double troel there
    assert check_record(troel3("flemish")).settled.points == (-14, 14, 14, -14)
    # belgian per pair: 2 + 1 x 5 = 7 from each of two losers
    assert check_record(troel3("belgian")).settled.points == (-14, 14, 14, -14)


def test_troel_given_as_a_line_finds_the_same_tricks() -> None:
    result = check_record(troel3(bids=None, line={"contract": "troel", "declarers": [1, 2]}))
    assert result.line["tricks"] == 13
    assert result.settled.points == (-28, 28, 28, -28)


def test_troel_with_four_aces_is_played_in_hearts_with_the_holder_of_the_highest_missing_heart() -> None:
    result = check_record(troel4())
    assert list(result.winners) == [winner for winner, _ in TROEL4_TRICKS]
    # trick 3 shows hearts are trump: seat 2's 3H beats the AC
    assert result.winners[2] == 2
    assert result.line == {"deal": 1, "dealer": 0, "contract": "troel", "declarers": [1, 2], "tricks": 13}
    assert result.settled.points == (-28, 28, 28, -28)


def test_solo_whist_miserie_ends_when_its_declarer_wins_a_trick() -> None:
    # seat 1 wins trick 1 with the AS: play ends; solo whist misere 3, per pair: -9 / +3
    result = check_record(script("solo_whist", alone(1, "miserie"), plays=SCRIPT_PLAYS[:4]))
    assert list(result.winners) == [1]
    assert result.line["tricks"] == [1]
    assert result.settled.points == (3, -9, 3, 3)


def test_solo_whist_miserie_plays_after_the_end_are_rejected() -> None:
    exc = rejected(script("solo_whist", alone(1, "miserie")))
    error = only(exc, "play_after_end", "plays[4]")
    assert "trick 2" in error.message and "KS" in error.message


def test_solo_whist_refuses_a_second_miserie_on_the_same_deal() -> None:
    # 003: « Chaque annonce doit dépasser la précédente »: a misère after a misère does not
    bids = [[1, "miserie"], [2, "miserie"], [3, "pass"], [0, "pass"]]
    exc = rejected(script("solo_whist", bids, plays=SCRIPT_PLAYS[:12]))
    assert any(e.field.startswith("bids") for e in exc.errors), exc.errors


def test_two_miseries_under_early_end_end_when_both_declarers_won_a_trick() -> None:
    # solo_whist with several miserie players allowed: seat 1 wins tricks 1 and 2, seat 2 trick 3: play ends after
    # 3 tricks; each fails alone for 3
    bids = [[1, "miserie"], [2, "miserie"], [3, "pass"], [0, "pass"]]
    rules = {"preset": "solo_whist", "multiple_miserie": True}
    result = check_record(script(rules, bids, plays=SCRIPT_PLAYS[:12]))
    assert list(result.winners) == [1, 1, 2]
    assert result.line["tricks"] == [2, 1]
    assert result.settled.points == (6, -6, -6, 6)
    only(rejected(script(rules, bids, plays=SCRIPT_PLAYS[:8])), "incomplete_play")


def test_solo_whist_abondance_declaree_ends_at_the_first_lost_trick() -> None:
    # seat 1 leads (it is also the dealer's left), wins tricks 1 and 2, loses trick 3 to the QS
    result = check_record(script("solo_whist", alone(1, "abondance_declaree"), plays=SCRIPT_PLAYS[:12]))
    assert list(result.winners) == [1, 1, 2]
    assert result.line["tricks"] == 2
    assert result.settled.points == (8, -24, 8, 8)  # abondance declaree 8, per pair


def test_solo_whist_abondance_declaree_is_led_by_its_declarer() -> None:
    # seat 2 declares: it leads the AC (wins), then the 6C, lost to seat 3's KC: play ends
    plays = ["AC", "3C", "4C", "5C", "6C", "KC", "7C", "8C"]
    result = check_record(script("solo_whist", alone(2, "abondance_declaree"), plays=plays))
    assert list(result.winners) == [2, 3]
    assert result.line["tricks"] == 1
    assert result.settled.points == (8, 8, -24, 8)
    exc = rejected(script("solo_whist", alone(2, "abondance_declaree"), plays=SCRIPT_PLAYS[:12]))
    error = only(exc, "card_not_in_hand", "plays[0]")
    assert "trick 1" in error.message and "AS" in error.message


def test_solo_whist_unaccepted_vraag_voids_the_deal() -> None:
    record = script("solo_whist", alone(1, "vraag"), plays=[])
    result = check_record(record)
    assert result.line == {"deal": 1, "dealer": 0, "contract": "pass"}
    assert result.settled.points == (0, 0, 0, 0)
    assert list(result.winners) == []
    only(rejected(with_(record, plays=SCRIPT_PLAYS)), "play_after_end", "plays")


def test_solo_whist_vraag_with_acceptance_is_a_fixed_two_per_pair() -> None:
    # seats 1 and 3 take 6 tricks: failed, 2 per pair from each of the two winners
    assert check_record(script("solo_whist")).settled.points == (4, -4, 4, -4)


def test_flemish_unaccepted_vraag_waits_for_the_asker() -> None:
    exc = rejected(script("flemish", alone(1, "vraag")))
    only(exc, "auction_incomplete", "bids")


def test_flemish_asker_nobody_joined_may_go_alone() -> None:
    # alleen in the turned hearts: seat 1 takes tricks 1, 2, 12: 3 of 5, two under: 3 + 1 = 4 per opponent
    result = check_record(script("flemish", [*alone(1, "vraag"), [1, "alleen"]]))
    assert result.line == {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [1], "tricks": 3}
    assert result.settled.points == (4, -12, 4, 4)


def test_flemish_asker_nobody_joined_may_pass() -> None:
    result = check_record(script("flemish", [*alone(1, "vraag"), [1, "pass"]], plays=[]))
    assert result.line["contract"] == "pass"
    assert result.settled.points == (0, 0, 0, 0)


@pytest.mark.parametrize(("after", "code"), [([2, "alleen"], "bid_out_of_turn"), ([1, "miserie"], "bid_out_of_turn")])
def test_flemish_only_the_asker_decides_alleen_or_pass(after: list[Any], code: str) -> None:
    only(rejected(script("flemish", [*alone(1, "vraag"), after])), code, "bids[4]")


def test_flemish_nothing_may_be_said_after_the_asker_decided() -> None:
    only(rejected(script("flemish", [*alone(1, "vraag"), [1, "alleen"], [2, "pass"]])), "bid_after_end", "bids[5]")


def test_an_all_pass_deal_has_no_plays() -> None:
    result = check_record(script(bids=alone(0, "pass"), plays=[]))
    assert result.line == {"deal": 1, "dealer": 0, "contract": "pass"}
    assert result.settled.points == (0, 0, 0, 0)
    only(rejected(script(bids=alone(0, "pass"))), "play_after_end", "plays")


# --- (c) one rule broken at a time ---------------------------------------------------------------------------------


def play_error(record: dict[str, Any], code: str, field: str, trick: int, card: str) -> FieldError:
    error = only(rejected(record), code, field)
    assert f"trick {trick}" in error.message, error
    assert card in error.message, error
    return error


def test_a_renege_is_rejected_naming_the_trick_and_the_card() -> None:
    # seat 2 keeps its 3S and plays the 4D on the AS (trick 1), then the 3S on the AD (trick 7): both renege
    plays = list(SCRIPT_PLAYS)
    plays[1], plays[26] = plays[26], plays[1]
    assert (plays[1], plays[26]) == ("4D", "3S")
    exc = rejected(script(plays=plays))
    assert exc.codes == {"renege"}
    first, second = exc.errors
    assert first.field == "plays[1]" and "trick 1" in first.message and "4D" in first.message
    assert "seat 3" in first.message and "spades" in first.message
    assert second.field == "plays[26]" and "trick 7" in second.message and "3S" in second.message


def test_discarding_when_void_is_no_renege_and_trumping_is_not_forced() -> None:
    # trick 13 of SCRIPT: nobody can follow the 2S; under vraag (trump hearts) the 2C and 2D are discards
    assert check_record(script()).winners[12] == 0


def test_leading_out_of_turn_is_a_card_not_in_the_leaders_hand() -> None:
    # seat 2 leads the first trick, but the dealer's left (seat 1) leads: seat 1 does not hold the 3S
    plays = ["3S", "4S", "5S", "AS", *SCRIPT_PLAYS[4:]]
    error = play_error(script(plays=plays), "card_not_in_hand", "plays[0]", 1, "3S")
    assert "seat 2" in error.message


def test_playing_out_of_turn_within_a_trick_is_a_card_not_in_hand() -> None:
    plays = list(SCRIPT_PLAYS)
    plays[1], plays[2] = plays[2], plays[1]  # seat 3's 4S where seat 2 plays
    error = play_error(script(plays=plays), "card_not_in_hand", "plays[1]", 1, "4S")
    assert "seat 3" in error.message


def test_only_the_winner_of_a_trick_leads_the_next() -> None:
    # trick 3 is seat 2's (QS); if seat 1 leads trick 4 with its 5C, it is not seat 2's card
    plays = list(SCRIPT_PLAYS)
    plays[12:16] = ["5C", "AC", "3C", "4C"]
    error = play_error(script(plays=plays), "card_not_in_hand", "plays[12]", 4, "5C")
    assert "seat 3" in error.message


def test_a_card_cannot_be_played_twice() -> None:
    plays = list(SCRIPT_PLAYS)
    plays[4] = "AS"  # seat 1 leads its AS again in trick 2
    play_error(script(plays=plays), "card_not_in_hand", "plays[4]", 2, "AS")


def test_a_play_that_is_not_a_card_is_rejected() -> None:
    plays = list(SCRIPT_PLAYS)
    plays[9] = "1S"
    play_error(script(plays=plays), "unknown_card", "plays[9]", 3, "1S")


def test_a_duplicated_card_in_the_hands_is_rejected() -> None:
    record = script()
    record["hands"][3][0] = record["hands"][2][0]  # seat 3 holds seat 2's 3S instead of its 4S
    error = only(rejected(record), "duplicate_card", "hands[3][0]")
    assert "3S" in error.message


@pytest.mark.parametrize(("giver", "taker"), [(3, 2), (0, 1)])
def test_twelve_or_fourteen_cards_in_a_hand_are_rejected(giver: int, taker: int) -> None:
    record = script()
    record["hands"][taker].append(record["hands"][giver].pop(0))
    exc = rejected(record)
    assert exc.codes == {"hand_size"}
    assert {e.field for e in exc.errors} == {f"hands[{giver}]", f"hands[{taker}]"}
    assert any("got 12 cards" in e.message for e in exc.errors)
    assert any("got 14 cards" in e.message for e in exc.errors)


def test_a_missing_card_is_a_hand_of_twelve() -> None:
    record = script()
    record["hands"][1].pop()
    only(rejected(record), "hand_size", "hands[1]")


def test_the_dealer_who_sits_out_is_dealt_no_cards() -> None:
    record = five()
    record["hands"][2] = [record["hands"][0].pop()]
    exc = rejected(record)
    assert exc.codes == {"hand_size"}
    assert {e.field for e in exc.errors} == {"hands[0]", "hands[2]"}


def test_the_turned_card_must_be_in_the_dealers_hand() -> None:
    error = only(rejected(script(turned="AS")), "turned_not_dealers", "turned")  # the AS is seat 1's
    assert "AS" in error.message


def test_at_a_table_of_five_the_turned_card_is_the_right_hand_neighbours() -> None:
    only(rejected(five(turned="2S")), "turned_not_dealers", "turned")  # seat 3's, the first seat dealt
    only(rejected(five(turned="XX")), "unknown_card", "turned")


def test_troel_announced_without_three_aces_is_rejected() -> None:
    # in SCRIPT every seat holds one ace
    exc = rejected(script(bids=[[1, "troel"], [3, "pass"], [0, "pass"]]))
    only(exc, "troel_without_three_aces", "bids[0]")


def test_troel_given_as_a_line_without_three_aces_is_rejected() -> None:
    exc = rejected(script(bids=None, line={"contract": "troel", "declarers": [1, 3]}))
    only(exc, "troel_without_three_aces", "declarers")


@pytest.mark.parametrize("partner", [0, 3])
def test_troel_with_a_partner_who_does_not_hold_the_fourth_ace_is_rejected(partner: int) -> None:
    exc = rejected(troel3(bids=None, line={"contract": "troel", "declarers": [1, partner]}))
    error = only(exc, "troel_wrong_partner", "declarers")
    assert "seat 3" in error.message


def test_troel_with_four_aces_and_a_partner_without_the_highest_missing_heart_is_rejected() -> None:
    only(rejected(troel4(bids=None, line={"contract": "troel", "declarers": [1, 3]})), "troel_wrong_partner")
    assert check_record(troel4(bids=None, line={"contract": "troel", "declarers": [1, 2]})).line["tricks"] == 13


def test_troel_where_the_fourth_ace_is_not_led_first_is_rejected() -> None:
    plays = list(TROEL3_PLAYS)
    plays[0], plays[4] = plays[4], plays[0]  # seat 2 leads the KH, then the AH
    assert plays[:1] == ["KH"]
    error = play_error(troel3(plays=plays), "wrong_first_lead", "plays[0]", 1, "KH")
    assert "AH" in error.message


def test_troel_led_by_the_dealers_left_instead_of_the_fourth_ace_is_rejected() -> None:
    # seat 1 leads its AS, but seat 2 leads the AH
    plays = ["AS", "AH", "KD", "KC", *TROEL3_PLAYS[4:]]
    play_error(troel3(plays=plays), "card_not_in_hand", "plays[0]", 1, "AS")


BAD_AUCTIONS: list[tuple[str, list[list[Any]], str, str]] = [
    ("out of turn", [[2, "pass"], [3, "pass"], [0, "pass"], [1, "pass"]], "bid_out_of_turn", "bids[0]"),
    ("skipping a seat", [[1, "pass"], [3, "vraag"]], "bid_out_of_turn", "bids[1]"),
    ("too low", [[1, "alleen"], [2, "vraag"]], "bid_too_low", "bids[1]"),
    ("equal", [[1, "alleen"], [2, "alleen"]], "bid_too_low", "bids[1]"),
    ("lower abondance", [[1, "abondance", 10], [2, "abondance", 9]], "bid_too_low", "bids[1]"),
    # the round is over and the vraag found nobody: only its asker speaks now
    (
        "joining after the round",
        [[1, "pass"], [2, "vraag"], [3, "pass"], [0, "pass"], [1, "meegaan"]],
        "bid_out_of_turn",
        "bids[4]",
    ),
    ("again after passing", [[1, "pass"], [2, "vraag"], [1, "meegaan"]], "bid_after_pass", "bids[2]"),
    ("meegaan first", [[1, "meegaan"]], "meegaan_without_vraag", "bids[0]"),
    ("meegaan on alleen", [[1, "alleen"], [2, "meegaan"]], "meegaan_without_vraag", "bids[1]"),
    ("a third to a vraag", [[1, "vraag"], [2, "meegaan"], [3, "meegaan"]], "meegaan_without_vraag", "bids[2]"),
    ("piccolo under iwwa", [[1, "piccolo"]], "bid_not_enabled", "bids[0]"),
    ("kleine miserie under iwwa", [[1, "kleine_miserie"]], "bid_not_enabled", "bids[0]"),
    ("not a contract", [[1, "grand_slam"]], "unknown_bid", "bids[0]"),
    ("abondance 8", [[1, "abondance", 8]], "level_out_of_range", "bids[0]"),
    ("abondance 13", [[1, "abondance", 13]], "level_out_of_range", "bids[0]"),
    ("abondance without level", [[1, "abondance"]], "level_out_of_range", "bids[0]"),
    ("a level on alleen", [[1, "alleen", 9]], "unexpected_field", "bids[0]"),
    ("unfinished", [[1, "vraag"], [2, "pass"]], "auction_incomplete", "bids"),
    ("no bids", [], "auction_incomplete", "bids"),
    ("after the end", [*alone(1, "alleen"), [1, "pass"]], "bid_after_end", "bids[4]"),
    ("not a bid", [[1]], "wrong_type", "bids[0]"),
    ("seat as text", [["1", "pass"]], "wrong_type", "bids[0]"),
]


@pytest.mark.parametrize(("bids", "code", "field"), [b[1:] for b in BAD_AUCTIONS], ids=[b[0] for b in BAD_AUCTIONS])
def test_a_bad_auction_is_rejected_with_its_code(bids: list[list[Any]], code: str, field: str) -> None:
    error = only(rejected(script(bids=bids)), code, field)
    if field != "bids":
        assert error.message.startswith(f"bid {int(field[5:-1]) + 1}:"), error


def test_bids_that_are_not_a_list_are_rejected() -> None:
    only(rejected(script(bids={"1": "vraag"})), "wrong_type", "bids")


def test_solo_whist_abondance_has_the_one_level_nine() -> None:
    only(rejected(script("solo_whist", [[1, "abondance", 10]])), "level_out_of_range", "bids[0]")


def test_the_dealer_sitting_out_does_not_bid() -> None:
    only(rejected(five(bids=[[2, "pass"]])), "bid_by_sitting_out", "bids[0]")


def test_a_contract_not_in_the_ladder_given_as_a_line_is_rejected() -> None:
    exc = rejected(script(bids=None, line={"contract": "piccolo", "declarers": [1]}))
    only(exc, "contract_not_enabled", "line.contract")


def test_a_line_without_an_enabled_level_is_rejected() -> None:
    line = {"contract": "abondance", "declarers": [0], "level": 13}
    assert "level_out_of_range" in rejected(script(bids=None, line=line, trump="H")).codes


def test_a_line_with_tricks_is_rejected_the_tricks_come_from_the_plays() -> None:
    line = {"contract": "vraag", "declarers": [1, 3], "tricks": 9}
    only(rejected(script(bids=None, line=line)), "unexpected_field", "line.tricks")


def test_bids_and_a_line_together_are_rejected() -> None:
    assert "unexpected_field" in rejected(script(line={"contract": "vraag", "declarers": [1, 3]})).codes


def test_neither_bids_nor_a_line_is_rejected() -> None:
    only(rejected(script(bids=None)), "missing_field", "bids")


def test_a_vraag_line_without_partner_is_rejected() -> None:
    assert "missing_partner" in rejected(script(bids=None, line={"contract": "vraag", "declarers": [1]})).codes


def test_a_line_declarer_sitting_out_at_a_table_of_five_is_rejected() -> None:
    exc = rejected(five(bids=None, line={"contract": "alleen", "declarers": [2]}))
    assert "declarer_sits_out" in exc.codes


@pytest.mark.parametrize(("contract", "trump"), [("solo_slim", "C"), ("solo", "C")])
def test_a_line_declarer_sitting_out_is_reported_as_such_even_when_he_would_lead(contract: str, trump: str) -> None:
    # RULES.md §7: "a declarer who is the sitting-out fifth player"
    exc = rejected(five(bids=None, line={"contract": contract, "declarers": [2]}, trump=trump))
    assert "declarer_sits_out" in exc.codes, exc.errors


@pytest.mark.parametrize(
    ("rules", "bids"),
    [
        ("iwwa", alone(0, "abondance", 9)),
        ("iwwa", alone(0, "solo")),
        ("iwwa", alone(0, "solo_slim")),
        ("iwwa+kleurenwiezen", VRAAG_1_3),
        ("iwwa+kleurenwiezen", alone(0, "alleen")),
        ("solo_whist", alone(0, "abondance", 9)),
    ],
)
def test_a_chosen_trump_contract_without_trump_is_rejected(rules: str, bids: list[list[Any]]) -> None:
    only(rejected(script(rules, bids)), "trump_required", "trump")
    assert "trump_required" in rejected(script(rules, bids, trump="X")).codes


@pytest.mark.parametrize(
    ("rules", "bids"),
    [
        ("iwwa", alone(1, "miserie")),
        ("iwwa", alone(1, "open_miserie")),
        ("belgian", alone(1, "piccolo")),
        ("solo_whist", alone(1, "abondance_declaree")),
    ],
)
def test_a_trump_on_a_no_trump_contract_is_rejected(rules: str, bids: list[list[Any]]) -> None:
    only(rejected(script(rules, bids, trump="H")), "trump_not_allowed", "trump")


def test_a_trump_other_than_the_turned_suit_is_rejected_on_a_turned_trump_contract() -> None:
    only(rejected(script(trump="S")), "trump_not_turned", "trump")
    assert check_record(script(trump="H")).line["tricks"] == 6  # naming the turned suit is fine


def test_iwwa_has_no_early_end_so_stopping_is_incomplete_play() -> None:
    error = only(rejected(script(plays=SCRIPT_PLAYS[:40])), "incomplete_play", "plays")
    assert "10 of 13" in error.message
    # a miserie lost at trick 1 is still played out under iwwa
    error = only(rejected(script(bids=alone(1, "miserie"), plays=SCRIPT_PLAYS[:4])), "incomplete_play", "plays")
    assert "no early end" in error.message


def test_solo_whist_does_not_end_early_a_contract_still_undecided() -> None:
    # seat 3's miserie: seat 3 wins its first trick only at trick 5, so stopping after trick 4 is incomplete
    only(rejected(script("solo_whist", alone(3, "miserie"), plays=SCRIPT_PLAYS[:16])), "incomplete_play", "plays")


def test_a_trick_left_unfinished_is_rejected() -> None:
    error = only(rejected(script(plays=SCRIPT_PLAYS[:42])), "incomplete_trick", "plays[41]")
    assert "trick 11" in error.message


def test_plays_after_thirteen_tricks_are_rejected() -> None:
    error = only(rejected(script(plays=[*SCRIPT_PLAYS, "AS"])), "play_after_end", "plays[52]")
    assert "trick 14" in error.message


def test_kleine_miserie_needs_a_discard_from_every_seat() -> None:
    record = script("belgian", alone(1, "kleine_miserie"), plays=SCRIPT_PLAYS[:48])
    only(rejected(record), "missing_field", "discards")
    only(rejected(with_(record, discards=["2H", "2S", "2C"])), "missing_field", "discards")


def test_kleine_miserie_discards_must_come_from_the_hand() -> None:
    record = script("belgian", alone(1, "kleine_miserie"), discards=["2H", "2S", "2C", "2C"], plays=SCRIPT_PLAYS[:48])
    only(rejected(record), "card_not_in_hand", "discards[3]")


def test_kleine_miserie_plays_only_twelve_tricks() -> None:
    record = script("belgian", alone(1, "kleine_miserie"), discards=["2H", "2S", "2C", "2D"])
    error = only(rejected(record), "play_after_end", "plays[48]")
    assert "trick 13" in error.message


def test_plays_that_are_not_a_list_are_rejected() -> None:
    only(rejected(script(plays="AS KS")), "wrong_type", "plays")


@pytest.mark.parametrize("record", [None, [], "record", 3, ["rules", "iwwa"]])
def test_a_record_that_is_not_an_object_is_rejected(record: object) -> None:
    only(rejected(record), "not_an_object", "")


@pytest.mark.parametrize("rules", ["nope", "", None, 5, ["iwwa"], "iwwa+nope", {"preset": "nope"}, {"ladder": []}])
def test_unknown_rules_are_rejected(rules: object) -> None:
    only(rejected(script(rules)), "invalid_rules", "rules")


def test_rules_may_be_given_as_overrides_of_a_preset() -> None:
    result = check_record(script({"preset": "iwwa", "tariffs": {"vraag": {"fail_base": 10}}}))
    assert result.settled.points == (12, -12, 12, -12)  # 10 + 2 x 1


@pytest.mark.parametrize(
    ("changes", "code", "field"),
    [
        ({"players": 6}, "wrong_type", "players"),
        ({"players": "4"}, "wrong_type", "players"),
        ({"dealer": 4}, "seat_out_of_range", "dealer"),
        ({"dealer": None}, "seat_out_of_range", "dealer"),
        ({"hands": SCRIPT_HANDS[:3]}, "wrong_type", "hands"),
        ({"colour": "red"}, "unknown_field", "colour"),
    ],
)
def test_a_malformed_table_is_rejected(changes: dict[str, Any], code: str, field: str) -> None:
    record = script()
    record.update(changes)
    assert field in {e.field for e in rejected(record).errors if e.code == code}


# --- (d) junk never raises anything but GameError ------------------------------------------------------------------

FIELDS = ("rules", "players", "dealer", "turned", "hands", "bids", "line", "trump", "discards", "plays", "deal")
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 15),
    st.integers(),
    st.floats(allow_nan=True),
    st.text(max_size=6),
    st.sampled_from(["AS", "10H", "TH", "2C", "vraag", "troel", "solo_slim", "abondance", "pass", "meegaan", "H"]),
)
JUNK = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
SEATISH = st.one_of(st.integers(-2, 6), JUNK)
CONTRACT_IDS = st.sampled_from(sorted(CONTRACTS))
JUNK_SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

BASES = {
    "bids": script(),
    "line": script(bids=None, line={"contract": "vraag", "declarers": [1, 3]}),
    "kleine_miserie": script(
        "belgian", alone(1, "kleine_miserie"), discards=["2H", "2S", "2C", "2D"], plays=SCRIPT_PLAYS[:48]
    ),
    "troel": troel3(),
    "five": five(),
}


def survives(record: object) -> None:
    """``check_record`` accepts the record or raises a ``GameError``, nothing else."""
    with contextlib.suppress(GameError):
        check_record(record)


@JUNK_SETTINGS
@given(base=st.sampled_from(sorted(BASES)), field=st.sampled_from(FIELDS), value=JUNK)
def test_junk_in_any_field_raises_only_game_errors(base: str, field: str, value: object) -> None:
    record = copy.deepcopy(BASES[base])
    record[field] = value
    survives(record)


@JUNK_SETTINGS
@given(base=st.sampled_from(sorted(BASES)), where=st.sampled_from(["hands", "bids", "plays"]), data=st.data())
def test_junk_inside_the_lists_raises_only_game_errors(base: str, where: str, data: st.DataObject) -> None:
    record = copy.deepcopy(BASES[base])
    items = record.get(where)
    if not items:
        return
    i = data.draw(st.integers(0, len(items) - 1))
    if isinstance(items[i], list) and items[i] and data.draw(st.booleans()):
        j = data.draw(st.integers(0, len(items[i]) - 1))
        items[i][j] = data.draw(JUNK)
    else:
        items[i] = data.draw(JUNK)
    survives(record)


@JUNK_SETTINGS
@given(
    rules=st.sampled_from(["iwwa", "flemish", "belgian", "solo_whist"]),
    base=st.sampled_from(["line", "troel", "five"]),
    contract=st.one_of(CONTRACT_IDS, JUNK),
    declarers=st.one_of(st.lists(SEATISH, max_size=4), JUNK),
    level=st.one_of(st.none(), st.integers(8, 13), JUNK),
    trump=st.one_of(st.none(), st.sampled_from("CDHSX"), JUNK),
)
def test_junk_lines_raise_only_game_errors(
    rules: str, base: str, contract: object, declarers: object, level: object, trump: object
) -> None:
    record = with_(BASES[base], bids=None, rules=rules)
    record["line"] = {"contract": contract, "declarers": declarers, "level": level}
    record["trump"] = trump
    survives(record)


@JUNK_SETTINGS
@given(JUNK)
def test_any_json_value_as_a_record_raises_only_game_errors(value: object) -> None:
    survives(value)


@pytest.mark.parametrize(
    "line",
    [
        {"contract": []},
        {"contract": {"id": "vraag"}},
        {"contract": "solo_slim", "declarers": []},
        {"contract": "solo_slim", "declarers": ["1"]},
        {"contract": "solo_slim", "declarers": [7]},
        {"contract": "troel", "declarers": ["1", "2"]},
        {"contract": "troel", "declarers": [None, 2]},
    ],
    ids=[
        "contract list",
        "contract object",
        "no declarer",
        "declarer text",
        "declarer off table",
        "troel text",
        "troel null",
    ],
)
def test_malformed_lines_are_rejected_not_crashing(line: dict[str, Any]) -> None:
    with pytest.raises(InvalidRecord):
        check_record(troel3(bids=None, line=line, trump="S"))


# --- issue 17, option 3: vraag for 9 to 13 tricks and alleen for 6 to 8, bid in the auction -------------------------

RAISED = {
    "preset": "iwwa",
    "name": "raised",
    "tariffs": {"vraag": {"levels": {"9": 4, "10": 6, "13": 20}}, "alleen": {"levels": {"6": 5, "7": 7}}},
}


def test_the_raised_bids_rank_between_the_ordinary_game_and_abondance_by_the_tricks_they_ask() -> None:
    rules = RuleSet.from_json(RAISED)
    order = sorted(rules.bid_ranks, key=rules.bid_ranks.__getitem__)
    assert order[:8] == [
        ("vraag", 0),
        ("alleen", 0),
        ("vraag", 9),
        ("alleen", 6),  # an alleen for 6 asks what a vraag for 9 does, and is worth more
        ("vraag", 10),
        ("alleen", 7),
        ("vraag", 13),
        ("abondance", 9),
    ]
    assert find("iwwa").bid_ranks == {
        bid: k for k, bid in enumerate(sorted(find("iwwa").bid_ranks, key=find("iwwa").bid_ranks.__getitem__))
    }


def test_a_raised_vraag_is_bid_joined_and_settled_at_its_level() -> None:
    # seats 1 and 3 ask for 9 and take 6 tricks (the SCRIPT deal): the level's 4, and 2 per further trick off
    bids = [[1, "vraag", 9], [2, "pass"], [3, "meegaan"], [0, "pass"]]
    result = check_record(script(RAISED, bids))
    assert result.line == {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [1, 3], "tricks": 6, "level": 9}
    assert result.settled.points == (8, -8, 8, -8)  # three off: 4 + 2 x (3 - 1) = 8 each way, to the others
    assert result.settled.made == (False,)


def test_a_raised_vraag_taking_every_trick_doubles_as_the_rule_set_says() -> None:
    bids = [[1, "vraag", 13], [2, "pass"], [3, "pass"], [0, "meegaan"]]
    result = check_record(suits(RAISED, bids=bids))
    assert (result.line["level"], result.line["tricks"]) == (13, 13)
    assert result.settled.points == (40, 40, -40, -40)  # 20 for thirteen, doubled for all tricks under iwwa


@pytest.mark.parametrize(
    ("bids", "code"),
    [
        ([[1, "vraag", 9], [2, "alleen"]], "bid_too_low"),  # an ordinary alleen is below a vraag for 9
        ([[1, "alleen", 6], [2, "vraag", 9]], "bid_too_low"),  # vraag 9 does not outbid alleen 6
        ([[1, "vraag", 11]], "level_out_of_range"),  # not a level of this rule set's tariff
        ([[1, "alleen", 9]], "level_out_of_range"),  # alleen is raised to 8 at most
    ],
)
def test_raised_bids_must_outbid_and_be_levels_of_the_tariff(bids: list[list[Any]], code: str) -> None:
    exc = rejected(script(RAISED, bids))
    assert code in exc.codes


def test_a_raised_vraag_outbids_an_alleen_and_is_outbid_by_abondance() -> None:
    bids = [[1, "alleen"], [2, "vraag", 10], [3, "pass"], [0, "abondance", 9], [1, "pass"], [2, "pass"]]
    result = check_record(script(RAISED, bids, trump="H", plays=list(SCRIPT_PLAYS)))
    assert (result.line["contract"], result.line["level"], result.line["declarers"]) == ("abondance", 9, [0])


def test_without_raised_levels_a_vraag_takes_no_level() -> None:
    only(rejected(script("iwwa", [[1, "vraag", 9]])), "unexpected_field", "bids[0]")


def test_an_unaccepted_raised_vraag_goes_alone_at_the_ordinary_alleen() -> None:
    rules = {**RAISED, "preset": "flemish", "tariffs": {"vraag": {"levels": {"9": 4}}}}
    bids = [[1, "vraag", 9], [2, "pass"], [3, "pass"], [0, "pass"], [1, "alleen"]]
    result = check_record(script(rules, bids))
    assert result.line["contract"] == "alleen" and "level" not in result.line


@pytest.mark.parametrize("as_line", [False, True], ids=["bids", "line"])
def test_random_records_with_raised_bids_settle_like_their_line(as_line: bool) -> None:
    rules = RuleSet.from_json(RAISED)
    raised = 0
    for seed in range(400):
        cid = ("vraag", "alleen")[seed % 2]
        record = random_record(rules, random.Random(7_000_000 + seed), 4, contract=cid, as_line=as_line)
        record["rules"] = RAISED
        result = check_playout(record, rules, 4)
        raised += "level" in result.line
    assert raised > 60, "about three in ten are bid raised"
