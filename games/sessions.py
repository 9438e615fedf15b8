"""One way in for every game: open a session sheet for a rule set.

Callers (the web app, the CLI) never special-case a game: Wiezen and Solo
whist sessions are ``games.sheet.Sheet``; Zwicken sessions are
``games.zwicken.ZwickenSheet``. Both keep the ``SessionSheet`` interface.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple, Protocol

from games.errors import SessionError
from games.rulesets import Game, RuleSet
from games.settlement import Settled
from games.sheet import Sheet, fill


class SessionSheet(Protocol):
    rules: RuleSet
    players: int
    deals: int | None
    lines: list[dict[str, Any]]
    results: list[Settled]
    totals: list[int]

    @property
    def next_deal(self) -> int: ...

    @property
    def expected_dealer(self) -> int | None: ...

    @property
    def complete(self) -> bool: ...

    def add(self, line: object) -> Settled: ...

    def replace(self, deal: int, line: object) -> list[Settled]: ...

    def skip(self, line: object) -> None: ...


def open_sheet(rules: RuleSet, players: int = 4, deals: int | None = 16) -> SessionSheet:
    """A new, empty sheet; Zwicken sessions are open-ended, so ``deals`` must then be ``None``."""
    if rules.game is Game.ZWICKEN:
        from games.zwicken import ZwickenSheet

        if deals is not None:
            raise SessionError(f"a Zwicken session has no fixed length: deals must be None, not {deals!r}")
        return ZwickenSheet(rules, players)
    return Sheet(rules, players, deals)


def sheet_from_lines(rules: RuleSet, lines: Iterable[object], players: int = 4, deals: int | None = 16) -> SessionSheet:
    """A sheet with all ``lines``; every invalid line is reported at once (``InvalidSheet``)."""
    sheet = open_sheet(rules, players, deals)
    fill(sheet, lines)
    return sheet


def sitting_out(rules: RuleSet, players: int, dealer: int) -> int | None:
    """The seat that sits a deal out: the dealer at a trick-taking table of five; nobody in Zwicken."""
    return dealer if players == 5 and rules.game is not Game.ZWICKEN else None


class SeatSummary(NamedTuple):
    """A seat's session so far: total points, deals played, contracts it declared and made."""

    points: int
    deals: int
    bid: int
    made: int


def seat_summaries(sheet: SessionSheet) -> list[SeatSummary]:
    """Per seat, for standings and statistics, whatever the game (Zwicken: 'bid' is playing, 'made' a trick taken)."""
    players = sheet.players
    deals, bid, made = [0] * players, [0] * players, [0] * players
    for line, settled in zip(sheet.lines, sheet.results, strict=True):
        out = sitting_out(sheet.rules, players, line.get("dealer", -1))
        for seat in range(players):
            if seat != out:
                deals[seat] += 1
        if sheet.rules.game is Game.ZWICKEN:
            tricks = line.get("tricks") or [0] * players
            for seat in line.get("played") or []:
                bid[seat] += 1
                made[seat] += 1 if tricks[seat] > 0 else 0
            continue
        declarers = line.get("declarers") or []
        for k, seat in enumerate(declarers):
            bid[seat] += 1
            flags = settled.made
            if flags and (flags[k] if len(flags) == len(declarers) else flags[0]):
                made[seat] += 1
    return [SeatSummary(sheet.totals[s], deals[s], bid[s], made[s]) for s in range(players)]
