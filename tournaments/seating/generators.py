"""Seating generators: which players share a table in each round.

Each generator has a ``key`` (stored on a round), a ``name`` and ``next_round(request)``. ``rounds(n, count,
seed)`` seats players ``1..n`` for several rounds in a row, for the command line and the benchmark.

- ``random``: a seeded draw; fair about tables of five and byes, blind to who met whom.
- ``greedy``: the baseline, a random-restart greedy that fills tables with who met the table least.
- ``mixer``: league evenings; fewest repeated meetings with the history, recent meetings weighing more, with
  "keep club-mates apart" and "keep these players apart / together".
- ``swiss``: tables of players of similar standing, still avoiding repeats (last rounds, finals).
- ``schedule``: all rounds of a tournament at once, from a known design where one exists.
- ``manual``: the organiser's own tables, checked.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from .core import (
    EPS,
    History,
    Ledger,
    Problem,
    Round,
    SeatingError,
    SeatingRequest,
    check_request,
    constraint_problems,
    gather_groups,
    improve,
    initial_tables,
    table_sizes,
)
from .designs import resolvable_design as construction
from .sit_outs import balance, planned


def round_seed(seed: int, index: int) -> int:
    """A distinct, reproducible seed for the ``index``-th round seated from one ``seed``."""
    return seed * 1_000_003 + index


def _to_players(ledger: Ledger, tables: Sequence[Sequence[int]]) -> Round:
    players = ledger.players
    return [[players[i] for i in table] for table in tables]


def _settled(ledger: Ledger, tables: list[list[int]]) -> bool:
    """No repeated meeting, no club-mates together and every wish kept: nothing left to improve."""
    return ledger.cost(tables) <= sum(ledger.floor) / 2 + EPS


class Generator:
    """Base: seats several rounds by asking ``next_round`` once per round with the growing history."""

    key: ClassVar[str]
    name: ClassVar[str]
    recency: ClassVar[bool] = False

    def next_round(self, request: SeatingRequest) -> Round:
        raise NotImplementedError

    def seat(self, request: SeatingRequest) -> Round:
        """``next_round``, then at each table of five the extra sit-out goes to who has had it least."""
        return balance_sit_outs(self.next_round(request), request)

    def rounds(self, n: int, count: int, seed: int, history: History = ()) -> list[Round]:
        players = list(range(1, n + 1))
        byes = dict.fromkeys(players, 0)
        out: list[Round] = []
        for rnd in history:
            _count_byes(byes, rnd)
        for index in range(count):
            request = SeatingRequest(players, history=[*history, *out], seed=round_seed(seed, index), byes=byes)
            rnd = self.seat(request)
            _count_byes(byes, rnd)
            out.append(rnd)
        return out

    def _checked(self, ledger: Ledger, tables: list[list[int]], request: SeatingRequest) -> Round:
        seating = _to_players(ledger, tables)
        problems = constraint_problems(seating, request)
        if problems:
            raise SeatingError(problems)
        return seating


def balance_sit_outs(tables: Sequence[Sequence[int]], request: SeatingRequest) -> Round:
    """``tables`` with the players of each table of five ordered by ``request``'s sit-outs so far
    (``sit_outs.balance``); unchanged without ``request.sit_out_seats``."""
    if not request.sit_out_seats:
        return [list(table) for table in tables]
    so_far = request.sit_outs if request.sit_outs is not None else planned(request.history, request.sit_out_seats)
    return balance(tables, request.sit_out_seats, so_far)


def _count_byes(byes: dict[int, int], rnd: Sequence[Sequence[int]]) -> None:
    seated = {p for table in rnd for p in table}
    for p in byes:
        if p not in seated:
            byes[p] += 1


class RandomSeating(Generator):
    key: ClassVar[str] = "random"
    name: ClassVar[str] = "Random"

    def next_round(self, request: SeatingRequest) -> Round:
        check_request(request)
        rng = random.Random(request.seed)
        ledger = Ledger(request)
        sizes = table_sizes(len(ledger.players))
        _, at_five, at_four = ledger.split(sizes, rng)
        rng.shuffle(at_five)
        rng.shuffle(at_four)
        return _to_players(ledger, initial_tables(sizes, at_five, at_four))


def _greedy_tables(ledger: Ledger, sizes: Sequence[int], rng: random.Random) -> list[list[int]]:
    """Open each table with a random player, then add whoever weighs least against the table so far."""
    w = ledger.weight
    _, at_five, at_four = ledger.split(sizes, rng)
    pools = {5: at_five, 4: at_four}
    tables: list[list[int]] = []
    for size in sizes:
        pool = pools[size]
        table = [pool.pop(rng.randrange(len(pool)))]
        while len(table) < size:
            best_i, best = 0, float("inf")
            for i, cand in enumerate(pool):
                row = w[cand]
                score = sum(row[x] for x in table)
                if score < best:
                    best, best_i = score, i
                    if score <= 0:
                        break
            table.append(pool.pop(best_i))
        tables.append(table)
    return tables


class GreedySeating(Generator):
    """Random-restart greedy, the benchmark's baseline: the best of ``restarts`` greedy draws."""

    key: ClassVar[str] = "greedy"
    name: ClassVar[str] = "Greedy"

    def __init__(self, restarts: int = 200) -> None:
        self.restarts = restarts

    def next_round(self, request: SeatingRequest) -> Round:
        check_request(request)
        rng = random.Random(request.seed)
        ledger = Ledger(request)
        sizes = table_sizes(len(ledger.players))
        best: list[list[int]] = []
        best_cost = float("inf")
        for _ in range(max(1, self.restarts)):
            tables = gather_groups(ledger, _greedy_tables(ledger, sizes, rng))
            cost = ledger.cost(tables)
            if cost < best_cost:
                best, best_cost = tables, cost
                if _settled(ledger, tables):
                    break
        return self._checked(ledger, best, request)


class MixerSeating(Generator):
    """Fewest repeated meetings with the history (recent ones weigh more), then the organiser's wishes.

    Random fair draws polished by the swap search; the number of draws shrinks with the number of players so
    that one round for 400 players stays well under a second.
    """

    key: ClassVar[str] = "mixer"
    name: ClassVar[str] = "Mixer"
    recency: ClassVar[bool] = True

    def __init__(self, budget: int = 4000, greedy_below: int = 120) -> None:
        self.budget = budget  # players times draws
        self.greedy_below = greedy_below

    def next_round(self, request: SeatingRequest) -> Round:
        check_request(request)
        rng = random.Random(request.seed)
        ledger = Ledger(request, recency=self.recency)
        return self._checked(ledger, self.search(ledger, rng), request)

    def search(self, ledger: Ledger, rng: random.Random) -> list[list[int]]:
        sizes = table_sizes(len(ledger.players))
        best: list[list[int]] = []
        best_cost = float("inf")
        small = len(ledger.players) <= self.greedy_below
        for attempt in range(max(1, self.budget // len(ledger.players))):
            if small and attempt % 2:  # greedy starts find the rare repeat-free rounds of small fields
                start = _greedy_tables(ledger, sizes, rng)
            else:
                _, at_five, at_four = ledger.split(sizes, rng)
                start = initial_tables(sizes, at_five, at_four)
            tables = improve(ledger, gather_groups(ledger, start), rng)
            cost = ledger.cost(tables)
            if cost < best_cost - EPS:
                best, best_cost = tables, cost
            if _settled(ledger, tables):
                break
        return best


class SwissSeating(Generator):
    """Players of similar standing together: consecutive ranks per table, then swaps between neighbouring
    tables that avoid repeated meetings at a small cost in rank distance."""

    key: ClassVar[str] = "swiss"
    name: ClassVar[str] = "Swiss"
    rank_weight: ClassVar[float] = 0.05  # per place of rank distance in a pair: moving one table costs < a repeat

    def next_round(self, request: SeatingRequest) -> Round:
        check_request(request)
        rng = random.Random(request.seed)
        ledger = Ledger(request, recency=True)
        m = len(ledger.players)
        known = [ledger.index[p] for p in request.ranking if p in ledger.index]
        rest = [i for i in range(m) if i not in set(known)]
        rng.shuffle(rest)
        rank = {i: r for r, i in enumerate([*dict.fromkeys(known), *rest])}
        for i in range(m):
            row = ledger.weight[i]
            for j in range(m):
                if i != j:
                    row[j] += self.rank_weight * abs(rank[i] - rank[j])
        sizes = table_sizes(m)
        _, at_five, at_four = ledger.split(sizes, rng)
        in_order = iter(sorted([*at_five, *at_four], key=rank.__getitem__))
        tables = [[next(in_order) for _ in range(size)] for size in sizes]
        # restore the fair choice of who sits at tables of 5: each seat there goes to the nearest-ranked
        # player owed one who sits at a table of 4
        owed = set(at_five)
        for table in tables:
            if len(table) != 5:
                continue
            for k, p in enumerate(table):
                if p in owed:
                    continue
                candidates = [(abs(rank[q] - rank[p]), q, t) for t in tables if len(t) == 4 for q in t if q in owed]
                _, q, t_owed = min(candidates, key=lambda c: c[0])
                t_owed[t_owed.index(q)] = p
                table[k] = q
        tables = gather_groups(ledger, tables)
        home = {p: ti for ti, table in enumerate(tables) for p in table}
        tables = improve(ledger, tables, rng, home=home)
        if constraint_problems(_to_players(ledger, tables), request):
            # one swap at a time near home cannot keep every wish: search freely, rank distance still weighs
            tables = MixerSeating().search(ledger, rng)
        return self._checked(ledger, tables, request)


class ScheduleSeating(Generator):
    """All rounds at once: a known construction where one exists, else greedy draws polished by swaps.

    As a next-round generator it continues its own schedule while the history follows it, and seats like the
    mixer once attendance has changed.
    """

    key: ClassVar[str] = "schedule"
    name: ClassVar[str] = "Schedule"

    def __init__(self, restarts: int = 100, max_passes: int = 20) -> None:
        self.restarts = restarts
        self.max_passes = max_passes

    def rounds(self, n: int, count: int, seed: int, history: History = ()) -> list[Round]:
        rng = random.Random(seed)
        built = construction(n) if not history else None
        out: list[Round] = []
        if built:
            labels = list(range(1, n + 1))
            rng.shuffle(labels)  # a relabelling keeps the design; varies the draw per seed
            out = [[[labels[p - 1] for p in table] for table in rnd] for rnd in built[:count]]
        if len(out) < count:
            out.extend(self._search(n, count - len(out), rng, [*history, *out]))
        return out

    def _search(self, n: int, count: int, rng: random.Random, history: History) -> list[Round]:
        players = list(range(1, n + 1))
        byes = dict.fromkeys(players, 0)
        for rnd in history:
            _count_byes(byes, rnd)
        ledger = Ledger(SeatingRequest(players, history=history, byes=byes))
        sizes = table_sizes(n)
        out: list[Round] = []
        for _ in range(count):
            best: list[list[int]] = []
            best_cost = float("inf")
            for _ in range(max(1, self.restarts)):
                tables = improve(ledger, _greedy_tables(ledger, sizes, rng), rng, self.max_passes)
                cost = ledger.cost(tables)
                if cost < best_cost:
                    best, best_cost = tables, cost
                    if cost <= EPS:
                        break
            ledger.add(best)
            out.append(_to_players(ledger, best))
        return out

    def next_round(self, request: SeatingRequest) -> Round:
        check_request(request)
        players = sorted(request.players)
        done = len(request.history)
        if not (request.apart or request.together or request.keep_clubmates_apart):
            planned = self.rounds(len(players), done + 1, request.seed)
            relabelled = [[[players[p - 1] for p in table] for table in rnd] for rnd in planned]
            if all(_same_round(a, b) for a, b in zip(relabelled, request.history, strict=False)):
                return relabelled[done]
        return MixerSeating().next_round(request)


def _same_round(a: Sequence[Sequence[int]], b: Sequence[Sequence[int]]) -> bool:
    return {frozenset(t) for t in a} == {frozenset(t) for t in b}


def seating_problems(tables: Sequence[Sequence[int]], request: SeatingRequest) -> list[Problem]:
    """Everything wrong with a proposed round for the players present, in words (empty when it is valid)."""
    problems: list[Problem] = []
    present = set(request.players)
    seen: set[int] = set()
    for number, table in enumerate(tables, start=1):
        if len(table) not in (4, 5):
            text = f"table {number} seats {len(table)} players; a table seats 4 or 5"
            problems.append(Problem("table_size", text, table=number, count=len(table)))
        for p in table:
            if p in seen:
                problems.append(Problem("seated_twice", f"player {p} is seated twice", player=p))
            elif p not in present:
                problems.append(
                    Problem("not_present", f"player {p} at table {number} is not present", player=p, table=number)
                )
            seen.add(p)
    missing = sorted(present - seen)
    allowed_byes = len(present) - sum(table_sizes(len(present))) if len(present) >= 4 else 0
    if len(missing) > allowed_byes:
        problems.append(Problem("no_table", f"players {', '.join(map(str, missing))} have no table", players=missing))
    problems.extend(constraint_problems(tables, request))
    return problems


class ManualSeating(Generator):
    """The organiser's own tables (``request.tables``), returned as given once they are valid."""

    key: ClassVar[str] = "manual"
    name: ClassVar[str] = "Manual"

    def next_round(self, request: SeatingRequest) -> Round:
        check_request(request)
        if not request.tables:
            raise SeatingError([Problem("manual_without_tables", "a manual seating needs the organiser's tables")])
        problems = seating_problems(request.tables, request)
        if problems:
            raise SeatingError(problems)
        return [list(table) for table in request.tables]

    def seat(self, request: SeatingRequest) -> Round:
        """The organiser's tables in the organiser's seat order: their own choice of who sits where."""
        return self.next_round(request)

    def rounds(self, n: int, count: int, seed: int, history: History = ()) -> list[Round]:
        raise SeatingError([Problem("manual_generated", "a manual seating is the organiser's: it cannot be generated")])


GENERATORS: dict[str, Generator] = {
    gen.key: gen
    for gen in (
        RandomSeating(),
        GreedySeating(),
        MixerSeating(),
        SwissSeating(),
        ScheduleSeating(),
        ManualSeating(),
    )
}


def find(key: str) -> Generator:
    """The registered generator for ``key``; raises ``KeyError`` for unknown keys."""
    try:
        return GENERATORS[key]
    except KeyError:
        raise KeyError(f"unknown seating generator {key!r}; choose from {', '.join(sorted(GENERATORS))}") from None
