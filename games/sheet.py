"""A table's session: score-sheet lines validated in context, settled, totalled.

The context a line depends on is small: the next deal number, who must deal
(rotation, or the same dealer after an all-pass round where the rule set says
so), the doubling pending from all-pass rounds, and how many deals count
toward the session's length. ``Sheet`` keeps exactly that, so adding a line
costs the same whatever its number.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Generic, NamedTuple, Protocol, TypeVar, cast

from games.errors import FieldError, InvalidLine, InvalidSheet, SessionError
from games.lines import check_line
from games.rulesets import AfterPass, Doubling, Rotation, RuleSet, TieBreak
from games.settlement import Play, Settled, settle

SESSION_LENGTHS = (16, 24)


class SheetState(NamedTuple):
    """What the next line is validated against (a tuple: cheap to make once per line)."""

    next_deal: int = 1
    expected_dealer: int | None = None
    pending: int = 1  # multiplier carried from all-pass rounds
    counted: int = 0  # deals that count toward the session's length


class _Fillable(Protocol):
    def add(self, line: object) -> Settled: ...

    def skip(self, line: object) -> None: ...


def fill(sheet: _Fillable, lines: Iterable[object]) -> None:
    """Add every line; raise ``InvalidSheet`` naming each invalid one, judging later lines as if it were fine."""
    failures: list[InvalidLine] = []
    for number, line in enumerate(lines, start=1):
        try:
            sheet.add(line)
        except InvalidLine as exc:
            failures.append(InvalidLine(exc.errors, line_number=number))
            sheet.skip(line)
    if failures:
        raise InvalidSheet(failures)


StateT = TypeVar("StateT")


class Correctable(Generic[StateT]):
    """What every game's sheet shares: a correction replays the sheet's lines with one of them changed."""

    lines: list[dict[str, Any]]
    results: list[Settled]
    totals: list[int]
    state: StateT

    def _rebuilt(self, lines: list[object]) -> Correctable[StateT]:
        raise NotImplementedError

    def replace(self, deal: int, line: object) -> list[Settled]:
        """Correct deal ``deal`` and re-settle every line after it.

        Later lines are re-validated too: a correction that breaks one (its
        dealer is now out of rotation, say) raises ``InvalidSheet`` naming it,
        and the sheet stays as it was. Returns the results from ``deal`` on.
        """
        if type(deal) is not int or not 1 <= deal <= len(self.lines):
            raise SessionError(f"deal {deal!r} is not on this sheet (it has {len(self.lines)} lines)")
        rebuilt = self._rebuilt([*self.lines[: deal - 1], line, *self.lines[deal:]])
        self.state, self.lines, self.results, self.totals = (
            rebuilt.state,
            rebuilt.lines,
            rebuilt.results,
            rebuilt.totals,
        )
        return self.results[deal - 1 :]


class Sheet(Correctable[SheetState]):
    """One table's session under one rule set.

    ``players`` is 4, or 5 when the dealer sits each deal out; ``deals`` is
    16 or 24, or ``None`` for an open-ended session.
    """

    def __init__(self, rules: RuleSet, players: int = 4, deals: int | None = 16):
        if players not in (4, 5):
            raise SessionError(f"a table seats 4 or 5 players, not {players!r}")
        if deals is not None and deals not in SESSION_LENGTHS:
            raise SessionError(f"a session has 16 or 24 deals (or none for open-ended), not {deals!r}")
        self.rules = rules
        self.players = players
        self.deals = deals
        self.state = SheetState()
        self.lines: list[dict[str, Any]] = []
        self.results: list[Settled] = []
        self.totals: list[int] = [0] * players
        self._step = 1 if rules.rotation is Rotation.CLOCKWISE else -1

    @classmethod
    def from_lines(cls, rules: RuleSet, lines: Iterable[object], players: int = 4, deals: int | None = 16) -> Sheet:
        """Build a sheet from all its lines, reporting every invalid line at once."""
        sheet = cls(rules, players, deals)
        fill(sheet, lines)
        return sheet

    @property
    def complete(self) -> bool:
        return self.deals is not None and self.state.counted >= self.deals and not self.extra_deal_due

    @property
    def extra_deal_due(self) -> bool:
        """Under ``tie_break: extra_deal`` a session that ends with the lead shared gets one more deal (000)."""
        if self.deals is None or self.state.counted != self.deals or self.rules.tie_break is not TieBreak.EXTRA_DEAL:
            return False
        first, second = sorted(self.totals, reverse=True)[:2]
        return first == second

    def _deals_left(self) -> int | None:
        if self.deals is None:
            return None
        return 1 if self.extra_deal_due else self.deals - self.state.counted

    @property
    def next_deal(self) -> int:
        return self.state.next_deal

    @property
    def expected_dealer(self) -> int | None:
        return self.state.expected_dealer

    @property
    def pending_multiplier(self) -> int:
        return self.state.pending

    def check(self, line: object) -> Play:
        """Validate ``line`` as the sheet's next line without adding it."""
        state = self.state
        return check_line(
            line,
            self.rules,
            self.players,
            next_deal=state.next_deal,
            expected_dealer=state.expected_dealer,
            deals_left=self._deals_left(),
        )

    def add(self, line: object) -> Settled:
        """Validate, settle and append the next line; raise ``InvalidLine`` and change nothing if it is bad."""
        play = self.check(line)
        settled = settle(self.rules, play, self.players, self.state.pending)
        entered = cast(Mapping[str, Any], line).get("points")  # check() proved it a mapping
        if entered is not None and tuple(entered) != settled.points:
            raise InvalidLine([_points_mismatch(entered, settled)])
        self.lines.append(dict(cast(Mapping[str, Any], line)))
        self.results.append(settled)
        totals = self.totals
        for seat, p in enumerate(settled.points):
            totals[seat] += p
        self.state = self._after(play.contract, play.dealer)
        return settled

    def _rebuilt(self, lines: list[object]) -> Sheet:
        return Sheet.from_lines(self.rules, lines, self.players, self.deals)

    def _after(self, contract: str, dealer: int) -> SheetState:
        state, rules = self.state, self.rules
        passed = contract == "pass"
        if passed:
            if rules.doubling is Doubling.NEXT_DEAL:
                pending = 2
            elif rules.doubling is Doubling.PER_PASS:
                pending = state.pending * 2
            else:
                pending = 1
        elif contract == "penalty":
            pending = state.pending  # a fault is not a played deal: the doubling waits for one
        else:
            pending = 1
        same_dealer = passed and rules.after_pass is AfterPass.SAME_DEALER
        next_dealer = dealer if same_dealer else (dealer + self._step) % self.players
        counted = state.counted + (0 if passed and not rules.passes_count else 1)
        return SheetState(state.next_deal + 1, next_dealer, pending, counted)

    def skip(self, line: object) -> None:
        """Move past an invalid line as if it had been the expected one, so later lines are judged fairly."""
        state = self.state
        dealer = state.expected_dealer
        contract = "?"
        if isinstance(line, Mapping):
            if dealer is None and type(line.get("dealer")) is int and 0 <= line["dealer"] < self.players:
                dealer = line["dealer"]
            if line.get("contract") == "pass":
                contract = "pass"
        self.state = self._after(contract, 0 if dealer is None else dealer)


def _points_mismatch(entered: Any, settled: Settled) -> FieldError:
    return FieldError(
        "points_mismatch",
        "points",
        f"points {list(entered)} differ from the settlement {list(settled.points)} (multiplier {settled.multiplier})",
        seats=tuple(seat for seat, (a, b) in enumerate(zip(entered, settled.points, strict=False)) if a != b),
    )
