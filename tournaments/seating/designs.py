"""Repeat-free schedules from combinatorial designs: as many rounds as possible in which no two players meet twice.

A transversal design TD(k, g) has ``k`` groups of ``g`` points and ``g*g`` blocks of size ``k``; every block meets
every group once and two points of different groups lie in exactly one block. It is stored here as an orthogonal
array: a block is a ``k``-tuple whose entry ``i`` is the point of group ``i`` (an integer ``0..g-1``).

Deleting one group of a TD(5, g) leaves a *resolvable* TD(4, g): the blocks through one point of the deleted group
partition the other ``4g`` points, so the ``g`` points of that group give ``g`` repeat-free rounds for ``4g``
players. TD(5, g) comes from finite fields (prime powers ``g >= 4``), a difference matrix (``g = 12``), direct
products and Wilson's construction (e.g. ``g = 50``). Separately, ``4**d`` players get the affine space AG(d, 4) and
40 players a packing of PG(3, 3); both reach the bound ``(n - 1) // 3`` rounds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations, product
from math import isqrt

from .fields import field, prime_power

Block = tuple[int, ...]
TD = tuple[Block, ...]
Round = list[list[int]]
Recipe = tuple[str, int, int, int]

# A (12, 6, 1) difference matrix over Z2 x Z6, element (a, b) written 6*a + b: for any two rows, the 12
# differences row_r[c] - row_s[c] are the 12 group elements. Rows 2..5 are mutually orthogonal orthomorphisms,
# found once by a backtracking search (Z12 has none: a cyclic group of even order has no complete mapping).
Z2_Z6_DIFFERENCE_MATRIX: tuple[Block, ...] = (
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11),
    (0, 2, 1, 6, 8, 7, 10, 9, 11, 4, 3, 5),
    (0, 3, 8, 10, 1, 9, 2, 6, 5, 7, 11, 4),
    (0, 4, 10, 9, 7, 1, 11, 5, 3, 2, 8, 6),
    (0, 8, 6, 4, 3, 10, 9, 11, 2, 5, 1, 7),
)


def z2_z6_add(x: int, y: int) -> int:
    """Addition in Z2 x Z6 with ``(a, b)`` encoded as ``6*a + b``."""
    return (x // 6 + y // 6) % 2 * 6 + (x + y) % 6


def td_order(td: Sequence[Block]) -> int:
    """The group size ``g`` of a TD(k, g), which has ``g*g`` blocks."""
    g = isqrt(len(td))
    if g * g != len(td):
        raise ValueError(f"a transversal design has a square number of blocks, not {len(td)}")
    return g


# ---------------------------------------------------------------------------------------------------------
# Transversal designs
# ---------------------------------------------------------------------------------------------------------


def field_td(k: int, q: int) -> TD:
    """TD(k, q) for a prime power ``q`` and ``2 <= k <= q + 1``: blocks ``(i, j, a*i + j for a = 1..k-2)``.

    The squares ``a*i + j`` for distinct non-zero ``a`` are mutually orthogonal Latin squares over GF(q).
    """
    if not 2 <= k <= q + 1:
        raise ValueError(f"TD({k}, {q}) needs 2 <= k <= q + 1")
    f = field(q)
    return tuple((i, j, *(f.add(f.mul(a, i), j) for a in range(1, k - 1))) for i in f.elements for j in f.elements)


def develop(matrix: Sequence[Block], add: Callable[[int, int], int]) -> TD:
    """TD(k, g) from a (g, k, 1) difference matrix over an abelian group: block ``(row[c] + x for row)``.

    Two entries ``u``, ``v`` in rows ``r``, ``s`` fix the column ``c`` (``u - v`` is ``row_r[c] - row_s[c]``
    for exactly one ``c``) and then ``x``, so each such pair lies in exactly one block.
    """
    g = len(matrix[0])
    return tuple(tuple(add(row[c], x) for row in matrix) for c in range(g) for x in range(g))


def product_td(a: Sequence[Block], b: Sequence[Block]) -> TD:
    """TD(k, g1*g2) as the direct product of a TD(k, g1) and a TD(k, g2): point ``(x, y)`` is ``x*g2 + y``."""
    g2 = td_order(b)
    return tuple(tuple(x * g2 + y for x, y in zip(ra, rb, strict=True)) for ra in a for rb in b)


def _with_constant_block(td: Sequence[Block], symbol: int) -> TD:
    """Relabel the points of each group (swap two of them) so that ``(symbol, ..., symbol)`` is a block."""
    first = td[0]

    def swap(x: int, old: int) -> int:
        return symbol if x == old else old if x == symbol else x

    return tuple(tuple(swap(x, old) for x, old in zip(block, first, strict=True)) for block in td)


def wilson_td(
    big: Sequence[Block], m_design: Sequence[Block], m1_design: Sequence[Block], u_design: Sequence[Block]
) -> TD:
    """Wilson's construction: TD(k, m*t + u) from TD(k+1, t), TD(k, m), TD(k, m+1) and TD(k, u), ``1 <= u <= t``.

    Keep only the points ``0..u-1`` of the last group of the TD(k+1, t) and give every point ``x`` of the first
    ``k`` groups weight ``m`` (the points ``x*m + 0..m-1``). A block that lost its last point becomes a copy of
    the TD(k, m) on its weighted points. A block through a kept point ``p`` becomes a copy of the TD(k, m+1) in
    which symbol ``m`` stands for the new point ``t*m + p`` of each group, minus the block of those ``k`` new
    points; the TD(k, u) on the new points ``t*m + 0..u-1`` covers their pairs instead.
    """
    k = len(m_design[0])
    t, m, u = td_order(big), td_order(m_design), td_order(u_design)
    if len(big[0]) != k + 1 or td_order(m1_design) != m + 1 or not 1 <= u <= t:
        raise ValueError(f"Wilson's construction needs TD({k + 1}, t), TD({k}, m), TD({k}, m+1), TD({k}, u<=t)")
    corner = (m,) * k
    with_new = [block for block in _with_constant_block(m1_design, m) if block != corner]
    out: list[Block] = []
    for block in big:
        p = block[k]
        if p >= u:
            out.extend(tuple(block[i] * m + s for i, s in enumerate(sub)) for sub in m_design)
        else:
            out.extend(tuple(t * m + p if s == m else block[i] * m + s for i, s in enumerate(sub)) for sub in with_new)
    out.extend(tuple(t * m + s for s in sub) for sub in u_design)
    return tuple(out)


@cache
def _recipe(k: int, g: int) -> Recipe | None:
    """How to build TD(k, g) from the constructions above, or ``None``; ingredients are smaller designs."""
    if g == 1:
        return ("one", 0, 0, 0)
    if k > g + 1 or g < 1 or k < 2:
        return None  # a TD(k, g) with k > g + 1 would give more than g - 1 mutually orthogonal Latin squares
    if k <= 3:
        return ("cyclic", 0, 0, 0)
    if prime_power(g) is not None:
        return ("field", 0, 0, 0)
    if g == 12 and k <= len(Z2_Z6_DIFFERENCE_MATRIX):
        return ("difference matrix", 0, 0, 0)
    for g1 in range(2, isqrt(g) + 1):
        if g % g1 == 0 and _recipe(k, g1) and _recipe(k, g // g1):
            return ("product", g1, g // g1, 0)
    for t in range(2, g):
        for m in range(1, (g - 1) // t + 1):
            u = g - m * t
            if u <= t and _recipe(k + 1, t) and _recipe(k, m) and _recipe(k, m + 1) and _recipe(k, u):
                return ("wilson", t, m, u)
    return None


@cache
def _build(k: int, g: int) -> TD | None:
    recipe = _recipe(k, g)
    if recipe is None:
        return None
    kind, a, b, c = recipe
    if kind == "one":
        return ((0,) * k,)
    if kind == "cyclic":
        return tuple((i, j, (i + j) % g)[:k] for i in range(g) for j in range(g))
    if kind == "field":
        return field_td(k, g)
    if kind == "difference matrix":
        return develop(Z2_Z6_DIFFERENCE_MATRIX[:k], z2_z6_add)
    if kind == "product":
        return product_td(_ingredient(k, a), _ingredient(k, b))
    return wilson_td(_ingredient(k + 1, a), _ingredient(k, b), _ingredient(k, b + 1), _ingredient(k, c))


def _ingredient(k: int, g: int) -> TD:
    td = _build(k, g)
    if td is None:  # pragma: no cover - _recipe only names ingredients it can build
        raise AssertionError(f"no TD({k}, {g})")
    return td


def transversal_design(k: int, g: int) -> TD | None:
    """A TD(k, g) from finite fields, the Z2 x Z6 difference matrix, direct products and Wilson's construction.

    ``None`` when none of these gives one (e.g. TD(5, 6), which does not exist, or TD(5, 10), which is unknown).
    The result is cached and immutable.
    """
    return _build(k, g)


# ---------------------------------------------------------------------------------------------------------
# Rounds
# ---------------------------------------------------------------------------------------------------------


def resolvable_rounds(td: Sequence[Block]) -> list[Round]:
    """The ``g`` rounds of a TD(k, g), ``k >= 2``, with its last group deleted: round ``v`` holds the blocks
    through point ``v`` of that group; point ``x`` of group ``i`` is player ``i*g + x + 1``."""
    g = td_order(td)
    k = len(td[0])
    rounds: list[Round] = [[[] for _ in range(g)] for _ in range(g)]
    for block in td:
        rounds[block[-1]][block[0]] = [i * g + x + 1 for i, x in enumerate(block[: k - 1])]
    return rounds


def affine_rounds(d: int) -> list[Round]:
    """AG(d, 4) on ``4**d`` players: every direction is a round of parallel lines of 4 points, ``(4**d - 1) // 3``
    rounds. Point ``(x_1, ..., x_d)`` is player ``1 + sum(x_i * 4**(d - i))``."""
    f = field(4)
    points = list(product(f.elements, repeat=d))
    directions = [v for v in points if any(v) and v[next(i for i, c in enumerate(v) if c)] == 1]
    out: list[Round] = []
    for direction in directions:
        covered: set[tuple[int, ...]] = set()
        rnd: Round = []
        for pt in points:
            if pt not in covered:
                line = [tuple(f.add(x, f.mul(s, c)) for x, c in zip(pt, direction, strict=True)) for s in f.elements]
                covered.update(line)
                rnd.append([1 + sum(x * 4 ** (d - 1 - i) for i, x in enumerate(v)) for v in line])
        out.append(rnd)
    return out


def _projective_lines_3_3() -> list[tuple[int, ...]]:
    """The 130 lines of PG(3, 3) as sorted 4-tuples of point indices; points are the 40 non-zero vectors of
    GF(3)^4 whose first non-zero coordinate is 1, in lexicographic order."""
    points = [v for v in product(range(3), repeat=4) if any(v) and v[next(i for i, c in enumerate(v) if c)] == 1]
    index = {v: i for i, v in enumerate(points)}

    def normal(v: tuple[int, ...]) -> int:
        lead = next(c for c in v if c)  # 1 or 2, its own inverse mod 3
        return index[tuple(c * lead % 3 for c in v)]

    lines: set[tuple[int, ...]] = set()
    for a, b in combinations(points, 2):
        span = {
            normal(tuple((s * x + r * y) % 3 for x, y in zip(a, b, strict=True)))
            for s in range(3)
            for r in range(3)
            if s or r
        }
        lines.add(tuple(sorted(span)))
    return sorted(lines)


@cache
def _projective_packing_3_3() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """13 disjoint spreads of PG(3, 3), each a tuple of 10 lines of players ``1..40``, by a deterministic search
    (about 0.05 s): list all spreads, then pick spreads that cover every line exactly once."""
    lines = _projective_lines_3_3()
    masks = [sum(1 << p for p in line) for line in lines]
    through = [[li for li, line in enumerate(lines) if p in line] for p in range(40)]
    spreads: list[list[int]] = []  # all 8424 spreads, by exact cover of the points

    def cover(covered: int, chosen: list[int]) -> None:
        if covered == (1 << 40) - 1:
            spreads.append(list(chosen))
            return
        p = (~covered & (covered + 1)).bit_length() - 1  # lowest uncovered point
        for li in through[p]:
            if not covered & masks[li]:
                chosen.append(li)
                cover(covered | masks[li], chosen)
                chosen.pop()

    cover(0, [])
    # Exact cover of the lines by spreads (Algorithm X, fewest candidates first); sets of spreads are bitmasks.
    containing = [0] * len(lines)
    for si, spread in enumerate(spreads):
        for li in spread:
            containing[li] |= 1 << si
    clash = [0] * len(spreads)  # spreads sharing a line with spread si, si included
    for si, spread in enumerate(spreads):
        for li in spread:
            clash[si] |= containing[li]

    def pack(open_lines: list[int], available: int) -> list[int] | None:
        if not open_lines:
            return []
        line = min(open_lines, key=lambda li: (containing[li] & available).bit_count())
        candidates = containing[line] & available
        while candidates:
            si = (candidates & -candidates).bit_length() - 1
            candidates &= candidates - 1
            rest = pack([li for li in open_lines if li not in spreads[si]], available & ~clash[si])
            if rest is not None:
                return [si, *rest]
        return None

    packing = pack(list(range(len(lines))), (1 << len(spreads)) - 1)
    assert packing is not None  # PG(3, 3) has packings (Denniston); the search finds one in a few steps
    return tuple(tuple(tuple(p + 1 for p in lines[li]) for li in spreads[si]) for si in packing)


def projective_packing_rounds() -> list[Round]:
    """A packing of PG(3, 3): its 130 lines of 4 points split into 13 spreads of 10 lines; the spreads are 13
    repeat-free rounds for 40 players (any two points share exactly one line)."""
    return [[list(line) for line in spread] for spread in _projective_packing_3_3()]


@cache
def _resolvable_design(n: int) -> tuple[tuple[tuple[int, ...], ...], ...] | None:
    candidates: list[list[Round]] = []
    d = 1
    while 4**d < n:
        d += 1
    if 4**d == n:
        candidates.append(affine_rounds(d))
    if n == 40:
        candidates.append(projective_packing_rounds())
    if n % 4 == 0 and (td := transversal_design(5, n // 4)) is not None:
        candidates.append(resolvable_rounds(td))
    if not candidates:
        return None
    best = max(candidates, key=len)
    return tuple(tuple(tuple(table) for table in rnd) for rnd in best)


def resolvable_design(n: int) -> list[Round] | None:
    """Repeat-free rounds of tables of 4 for players ``1..n``, or ``None`` when no construction is known.

    Each round seats every player once; no two players share a table twice. Of the constructions that apply,
    the one with the most rounds: AG(d, 4) for ``n = 4**d`` and PG(3, 3) for ``n = 40`` (both ``(n - 1) // 3``
    rounds), else a resolvable TD(4, n/4) (``n / 4`` rounds) from a TD(5, n/4). Returns fresh lists.
    """
    if n < 4:
        return None
    design = _resolvable_design(n)
    if design is None:
        return None
    return [[list(table) for table in rnd] for rnd in design]
