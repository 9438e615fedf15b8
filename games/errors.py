"""The engine's one exception family.

Every error is a ``ValueError`` so callers that only know the standard library
can still catch it; messages name the offending input and the state it met.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass


class GameError(ValueError):
    """Base of every error the engine raises on bad input."""


class RuleSetError(GameError):
    """A rule set, preset name or override object is invalid."""


class UnknownRuleSet(RuleSetError):
    """``find(name)`` was asked for a rule set the registry does not hold."""


class SessionError(GameError):
    """A session was opened with impossible parameters (players, deals)."""


@dataclass(frozen=True, slots=True)
class FieldError:
    """One problem with one field of a score-sheet line.

    ``code`` is stable (tests and clients match on it), ``field`` names the
    line's key (``""`` for the line as a whole), ``message`` is English for
    developers and API clients (seats counted from 1, as on the table card).

    What a message is about, for those who write it in other words and
    languages (``tournaments.line_errors``): ``seats``, the engine positions
    (0-based) it names, in order; ``values``, its other named values (a deal
    number, a contract id, a count...); ``cause``, the error it reports on
    another line. None of them take part in comparison or in ``as_dict()``.
    """

    code: str
    field: str
    message: str
    seats: tuple[int, ...] = dataclasses.field(default=(), compare=False)
    values: Mapping[str, int | str] = dataclasses.field(default_factory=dict, compare=False, hash=False)
    cause: FieldError | None = dataclasses.field(default=None, compare=False)

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "field": self.field, "message": self.message}


class InvalidLine(GameError):
    """A score-sheet line was rejected; ``errors`` holds every problem found."""

    def __init__(self, errors: list[FieldError] | tuple[FieldError, ...], line_number: int | None = None):
        self.errors: tuple[FieldError, ...] = tuple(errors)
        self.line_number = line_number
        where = f"line {line_number}: " if line_number is not None else ""
        super().__init__(where + "; ".join(f"{e.field or 'line'}: {e.message} [{e.code}]" for e in self.errors))

    @property
    def codes(self) -> set[str]:
        return {e.code for e in self.errors}


class InvalidRecord(GameError):
    """A full deal record (cards, bids, plays) was rejected; ``errors`` holds every problem found.

    A play's field is ``plays[i]`` and its message names the trick and the card.
    """

    def __init__(self, errors: list[FieldError] | tuple[FieldError, ...]):
        self.errors: tuple[FieldError, ...] = tuple(errors)
        super().__init__("; ".join(f"{e.field or 'record'}: {e.message} [{e.code}]" for e in self.errors))

    @property
    def codes(self) -> set[str]:
        return {e.code for e in self.errors}


class InvalidSheet(GameError):
    """Several lines of a score sheet were rejected; ``lines`` holds each one's error."""

    def __init__(self, lines: list[InvalidLine]):
        self.lines: tuple[InvalidLine, ...] = tuple(lines)
        super().__init__("\n".join(str(e) for e in self.lines))

    @property
    def codes(self) -> set[str]:
        return {code for line in self.lines for code in line.codes}
