"""Seating generators: which players share a table in each round.

Players are ``1..n``; a round is a list of tables, each a list of player numbers in seat order. Tables seat
4 players, plus as few tables of 5 as possible. When ``n`` cannot be written as ``4a + 5b`` (6, 7, 11) the
largest number of players that can be seated plays and the rest get a bye; byes rotate.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import ClassVar, Protocol

from .fields import GF, field, prime_power

Round = list[list[int]]
History = Sequence[Sequence[Sequence[int]]]


def table_sizes(n: int) -> list[int]:
    """Table sizes for ``n`` players: most players seated, then fewest tables of 5."""
    for seated in range(n, 3, -1):
        for fives in range(seated // 5 + 1):
            if (seated - 5 * fives) % 4 == 0:
                return [4] * ((seated - 5 * fives) // 4) + [5] * fives
    raise ValueError(f"need at least 4 players, got {n}")


def repeat_free_rounds(rounds: History) -> int:
    """Number of leading rounds in which no pair of players meets for a second time."""
    seen: set[tuple[int, int]] = set()
    for index, rnd in enumerate(rounds):
        for table in rnd:
            for a, b in combinations(sorted(table), 2):
                if (a, b) in seen:
                    return index
                seen.add((a, b))
    return len(rounds)


def repeated_pairs(rounds: History) -> int:
    """Total number of extra meetings: a pair meeting ``k`` times contributes ``k - 1``."""
    counts: dict[tuple[int, int], int] = {}
    for rnd in rounds:
        for table in rnd:
            for pair in combinations(sorted(table), 2):
                counts[pair] = counts.get(pair, 0) + 1
    return sum(c - 1 for c in counts.values())


class SeatingGenerator(Protocol):
    key: ClassVar[str]
    name: ClassVar[str]

    def rounds(self, n: int, count: int, seed: int, history: History = ()) -> list[Round]: ...


class _State:
    """Meeting and bye counters for players 1..n, fed with history and generated rounds."""

    def __init__(self, n: int, history: History) -> None:
        self.n = n
        self.meet = [[0] * (n + 1) for _ in range(n + 1)]
        self.byes = [0] * (n + 1)
        for rnd in history:
            self.add(rnd)

    def add(self, rnd: Sequence[Sequence[int]]) -> None:
        seated: set[int] = set()
        for table in rnd:
            seated.update(table)
            for a, b in combinations(table, 2):
                if 1 <= a <= self.n and 1 <= b <= self.n:
                    self.meet[a][b] += 1
                    self.meet[b][a] += 1
        for player in range(1, self.n + 1):
            if player not in seated:
                self.byes[player] += 1

    def cost(self, rnd: Round) -> int:
        meet = self.meet
        return sum(meet[a][b] for table in rnd for a, b in combinations(table, 2))

    def players_for_round(self, rng: random.Random, seated: int) -> list[int]:
        """All players in random order when everybody plays, else the ``seated`` with the most byes."""
        players = list(range(1, self.n + 1))
        rng.shuffle(players)
        if seated < self.n:
            players.sort(key=lambda p: -self.byes[p])  # stable: random among equals
            players = players[:seated]
        return players


def _deal(players: list[int], sizes: list[int]) -> Round:
    out: Round = []
    start = 0
    for size in sizes:
        out.append(players[start : start + size])
        start += size
    return out


class RandomSeating:
    key: ClassVar[str] = "random"
    name: ClassVar[str] = "Random"

    def rounds(self, n: int, count: int, seed: int, history: History = ()) -> list[Round]:
        sizes = table_sizes(n)
        rng = random.Random(seed)
        state = _State(n, history)
        out: list[Round] = []
        for _ in range(count):
            players = state.players_for_round(rng, sum(sizes))
            rng.shuffle(players)
            rnd = _deal(players, sizes)
            state.add(rnd)
            out.append(rnd)
        return out


def _greedy_round(state: _State, sizes: list[int], rng: random.Random) -> Round:
    meet = state.meet
    remaining = state.players_for_round(rng, sum(sizes))
    rng.shuffle(remaining)
    rnd: Round = []
    for size in sizes:
        table = [remaining.pop(0)]
        while len(table) < size:
            best_i = 0
            best = -1
            for i, cand in enumerate(remaining):
                row = meet[cand]
                score = sum(row[x] for x in table)
                if best < 0 or score < best:
                    best, best_i = score, i
                    if score == 0:
                        break
            table.append(remaining.pop(best_i))
        rnd.append(table)
    return rnd


def _local_search(state: _State, rnd: Round, max_passes: int) -> Round:
    """Swap players between tables while that lowers the round's repeated meetings (first improvement)."""
    meet = state.meet
    tables = [list(t) for t in rnd]
    for _ in range(max_passes):
        improved = False
        for ti, tj in combinations(range(len(tables)), 2):
            t1, t2 = tables[ti], tables[tj]
            for i in range(len(t1)):
                for j in range(len(t2)):
                    a, b = t1[i], t2[j]
                    ra, rb = meet[a], meet[b]
                    delta = 0
                    for c in t1:
                        if c != a:
                            delta += rb[c] - ra[c]
                    for d in t2:
                        if d != b:
                            delta += ra[d] - rb[d]
                    if delta < 0:
                        t1[i], t2[j] = b, a
                        improved = True
        if not improved:
            break
    return tables


class GreedySeating:
    """Random-restart greedy: fill tables one by one with the players who met the table least."""

    key: ClassVar[str] = "greedy"
    name: ClassVar[str] = "Greedy"

    def __init__(self, restarts: int = 200) -> None:
        self.restarts = restarts

    def best_round(self, state: _State, sizes: list[int], rng: random.Random, polish: int = 0) -> Round:
        best: Round | None = None
        best_cost = -1
        for _ in range(max(1, self.restarts)):
            rnd = _greedy_round(state, sizes, rng)
            if polish:
                rnd = _local_search(state, rnd, polish)
            cost = state.cost(rnd)
            if best is None or cost < best_cost:
                best, best_cost = rnd, cost
                if cost == 0:
                    break
        assert best is not None
        return best

    def rounds(self, n: int, count: int, seed: int, history: History = ()) -> list[Round]:
        return self._rounds(n, count, seed, history, polish=0)

    def _rounds(self, n: int, count: int, seed: int, history: History, polish: int) -> list[Round]:
        sizes = table_sizes(n)
        rng = random.Random(seed)
        state = _State(n, history)
        out: list[Round] = []
        for _ in range(count):
            rnd = self.best_round(state, sizes, rng, polish)
            state.add(rnd)
            out.append(rnd)
        return out


# ---------------------------------------------------------------------------------------------------------
# Constructions
# ---------------------------------------------------------------------------------------------------------


def affine_plane_4() -> list[Round]:
    """AG(2,4) on 16 points: 5 parallel classes of 4 lines. Point (x, y) is player ``4x + y + 1``."""
    f = field(4)
    out: list[Round] = []
    for slope in f.elements:  # lines y = slope * x + b
        out.append([[4 * x + f.add(f.mul(slope, x), b) + 1 for x in f.elements] for b in f.elements])
    out.append([[4 * c + y + 1 for y in f.elements] for c in f.elements])  # lines x = c
    return out


def affine_space_4() -> list[Round]:
    """AG(3,4) on 64 points: 21 parallel classes (the points of PG(2,4)) of 16 lines of 4 points."""
    f = field(4)

    def number(v: tuple[int, int, int]) -> int:
        return 16 * v[0] + 4 * v[1] + v[2] + 1

    directions = [(1, b, c) for b in f.elements for c in f.elements]
    directions += [(0, 1, c) for c in f.elements] + [(0, 0, 1)]
    points = [(x, y, z) for x in f.elements for y in f.elements for z in f.elements]
    out: list[Round] = []
    for d in directions:
        covered: set[tuple[int, int, int]] = set()
        rnd: Round = []
        for pt in points:
            if pt in covered:
                continue
            line = [
                (f.add(pt[0], f.mul(t, d[0])), f.add(pt[1], f.mul(t, d[1])), f.add(pt[2], f.mul(t, d[2])))
                for t in f.elements
            ]
            covered.update(line)
            rnd.append([number(v) for v in line])
        out.append(rnd)
    return out


def transversal_design(q: int) -> list[Round]:
    """Resolvable TD(4, q) from the Latin squares L_k(i, j) = k*i + j, k = 1, 2, 3, over GF(q), q >= 4.

    Point (g, x) is player ``g*q + x + 1``. Round i, table j seats (0, j) and (g, L_g(i, j)) for g = 1, 2, 3.
    Since the labels 1, 2, 3 are distinct non-zero field elements, any two points fix (i, j): no pair repeats.
    """
    f: GF = field(q)
    if q < 4:
        raise ValueError("need q >= 4")
    return [[[j + 1] + [g * q + f.add(f.mul(g, i), j) + 1 for g in (1, 2, 3)] for j in f.elements] for i in f.elements]


def construction(n: int) -> list[Round] | None:
    """Known repeat-free schedule for ``n`` players, or ``None``."""
    if n == 16:
        return affine_plane_4()
    if n == 64:
        return affine_space_4()
    if n % 4 == 0 and n >= 16 and prime_power(n // 4) is not None:
        return transversal_design(n // 4)
    return None


class ScheduleSeating:
    """All rounds at once: a known construction where one exists, else greedy plus local search."""

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
            greedy = GreedySeating(self.restarts)
            more = greedy._rounds(n, count - len(out), rng.randrange(2**32), [*history, *out], self.max_passes)
            out.extend(more)
        return out


GENERATORS: dict[str, SeatingGenerator] = {
    gen.key: gen for gen in (RandomSeating(), GreedySeating(), ScheduleSeating())
}


def find(key: str) -> SeatingGenerator:
    """The registered generator for ``key``; raises ``KeyError`` for unknown keys."""
    try:
        return GENERATORS[key]
    except KeyError:
        raise KeyError(f"unknown seating generator {key!r}; choose from {sorted(GENERATORS)}") from None
