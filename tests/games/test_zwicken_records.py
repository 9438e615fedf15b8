"""Zwicken deal records: the trump order, dealing, every validation code, and random legal playouts.

Random records are played by ``random_record`` and replayed here by a small
independent referee (``replay``) to plant one illegal card, so each mutation
test knows which rule it breaks before asking the engine.
"""

from __future__ import annotations

import copy
import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from games import find
from games.cards import CARD_BY_TEXT, Card, Suit, deck
from games.dealing import cut, shuffled
from games.errors import GameError, InvalidRecord
from games.rulesets import apply_overrides
from games.zwicken import (
    BELLI,
    SECHSER_BELLI,
    RecordResult,
    TrumpOrder,
    ZwickenSheet,
    check_record,
    deal_record,
    random_record,
)

PRESETS = ("zwicken", "dreierzwicken", "zwicken_styrian", "zwicken_4cards")
ALL4 = [[1, "play"], [2, "play"], [3, "play"], [0, "play"]]


def c(text: str) -> Card:
    return CARD_BY_TEXT[text]


def cards(texts: str) -> list[Card]:
    return [c(t) for t in texts.split()]


def build(
    hands: list[list[str]],
    turned: str,
    decisions: list[list[Any]],
    plays: list[str],
    *,
    rules: str = "zwicken",
    dealer: int = 0,
    cut_card: str = "QD",
    talon_top: tuple[str, ...] = (),
    exchanges: list[list[Any]] | None = None,
    size: int = 32,
) -> dict[str, Any]:
    """A record whose talon is the rest of the deck: ``talon_top`` first, the cut card last."""
    used = {t for hand in hands for t in hand} | {turned, cut_card, *talon_top}
    rest = [str(card) for card in deck(size) if str(card) not in used]
    return {
        "rules": rules,
        "players": len(hands),
        "dealer": dealer,
        "cut": cut_card,
        "hands": hands,
        "turned": turned,
        "talon": [*talon_top, *rest, cut_card],
        "decisions": decisions,
        "exchanges": exchanges or [],
        "plays": plays,
    }


# Spades trump. Trick 1: 8C led, seat 2 must trump with the Belli, seat 0 with KS: the Belli wins.
# Trick 2: seat 2 leads 10H, seat 3 trumps with AS. Trick 3: seat 3 leads 7C, seat 1's 9C wins.
BASE = build(
    [["KS", "QH", "10D"], ["8C", "9C", "9H"], ["7D", "10H", "8H"], ["AS", "QC", "7C"]],
    "8S",
    ALL4,
    ["8C", "7D", "QC", "KS", "10H", "AS", "QH", "9H", "7C", "10D", "9C", "8H"],
)


def refused(record: object) -> InvalidRecord:
    with pytest.raises(InvalidRecord) as caught:
        check_record(record)
    return caught.value


def changed(**changes: Any) -> dict[str, Any]:
    record = copy.deepcopy(BASE)
    record.update(changes)
    return record


# --- the trump order --------------------------------------------------------------------------------------------------


def test_the_trump_order_is_ace_belli_then_the_trump_suit() -> None:
    assert TrumpOrder(Suit.HEARTS).trumps(deck(32)) == cards("AH 7D KH QH JH 10H 9H 8H 7H")


def test_with_diamonds_trump_the_belli_keeps_its_place_under_the_ace() -> None:
    assert TrumpOrder(Suit.DIAMONDS).trumps(deck(32)) == cards("AD 7D KD QD JD 10D 9D 8D")


def test_the_styrian_sechser_belli_is_the_third_trump() -> None:
    order = TrumpOrder(Suit.CLUBS, sechser_belli=True)
    assert order.trumps(deck(36)) == cards("AC 7D 6D KC QC JC 10C 9C 8C 7C 6C")
    assert order.is_trump(SECHSER_BELLI)


def test_without_the_sechser_belli_the_six_of_diamonds_is_a_plain_diamond() -> None:
    order = TrumpOrder(Suit.CLUBS)
    assert not order.is_trump(SECHSER_BELLI) and order.suit_of(SECHSER_BELLI) is Suit.DIAMONDS


def test_plain_suits_rank_ace_king_queen_jack_ten_down_to_six() -> None:
    order = TrumpOrder(Suit.CLUBS)
    hearts = cards("AH KH QH JH 10H 9H 8H 7H 6H")
    assert sorted(hearts, key=order.strength, reverse=True) == hearts


def test_the_belli_is_never_a_diamond_so_its_holder_cannot_follow_diamonds_and_must_trump() -> None:
    order = TrumpOrder(Suit.HEARTS)
    assert order.suit_of(BELLI) is Suit.HEARTS
    assert order.legal(cards("7D 9C"), Suit.DIAMONDS) == [BELLI]
    assert order.legal(cards("7D 9C"), Suit.HEARTS) == [BELLI]
    assert order.legal(cards("8D 7D 9C"), Suit.DIAMONDS) == cards("8D")


def test_the_highest_trump_takes_the_trick_else_the_highest_card_of_the_led_suit() -> None:
    order = TrumpOrder(Suit.SPADES)
    assert order.winner(cards("8C 7D KS QC")) == 1  # the Belli over the trump king
    assert order.winner(cards("7D AS KS")) == 1  # the trump ace over the Belli
    assert order.winner(cards("9H AC KH 8H")) == 2  # an ace of another suit takes nothing
    assert order.winner(cards("9D 7D 8D")) == 1  # a diamond led: the Belli trumps it


# --- dealing ----------------------------------------------------------------------------------------------------------


def test_the_same_seed_deals_the_same_record() -> None:
    rules = find("zwicken")
    assert deal_record(rules, 4, 1, 12345) == deal_record(rules, 4, 1, 12345)
    assert deal_record(rules, 4, 1, 12345) != deal_record(rules, 4, 1, 12346)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_deal_is_two_each_the_trump_card_then_the_rest_each_from_a_cut_pack(preset: str) -> None:
    rules = find(preset)
    options = rules.zwicken
    assert options is not None
    dealt = 0
    for seed in range(60):
        players = options.max_players
        record = deal_record(rules, players, seed % players, seed)
        assert "decisions" not in record and "plays" not in record and record["pot"] == 0
        if "hands" not in record:
            assert record["cut"][0] in "A7"
            continue
        dealt += 1
        seats = [(record["dealer"] + i) % players for i in range(1, players + 1)]
        pack = [t for s in seats for t in record["hands"][s][:2]] + [record["turned"]]
        pack += [t for s in seats for t in record["hands"][s][2:]] + record["talon"]
        deck_order = [str(card) for card in shuffled(options.deck, seed)]
        cuts = [at for at in range(1, options.deck) if [str(x) for x in cut(shuffled(options.deck, seed), at)] == pack]
        assert len(cuts) == 1 and deck_order[cuts[0] - 1] == record["cut"] == record["talon"][-1]
        assert all(len(hand) == options.hand for hand in record["hands"])
    assert dealt > 30


def test_a_dealt_record_lacks_only_the_decisions_and_plays() -> None:
    for seed in range(20):
        record = deal_record(find("zwicken"), 4, 0, seed)
        if "hands" in record:
            assert refused(record).codes == {"missing_field"}
            return
    raise AssertionError("no seed below 20 dealt a hand")  # pragma: no cover


def test_deal_record_refuses_a_table_the_rules_do_not_seat() -> None:
    with pytest.raises(GameError):
        deal_record(find("dreierzwicken"), 4, 0, 1)
    with pytest.raises(GameError):
        deal_record(find("zwicken"), 4, 4, 1)


# --- a checked record -------------------------------------------------------------------------------------------------


def test_a_record_gives_its_score_sheet_line_and_settlement() -> None:
    result = check_record(BASE)
    assert isinstance(result, RecordResult)
    assert result.line == {"deal": 1, "dealer": 0, "played": [0, 1, 2, 3], "tricks": [0, 1, 1, 1]} | {
        "duties_failed": [],
        "trump_ace": 3,
    }
    assert result.settled.points == (-6, 1, 1, 1) and result.settled.pot == 3
    assert ZwickenSheet(find("zwicken"), 4).add(result.line) == result.settled


def test_a_record_carries_its_pot_and_deal_number_into_the_line() -> None:
    result = check_record(changed(pot=6, deal=4))
    assert result.line["deal"] == 4
    assert result.settled.points == (-6, 3, 3, 3) and result.settled.pot == 3  # 6 + 3 = 9: 3 a trick


def test_a_record_may_give_a_club_rule_set_as_an_object() -> None:
    rules = apply_overrides(find("zwicken"), {"name": "club", "zwicken": {"ante": 6, "bete": 1}})
    result = check_record(changed(rules=rules.to_json()))
    assert result.settled.points == (-7, 2, 2, 2) and result.settled.pot == 1


def test_cut_records_end_at_the_cut() -> None:
    void = check_record({"rules": "zwicken", "players": 4, "dealer": 1, "cut": "7H"})
    assert void.line == {"deal": 1, "dealer": 1, "cut": "void"} and void.settled.points == (0, 0, 0, 0)
    belli = check_record({"rules": "zwicken", "players": 3, "dealer": 0, "cut": "7D", "pot": 2})
    assert belli.line["cut"] == "belli" and belli.settled.points == (-6, 3, 0) and belli.settled.pot == 5


def test_without_hop_and_jump_an_exposed_ace_changes_nothing() -> None:
    rules = apply_overrides(find("zwicken"), {"name": "no-hop", "zwicken": {"hop_and_jump": False}})
    record = check_record({k: v for k, v in changed(rules=rules.to_json()).items() if k != "cut"})
    assert record.settled.points == (-6, 1, 1, 1)


# --- every validation code --------------------------------------------------------------------------------------------


def _exchange_record(exchanges: list[list[Any]], decisions: list[list[Any]] = ALL4) -> dict[str, Any]:
    return changed(exchanges=exchanges, decisions=decisions)


PASS_1 = [[1, "pass"], [2, "play"], [3, "play"], [0, "play"]]

BAD_RECORDS: list[tuple[str, object]] = [
    ("not_an_object", ["zwicken"]),
    ("unknown_field", changed(bids=[])),
    ("missing_field", {k: v for k, v in BASE.items() if k != "rules"}),
    ("missing_field", {k: v for k, v in BASE.items() if k != "cut"}),
    ("missing_field", {k: v for k, v in BASE.items() if k != "plays"}),
    ("wrong_type", changed(players="4")),
    ("wrong_type", changed(pot=-3)),
    ("wrong_type", changed(deal=0)),
    ("wrong_type", changed(decisions=[[1, "play"], "2 play", [3, "play"], [0, "play"]])),
    ("unknown_rules", changed(rules="zwickern")),
    ("not_zwicken", changed(rules="flemish")),
    ("invalid_rules", changed(rules={"preset": "zwicken", "zwicken": {"ante": -1}})),
    ("players_out_of_range", changed(rules="dreierzwicken")),
    ("seat_out_of_range", changed(dealer=4)),
    ("unknown_card", changed(cut="1Z")),
    ("card_not_in_deck", changed(cut="6H")),
    ("cut_ends_deal", changed(cut="AH")),
    ("cut_ends_deal", changed(cut="7D")),
    ("hands_shape", changed(hands=BASE["hands"][:3])),
    ("hands_shape", changed(hands=[*BASE["hands"][:3], ["AS", "QC"]])),
    ("duplicate_card", changed(hands=[*BASE["hands"][:3], ["AS", "QC", "KS"]])),
    ("missing_card", changed(talon=BASE["talon"][1:])),
    ("cut_not_bottom", changed(cut="JD")),
    ("decision_out_of_order", changed(decisions=[[2, "play"], [1, "play"], [3, "play"], [0, "play"]])),
    ("unknown_decision", changed(decisions=[[1, "stay"], [2, "play"], [3, "play"], [0, "play"]])),
    ("decisions_incomplete", changed(decisions=ALL4[:3])),
    ("too_many_decisions", changed(decisions=[*ALL4, [1, "play"]])),
    ("trump_ace_passed", changed(decisions=[[1, "play"], [2, "play"], [3, "pass"], [0, "play"]])),
    ("pass_not_allowed", changed(rules="dreierzwicken", players=3)),  # hands for four: shape, see below
    ("exchange_by_passed_player", _exchange_record([[1, ["8C"]]], PASS_1)),
    ("exchange_out_of_order", _exchange_record([[2, ["8H"]], [1, ["8C"]]])),
    ("exchange_out_of_order", _exchange_record([[1, ["8C"]], [1, ["9C"]]])),
    ("too_many_exchanged", _exchange_record([[1, ["8C", "9C", "9H", "8C"]]])),
    ("card_not_in_hand", _exchange_record([[1, ["KS"]]])),
    ("wrong_leader", changed(plays=["7D", "8C", *BASE["plays"][2:]])),
    ("out_of_turn", changed(plays=["8C", "QC", "7D", *BASE["plays"][3:]])),
    ("play_by_passed_player", changed(decisions=PASS_1)),
    ("card_not_in_hand", changed(plays=["8C", "7D", "QC", "KS", "7D", *BASE["plays"][5:]])),
    ("card_not_in_hand", changed(plays=["8C", "7D", "QC", "8S", *BASE["plays"][4:]])),
    ("renege", changed(plays=["8C", "7D", "AS", *BASE["plays"][3:]])),
    ("must_trump", changed(plays=["8C", "8H", *BASE["plays"][2:]])),
    ("incomplete_play", changed(plays=BASE["plays"][:10])),
    ("too_many_plays", changed(plays=[*BASE["plays"], "QD"])),
]
BAD_RECORDS[[code for code, _ in BAD_RECORDS].index("pass_not_allowed")] = (
    "pass_not_allowed",
    build(
        [["KS", "QH", "10D"], ["8C", "9C", "9H"], ["7D", "10H", "8H"]],
        "8S",
        [[1, "play"], [2, "pass"], [0, "play"]],
        [],
        rules="dreierzwicken",
    ),
)


@pytest.mark.parametrize(
    ("code", "record"), BAD_RECORDS, ids=[f"{code}-{i}" for i, (code, _) in enumerate(BAD_RECORDS)]
)
def test_a_bad_record_is_refused_with_its_code(code: str, record: object) -> None:
    assert code in refused(record).codes


def test_the_talon_runs_out_when_five_exchange_three_of_four_cards() -> None:
    rng = random.Random(7)
    rules = find("zwicken_4cards")
    while "hands" not in (record := deal_record(rules, 5, 0, rng.getrandbits(32))):
        pass
    record["decisions"] = [[seat, "play"] for seat in (1, 2, 3, 4, 0)]
    record["exchanges"] = [[seat, record["hands"][seat][:3]] for seat in (1, 2, 3, 4)]  # 12 from a talon of 11
    record["plays"] = []
    assert refused(record).codes == {"talon_exhausted"}


def test_every_documented_record_code_is_tested() -> None:
    from games.zwicken import records

    documented = set(re.findall(r"``([a-z_]+)``", (records.__doc__ or "").split("Codes:")[1].split("The trump")[0]))
    assert documented == {code for code, _ in BAD_RECORDS} | {"talon_exhausted"}


def test_a_play_error_names_the_trick_and_the_card() -> None:
    error = refused(changed(plays=[*BASE["plays"][:6], "10D", *BASE["plays"][7:]])).errors[0]
    assert (error.code, error.field) == ("renege", "plays[6]")
    assert "trick 2" in error.message and "10D" in error.message and "QH" in error.message


def test_an_exchange_draws_the_talons_top_cards_one_by_one_in_seat_order() -> None:
    # Spades trump; seat 1 gives up 8C for AS, then 9C for KS; seat 2 then gives up JH for the third card, 8S.
    # Trick 1: AS (the Belli falls from seat 0). Trick 2: 8H led, seat 0's KH wins. Trick 3: QH led, seats 1 and 2
    # must trump: KS over the drawn 8S.
    record = build(
        [["7D", "KH", "QH"], ["8C", "9C", "8H"], ["QS", "10H", "JH"]],
        "9S",
        [[1, "play"], [2, "play"], [0, "play"]],
        ["AS", "QS", "7D", "8H", "10H", "KH", "QH", "KS", "8S"],
        talon_top=("AS", "KS", "8S"),
        exchanges=[[1, ["8C", "9C"]], [2, ["JH"]]],
    )
    result = check_record(record)
    assert result.line["tricks"] == [1, 2, 0]
    assert "trump_ace" not in result.line  # nobody was dealt the trump ace


# --- duties -----------------------------------------------------------------------------------------------------------


def test_a_trump_ace_holder_who_first_plays_it_to_anothers_lead_fails_no_duty() -> None:
    assert check_record(BASE).line["duties_failed"] == []


def test_the_belli_duty_binds_only_a_player_other_than_the_one_leading_the_trump_ace() -> None:
    # Diamonds trump: seat 1 holds AD and the Belli, leads AD, later the Belli: no duty failed.
    record = build(
        [["8C", "QC", "AS"], ["AD", "7D", "KD"], ["10C", "JC", "9H"], ["9C", "KH", "10S"]],
        "8D",
        ALL4,
        ["AD", "9H", "KH", "8C", "7D", "10C", "9C", "QC", "KD", "JC", "10S", "AS"],
    )
    result = check_record(record)
    assert result.line["tricks"] == [0, 3, 0, 0] and result.line["duties_failed"] == []


def test_the_belli_holder_who_dropped_the_belli_before_the_ace_was_led_fails_no_duty() -> None:
    # Hearts trump, dealer 3 so seat 0 leads. Trick 1: seat 2 cannot follow clubs and trumps with the Belli.
    # Trick 2: seat 1 takes it with AS. Trick 3: seat 1 leads AH at his first lead; the Belli is gone.
    record = build(
        [["10C", "8S", "8D"], ["AH", "JC", "AS"], ["7D", "KS", "9D"], ["8C", "QS", "10D"]],
        "9H",
        [[0, "play"], [1, "play"], [2, "play"], [3, "play"]],
        ["10C", "JC", "7D", "8C", "KS", "QS", "8S", "AS", "AH", "9D", "10D", "8D"],
        dealer=3,
    )
    result = check_record(record)
    assert result.line["tricks"] == [0, 2, 1, 0] and result.line["duties_failed"] == []


# --- random legal playouts --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_thousands_of_random_legal_records_are_accepted_and_conserve_chips(preset: str) -> None:
    rules = find(preset)
    options = rules.zwicken
    assert options is not None
    rng = random.Random(preset)
    seen: Counter[str] = Counter()
    for _ in range(3000):
        players = rng.randint(options.min_players, options.max_players)
        pot = rng.choice([0, 0, 3, 4, 9])
        record = random_record(rules, rng, players, pot=pot)
        line, settled = check_record(record)
        assert sum(settled.points) + settled.pot - pot == 0
        seen[settled.contract] += 1
        seen["duty"] += bool(line.get("duties_failed"))
        seen["durchmarsch"] += options.hand in line.get("tricks", ())
        seen["all pass"] += line.get("played") == []
    assert min(seen[k] for k in ("zwicken", "void", "belli", "duty", "durchmarsch")) > 0, seen
    assert (seen["all pass"] > 0) == options.may_pass, seen


def test_a_session_of_random_records_settles_on_the_sheet_as_each_record_says() -> None:
    rng = random.Random(2024)
    for preset in PRESETS:
        rules = find(preset)
        assert rules.zwicken is not None
        sheet = ZwickenSheet(rules, rules.zwicken.max_players)
        for _ in range(150):
            dealer = sheet.expected_dealer if sheet.expected_dealer is not None else 0
            record = random_record(rules, rng, sheet.players, dealer=dealer, pot=sheet.pot)
            record["deal"] = sheet.next_deal
            result = check_record(record)
            assert sheet.add(result.line) == result.settled
        assert sum(sheet.totals) + sheet.pot == 0


# --- mutated random records -------------------------------------------------------------------------------------------


def replay(record: dict[str, Any]) -> Iterator[tuple[int, int, list[Card], list[Card], TrumpOrder, list[int]]]:
    """A referee independent of the engine: yields (plays index, seat, its hand, the trick so far, order, players)."""
    options = find(record["rules"]).zwicken
    assert options is not None
    hands = [[c(t) for t in hand] for hand in record["hands"]]
    talon = iter(c(t) for t in record["talon"])
    for seat, given in record["exchanges"]:
        for t in given:
            hands[seat][hands[seat].index(c(t))] = next(talon)
    playing = [seat for seat, said in record["decisions"] if said == "play"]
    order = TrumpOrder(c(record["turned"]).suit, options.sechser_belli)
    plays = iter(record["plays"])
    index, leader = 0, playing[0] if playing else 0
    for _ in range(options.hand if playing else 0):
        turn = playing[playing.index(leader) :] + playing[: playing.index(leader)]
        trick: list[Card] = []
        for seat in turn:
            yield index, seat, list(hands[seat]), list(trick), order, playing
            card = c(next(plays))
            hands[seat].remove(card)
            trick.append(card)
            index += 1
        leader = turn[order.winner(trick)]


def random_records(count: int, seed: int) -> Iterator[dict[str, Any]]:
    rng = random.Random(seed)
    while count:
        preset = rng.choice(PRESETS)
        options = find(preset).zwicken
        assert options is not None
        record = random_record(find(preset), rng, rng.randint(options.min_players, options.max_players))
        if record.get("plays"):
            count -= 1
            yield record


def _first(record: dict[str, Any], want: str) -> tuple[int, Card] | None:
    """The first play that could be replaced by a renege or a refusal to trump, and the card that breaks the rule."""
    for index, _seat, hand, trick, order, _playing in replay(record):
        if not trick:
            continue
        led = order.suit_of(trick[0])
        follow = [x for x in hand if order.suit_of(x) is led]
        trumps = [x for x in hand if order.is_trump(x)]
        others = [x for x in hand if x not in follow and x not in trumps]
        if want == "renege" and follow and len(follow) < len(hand):
            return index, next(x for x in hand if x not in follow)
        if want == "must_trump" and not follow and trumps and others:
            return index, others[0]
    return None


@pytest.mark.parametrize("code", ["renege", "must_trump"])
def test_a_random_record_with_one_card_breaking_the_rule_is_refused_with_its_code(code: str) -> None:
    mutated = 0
    for record in random_records(400, seed=len(code)):
        found = _first(record, code)
        if found is None:
            continue
        index, card = found
        bad = copy.deepcopy(record)
        bad["plays"][index] = str(card)
        error = refused(bad).errors[0]
        assert (error.code, error.field) == (code, f"plays[{index}]"), error
        mutated += 1
    assert mutated > 50


def test_a_random_record_whose_first_two_cards_are_swapped_has_the_wrong_leader() -> None:
    mutated = 0
    for record in random_records(300, seed=3):
        if len([d for d in record["decisions"] if d[1] == "play"]) < 2:
            continue
        bad = copy.deepcopy(record)
        bad["plays"][0], bad["plays"][1] = bad["plays"][1], bad["plays"][0]
        assert refused(bad).codes == {"wrong_leader"}
        mutated += 1
    assert mutated > 100


def test_a_random_record_with_a_card_dealt_twice_is_refused() -> None:
    for record in random_records(200, seed=4):
        bad = copy.deepcopy(record)
        bad["hands"][1][0] = bad["hands"][0][0]
        assert "duplicate_card" in refused(bad).codes


def test_a_random_record_where_the_trump_ace_holder_passes_is_refused() -> None:
    mutated = 0
    for record in random_records(400, seed=5):
        ace = "A" + c(record["turned"]).suit.value
        holder = next((seat for seat, hand in enumerate(record["hands"]) if ace in hand), None)
        if holder is None:
            continue
        bad = copy.deepcopy(record)
        bad["decisions"] = [[seat, "pass" if seat == holder else said] for seat, said in bad["decisions"]]
        assert "trump_ace_passed" in refused(bad).codes
        mutated += 1
    assert mutated > 100
