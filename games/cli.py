"""``python -m games``: list rule sets and score a score sheet from the shell.

Standard library only, so a club can check a sheet without the web app.
Exit codes: 0 fine, 1 bad input (every error printed), 2 bad usage.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from games.errors import FieldError, GameError, InvalidLine, InvalidSheet
from games.registry import find, listing
from games.rulesets import RuleSet
from games.sheet import Sheet


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    parser = argparse.ArgumentParser(prog="python -m games", description="The Wiezen rules engine.")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("presets", help="list the rule sets")
    score = commands.add_parser("score", help="validate and settle a score sheet (JSON lines)")
    score.add_argument("--rules", required=True, help="a rule set name (iwwa, flemish+kleurenwiezen...) or a JSON file")
    score.add_argument("--players", type=int, choices=(4, 5), default=4)
    score.add_argument("--deals", type=int, choices=(16, 24), default=16)
    score.add_argument("--json-errors", action="store_true", help="print errors as JSON lines")
    score.add_argument("sheet", help="the score sheet: one JSON line per deal ('-' for standard input)")
    args = parser.parse_args(argv)

    if args.command == "presets":
        for rules in listing():
            out.write(f"{rules.name:<12} {rules.game.value:<11} {' '.join(rules.ladder)}\n")
            if rules.description:
                out.write(f"{'':<12} {rules.description}\n")
        return 0
    return _score(args, out, err)


def _score(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    try:
        rules = load_rules(args.rules)
    except (GameError, OSError) as exc:
        return _fail(args, out, err, [(None, FieldError("invalid_rules", "rules", str(exc)))])
    try:
        text = sys.stdin.read() if args.sheet == "-" else Path(args.sheet).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return _fail(args, out, err, [(None, FieldError("unreadable_sheet", "sheet", str(exc)))])

    lines: list[object] = []
    numbers: list[int] = []
    problems: list[tuple[int | None, FieldError]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            lines.append(json.loads(raw))
        except json.JSONDecodeError as exc:
            problems.append((number, FieldError("invalid_json", "", f"not JSON: {exc.msg} at column {exc.colno}")))
            lines.append(None)
        numbers.append(number)
    try:
        sheet = Sheet.from_lines(rules, lines, args.players, args.deals)
    except InvalidSheet as exc:
        problems += _located(exc.lines, numbers)
    problems = [p for p in problems if not _is_json_echo(p, problems)]
    if problems:
        problems.sort(key=lambda p: p[0] or 0)
        return _fail(args, out, err, problems)

    totals = [0] * args.players
    for settled in sheet.results:
        totals = [t + p for t, p in zip(totals, settled.points, strict=True)]
        record = {"deal": settled.deal, "points": list(settled.points), "multiplier": settled.multiplier}
        out.write(json.dumps({**record, "totals": totals}) + "\n")
    return 0


def load_rules(spec: str) -> RuleSet:
    """A rule set by registry name, or from a JSON file (full, or overrides of a ``preset``)."""
    path = Path(spec)
    if spec.endswith(".json") or path.is_file():
        try:
            obj = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise GameError(f"rule set file {spec}: not JSON ({exc.msg} at line {exc.lineno})") from None
        return RuleSet.from_json(obj)
    return find(spec)


def _located(failures: Sequence[InvalidLine], numbers: list[int]) -> list[tuple[int | None, FieldError]]:
    out: list[tuple[int | None, FieldError]] = []
    for failure in failures:
        index = (failure.line_number or 1) - 1
        file_line = numbers[index] if index < len(numbers) else failure.line_number
        out.extend((file_line, error) for error in failure.errors)
    return out


def _is_json_echo(problem: tuple[int | None, FieldError], problems: list[tuple[int | None, FieldError]]) -> bool:
    """A line that was not JSON is also 'not an object' to the sheet: report it once."""
    number, error = problem
    return error.code == "not_an_object" and any(n == number and e.code == "invalid_json" for n, e in problems)


def _fail(args: argparse.Namespace, out: TextIO, err: TextIO, problems: list[tuple[int | None, FieldError]]) -> int:
    """Print every problem; as JSON lines on standard output (which then carries nothing else) if asked."""
    for number, error in problems:
        if args.json_errors:
            out.write(json.dumps({"line": number, **error.as_dict()}) + "\n")
        else:
            where = f"line {number}" if number is not None else "input"
            err.write(f"{where}: {error.code} [{error.field or '-'}] {error.message}\n")
    return 1
