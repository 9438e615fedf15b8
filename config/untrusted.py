"""Strict readings of text from outside (addresses, request bodies, the environment).

``str.isdigit()`` is true for '²' and '١', which ``int()`` refuses or reads as another number, and ``int()``
refuses more than 4300 digits: a whole number is read from ASCII digits only, and only so many of them.
PostgreSQL stores no NUL (in text nor in jsonb) and no lone surrogate (it is not UTF-8): text holding one is
refused where it comes in, with a message, instead of failing in the database. JSON nested past Python's
recursion limit makes ``json`` raise ``RecursionError``, and JSON nested just short of it makes every recursive
reader after it do so (a check, the engine): JSON is read to ``MAX_JSON_DEPTH`` levels.
"""

from __future__ import annotations

import json
import re
from typing import Any

UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
UNSTORABLE_MESSAGE = "text must not contain NUL (U+0000) or lone surrogates (U+D800 to U+DFFF)"


# Levels of JSON read from outside: a rule set's overrides have four (tariffs, a contract, a figure, a list), a
# request body as many; far more is a mistake or a probe.
MAX_JSON_DEPTH = 32


class TooDeep(ValueError):
    """JSON nested deeper than ``MAX_JSON_DEPTH`` levels."""


def json_depth(value: object) -> int:
    """How deeply lists and objects nest in ``value`` (a scalar 0, ``[]`` 1), counted without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in children)
    return deepest


def read_json(text: str) -> Any:
    """JSON from outside: ``ValueError`` if it is not JSON, ``TooDeep`` (one) if nested past ``MAX_JSON_DEPTH``."""
    too_deep = TooDeep(f"nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        value = json.loads(text)
    except RecursionError:  # past Python's own limit: the parser gave up
        raise too_deep from None
    if json_depth(value) > MAX_JSON_DEPTH:
        raise too_deep
    return value


def whole_number(text: str | None, *, max_digits: int = 9) -> int | None:
    """``text`` as a number if it is 1 to ``max_digits`` ASCII digits (9: it fits a 32-bit column), else None."""
    if text and len(text) <= max_digits and text.isascii() and text.isdigit():
        return int(text)
    return None


def storable(text: str) -> bool:
    """Whether the database can store ``text`` as it is."""
    return UNSTORABLE.search(text) is None


def storable_json(value: object) -> bool:
    """Whether PostgreSQL's jsonb takes every string in ``value``, its keys too (JSON's \\u0000 it refuses)."""
    if isinstance(value, str):
        return storable(value)
    if isinstance(value, dict):
        return all(storable_json(k) and storable_json(v) for k, v in value.items())
    if isinstance(value, list):
        return all(storable_json(v) for v in value)
    return True
