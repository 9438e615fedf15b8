"""Reading a competition archive: every problem is refused with its place, before the database meets it.

An archive is untrusted JSON. The import reads it through ``Part`` (an object here, a list there, a player's
key), runs each new row's ``full_clean()`` (``checked``) and adds the rules that span rows: seats fill their
table, a player has one place a round (a seat or a bye), league options the standings accept, penalties the
standings can hold. A problem is an ``ArchiveProblem`` whose errors name their place as a path into the
archive (``rounds[2].tables[1].seats``); the import turns it into a 400 and rolls everything back.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models

from games.errors import FieldError
from tournaments import limits

MALFORMED = "malformed_archive"  # a part missing, of the wrong type, or naming something the archive lacks
INVALID = "invalid"  # a value its model refuses
INCONSISTENT = "inconsistent_archive"  # parts that contradict each other

# The most penalty points one player may carry in a competition (as ``give_penalty`` allows).
PENALTY_TOTAL_MAX = limits.PENALTY_TOTAL_MAX
# NUL: PostgreSQL text refuses it; a lone surrogate: UTF-8 cannot encode it.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
_REQUIRED: Any = object()

Row = TypeVar("Row", bound=models.Model)


class ArchiveProblem(Exception):
    """What is wrong with an archive: ``FieldError``s whose field is the place and whose message starts with it."""

    def __init__(self, errors: list[FieldError]):
        self.errors = errors
        super().__init__("; ".join(e.message for e in errors))


def problem(where: str, message: str, code: str = MALFORMED) -> ArchiveProblem:
    return ArchiveProblem([error(where, message, code)])


def error(where: str, message: str, code: str = MALFORMED) -> FieldError:
    return FieldError(code, where, f"{where or 'the archive'}: {message}")


def at(where: str, step: str | int) -> str:
    """One step down the path: ``rounds`` and 2 give ``rounds[2]``, then ``tables`` gives ``rounds[2].tables``."""
    if isinstance(step, int):
        return f"{where}[{step}]"
    return f"{where}.{step}" if where else step


def kind_of(value: Any) -> str:
    """The JSON type of a value, for messages (never its text: it may be huge or unprintable)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    return {dict: "an object", list: "a list", str: "text", int: "a number", float: "a number"}.get(
        type(value), type(value).__name__
    )


@dataclass(frozen=True)
class Part:
    """A value of the archive and its place in it; reading it as the wrong type is an ``ArchiveProblem``."""

    value: Any
    where: str = ""

    def __getitem__(self, key: str) -> Part:
        """A member that must be there."""
        return self.get(key, _REQUIRED)

    def get(self, key: str, default: Any = None) -> Part:
        data = self.object()
        if key not in data and default is _REQUIRED:
            raise problem(at(self.where, key), "missing")
        return Part(data.get(key, default), at(self.where, key))

    def object(self) -> dict[str, Any]:
        if not isinstance(self.value, dict):
            raise problem(self.where, f"must be an object, got {kind_of(self.value)}")
        return self.value

    def items(self) -> list[Part]:
        if not isinstance(self.value, list):
            raise problem(self.where, f"must be a list, got {kind_of(self.value)}")
        return [Part(value, at(self.where, index)) for index, value in enumerate(self.value)]

    def objects(self) -> list[Part]:
        """A list of objects (players, rounds, tables...)."""
        parts = self.items()
        for part in parts:
            part.object()
        return parts

    def key(self) -> int:
        """A whole number that refers to something (a player's key, a round's number)."""
        if type(self.value) is not int:
            raise problem(self.where, f"must be a whole number, got {kind_of(self.value)}")
        return int(self.value)


def refuse_unstorable_text(archive: Any) -> None:
    """NUL or a lone surrogate anywhere, keys and lines included: the database or the response would fail on it.

    Walked without recursion: the JSON parser lets through nesting deep enough to exhaust the stack.
    """
    stack: list[tuple[Any, str]] = [(archive, "")]
    while stack:
        value, where = stack.pop()
        if isinstance(value, str) and _UNSTORABLE.search(value):
            raise problem(where, "text with a NUL character or a lone surrogate, which cannot be stored", INVALID)
        if isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str) and _UNSTORABLE.search(key):
                    raise problem(where, "a member name with a NUL character or a lone surrogate", INVALID)
                stack.append((item, at(where, key)))
        elif isinstance(value, list):
            stack.extend((item, at(where, index)) for index, item in enumerate(value))


@contextmanager
def refusals_at(where: str) -> Iterator[None]:
    """A model's ``ValidationError`` as problems named by place and field (``rounds[0].status: ...``)."""
    try:
        yield
    except ValidationError as exc:
        messages = exc.message_dict if hasattr(exc, "error_dict") else {NON_FIELD_ERRORS: list(exc.messages)}
        raise ArchiveProblem(
            [
                error(where if field == NON_FIELD_ERRORS else at(where, field), message, INVALID)
                for field, texts in messages.items()
                for message in texts
            ]
        ) from exc


def checked(row: Row, where: str, **options: Any) -> Row:
    """The row after its ``full_clean()``: lengths, blanks, choices, the column's number range, constraints."""
    with refusals_at(where):
        refuse_only_spaces(row)
        row.full_clean(**options)
    return row


def refuse_only_spaces(row: models.Model) -> None:
    """Required text that is only white space: ``full_clean()`` takes it, a form would have stripped it to blank."""
    spaces = {
        field.name: "must not be blank (it holds only white space)"
        for field in row._meta.concrete_fields
        if isinstance(field, models.CharField) and not field.blank and _only_spaces(getattr(row, field.attname))
    }
    if spaces:
        raise ValidationError(spaces)


def _only_spaces(value: Any) -> bool:
    return isinstance(value, str) and value != "" and not value.strip()


def place_once(places: dict[int, str], key: int, where: str) -> None:
    """A player has one place a round, a seat or a bye; ``places`` maps the round's players to theirs so far."""
    if key in places:
        message = f"player key {key} is also at {places[key]}: a player has one seat or a bye a round"
        raise problem(where, message, INCONSISTENT)
    places[key] = where


def seats_of(table: Part, size: int) -> list[Part]:
    """The table's seats, which must fill it: one player a seat, seat 0 first."""
    seats = table["seats"].items()
    if len(seats) != size:
        message = f"a table of {size} needs {size} players, got {len(seats)}"
        raise problem(at(table.where, "seats"), message, INCONSISTENT)
    return seats


def add_penalty(totals: dict[int, int], player_key: int, points: int, where: str) -> None:
    """Count a penalty towards its player's total, which the standings must be able to hold."""
    totals[player_key] = totals.get(player_key, 0) + points
    if totals[player_key] > PENALTY_TOTAL_MAX:
        message = f"the penalties of player key {player_key} total more than {PENALTY_TOTAL_MAX} points"
        raise problem(at(where, "points"), message, INVALID)
