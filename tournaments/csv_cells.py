"""CSV cells a spreadsheet cannot run: every CSV the site writes goes through ``write_csv``, every CSV it reads
takes its cells back with ``restore``.

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` (and some strip a leading tab or carriage
return first) as a formula: a display name ``=HYPERLINK("http://evil.example","Marie")`` in an export becomes a
link, ``=cmd|' /C calc'!A0`` a command. Such a cell is written with a ``'`` in front (the spreadsheets' own "this
is text" mark); a number, such as a score of -12, is written as the number it is (so are numbers separated by
spaces, a line's points: digits, signs and spaces cannot call anything). Reading it back removes exactly
that one quote, so an exported name or note imports as it was typed (``restore(neutralise(text)) == text``).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping
from typing import Any

DANGEROUS = ("=", "+", "-", "@", "\t", "\r")
# Numbers, or numbers separated by spaces (a line's points, "-10 10 0 0"): nothing in them can call a function.
_NUMBERS = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?(?: [+-]?[0-9]+(?:\.[0-9]+)?)*")


def neutralise(value: Any) -> Any:
    """The cell for ``value``: numbers as they are; text that a spreadsheet would run gets a leading quote.

    Text that already starts with quotes before a dangerous character gets one more, so that ``restore``
    can tell the two apart: the mapping is one to one.
    """
    if value is None:
        return ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    text = str(value)
    if _NUMBERS.fullmatch(text):
        return text
    return "'" + text if text.lstrip("'").startswith(DANGEROUS) else text


def restore(cell: str) -> str:
    """The text a cell written by ``neutralise`` stood for (a cell not written by it is returned as it is)."""
    if cell.startswith("'") and cell.lstrip("'").startswith(DANGEROUS):
        return cell[1:]
    return cell


def write_csv(columns: list[str], rows: Iterable[Mapping[str, Any]]) -> str:
    """A CSV text with a header: the one writer of every CSV export, each cell through ``neutralise``."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns)
    writer.writeheader()
    for row in rows:
        writer.writerow({key: neutralise(value) for key, value in row.items()})
    return out.getvalue()
