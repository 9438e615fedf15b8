"""Who sits out how often at a table of five: the dealer sits each deal out (RULES.md; ``games.sitting_out``).

24 deals at five are not a whole number of rounds of the deal: with the first deal dealt by seat 1, seats 1-4 deal
(and sit out) 5 times and seat 5 four times. Pure functions, for the table card, the sheet and the seating.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games import sitting_out
from games.rulesets import AfterPass, Rotation, RuleSet


def _step(rules: RuleSet) -> int:
    return 1 if rules.rotation is Rotation.CLOCKWISE else -1


def sit_out_counts(rules: RuleSet, table_size: int, deals: int | None, first_dealer: int = 0) -> list[int]:
    """How many deals each seat (engine position, from 0) sits out in a session of ``deals`` deals.

    Planned before play: the deal passes on every deal (an all-pass that the same dealer redeals, or that does not
    count toward the session, adds a line the sheet then shows). All zeros where nobody sits out (a table of four,
    Zwicken) or the session has no fixed length.
    """
    counts = [0] * table_size
    if not deals or sitting_out(rules, table_size, 0) is None:
        return counts
    step = _step(rules)
    for k in range(deals):
        counts[(first_dealer + k * step) % table_size] += 1
    return counts


def sheet_sit_out_counts(
    rules: RuleSet, table_size: int, deals: int | None, lines: Iterable[Mapping[str, Any]]
) -> list[int]:
    """The sit-outs of a sheet: those of its lines so far, plus the planned ones of the deals still to come."""
    counts = [0] * table_size
    if sitting_out(rules, table_size, 0) is None:
        return counts
    step = _step(rules)
    counted = 0
    next_dealer: int | None = None
    for line in lines:
        dealer = line.get("dealer")
        if not isinstance(dealer, int) or not 0 <= dealer < table_size:
            continue
        counts[dealer] += 1
        passed = line.get("contract") == "pass"
        if not (passed and not rules.passes_count):
            counted += 1
        same = passed and rules.after_pass is AfterPass.SAME_DEALER
        next_dealer = dealer if same else (dealer + step) % table_size
    if deals:
        rest = sit_out_counts(rules, table_size, max(0, deals - counted), 0 if next_dealer is None else next_dealer)
        counts = [a + b for a, b in zip(counts, rest, strict=True)]
    return counts
