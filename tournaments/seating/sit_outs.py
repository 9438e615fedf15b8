"""Who takes which seat at a table of five, so that the extra sit-out goes round (no Django).

At a trick-taking table of five the dealer sits each deal out, and the deal goes round from seat 1. When the
session's deals are not a multiple of five the seats do not sit out equally often: with 24 deals seats 1-4 sit
out 5 deals and seat 5 four; with 16 deals seat 1 sits out 4 and seats 2-5 three. Which players share a table
is the generator's choice; this step only orders the players of each table of five, so every generator gets it.

A player's *extra* sit-outs are those beyond the fewest at their table, summed over the tables of five they sat
at so far: the seat that sat out one deal more. The players with the most extra (then the most sit-outs in
all) take the seats that sit out least; a player keeps their seat when the order allows, so a table nobody has
a claim on is left as the generator drew it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

Round = list[list[int]]


@dataclass(frozen=True)
class SitOuts:
    """A player's sit-outs so far: in all, and beyond the fewest at their table (the extra ones)."""

    total: int = 0
    extra: int = 0


def tally(tables: Iterable[tuple[Sequence[int], Sequence[int]]]) -> dict[int, SitOuts]:
    """Sit-outs per player from ``(players in seat order, sit-outs per seat)`` of each table played."""
    out: dict[int, SitOuts] = {}
    for players, counts in tables:
        if len(counts) != len(players) or not counts:
            continue
        least = min(counts)
        for player, count in zip(players, counts, strict=True):
            before = out.get(player, SitOuts())
            out[player] = SitOuts(before.total + count, before.extra + count - least)
    return out


def planned(history: Iterable[Sequence[Sequence[int]]], seats: Sequence[int]) -> dict[int, SitOuts]:
    """Sit-outs per player over ``history`` (tables in seat order) if every table of ``len(seats)`` players sat
    out ``seats`` (per seat) and every other table nobody."""
    return tally((table, seats) for rnd in history for table in rnd if seats and len(table) == len(seats))


def balance(tables: Sequence[Sequence[int]], seats: Sequence[int], so_far: Mapping[int, SitOuts]) -> Round:
    """``tables`` with each table of ``len(seats)`` players reordered: the most extra sit-outs so far (then the
    most in all) on the seats that sit out least. Other tables, and every table when ``seats`` are all equal,
    come back as they were."""
    out = [list(table) for table in tables]
    if not seats or len(set(seats)) == 1:
        return out
    for table in out:
        if len(table) != len(seats):
            continue
        burden = {p: so_far.get(p, SitOuts()) for p in table}
        # the most deserving first; among equals, whoever already sits on a lighter seat (so nobody moves for
        # nothing), then the generator's order
        players = sorted(
            range(len(table)), key=lambda k: (-burden[table[k]].extra, -burden[table[k]].total, seats[k], k)
        )
        places = sorted(range(len(seats)), key=lambda k: (seats[k], k))
        level_of = {p: seats[places[rank]] for rank, p in enumerate(players)}  # each player's seat weight
        new: list[int | None] = [None] * len(table)
        waiting: list[int] = []
        for k in range(len(table)):  # stay put where the weight is right
            if seats[k] == level_of[k]:
                new[k] = table[k]
            else:
                waiting.append(k)
        for k in waiting:
            free = next(j for j in range(len(seats)) if new[j] is None and seats[j] == level_of[k])
            new[free] = table[k]
        table[:] = [p for p in new if p is not None]
    return out
