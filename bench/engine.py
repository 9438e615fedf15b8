"""Benchmark: settled score-sheet lines per second, in session context.

Generates 100,000 random valid lines in 16-deal sessions over every preset
(tables of 4 and 5), then times ``Sheet.add`` (validate in context + settle)
on one core. Target (issue 2): at least 100,000 lines/s.

    python bench/engine.py [--lines N] [--repeat R]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import Sheet, find, names
from games.generate import random_session

TARGET_LINES_PER_S = 100_000


def build_sessions(total: int, seed: int) -> list[tuple[str, int, list[dict[str, object]]]]:
    rng = random.Random(seed)
    presets = names()
    sessions: list[tuple[str, int, list[dict[str, object]]]] = []
    count = 0
    while count < total:
        name = rng.choice(presets)
        players = rng.choice((4, 5))
        lines = random_session(find(name), rng, players, 16)
        sessions.append((name, players, lines))
        count += len(lines)
    return sessions


def run_lines(sessions: list[tuple[str, int, list[dict[str, object]]]]) -> tuple[int, float]:
    rules = {name: find(name) for name, _, _ in sessions}
    count = 0
    start = time.perf_counter()
    for name, players, lines in sessions:
        sheet = Sheet(rules[name], players, None)
        add = sheet.add
        for line in lines:
            add(line)
        count += len(lines)
    return count, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args()

    sessions = build_sessions(args.lines, args.seed)
    best = float("inf")
    count = 0
    for _ in range(args.repeat):
        count, elapsed = run_lines(sessions)
        best = min(best, elapsed)
    rate = count / best
    print(f"score-sheet lines: {count} lines in {best:.3f} s (best of {args.repeat}) = {rate:,.0f} lines/s")
    verdict = "OK" if rate >= TARGET_LINES_PER_S else "BELOW TARGET"
    print(f"  target {TARGET_LINES_PER_S:,} lines/s: ratio {rate / TARGET_LINES_PER_S:.2f}x {verdict}")


if __name__ == "__main__":
    main()
