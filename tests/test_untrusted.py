"""Strict readings of outside text: whole numbers in ASCII digits, and text the database can store."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.http import QueryDict
from rest_framework.exceptions import ParseError

from config.env import env_rate
from config.untrusted import storable, whole_number
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
