"""Finite field arithmetic GF(q) for small prime powers q.

Elements are the integers ``0..q-1``. For ``q = p**m`` an element ``e`` stands for the polynomial whose
coefficients are the base-``p`` digits of ``e`` (least significant digit = constant term); arithmetic is
polynomial arithmetic modulo the first monic irreducible polynomial of degree ``m`` over GF(p).
"""

from __future__ import annotations

from functools import cache
from itertools import product

SUPPORTED_ORDERS: tuple[int, ...] = (4, 5, 7, 8, 9, 16, 25, 27, 32, 49)


def prime_power(q: int) -> tuple[int, int] | None:
    """Return ``(p, m)`` with ``q == p**m`` and ``p`` prime, or ``None``."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    m = 0
    rest = q
    while rest % p == 0:
        rest //= p
        m += 1
    return (p, m) if rest == 1 else None


def _digits(e: int, p: int, m: int) -> list[int]:
    out = []
    for _ in range(m):
        out.append(e % p)
        e //= p
    return out


def _number(coefs: list[int], p: int) -> int:
    value = 0
    for c in reversed(coefs):
        value = value * p + c
    return value


def _poly_mulmod(a: list[int], b: list[int], modulus: list[int], p: int) -> list[int]:
    """Multiply two polynomials of degree < m modulo the monic ``x**m + sum(modulus[i] x**i)``."""
    m = len(modulus)
    prod = [0] * (2 * m - 1)
    for i, ai in enumerate(a):
        if ai:
            for j, bj in enumerate(b):
                prod[i + j] = (prod[i + j] + ai * bj) % p
    for d in range(2 * m - 2, m - 1, -1):
        c = prod[d]
        if c:
            prod[d] = 0
            for i in range(m):
                prod[d - m + i] = (prod[d - m + i] - c * modulus[i]) % p
    return prod[:m]


def _is_irreducible(modulus: list[int], p: int) -> bool:
    """True when ``x**m + ...`` is irreducible: the quotient ring has no zero divisors."""
    m = len(modulus)
    q = p**m
    digits = [_digits(e, p, m) for e in range(q)]
    for a in range(1, q):
        for b in range(a, q):
            if not any(_poly_mulmod(digits[a], digits[b], modulus, p)):
                return False
    return True


def irreducible_polynomial(p: int, m: int) -> list[int]:
    """Lowest coefficients ``c_0..c_{m-1}`` of the first monic irreducible ``x**m + ...`` over GF(p)."""
    if m == 1:
        return [0]
    for coefs in product(range(p), repeat=m):
        modulus = list(reversed(coefs))  # iterate in a stable, readable order
        if modulus[0] == 0:
            continue  # divisible by x
        if _is_irreducible(modulus, p):
            return modulus
    raise ValueError(f"no irreducible polynomial of degree {m} over GF({p})")  # pragma: no cover


class GF:
    """The finite field with ``q`` elements, with precomputed addition and multiplication tables."""

    def __init__(self, q: int) -> None:
        pm = prime_power(q)
        if pm is None:
            raise ValueError(f"{q} is not a prime power")
        self.q = q
        self.p, self.m = pm
        p, m = pm
        self.modulus = irreducible_polynomial(p, m)
        digits = [_digits(e, p, m) for e in range(q)]
        self.add_table: tuple[tuple[int, ...], ...] = tuple(
            tuple(_number([(x + y) % p for x, y in zip(digits[a], digits[b], strict=True)], p) for b in range(q))
            for a in range(q)
        )
        if m == 1:
            self.mul_table: tuple[tuple[int, ...], ...] = tuple(tuple((a * b) % p for b in range(q)) for a in range(q))
        else:
            self.mul_table = tuple(
                tuple(_number(_poly_mulmod(digits[a], digits[b], self.modulus, p), p) for b in range(q))
                for a in range(q)
            )
        self._neg = tuple(self.add_table[a].index(0) for a in range(q))
        self._inv = (0, *(self.mul_table[a].index(1) for a in range(1, q)))

    @property
    def elements(self) -> range:
        return range(self.q)

    def add(self, a: int, b: int) -> int:
        return self.add_table[a][b]

    def mul(self, a: int, b: int) -> int:
        return self.mul_table[a][b]

    def neg(self, a: int) -> int:
        return self._neg[a]

    def sub(self, a: int, b: int) -> int:
        return self.add_table[a][self._neg[b]]

    def inv(self, a: int) -> int:
        if a == 0:
            raise ZeroDivisionError("0 has no inverse")
        return self._inv[a]

    def __repr__(self) -> str:
        return f"GF({self.q})"


@cache
def field(q: int) -> GF:
    """Cached GF(q)."""
    return GF(q)
