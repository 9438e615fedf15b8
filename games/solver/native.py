"""The C search (``wiezendd.c``) through ctypes: one context (and its transposition table) per thread.

The library is built by ``make install`` (``cc -O3 -march=native -shared``, plain ``-O2`` where the compiler
refuses that; no Python headers), so ``games/`` keeps its
promise of the standard library only; the browser's copy of the engine never loads it.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Required, TypedDict, overload

from games.errors import GameError

LIBRARY = Path(__file__).resolve().parent / "_wiezendd.so"


if TYPE_CHECKING:  # ctypes' pointer types take a parameter only for the type checker
    from typing import TypeAlias

    CType: TypeAlias = (
        type[ctypes.c_void_p | ctypes.c_int | ctypes.c_longlong | ctypes._Pointer[ctypes.c_uint64]]
        | type[ctypes._Pointer[ctypes.c_int] | ctypes._Pointer[ctypes.c_longlong]]
    )


class SolverUnavailable(GameError):
    """The compiled search is missing: ``make install`` builds it."""


_lock = threading.Lock()
_library: ctypes.CDLL | None = None
_local = threading.local()


def _load() -> ctypes.CDLL:
    global _library
    with _lock:
        if _library is None:
            if not LIBRARY.is_file():
                raise SolverUnavailable(f"the double-dummy solver is not built ({LIBRARY.name}): run make install")
            library = ctypes.CDLL(str(LIBRARY))
            library.wz_new.restype = ctypes.c_void_p
            library.wz_new.argtypes = []
            library.wz_free.restype = None
            library.wz_free.argtypes = [ctypes.c_void_p]
            position: list[CType] = [
                ctypes.c_void_p,
                ctypes.POINTER(ctypes.c_uint64),
                ctypes.c_int,
                ctypes.c_int,
                ctypes.c_int,
                ctypes.c_int,
                ctypes.c_int,
            ]
            # after the position: a range's floor and ceiling (wz_bounds), then the budget and what comes back
            range_answer: list[CType] = [
                ctypes.c_longlong,
                ctypes.POINTER(ctypes.c_int),
                ctypes.POINTER(ctypes.c_int),
                ctypes.POINTER(ctypes.c_longlong),
            ]
            answer: list[CType] = [ctypes.c_longlong, ctypes.POINTER(ctypes.c_longlong)]
            library.wz_bounds.restype = ctypes.c_int
            library.wz_bounds.argtypes = [*position, ctypes.c_int, ctypes.c_int, *range_answer]
            library.wz_reach.restype = ctypes.c_int
            library.wz_reach.argtypes = [*position, ctypes.c_int, *answer]
            # miserie's changed game: leader, declarer, floor, ceiling, the budget, and the bound and nodes
            library.wz_miserie_ceiling.restype = ctypes.c_int
            library.wz_miserie_ceiling.argtypes = [
                *position[:-1],
                ctypes.c_longlong,
                ctypes.POINTER(ctypes.c_int),
                ctypes.POINTER(ctypes.c_longlong),
            ]
            _library = library
        return _library


class _Context:
    """A C context, freed with its thread's last reference."""

    def __init__(self, library: ctypes.CDLL) -> None:
        self.library = library
        self.pointer: int | None = library.wz_new()
        if not self.pointer:
            raise MemoryError("the solver could not allocate its transposition table")

    def __del__(self) -> None:
        if self.pointer:
            self.library.wz_free(self.pointer)
            self.pointer = None


def _context() -> _Context:
    context: _Context | None = getattr(_local, "context", None)
    if context is None:
        context = _Context(_load())
        _local.context = context
    return context


def seats_mask(seats: Sequence[int]) -> int:
    return sum(1 << seat for seat in set(seats))


class SearchArguments(TypedDict, total=False):
    """One position's question as keyword arguments of ``bounds``, ``solve`` and ``reaches`` (but the hands)."""

    leader: Required[int]
    trump: Required[int | None]
    maximisers: Required[Sequence[int]]
    counted: Sequence[int] | None
    first_card: int | None


def _arguments(
    hands: Sequence[int],
    leader: int,
    trump: int | None,
    maximisers: Sequence[int],
    counted: Sequence[int] | None,
    first_card: int | None,
) -> tuple[object, ...]:
    if len(hands) != 4:
        raise GameError(f"the solver plays four hands, not {len(hands)}")
    return (
        (ctypes.c_uint64 * 4)(*hands),
        leader,
        -1 if trump is None else trump,
        seats_mask(maximisers),
        seats_mask(maximisers if counted is None else counted),
        -1 if first_card is None else first_card,
    )


EMPTY_RANGE = -3
UNPLAYABLE = "the solver needs four hands of equal size, 52 distinct cards at most, and a first lead the leader holds"


def _budget(budget: int | None) -> int:
    if budget is None:
        return -1
    if budget < 0:
        raise GameError(f"a node budget is a count of nodes, 0 or more, not {budget}")
    return budget


def bounds(
    hands: Sequence[int],
    *,
    leader: int,
    trump: int | None,
    maximisers: Sequence[int],
    counted: Sequence[int] | None = None,
    first_card: int | None = None,
    within: tuple[int, int] = (0, 13),
    budget: int | None,
) -> tuple[int, int]:
    """The tightest range ``(low, high)`` of the tricks won by ``counted`` (default: ``maximisers``) under best
    play that ``budget`` search nodes prove: first bounds that cost nothing (the top trumps' run, the leader's
    quick tricks), then yes/no questions halving the range, all paid from the one budget. ``budget=None``
    searches to the end: ``low == high``, the exact count. ``within``: a range the caller already knows holds
    the count (from an earlier question), where the search starts. See ``solve`` for the other arguments."""
    floor, ceiling = _range(within)
    context = _context()
    low, high, nodes = ctypes.c_int(0), ctypes.c_int(0), ctypes.c_longlong(0)
    arguments = _arguments(hands, leader, trump, maximisers, counted, first_card)
    status: int = context.library.wz_bounds(
        context.pointer,
        *arguments,
        floor,
        ceiling,
        _budget(budget),
        ctypes.byref(low),
        ctypes.byref(high),
        ctypes.byref(nodes),
    )
    _check(status, within)
    return low.value, high.value


def _range(within: tuple[int, int]) -> tuple[int, int]:
    floor, ceiling = within
    if not 0 <= floor <= ceiling <= 13:
        raise GameError(f"a range of tricks runs from 0 to 13, low to high, not {floor}..{ceiling}")
    return floor, ceiling


def _check(status: int, within: tuple[int, int]) -> None:
    """Raises for a search's refusal: a known range the cards rule out, or hands that cannot be played."""
    if status == EMPTY_RANGE:
        raise GameError(f"the tricks cannot lie in {within[0]}..{within[1]}: the cards alone rule that out")
    if status < 0:
        raise GameError(UNPLAYABLE)


def miserie_ceiling(
    hands: Sequence[int], *, leader: int, declarer: int, within: tuple[int, int] = (0, 13), budget: int | None
) -> int:
    """A bound from above on miserie's count (the fewest tricks ``declarer`` can be held to, without trump), from
    a changed game that costs a fraction of the real one: after each trick the declarer loses, the three others
    pick the next leader among those of them who followed in the winning card's gap between the declarer's cards.
    The real game gives one of them, so it counts no more; on most deals it counts as much. ``within``: a range
    already known to hold the count; ``budget``: search nodes (None: to the end; else the bound is what they
    proved)."""
    floor, ceiling = _range(within)
    if not 0 <= declarer <= 3:
        raise GameError(f"a declarer sits at one of the four seats 0..3, not {declarer}")
    if len(hands) != 4:
        raise GameError(f"the solver plays four hands, not {len(hands)}")
    context = _context()
    high, nodes = ctypes.c_int(0), ctypes.c_longlong(0)
    status: int = context.library.wz_miserie_ceiling(
        context.pointer,
        (ctypes.c_uint64 * 4)(*hands),
        leader,
        declarer,
        floor,
        ceiling,
        _budget(budget),
        ctypes.byref(high),
        ctypes.byref(nodes),
    )
    _check(status, within)
    return high.value


@overload
def solve(
    hands: Sequence[int],
    *,
    leader: int,
    trump: int | None,
    maximisers: Sequence[int],
    counted: Sequence[int] | None = None,
    first_card: int | None = None,
    budget: None = None,
) -> int: ...


@overload
def solve(
    hands: Sequence[int],
    *,
    leader: int,
    trump: int | None,
    maximisers: Sequence[int],
    counted: Sequence[int] | None = None,
    first_card: int | None = None,
    budget: int,
) -> int | None: ...


def solve(
    hands: Sequence[int],
    *,
    leader: int,
    trump: int | None,
    maximisers: Sequence[int],
    counted: Sequence[int] | None = None,
    first_card: int | None = None,
    budget: int | None = None,
) -> int | None:
    """The tricks won by ``counted`` (default: ``maximisers``) when ``maximisers`` raise them and the others
    lower them, every hand visible. ``hands``: four bit sets of equal size by seat, clockwise; ``trump``: a
    suit's order (0..3, C D H S) or None; ``first_card``: a card index the leader must lead (troel).
    ``budget``: search nodes at most; None (unknown) when they did not settle the count."""
    low, high = bounds(
        hands,
        leader=leader,
        trump=trump,
        maximisers=maximisers,
        counted=counted,
        first_card=first_card,
        budget=budget,
    )
    return low if low == high else None


@overload
def reaches(
    hands: Sequence[int],
    target: int,
    *,
    leader: int,
    trump: int | None,
    maximisers: Sequence[int],
    counted: Sequence[int] | None = None,
    first_card: int | None = None,
    budget: None = None,
) -> bool: ...


@overload
def reaches(
    hands: Sequence[int],
    target: int,
    *,
    leader: int,
    trump: int | None,
    maximisers: Sequence[int],
    counted: Sequence[int] | None = None,
    first_card: int | None = None,
    budget: int,
) -> bool | None: ...


def reaches(
    hands: Sequence[int],
    target: int,
    *,
    leader: int,
    trump: int | None,
    maximisers: Sequence[int],
    counted: Sequence[int] | None = None,
    first_card: int | None = None,
    budget: int | None = None,
) -> bool | None:
    """Whether ``maximisers`` can reach ``target`` counted tricks: one question of ``solve``'s search, enough
    for a contract that needs every trick. ``budget``: search nodes at most; None (unknown) when they did not
    settle it."""
    context = _context()
    nodes = ctypes.c_longlong(0)
    arguments = _arguments(hands, leader, trump, maximisers, counted, first_card)
    result: int = context.library.wz_reach(context.pointer, *arguments, target, _budget(budget), ctypes.byref(nodes))
    if result == -1:
        raise GameError(UNPLAYABLE)
    return None if result < 0 else result == 1
