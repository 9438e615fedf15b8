"""The auction of a Wiezen or Solo whist deal: bids in turn, each higher on the ladder.

Bids are ``[seat, bid]`` (``[seat, "abondance", level]`` for abondance, and ``[seat, "vraag", 10]`` for a
higher bid of vraag or alleen where the rule set's tariff has that level): ``pass``, ``meegaan`` (joining an open
vraag, at its level) or a contract of the rule set's ladder, ranked by ``RuleSet.bid_ranks``.
The rules the engine applies:

- Troel is announced first, by a holder of three aces; its partner (the
  fourth ace's holder) joins without a word.
- Then players speak clockwise from the dealer's left. A player whose side
  holds the highest bid does not speak; everyone else passes, joins an open
  vraag with ``meegaan``, or bids higher on the ladder. Several players may
  bid the same miserie-type contract where the rule set allows it.
- A player who passed is out (*gezegd is gezegd*).
- The auction ends when everyone outside the highest side has passed. An
  unaccepted vraag then voids the deal, or its asker decides ``alleen`` or
  ``pass``, as the rule set says.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from games.contracts import CONTRACTS, Side
from games.errors import FieldError
from games.lines import seat_text
from games.rulesets import RuleSet, UnacceptedVraag


class AuctionResult(NamedTuple):
    contract: str  # "pass" when nobody plays
    declarers: list[int]
    level: int | None
    errors: list[FieldError]


def run_auction(
    bids: object, rules: RuleSet, seats: Sequence[int], aces: dict[int, int], fourth_ace_holder: dict[int, int]
) -> AuctionResult:
    """Judge ``bids`` at a table whose active seats are ``seats`` (clockwise from the dealer's left).

    ``aces`` maps each seat to how many aces it holds; ``fourth_ace_holder``
    maps a troel declarer to its partner.
    """
    if not isinstance(bids, list):
        return AuctionResult("pass", [], None, [FieldError("wrong_type", "bids", f"bids must be a list, got {bids!r}")])
    ladder = {cid: i for i, cid in enumerate(rules.ladder)}
    passed: set[int] = set()
    contract, level, side = "pass", None, list[int]()
    best: int | None = None  # the rank of the highest bid (``RuleSet.bid_ranks``)
    last = seats[-1]  # the dealer's seat position: the dealer's left speaks first
    start = 0

    def result(*errors: FieldError) -> AuctionResult:
        return AuctionResult(contract, side, level, list(errors))

    def fail(code: str, i: int, message: str) -> AuctionResult:
        return result(FieldError(code, f"bids[{i}]", f"bid {i + 1}: {message}"))

    def over() -> bool:
        return all(s in passed or s in side for s in seats)

    def next_speaker(after: int) -> int | None:
        k = seats.index(after)
        for step in range(1, len(seats) + 1):
            seat = seats[(k + step) % len(seats)]
            if seat not in passed and seat not in side:
                return seat
        return None

    first = bids[0] if bids else None
    if isinstance(first, list) and len(first) == 2 and first[1] == "troel" and type(first[0]) is int:
        seat = first[0]
        if "troel" not in ladder:
            return fail("bid_not_enabled", 0, f"troel is not played under {rules.name!r}")
        if seat not in seats or aces.get(seat, 0) < 3:
            return fail(
                "troel_without_three_aces", 0, f"seat {seat + 1} announces troel holding {aces.get(seat, 0)} aces"
            )
        contract, side, best = "troel", [seat, fourth_ace_holder[seat]], rules.bid_ranks[("troel", 0)]
        start = 1
    for i in range(start, len(bids)):
        bid = bids[i]
        if not (isinstance(bid, list) and 2 <= len(bid) <= 3 and type(bid[0]) is int and isinstance(bid[1], str)):
            return fail("wrong_type", i, f"{bid!r} is not [seat, bid] or [seat, 'abondance', level]")
        seat, name = bid[0], bid[1]
        bid_level = bid[2] if len(bid) == 3 else None
        if seat not in seats:
            return fail("bid_by_sitting_out", i, f"seat {seat + 1} does not play this deal")
        if over():
            if contract == "vraag" and len(side) == 1 and rules.unaccepted_vraag is UnacceptedVraag.ALONE:
                # the asker nobody joined decides: alone, or pass
                if seat != side[0] or name not in ("alleen", "pass"):
                    return fail("bid_out_of_turn", i, f"seat {side[0] + 1}'s vraag found no partner: alleen or pass?")
                if name == "pass":
                    contract, side, level = "pass", [], None
                    return result(*_extra(bids, i))
                if "alleen" not in ladder:
                    return fail("bid_not_enabled", i, f"alleen is not played under {rules.name!r}")
                contract, side, level = "alleen", [seat], None  # the ordinary alleen, whatever the vraag asked
                return result(*_extra(bids, i))
            return fail("bid_after_end", i, f"the auction is over ({contract} by {side or 'nobody'})")
        expected = next_speaker(last)
        if seat in passed:
            return fail("bid_after_pass", i, f"seat {seat + 1} passed and cannot bid again")
        if seat != expected:
            return fail("bid_out_of_turn", i, f"seat {seat + 1} bids {name!r} but it is {seat_text(expected)}'s turn")
        last = seat
        if name == "pass":
            passed.add(seat)
        elif name == "meegaan":
            if contract != "vraag" or len(side) != 1:
                return fail("meegaan_without_vraag", i, f"seat {seat + 1} says meegaan but no vraag is open")
            side.append(seat)
        elif name not in ladder:
            code = "bid_not_enabled" if name in CONTRACTS else "unknown_bid"
            return fail(code, i, f"{name!r} is not a bid under {rules.name!r} (ladder: {', '.join(rules.ladder)})")
        else:
            spec = CONTRACTS[name]
            levels = [lvl for lvl, _ in rules.compiled[name].tariff.levels]
            if spec.levels and bid_level not in levels:
                return fail("level_out_of_range", i, f"{name} needs a level in {levels}, got {bid_level!r}")
            if not spec.levels and bid_level is not None and (not spec.higher or bid_level not in levels):
                if not levels:
                    return fail("unexpected_field", i, f"{name} takes no level, got {bid_level!r}")
                return fail(
                    "level_out_of_range", i, f"{name} is bid for its own tricks or for {levels}, got {bid_level!r}"
                )
            key = rules.bid_ranks[(name, bid_level or 0)]
            if spec.side is Side.EACH_ALONE and rules.multiple_miserie and contract == name and best == key:
                side.append(seat)  # another player plays the same miserie, settled on his own
            elif best is not None and key <= best:
                return fail("bid_too_low", i, f"{name} does not outbid {contract}{f' {level}' if level else ''}")
            else:
                contract, level, side, best = name, bid_level, [seat], key
    if not over():
        return result(
            FieldError("auction_incomplete", "bids", f"the auction is not over: {seat_text(next_speaker(last))} speaks")
        )
    if contract == "vraag" and len(side) == 1:
        if rules.unaccepted_vraag is UnacceptedVraag.VOID:
            contract, side, level = "pass", [], None  # 003: an unaccepted proposal is a passed deal
            return result()
        return result(
            FieldError("auction_incomplete", "bids", f"seat {side[0] + 1}'s vraag found no partner: alleen or pass?")
        )
    return result()


def _extra(bids: list[object], i: int) -> list[FieldError]:
    if i + 1 < len(bids):
        return [FieldError("bid_after_end", f"bids[{i + 1}]", f"bid {i + 2}: the auction is over")]
    return []
