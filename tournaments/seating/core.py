"""What every seating generator shares: table sizes, the request, fair rotation and the swap search.

A generator turns a ``SeatingRequest`` (the players present, the rounds so far, constraints) into one round: a
list of tables, each a list of player numbers in seat order. Player numbers are any distinct integers (database
ids or ``1..n``).

Fairness. Tables of five cost their players deals (the dealer sits each deal out) and byes cost a whole round,
so both rotate: byes go to the players with the fewest byes so far, seats at tables of five to the seated
players with the fewest such seats. Choosing the least-burdened players every round keeps the spread of either
count at most 1 among players who attend every round. The swap search keeps that choice: it only moves a player
between a table of 4 and a table of 5 in exchange for someone with the same count.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from .sit_outs import SitOuts

Round = list[list[int]]
History = Sequence[Sequence[Sequence[int]]]

HARD = 1000.0  # weight of a broken "apart" or "together" wish: no number of repeated meetings outweighs it
CLUBMATE = 2.0
EPS = 1e-9


class Problem(str):
    """A problem in plain English (the ``str``), with its kind and the players and tables it names, so that the
    pages can say it in the reader's language with the players' names (``tournaments.seating_words``)."""

    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, text: str, **params: Any) -> Problem:
        made = super().__new__(cls, text)
        made.code = code
        made.params = params
        return made


class SeatingError(ValueError):
    """The request cannot be seated as asked; ``problems`` lists every reason in plain words."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


def table_sizes(n: int) -> list[int]:
    """Table sizes for ``n`` players: most players seated, then fewest tables of 5, which come first (18 -> 5, 5,
    4, 4); 6, 7 and 11 leave byes."""
    for seated in range(n, 3, -1):
        for fives in range(seated // 5 + 1):
            if (seated - 5 * fives) % 4 == 0:
                return [5] * fives + [4] * ((seated - 5 * fives) // 4)
    raise SeatingError([Problem("too_few", f"need at least 4 players, got {n}", count=n)])


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


@dataclass(frozen=True)
class SeatingRequest:
    """Everything a generator may use to seat one round. Only ``players`` is required."""

    players: Sequence[int]
    history: History = ()  # earlier rounds, oldest first; players not present now are ignored
    seed: int = 0
    byes: Mapping[int, int] = field(default_factory=dict)  # byes so far (history cannot tell a bye from absence)
    ranking: Sequence[int] = ()  # best first, for ``swiss``; players missing from it rank last
    clubs: Mapping[int, Sequence[int]] = field(default_factory=dict)  # player -> their clubs, for keep_clubmates_apart
    keep_clubmates_apart: bool = False
    apart: Sequence[tuple[int, int]] = ()  # pairs that must not share a table
    together: Sequence[tuple[int, int]] = ()  # pairs that must share a table (a couple sharing a car)
    tables: Sequence[Sequence[int]] = ()  # the organiser's own tables, for ``manual``
    # deals each seat sits out at a table of five this round (the dealer sits out): (5, 5, 5, 5, 4) for 24 deals;
    # empty when every seat sits out as often (or nobody does)
    sit_out_seats: Sequence[int] = ()
    sit_outs: Mapping[int, SitOuts] | None = None  # sit-outs so far per player; None: ``history`` with sit_out_seats


def check_request(request: SeatingRequest) -> None:
    players = list(request.players)
    problems: list[Problem] = []
    if len(set(players)) != len(players):
        twice = sorted(p for p in set(players) if players.count(p) > 1)
        problems.append(Problem("listed_twice", "a player is listed twice", players=twice))
    if len(players) < 4:
        problems.append(Problem("too_few", f"need at least 4 players, got {len(players)}", count=len(players)))
    present = set(players)
    groups = _together_groups(request, present)
    largest = max(table_sizes(len(players))) if len(players) >= 4 else 0
    for group in groups:
        if len(group) > largest:
            text = f"players {', '.join(map(str, sorted(group)))} should sit together but no table seats {len(group)}"
            problems.append(Problem("group_too_large", text, players=sorted(group), count=len(group)))
    for a, b in request.apart:
        if a == b:
            problems.append(Problem("apart_from_self", f"player {a} cannot be kept apart from themselves", player=a))
        elif any(a in g and b in g for g in groups):
            text = f"players {a} and {b} are asked both to sit together and to be kept apart"
            problems.append(Problem("together_and_apart", text, first=a, second=b))
    if problems:
        raise SeatingError(problems)


def _together_groups(request: SeatingRequest, present: set[int]) -> list[set[int]]:
    parent: dict[int, int] = {}

    def root(x: int) -> int:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for a, b in request.together:
        if a in present and b in present:
            parent[root(a)] = root(b)
    groups: dict[int, set[int]] = {}
    for x in list(parent):
        groups.setdefault(root(x), set()).add(x)
    return [g for g in groups.values() if len(g) > 1]


def constraint_problems(tables: Sequence[Sequence[int]], request: SeatingRequest) -> list[Problem]:
    """Broken "apart" and "together" wishes of a seating, in words."""
    where = {p: i for i, table in enumerate(tables) for p in table}
    problems = []
    for a, b in request.apart:
        if a in where and where.get(a) == where.get(b):
            text = f"players {a} and {b} should be kept apart but share table {where[a] + 1}"
            problems.append(Problem("apart_together", text, first=a, second=b, table=where[a] + 1))
    for a, b in request.together:
        if a in where and b in where and where[a] != where[b]:
            text = f"players {a} and {b} should sit together but are at tables {where[a] + 1} and {where[b] + 1}"
            problems.append(
                Problem("together_apart", text, first=a, second=b, table=where[a] + 1, other_table=where[b] + 1)
            )
    return problems


class Ledger:
    """Pair weights and fairness counts for the players present, indexed ``0..m-1`` for speed."""

    def __init__(self, request: SeatingRequest, recency: bool = False) -> None:
        self.players = list(request.players)
        self.index = {p: i for i, p in enumerate(self.players)}
        m = len(self.players)
        self.weight = [[0.0] * m for _ in range(m)]
        self.met = [[0] * m for _ in range(m)]
        self.fives = [0] * m
        self.byes = [request.byes.get(p, 0) for p in self.players]
        index = self.index
        age_of = len(request.history)
        for age, rnd in enumerate(request.history):
            age = age_of - 1 - age  # 0 for the latest round
            w = 1.0 + 1.0 / (1.0 + age) if recency else 1.0
            for table in rnd:
                here = [index[p] for p in table if p in index]
                if len(table) == 5:
                    for i in here:
                        self.fives[i] += 1
                for i, j in combinations(here, 2):
                    self.weight[i][j] += w
                    self.weight[j][i] += w
                    self.met[i][j] += 1
                    self.met[j][i] += 1
        if request.keep_clubmates_apart:
            by_club: dict[int, list[int]] = {}
            for p, clubs in request.clubs.items():
                if p in index:
                    for club in set(clubs):
                        by_club.setdefault(club, []).append(index[p])
            mates = {(i, j) for members in by_club.values() for i, j in combinations(sorted(members), 2)}
            for i, j in mates:  # as heavy as a recent repeat: apart unless that costs meetings
                self.weight[i][j] += CLUBMATE
                self.weight[j][i] += CLUBMATE
        self.floor = [0.0] * m  # the best a player's table can do: every "together" partner present
        for a, b in request.apart:
            if a in index and b in index and a != b:
                i, j = index[a], index[b]
                self.weight[i][j] += HARD
                self.weight[j][i] += HARD
        # "together" is transitive (a with b, b with c: one table), so every pair of a group is weighted
        self.groups = [sorted(index[p] for p in group) for group in _together_groups(request, set(index))]
        self.grouped = [False] * m
        for group in self.groups:
            for i, j in combinations(group, 2):
                self.weight[i][j] -= HARD
                self.weight[j][i] -= HARD
                self.floor[i] -= HARD
                self.floor[j] -= HARD
            for i in group:
                self.grouped[i] = True

    def add(self, tables: Sequence[Sequence[int]]) -> None:
        """Count a generated round, given in local indices (for generators seating several rounds in a row)."""
        seated: set[int] = set()
        for table in tables:
            here = list(table)
            seated.update(here)
            for i in here:
                if len(table) == 5:
                    self.fives[i] += 1
            for i, j in combinations(here, 2):
                self.weight[i][j] += 1.0
                self.weight[j][i] += 1.0
                self.met[i][j] += 1
                self.met[j][i] += 1
        for i in range(len(self.players)):
            if i not in seated:
                self.byes[i] += 1

    def cost(self, tables: Sequence[Sequence[int]]) -> float:
        """Weight of a seating given in local indices."""
        w = self.weight
        return sum(w[a][b] for t in tables for a, b in combinations(t, 2))

    def repeats(self, tables: Sequence[Sequence[int]]) -> int:
        met = self.met
        return sum(met[a][b] > 0 for t in tables for a, b in combinations(t, 2))

    def split(self, sizes: Sequence[int], rng: random.Random) -> tuple[list[int], list[int], list[int]]:
        """Local indices of the players with a bye, at tables of 5 and at tables of 4, chosen fairly."""
        m = len(self.players)
        order = list(range(m))
        rng.shuffle(order)
        seated_count = sum(sizes)
        order.sort(key=lambda i: -self.byes[i])  # most byes so far play first; stable: random among equals
        seated, byes = order[:seated_count], order[seated_count:]
        five_seats = 5 * sum(1 for s in sizes if s == 5)
        seated.sort(key=lambda i: self.fives[i])
        return byes, seated[:five_seats], seated[five_seats:]


def initial_tables(sizes: Sequence[int], at_five: list[int], at_four: list[int]) -> list[list[int]]:
    """Fill tables in order: tables of 5 from ``at_five``, tables of 4 from ``at_four``, keeping list order."""
    fives, fours = iter(at_five), iter(at_four)
    return [[next(fives if size == 5 else fours) for _ in range(size)] for size in sizes]


def gather_groups(ledger: Ledger, tables: list[list[int]]) -> list[list[int]]:
    """Bring each "together" group to one table before the search, which moves one player at a time and could
    not otherwise join a group split over three tables. Wishes come before the fair rotation of tables of 5."""
    for group in ledger.groups:
        members = set(group)
        fits = [t for t in tables if len(t) >= len(group)]
        if not fits:
            continue
        target = max(fits, key=lambda t: sum(p in members for p in t))
        outsiders = [k for k, p in enumerate(target) if p not in members and not ledger.grouped[p]]
        for p in group:
            if p in target:
                continue
            if not outsiders:
                break
            k = outsiders.pop()
            source = next(t for t in tables if p in t)
            source[source.index(p)], target[k] = target[k], p
    return tables


def improve(
    ledger: Ledger,
    tables: list[list[int]],
    rng: random.Random,
    max_passes: int = 50,
    home: dict[int, int] | None = None,
) -> list[list[int]]:
    """Swap pairs of players between tables while the seating's weight drops (best swap per player).

    Only players whose table weighs more than it could are tried, so a round with few conflicts among
    hundreds of players costs little. A player moves between a table of 4 and a table of 5 only in exchange
    for someone with as many seats at tables of 5: the fair choice of who sits at fives survives (players with
    a "together" wish excepted). With ``home`` (player -> table), a player stays within one table of home,
    unless moving further keeps an "apart" or "together" wish.
    """
    w = ledger.weight
    fives = ledger.fives
    floor = ledger.floor
    grouped = ledger.grouped
    pos: dict[int, int] = {}
    for ti, table in enumerate(tables):
        for p in table:
            pos[p] = ti
    players = list(pos)
    for _ in range(max_passes):
        improved = False
        rng.shuffle(players)
        for a in players:
            ta = pos[a]
            table_a = tables[ta]
            row_a = w[a]
            cost_a = sum(row_a[x] for x in table_a if x != a)
            if cost_a <= floor[a] + EPS:
                continue
            best_delta, best_b = -EPS, -1
            size_a = len(table_a)
            for tb, table_b in enumerate(tables):
                if tb == ta:
                    continue
                same_size = len(table_b) == size_a
                a_far = home is not None and abs(tb - home[a]) > 1
                a_in_b = sum(row_a[y] for y in table_b)
                for b in table_b:
                    if not same_size and fives[a] != fives[b] and not (grouped[a] or grouped[b]):
                        continue
                    row_b = w[b]
                    b_in_a = sum(row_b[x] for x in table_a if x != a)
                    cost_b = sum(row_b[y] for y in table_b if y != b)
                    delta = b_in_a - cost_a + (a_in_b - row_a[b]) - cost_b
                    if (a_far or (home is not None and abs(ta - home[b]) > 1)) and delta > -HARD / 2:
                        continue  # away from home only to keep a wish
                    if delta < best_delta:
                        best_delta, best_b = delta, b
            if best_b >= 0:
                tb = pos[best_b]
                table_b = tables[tb]
                table_a[table_a.index(a)] = best_b
                table_b[table_b.index(best_b)] = a
                pos[a], pos[best_b] = tb, ta
                improved = True
        if not improved:
            break
    return tables
