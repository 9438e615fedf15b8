"""``python -m games``: list rule sets and score a score sheet from the shell.

Standard library only, so a club can check a sheet without the web app.
Exit codes: 0 fine, 1 bad input (every error printed), 2 bad usage.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import fields
from enum import Enum
from pathlib import Path
from typing import TextIO

from games.errors import FieldError, GameError, InvalidLine, InvalidRecord, InvalidSheet, SessionError
from games.examples import worked_examples
from games.records import check_record, deal_record
from games.registry import find, listing
from games.rulesets import HOUSE_OPTIONS, Game, RuleSet, Tariff
from games.sessions import sheet_from_lines


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    parser = argparse.ArgumentParser(prog="python -m games", description="The Wiezen rules engine.")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("presets", help="list the rule sets")
    score = commands.add_parser("score", help="validate and settle a score sheet (JSON lines)")
    score.add_argument("--rules", required=True, help="a rule set name (iwwa, flemish+kleurenwiezen...) or a JSON file")
    score.add_argument("--players", type=int, choices=(2, 3, 4, 5), default=4, help="4 or 5 (Zwicken: 2 to 5)")
    score.add_argument("--deals", type=int, choices=(16, 24), default=16, help="ignored for Zwicken: open-ended")
    score.add_argument("--json-errors", action="store_true", help="print errors as JSON lines")
    score.add_argument("sheet", help="the score sheet: one JSON line per deal ('-' for standard input)")
    play = commands.add_parser("play", help="validate a full deal record and settle the line it proves")
    play.add_argument("--json-errors", action="store_true", help="print errors as JSON lines")
    play.add_argument("record", help="a deal record (JSON; '-' for standard input)")
    examples = commands.add_parser("examples", help="print a rule set's worked examples, settled (JSON lines)")
    examples.add_argument("--rules", required=True, help="a rule set name or a JSON file")
    deal = commands.add_parser("deal", help="print a reproducible dealt record (no bids, no plays)")
    deal.add_argument("--rules", required=True, help="a rule set name or a JSON file")
    deal.add_argument("--seed", type=int, required=True)
    deal.add_argument("--players", type=int, default=4)
    deal.add_argument("--dealer", type=int, default=0)
    args = parser.parse_args(argv)

    if args.command == "presets":
        for rules in listing():
            out.write(f"{rules.name:<16} {rules.game.value:<11} {' '.join(rules.ladder)}\n")
            if rules.description:
                out.write(f"{'':<16} {rules.description}\n")
        out.write("\nhouse rules (a rule set's JSON key, its default, what it does):\n")
        defaults = {f.name: f.default for f in fields(RuleSet)}
        defaults |= {f"tariffs.*.{f.name}": f.default for f in fields(Tariff)}
        for key, what in HOUSE_OPTIONS:
            default = defaults[key]
            shown = "{}" if default == () else json.dumps(default.value if isinstance(default, Enum) else default)
            out.write(f"  {key:<31} {shown:<14} {what}\n")
        return 0
    if args.command == "play":
        return _play(args, out, err)
    if args.command == "examples":
        try:
            rules = load_rules(args.rules)
        except (GameError, OSError) as exc:
            err.write(f"error: {exc}\n")
            return 2
        for example in worked_examples(rules):
            out.write(json.dumps(example.to_json()) + "\n")
        return 0
    if args.command == "deal":
        return _deal(args, out, err)
    return _score(args, out, err)


def _play(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    try:
        text = sys.stdin.read() if args.record == "-" else Path(args.record).read_text(encoding="utf-8")
        record = json.loads(text)
    except (OSError, UnicodeDecodeError) as exc:
        return _fail(args, out, err, [(None, FieldError("unreadable_record", "record", str(exc)))])
    except json.JSONDecodeError as exc:
        return _fail(args, out, err, [(None, FieldError("invalid_json", "record", f"not JSON: {exc.msg}"))])
    try:
        result = check_record(record)
    except InvalidRecord as exc:
        return _fail(args, out, err, [(None, e) for e in exc.errors])
    settled = result.settled
    summary = {"line": result.line, "points": list(settled.points), "multiplier": settled.multiplier}
    if settled.pot:
        summary["pot"] = settled.pot
    out.write(json.dumps(summary) + "\n")
    return 0


def _deal(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    args.json_errors = False
    try:
        record = deal_record(load_rules(args.rules), args.players, args.dealer, args.seed)
    except (GameError, OSError) as exc:
        return _fail(args, out, err, [(None, FieldError("invalid_deal", "", str(exc)))])
    out.write(json.dumps(record) + "\n")
    return 0


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
        deals = None if rules.game is Game.ZWICKEN else args.deals
        sheet = sheet_from_lines(rules, lines, args.players, deals)
    except InvalidSheet as exc:
        problems += _located(exc.lines, numbers)
    except SessionError as exc:
        return _fail(args, out, err, [(None, FieldError("invalid_session", "players", str(exc)))])
    problems = [p for p in problems if not _is_json_echo(p, problems)]
    if problems:
        problems.sort(key=lambda p: p[0] or 0)
        return _fail(args, out, err, problems)

    totals = [0] * args.players
    for settled in sheet.results:
        totals = [t + p for t, p in zip(totals, settled.points, strict=True)]
        record: dict[str, object] = {
            "deal": settled.deal,
            "points": list(settled.points),
            "multiplier": settled.multiplier,
        }
        if rules.game is Game.ZWICKEN:
            record["pot"] = settled.pot
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
