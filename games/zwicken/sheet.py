"""A Zwicken table's session: lines validated in context, settled against the running pot.

The context of a line: the next deal number, who must deal (clockwise; the
same dealer after a void cut; the cutter after a Belli cut) and the pot
carried in. ``totals`` are each seat's chip changes since the session began,
so ``sum(totals) + pot == 0`` at every moment. A session has no fixed length:
it ends when the players stop (``complete`` is never true).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from games.errors import InvalidLine, SessionError
from games.rulesets import RuleSet
from games.settlement import Settled
from games.sheet import Correctable, fill
from games.zwicken.lines import CUTS, ZwickenPlay, check_zwicken_line, entered_mismatches, zwicken_options
from games.zwicken.settlement import next_dealer, settle_zwicken


class ZwickenState(NamedTuple):
    """What the next line is validated and settled against."""

    next_deal: int = 1
    expected_dealer: int | None = None
    pot: int = 0


class ZwickenSheet(Correctable[ZwickenState]):
    """One table's open-ended Zwicken session under one rule set (``games.sessions.SessionSheet``)."""

    def __init__(self, rules: RuleSet, players: int = 4):
        options = zwicken_options(rules)
        if type(players) is not int or not options.min_players <= players <= options.max_players:
            raise SessionError(
                f"{rules.name} is played by {options.min_players} to {options.max_players} players, not {players!r}"
            )
        self.rules = rules
        self.options = options
        self.players = players
        self.deals: int | None = None
        self.state = ZwickenState()
        self.lines: list[dict[str, Any]] = []
        self.results: list[Settled] = []
        self.totals: list[int] = [0] * players

    @classmethod
    def from_lines(cls, rules: RuleSet, lines: Iterable[object], players: int = 4) -> ZwickenSheet:
        """Build a sheet from all its lines, reporting every invalid line at once (``InvalidSheet``)."""
        sheet = cls(rules, players)
        fill(sheet, lines)
        return sheet

    @property
    def next_deal(self) -> int:
        return self.state.next_deal

    @property
    def expected_dealer(self) -> int | None:
        return self.state.expected_dealer

    @property
    def pot(self) -> int:
        """Chips in the pot now, carried into the next deal."""
        return self.state.pot

    @property
    def complete(self) -> bool:
        return False

    def check(self, line: object) -> ZwickenPlay:
        """Validate ``line`` as the sheet's next line without adding it."""
        state = self.state
        return check_zwicken_line(
            line,
            self.rules,
            self.players,
            next_deal=state.next_deal,
            expected_dealer=state.expected_dealer,
            pot=state.pot,
        )

    def settle(self, play: ZwickenPlay) -> Settled:
        """Settle a checked line against the current pot, without adding it."""
        return settle_zwicken(self.options, play, self.players, self.state.pot)

    def add(self, line: object) -> Settled:
        """Validate, settle and append the next line; raise ``InvalidLine`` and change nothing if it is bad."""
        play = self.check(line)
        settled = self.settle(play)
        mismatches = entered_mismatches(play, settled)
        if mismatches:
            raise InvalidLine(mismatches)
        assert isinstance(line, Mapping)  # check() proved it
        self.lines.append(dict(line))
        self.results.append(settled)
        for seat, chips in enumerate(settled.points):
            self.totals[seat] += chips
        self.state = ZwickenState(
            self.state.next_deal + 1, next_dealer(play.kind, play.dealer, self.players), settled.pot
        )
        return settled

    def _rebuilt(self, lines: list[object]) -> ZwickenSheet:
        return ZwickenSheet.from_lines(self.rules, lines, self.players)

    def skip(self, line: object) -> None:
        """Move past an invalid line as if it had been the expected one.

        The dealer rotates as the line's cut (if readable) says; the pot is
        left as it was, since an invalid line settles nothing.
        """
        state = self.state
        dealer = state.expected_dealer
        kind = "zwicken"
        if isinstance(line, Mapping):
            given = line.get("dealer")
            if dealer is None and type(given) is int and 0 <= given < self.players:
                dealer = given
            if line.get("cut") in CUTS:
                kind = str(line["cut"])
        dealer = 0 if dealer is None else dealer
        self.state = ZwickenState(state.next_deal + 1, next_dealer(kind, dealer, self.players), state.pot)
