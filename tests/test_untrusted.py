"""Strict readings of outside text: whole numbers in ASCII digits, and text the database can store."""

from __future__ import annotations

import ast
import io
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.http import QueryDict
from rest_framework.exceptions import ParseError

from config.env import env_rate
from config.untrusted import MAX_JSON_DEPTH, TooDeep, json_depth, read_json, storable, whole_number
from tournaments.api.parsers import CSVTextParser, StrictFormParser, StrictJSONParser, unstorable_at


@pytest.mark.parametrize(
    ("text", "number"),
    [("0", 0), ("7", 7), ("007", 7), ("999999999", 999_999_999), ("1" * 12, 111_111_111_111)],
)
def test_ascii_digits_are_a_whole_number(text: str, number: int) -> None:
    assert whole_number(text, max_digits=12) == number


@pytest.mark.parametrize("text", [None, "", " 1", "1 ", "-1", "+1", "1.0", "1_000", "²", "١", "٣", "x", "9" * 10])
def test_anything_else_is_none(text: str | None) -> None:
    """'²' and '١' are digits for str.isdigit() (int() refuses the one, reads the other); ten digits are too many."""
    assert whole_number(text) is None


def test_more_digits_than_int_reads_are_none() -> None:
    assert whole_number("9" * 4301, max_digits=9) is None


@pytest.mark.parametrize("rate", ["²/minute", "١/minute", "0/minute", "9999999999/minute"])
def test_a_throttle_rate_needs_a_short_ascii_count(monkeypatch: pytest.MonkeyPatch, rate: str) -> None:
    monkeypatch.setenv("X_RATE", rate)
    with pytest.raises(ImproperlyConfigured, match="X_RATE"):
        env_rate("X_RATE", "30/minute")


@pytest.mark.parametrize("text", ["a\x00b", "\ud800", "x\udfff"])
def test_nul_and_lone_surrogates_are_not_storable(text: str) -> None:
    assert not storable(text)


def test_other_text_is_storable() -> None:
    assert storable("é€😀\ufeff\u2028\uffff\x7f")


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ({"lines": [{"deal": 1}, {"note": "a\x00b"}]}, "lines[1].note"),
        ({"lines": [{"\ud800": 1}]}, "a key of lines[0]"),
        ({"\x00": 1}, "a key of the body"),
        ("\x00", "the body"),
        (QueryDict("note=ok&note=a%00b"), "note"),
        ({"ok": [1, 2.5, None, True, "é"]}, None),
    ],
)
def test_unstorable_text_is_found_with_where_it_is(data: Any, where: str | None) -> None:
    assert unstorable_at(data) == where


def test_a_document_as_deep_as_json_allows_is_walked_without_recursion() -> None:
    deep: Any = "a\x00b"
    for _ in range(50_000):
        deep = [deep]
    assert unstorable_at(deep) == "[0]" * 50_000


def _parse(parser: Any, body: bytes, media_type: str) -> Any:
    return parser.parse(io.BytesIO(body), media_type, {"encoding": "utf-8"})


@pytest.mark.parametrize(
    ("parser", "body", "media_type"),
    [
        (StrictJSONParser(), b'{"note": "a\\u0000b"}', "application/json"),
        (StrictJSONParser(), b'{"\\udfff": 1}', "application/json"),
        (StrictJSONParser(), b"[" * 100_000 + b"]" * 100_000, "application/json"),
        (StrictFormParser(), b"note=a%00b", "application/x-www-form-urlencoded"),
        (CSVTextParser(), b"deal,note\n1,a\x00b\n", "text/csv"),
    ],
)
def test_the_parsers_refuse_with_a_parse_error(parser: Any, body: bytes, media_type: str) -> None:
    with pytest.raises(ParseError):
        _parse(parser, body, media_type)


def test_the_parsers_pass_everything_else_through() -> None:
    assert _parse(StrictJSONParser(), '{"note": "é😀"}'.encode(), "application/json") == {"note": "é😀"}
    assert _parse(CSVTextParser(), b"deal\n1\n\xed\xa0\x80\n", "text/csv") == "deal\n1\n\ufffd\ufffd\ufffd\n"


def test_json_is_storable_only_without_nul_or_lone_surrogates_anywhere_keys_included() -> None:
    from config.untrusted import storable_json

    assert storable_json({"preset": "iwwa", "tariffs": {"vraag": {"levels": {"9": 4}}}, "list": [1, "a", None]})
    for bad in ("a\x00b", {"k\x00": 1}, {"k": ["ok", "\ud800"]}, [[["\x00"]]]):
        assert not storable_json(bad), bad


# -- JSON from outside is read to a depth --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "depth"), [(1, 0), ("x", 0), ([], 1), ({}, 1), ([[1], 2], 2), ({"a": {"b": [1]}}, 3), ([[]] * 3, 2)]
)
def test_json_depth_counts_the_levels_of_lists_and_objects(value: object, depth: int) -> None:
    assert json_depth(value) == depth


def test_json_depth_counts_without_recursion() -> None:
    deep: object = 1
    for _ in range(100_000):
        deep = [deep]
    assert json_depth(deep) == 100_000


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, "[" * 900 + "]" * 900, '{"a": ' * 33 + "1" + "}" * 33])
def test_json_nested_deeper_than_the_limit_is_too_deep(text: str) -> None:
    with pytest.raises(TooDeep, match="nested deeper than 32 levels"):
        read_json(text)


def test_json_to_the_limit_is_read() -> None:
    assert read_json("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH) is not None
    with pytest.raises(ValueError):
        read_json("{not json")


# Where json.loads may read text: the one reader, and text the project writes itself
JSON_READERS = {
    "config/untrusted.py": "read_json, the reader of outside JSON",
    "config/settings.py": "Pyodide's package.json, installed by npm",
    "tournaments/api/idempotency.py": "the response it has just rendered",
    "games/cli.py": "the engine's command line: files its user names, run by hand",
}


def test_outside_json_is_read_only_through_read_json() -> None:
    """A form, an upload, an import or a hidden field that read JSON with json.loads could be sent JSON nested past
    Python's recursion limit, or just short of it (then every recursive reader after it fails): a server error."""
    root = Path(__file__).resolve().parent.parent
    found = set()
    for package in ("config", "tournaments", "scoring", "games"):
        for path in (root / package).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                reads = isinstance(node, ast.Attribute) and node.attr in ("loads", "load")
                if reads and isinstance(node.value, ast.Name) and node.value.id == "json":  # type: ignore[attr-defined]
                    found.add(str(path.relative_to(root)))
    assert found == set(JSON_READERS)
