"""The range of every number that enters: one place, used by the models (validators and check constraints),
the API serializers, the forms, the imports and the commands, so that they cannot disagree.

A number outside its range is refused at the edge with a 400 (a form error on pages) that names the range, and
the database refuses it too (``CheckConstraint``): a value that slips past a path nobody remembered is still an
error, never an ``OverflowError`` or frozen standings. The README's "Security" section lists these ranges.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.http import Http404
from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Range:
    """``low`` to ``high``, both included."""

    low: int | float
    high: int | float

    @property
    def message(self) -> Promise:
        """What a refusal says, in the reader's language."""
        return format_lazy(_("Give a number from {low} to {high}."), low=self.low, high=self.high)

    def validators(self) -> list[Any]:
        """For a model field: ``full_clean()`` (admin, model forms, archive imports) and serializers refuse.

        Django's own messages, which name the bound: a message of ours would be frozen into the migrations.
        """
        return [MinValueValidator(self.low), MaxValueValidator(self.high)]

    def kwargs(self) -> dict[str, Any]:
        """``min_value``/``max_value`` for a form or serializer field, with the message naming the range."""
        messages = {"min_value": self.message, "max_value": self.message}
        return {"min_value": self.low, "max_value": self.high, "error_messages": messages}

    def __contains__(self, value: object) -> bool:
        return isinstance(value, int | float) and not isinstance(value, bool) and self.low <= value <= self.high

    def check(self, field: str, name: str) -> models.CheckConstraint:
        """The database's copy of the range for ``field``."""
        return models.CheckConstraint(
            condition=models.Q(**{f"{field}__gte": self.low, f"{field}__lte": self.high}), name=name
        )


# Ids of players, competitions, rounds... (bigint primary keys): positive and below 2^63. Anything else names
# no object: "no such player", never an overflow.
ID = Range(1, 2**63 - 1)
# Points one penalty deducts, and the most all of one player's penalties in one competition may total.
PENALTY_POINTS = Range(1, 10_000)  # as the entry page's penalty form always allowed
PENALTY_TOTAL_MAX = 1_000_000
# A round's seating seed: an integer JSON carries exactly (2^53).
SEED_MAX = 2**53
SEED = Range(0, SEED_MAX)
# Rounds (evenings) of a competition and tables of a round (2000 players at tables of four: 500).
ROUND_NUMBER = Range(1, 1000)
TABLE_NUMBER = Range(1, 500)
TABLE_SIZE = Range(4, 5)
SEAT_POSITION = Range(0, 4)
# Deals of one sheet: 16 or 24, open-ended Zwicken sessions stop at 1000.
DEAL_NUMBER = Range(1, 1000)
DEALS_PER_SESSION = Range(16, 24)  # and only 16 or 24 (the competition's own constraint)
# Boards of a round (duplicate competitions: board k is deal k of every table's sheet), a board's compass
# positions (0..3 = N, E, S, W), its turned card by index.
BOARD_NUMBER = Range(1, 100)
COMPASS_POSITION = Range(0, 3)
CARD_INDEX = Range(0, 51)
# Tricks a side or a player takes in one deal.
TRICKS = Range(0, 13)
# Versions of one line (each correction adds one).
VERSION = Range(1, 2**31 - 1)
EXPECTED_VERSION = Range(0, 2**31 - 1)  # 0: the deal has no line yet
# League options: evenings to be ranked, best N evenings, an evening's weight per evening of age.
EVENINGS = Range(0, 1000)
BEST_EVENINGS = Range(1, 1000)
EVENING_DECAY = Range(0.0, 1.0)  # above 0 (the model's check says so), at most 1
# Points for a place under placement standings, and how many places may be given.
PLACEMENT_POINTS = Range(0, 1000)
PLACEMENT_PLACES_MAX = 2000
# Every number of a rule set's overrides (tariffs, bonuses: the presets use 0 to 36).
RULE_NUMBER = Range(0, 100)
# Players of a seating request (the seating command and the API's lists of players present).
PLAYERS_MAX = 2000
SEATED_PLAYERS = Range(4, PLAYERS_MAX)
# API lists: rows a page (``limit``) and rows skipped (``offset``).
PAGE_LIMIT = Range(1, 1000)
PAGE_OFFSET = Range(0, 10**9)
# Rounds the seating command plans at once.
PLANNED_ROUNDS = Range(1, 100)


def numbers_outside(value: Any, allowed: Range, where: str = "") -> list[str]:
    """The places (``tariffs.miserie.base``) in nested JSON of the numbers outside ``allowed``; without recursion,
    as the JSON may be deep."""
    outside: list[str] = []
    stack: list[tuple[Any, str]] = [(value, where)]
    while stack:
        item, place = stack.pop()
        if isinstance(item, dict):
            stack.extend((v, f"{place}.{k}" if place else str(k)) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, f"{place}[{i}]") for i, v in enumerate(item))
        elif isinstance(item, int | float) and not isinstance(item, bool) and item not in allowed:
            outside.append(place)
    return sorted(outside)


def argument(allowed: Range) -> Callable[[str], int]:
    """An ``argparse`` type for a management command's whole-number option within ``allowed``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text[:40]!r}") from None
        if value not in allowed:
            raise argparse.ArgumentTypeError(f"{value} is outside {allowed.low}..{allowed.high}")
        return value

    return parse


def known_id(number: int) -> int:
    """A number from the address, if a database column can hold it (SQLite refuses larger ones): else a 404."""
    if number > ID.high:
        raise Http404
    return number
