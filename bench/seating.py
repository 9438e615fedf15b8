"""Benchmark seating generators: rounds with zero repeated meetings, next to the limit and a greedy baseline.

For each player count, prints the rounds the ``schedule`` generator seats
before any two players meet twice, the repeats over the following rounds,
its time, the limit floor((n-1)/3), and the same figures for the seeded
random-restart greedy baseline, run in the same process.

    python bench/seating.py
"""

from __future__ import annotations

import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.seating.generators import find, repeat_free_rounds

SIZES = (16, 20, 24, 28, 32, 40, 48, 64, 100, 200)
TARGETS = {16: 5, 20: 5, 24: 5, 28: 7, 32: 8, 40: 10, 48: 12, 64: 21, 100: 25, 200: 50}


def repeats(rounds: list[list[list[int]]]) -> int:
    seen: set[tuple[int, int]] = set()
    count = 0
    for tables in rounds:
        for table in tables:
            for pair in combinations(sorted(table), 2):
                count += pair in seen
                seen.add(pair)
    return count


def measure(method: str, n: int, count: int) -> tuple[int, int, float]:
    start = time.perf_counter()
    rounds = find(method).rounds(n, count, seed=1)
    elapsed = time.perf_counter() - start
    return repeat_free_rounds(rounds), repeats(rounds), elapsed


def main() -> None:
    head = f"{'n':>4} {'limit':>5} {'target':>6} | {'schedule':>8} {'repeats':>7} {'time':>7}"
    print(f"{head} | {'greedy':>6} {'repeats':>7} {'time':>7}")
    for n in SIZES:
        limit = (n - 1) // 3
        count = limit + 2
        s_free, s_rep, s_time = measure("schedule", n, count)
        g_free, g_rep, g_time = measure("greedy", n, count)
        mark = "OK" if s_free >= TARGETS[n] else "below"
        print(
            f"{n:>4} {limit:>5} {TARGETS[n]:>6} | {s_free:>8} {s_rep:>7} {s_time:>6.2f}s | {g_free:>6} {g_rep:>7}"
            f" {g_time:>6.2f}s  {mark}"
        )


if __name__ == "__main__":
    main()
