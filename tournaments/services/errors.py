"""User errors of the services: shown to people, translated, distinct from bugs."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.errors import FieldError


class ServiceError(Exception):
    """Something the user asked for cannot be done; the message says why."""


class EntryRejected(ServiceError):
    """A score-sheet line was refused; ``errors`` holds every problem, per field."""

    def __init__(self, errors: Iterable[FieldError]):
        self.errors: tuple[FieldError, ...] = tuple(errors)
        super().__init__("; ".join(f"{e.field or 'line'}: {e.message}" for e in self.errors))

    @property
    def codes(self) -> set[str]:
        return {e.code for e in self.errors}

    def by_field(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for e in self.errors:
            out.setdefault(e.field or "__all__", []).append(e.message)
        return out


class StaleVersion(ServiceError):
    """A correction was based on a version of the deal that is no longer current."""

    def __init__(self, current: Any, expected: int | None):
        self.current = current  # the current DealEntry, or None if the deal has no line yet
        held = current.version if current is not None else 0
        if expected is None:  # a new line for a deal already on the sheet: only a correction with a version replaces it
            super().__init__(
                f"deal {current.deal_number} is already on this sheet (version {held}): "
                "correct it with the version you saw instead"
            )
        else:
            super().__init__(f"this deal is at version {held}, not {expected}: someone changed it in the meantime")
