"""Request parsers that answer 400 for bodies that would otherwise fail later, as a server error.

JSON nested past Python's recursion limit makes ``json`` raise ``RecursionError``, which DRF's parser lets
through. Text the database cannot store (``config.untrusted``), anywhere in a body, keys included, would be
stored as given (a line's note), echoed into a stored response (an unknown field's name, kept for an
``Idempotency-Key`` replay) or fail to render: it is refused before any view sees it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.datastructures import MultiValueDict
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from config.untrusted import MAX_JSON_DEPTH, UNSTORABLE_MESSAGE, json_depth, storable

TOO_DEEP = f"the body is nested too deeply to read (at most {MAX_JSON_DEPTH} levels)"


class _StorableMixin:
    """Parse as the parser it is mixed into, then refuse what ``unstorable_at`` finds."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            parsed = super().parse(stream, media_type, parser_context)  # type: ignore[misc]
        except RecursionError:
            raise ParseError(TOO_DEEP) from None
        if json_depth(parsed) > MAX_JSON_DEPTH:  # parsed, but every recursive reader after it would fail
            raise ParseError(TOO_DEEP)
        where = unstorable_at(parsed.data if isinstance(parsed, parsers.DataAndFiles) else parsed)
        if where is not None:
            raise ParseError(f"{where}: {UNSTORABLE_MESSAGE}")
        return parsed


class StrictJSONParser(_StorableMixin, parsers.JSONParser):
    pass


class StrictFormParser(_StorableMixin, parsers.FormParser):
    pass


class StrictMultiPartParser(_StorableMixin, parsers.MultiPartParser):
    pass


class _CSVText(parsers.BaseParser):
    media_type = "text/csv"

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> str:
        return str(stream.read().decode("utf-8", errors="replace"))


class CSVTextParser(_StorableMixin, _CSVText):
    """``text/csv`` bodies arrive as text (bytes that are not UTF-8 read as U+FFFD); the import reads the rows."""


_Path = tuple["_Path", str] | None  # (the parent's path, this step), None: the body


def unstorable_at(data: Any) -> str | None:
    """Where ``data`` holds text the database cannot store (``lines[0].note``, ``a key of lines[0]``), or None.

    A loop, not recursion: a document as deep as the parser allows must not exhaust the stack here. Each item
    carries its parent's path and its own step, spelled out only for the item refused.
    """
    stack: list[tuple[_Path, Any]] = [(None, data)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str) and not storable(item):
            return _spelled(path)
        if isinstance(item, Mapping):
            for key, value in _pairs(item):
                if isinstance(key, str) and not storable(key):
                    return f"a key of {_spelled(path)}"
                stack.append(((path, f".{key}"), value))
        elif isinstance(item, list | tuple):
            stack.extend(((path, f"[{index}]"), value) for index, value in enumerate(item))
    return None


def _spelled(path: _Path) -> str:
    steps = []
    while path is not None:
        path, step = path
        steps.append(step)
    return "".join(reversed(steps)).removeprefix(".") or "the body"


def _pairs(mapping: Mapping[Any, Any]) -> Iterable[tuple[Any, Any]]:
    """Every key and value; all the values of a form field given more than once."""
    if isinstance(mapping, MultiValueDict):
        return ((key, value) for key, values in mapping.lists() for value in values)
    return mapping.items()
