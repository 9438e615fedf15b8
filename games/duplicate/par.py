"""Par: what each position of a board scores when the best contract for it is played double dummy.

The solver (``games.solver.analysis``) says how many tricks each contract's side takes against best defence (or,
when its node budget ran out, between which bounds that number lies). Par turns those tricks into points under a
rule set, with the engine's own settlement (``games.settlement.settle``), so it pays exactly what a score sheet
would. Deliberately simple, and the board pages say so:

- Every analysed contract and side the rule set plays is settled at a table of four (positions are seats: N, E,
  S, W = 0..3), with no all-pass doubling. A contract that may be bid at several levels (abondance 9..12, the
  higher vraag and alleen bids of a rule set's tariff) is settled at each and its best level for the declarers is
  kept. Miserie's figure serves open miserie too (double dummy every hand is open already); an abondance in the
  turned suit counts as abondance in troef where the rule set plays it.
- A position's par is the most it can score among the contracts it could declare, as declarer or as partner in
  a pair (vraag, troel), or 0: nobody must bid (but a troel pair must play troel, or a contract above it).
- The board's par contract is the one that gives its declarers the most, each; the board's par result is what
  every position scores when it is played (all 0 when nothing makes), what a table's result is compared with. A
  position's own par above is no such comparison: the positions' own pars are each the best of a different
  contract, so they add up to more than any table can score, and every table would fall short of them.
- A figure the solver only bounded is taken at its safe end: the fewest tricks for a side that wants tricks, the
  most for a miserie declarer, who wants none. Whatever rests on such a figure is marked ``bound``, unless the
  other end of the range pays the same (settlement is monotone in the tricks, so then every count between does):
  the solver leaves exactly those counts open by default (``games.solver.analysis``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from games.contracts import CONTRACTS, Side
from games.rulesets import RuleSet
from games.settlement import Play, settle

POSITIONS = 4

# The rule set's contracts each analysed contract also stands for: same side, same cards, same figure.
ALSO = {"miserie": ("open_miserie",), "abondance": ("abondance_troef",)}


class Analysed(Protocol):
    """One row of a board's analysis: ``games.solver.analysis.Solved``, or the same read back from storage."""

    @property
    def contract(self) -> str: ...

    @property
    def declarers(self) -> tuple[int, ...]: ...

    @property
    def low(self) -> int: ...

    @property
    def high(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Row:
    """An analysed contract as plain values (what ``tournaments.BoardAnalysis.rows`` keeps)."""

    contract: str
    declarers: tuple[int, ...]
    trump: str | None  # a suit letter, or None without trump
    leader: int
    low: int
    high: int

    @property
    def exact(self) -> bool:
        return self.low == self.high

    @property
    def tricks(self) -> int | None:
        return self.low if self.exact else None


@dataclass(frozen=True, slots=True)
class Outcome:
    """One contract settled: who declared it, at which level, with how many tricks, and the points by position."""

    contract: str
    declarers: tuple[int, ...]
    level: int | None
    tricks: int
    bound: bool  # ``tricks`` is the safe end of the solver's bounds, and the other end pays differently
    points: tuple[int, ...]  # by position, N E S W
    made: bool

    @property
    def each(self) -> float:
        """What the declarers score, each (a lone declarer: all of it)."""
        return sum(self.points[d] for d in self.declarers) / len(self.declarers)


@dataclass(frozen=True, slots=True)
class Par:
    """A board's par under one rule set."""

    outcomes: tuple[Outcome, ...]  # every contract settled, in the analysis' order
    best: tuple[Outcome | None, ...]  # each position's best contract; None: passing (0) is better
    points: tuple[int, ...]  # each position's par, N E S W
    line: Outcome | None  # the board's par contract: the most for its declarers; None when nothing makes

    @property
    def result(self) -> tuple[int, ...]:
        """What each position scores, N E S W, when the par contract is played; 0 each when nothing makes."""
        return self.line.points if self.line is not None else (0,) * POSITIONS

    @property
    def bound(self) -> bool:
        """Whether a par figure rests on a bound rather than an exact count."""
        return any(outcome is not None and outcome.bound for outcome in (*self.best, self.line))


def safe_tricks(contract: str, low: int, high: int) -> int:
    """The end of the bounds the declarers can count on: the fewest tricks, or the most for a miserie."""
    return high if CONTRACTS[contract].side is Side.EACH_ALONE else low


def _bids(rules: RuleSet, contract: str) -> list[int | None]:
    """The levels ``contract`` may be bid at under ``rules``: its ordinary bid (None), then its tariff's levels."""
    levels: list[int | None] = [level for level, _ in rules.tariffs[contract].levels]
    return levels if CONTRACTS[contract].levels else [None, *levels]


def _settle(
    rules: RuleSet, contract: str, declarers: tuple[int, ...], tricks: int, other_end: int | None = None
) -> Outcome | None:
    """``contract`` at its best level for ``declarers`` taking ``tricks``; None when the rule set does not play it.
    ``other_end``: the other end of the solver's range, when ``tricks`` is only its safe end; the outcome is then
    ``bound`` unless that end pays the same (a failed miserie fails alike with 1 trick or 9)."""
    outcome = _at_best_level(rules, contract, declarers, tricks)
    if outcome is None or other_end is None or other_end == tricks:
        return outcome
    other = _at_best_level(rules, contract, declarers, other_end)
    bound = other is None or (other.points, other.level) != (outcome.points, outcome.level)
    return replace(outcome, bound=bound)


def _at_best_level(rules: RuleSet, contract: str, declarers: tuple[int, ...], tricks: int) -> Outcome | None:
    """``contract`` at the level that pays ``declarers`` most for ``tricks``; None when the rule set lacks it."""
    if contract not in rules.compiled:
        return None
    best: Outcome | None = None
    each_alone = CONTRACTS[contract].side is Side.EACH_ALONE
    for level in _bids(rules, contract):
        play = Play(
            deal=1,
            dealer=0,
            contract=contract,
            declarers=declarers,
            tricks=(tricks,) * len(declarers) if each_alone else (tricks,),
            level=level,
        )
        settled = settle(rules, play, POSITIONS)
        outcome = Outcome(contract, declarers, level, tricks, False, settled.points, all(settled.made))
        if best is None or outcome.each > best.each:
            best = outcome
    return best


def outcomes(
    rows: Iterable[Analysed | Row], rules: RuleSet, *, turned: str | None = None, trumps: Sequence[str | None] = ()
) -> list[Outcome]:
    """Every analysed contract the rule set plays, settled (``trumps``: each row's trump letter, to tell an
    abondance in the ``turned`` suit; without them abondance in troef is left out)."""
    out: list[Outcome] = []
    for index, row in enumerate(rows):
        if row.contract not in CONTRACTS:
            continue
        tricks = safe_tricks(row.contract, row.low, row.high)
        other_end = row.low + row.high - tricks
        names = [row.contract, *ALSO.get(row.contract, ())]
        for name in names:
            if name == "abondance_troef" and (turned is None or index >= len(trumps) or trumps[index] != turned):
                continue
            outcome = _settle(rules, name, tuple(row.declarers), tricks, other_end)
            if outcome is not None:
                out.append(outcome)
    return out


def par(
    rows: Sequence[Analysed | Row], rules: RuleSet, *, turned: str | None = None, trumps: Sequence[str | None] = ()
) -> Par:
    """The board's par under ``rules`` from its analysis ``rows`` (module docstring)."""
    settled = outcomes(rows, rules, turned=turned, trumps=trumps)
    best: list[Outcome | None] = []
    points: list[int] = []
    for position in range(POSITIONS):
        own = [o for o in settled if position in o.declarers]
        forced = any(o.contract == "troel" for o in own)  # three aces must be announced: no passing then
        top = max(own, key=lambda o: o.points[position], default=None)
        if top is None or (not forced and top.points[position] <= 0):
            best.append(None)
            points.append(0)
        else:
            best.append(top)
            points.append(top.points[position])
    line = max(settled, key=lambda o: o.each, default=None)
    if line is not None and line.each <= 0 and line.contract != "troel":
        # nothing pays its declarers; but three aces must be announced: then troel is played, at a loss or not
        line = max((o for o in settled if o.contract == "troel"), key=lambda o: o.each, default=None)
    return Par(tuple(settled), tuple(best), tuple(points), line)


def row_from_json(data: object) -> Row:
    """One stored analysis row (``tournaments.BoardAnalysis.rows``) as a ``Row``; ValueError when it is not one."""
    if not isinstance(data, dict):
        raise ValueError(f"an analysis row is an object, not {data!r}")
    try:
        contract, declarers, trump = data["contract"], data["declarers"], data["trump"]
        leader, low, high = data["leader"], data["low"], data["high"]
    except KeyError as exc:
        raise ValueError(f"an analysis row needs {exc.args[0]!r}: {data!r}") from None
    numbers = [leader, low, high, *declarers] if isinstance(declarers, list) else None
    if (
        not isinstance(contract, str)
        or contract not in CONTRACTS
        or numbers is None
        or not all(type(n) is int for n in numbers)
        or not (trump is None or trump in ("C", "D", "H", "S"))
        or not 0 <= low <= high <= 13
        or not declarers
        or not all(0 <= p < POSITIONS for p in [leader, *declarers])
    ):
        raise ValueError(f"not an analysis row: {data!r}")
    return Row(contract, tuple(declarers), trump, leader, low, high)
