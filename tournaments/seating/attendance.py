"""Re-seat a round after withdrawals and late arrivals, keeping as many tables as they were as possible.

Players already at a table may have started (or at least sat down); moving them is a nuisance. So only the
tables that lost players below four are broken up, and their players join the arrivals in a pool. The pool is
seated at new tables when it can be (4, 5, 8, 9, 10, 12 or more players); otherwise a few players join tables of
4, or a few leave tables of 5 for the pool; only if neither works is one more table broken up.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .core import Ledger, Round, SeatingRequest, constraint_problems, table_sizes
from .generators import MixerSeating


def seatable(count: int) -> bool:
    """Whether ``count`` players fill tables of 4 and 5 with nobody left over."""
    return count >= 4 and sum(table_sizes(count)) == count


def reseat(tables: Sequence[Sequence[int]], request: SeatingRequest) -> Round:
    """Seat ``request.players`` starting from ``tables``: who left is removed, who is new is added.

    Tables that keep their players come back in their place (a newcomer may join a table of 4); new tables
    take the places of broken ones, then come last. Kept tables keep their seat order (players may have sat
    down; one who joins a table of 4 takes seat 5); new tables give the extra sit-out at a table of five to who
    has had it least (``Generator.seat``). When the players present cannot all be seated (6, 7 or 11), or the
    result would break a wish, everyone is seated afresh.
    """
    present = set(request.players)
    if not seatable(len(present)):
        return MixerSeating().seat(request)
    rng = random.Random(request.seed)
    ledger = Ledger(request, recency=True)
    index = ledger.index
    seated = {p for table in tables for p in table}
    slots: list[list[int] | None] = []
    pool = [p for p in request.players if p not in seated]
    for table in tables:
        left = [p for p in table if p in present]
        if len(left) >= 4:
            slots.append(left)
        else:
            pool.extend(left)
            slots.append(None)
    while pool and not seatable(len(pool)):
        kept = [t for t in slots if t is not None]
        fours = [t for t in kept if len(t) == 4]
        fives = [t for t in kept if len(t) == 5]
        # fewest tables disturbed: some pooled players join tables of 4, or some leave tables of 5
        joins = next((j for j in range(1, 4) if j <= len(fours) and _fits(len(pool) - j)), None)
        pulls = next((k for k in range(1, 4) if k <= len(fives) and seatable(len(pool) + k)), None)
        if joins is not None and (pulls is None or joins <= pulls):
            _join_tables(ledger, [pool.pop() for _ in range(joins)], fours, index)
        elif pulls is not None:
            for table in fives[:pulls]:
                pool.append(table.pop(_least_settled(ledger, table, index)))
        else:
            broken = kept[_weakest(ledger, kept, index, rng)]
            pool.extend(broken)
            slots[next(i for i, t in enumerate(slots) if t is broken)] = None
    new_tables = MixerSeating().seat(_sub_request(request, pool)) if pool else []
    for i, slot in enumerate(slots):
        if slot is None and new_tables:
            slots[i] = new_tables.pop(0)
    result = [t for t in slots if t is not None] + new_tables
    if constraint_problems(result, request):
        return MixerSeating().seat(request)
    return result


def _fits(count: int) -> bool:
    return count == 0 or seatable(count)


def _sub_request(request: SeatingRequest, players: list[int]) -> SeatingRequest:
    return SeatingRequest(
        players,
        history=request.history,
        seed=request.seed,
        byes=request.byes,
        clubs=request.clubs,
        keep_clubmates_apart=request.keep_clubmates_apart,
        apart=request.apart,
        together=request.together,
        sit_out_seats=request.sit_out_seats,
        sit_outs=request.sit_outs,
    )


def _join_tables(ledger: Ledger, pool: list[int], fours: list[list[int]], index: dict[int, int]) -> None:
    """Each pooled player joins a different table of 4, the one whose players they weigh least against."""
    w = ledger.weight
    open_tables = list(fours)
    for p in pool:
        row = w[index[p]]
        best = min(open_tables, key=lambda t: sum(row[index[q]] for q in t))
        best.append(p)
        open_tables.remove(best)


def _least_settled(ledger: Ledger, table: list[int], index: dict[int, int]) -> int:
    """Position of the player who weighs most against the rest of their table: moving them helps most."""
    w = ledger.weight
    return max(range(len(table)), key=lambda k: sum(w[index[table[k]]][index[q]] for q in table if q != table[k]))


def _weakest(ledger: Ledger, kept: list[list[int]], index: dict[int, int], rng: random.Random) -> int:
    """The kept table whose break-up costs least: the one that already has the most repeated meetings."""
    costs = [ledger.cost([[index[p] for p in t]]) for t in kept]
    worst = max(costs)
    return rng.choice([i for i, c in enumerate(costs) if c == worst])
