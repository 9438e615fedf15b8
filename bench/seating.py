"""Benchmark seating generators: rounds with zero repeated meetings, next to the limit and a greedy baseline.

Prints, in one process:
1. for each player count, the rounds the ``schedule`` generator seats before any two players meet twice, the
   repeated meetings over the following rounds (up to limit + 2 rounds), its time, the limit floor((n-1)/3), the
   issue's target, and the same figures for the seeded random-restart greedy baseline;
2. a league season of 20 evenings with random attendance, seated by ``mixer`` and by the greedy baseline;
3. the time of one next round for 400 players with a history, and of a full schedule for 100 players.

    python bench/seating.py
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.seating import SeatingRequest, find, repeat_free_rounds, repeated_pairs

SIZES = (16, 20, 24, 28, 32, 40, 48, 64, 100, 200)
TARGETS = {16: 5, 20: 5, 24: 5, 28: 7, 32: 8, 40: 10, 48: 12, 64: 21, 100: 25, 200: 50}


def measure(method: str, n: int, count: int) -> tuple[int, int, float]:
    start = time.perf_counter()
    rounds = find(method).rounds(n, count, seed=1)
    elapsed = time.perf_counter() - start
    free = repeat_free_rounds(rounds)
    return free, repeated_pairs(rounds), elapsed


def designs_table() -> bool:
    print("1. Rounds without a repeated meeting (schedule vs greedy baseline, seed 1)")
    head = f"{'n':>4} {'limit':>5} {'target':>6} | {'schedule':>8} {'repeats':>7} {'time':>7}"
    print(f"{head} | {'greedy':>6} {'repeats':>7} {'time':>7} | {'ratio':>5}")
    ok = True
    for n in SIZES:
        limit = (n - 1) // 3
        count = limit + 2
        s_free, s_rep, s_time = measure("schedule", n, count)
        g_free, g_rep, g_time = measure("greedy", n, count)
        met = s_free >= TARGETS[n]
        ok &= met
        print(
            f"{n:>4} {limit:>5} {TARGETS[n]:>6} | {s_free:>8} {s_rep:>7} {s_time:>6.2f}s | {g_free:>6} {g_rep:>7}"
            f" {g_time:>6.2f}s | {s_free / g_free:>4.1f}x  {'OK' if met else 'below target'}"
        )
    print(f"   repeats: extra meetings over {'limit + 2'} rounds; ratio: schedule's repeat-free rounds / greedy's")
    return ok


def season(method: str, pool: int, evenings: int, seed: int) -> tuple[int, int, int, float]:
    """Seat a season where each evening a random 60-95% of the pool checks in; returns repeat-free evenings,
    repeated meetings, the spread of seats at tables of five among players with equal attendance, and time."""
    rng = random.Random(seed)
    generator = find(method)
    history: list[list[list[int]]] = []
    byes: Counter[int] = Counter()
    elapsed = 0.0
    for evening in range(evenings):
        present = sorted(rng.sample(range(1, pool + 1), int(pool * rng.uniform(0.6, 0.95))))
        request = SeatingRequest(present, history=history, seed=seed * 1000 + evening, byes=dict(byes))
        start = time.perf_counter()
        tables = generator.next_round(request)
        elapsed += time.perf_counter() - start
        seated = {p for t in tables for p in t}
        byes.update(p for p in present if p not in seated)
        history.append(tables)
    attended: Counter[int] = Counter(p for rnd in history for t in rnd for p in t)
    fives: Counter[int] = Counter(p for rnd in history for t in rnd if len(t) == 5 for p in t)
    spread = 0
    for times in set(attended.values()):
        counts = [fives[p] for p in attended if attended[p] == times]
        spread = max(spread, max(counts) - min(counts))
    return repeat_free_rounds(history), repeated_pairs(history), spread, elapsed


def season_table() -> None:
    pool, evenings = 60, 20
    print(f"\n2. League season: {evenings} evenings, pool of {pool}, 60-95% attend each evening (seed 7)")
    print(f"{'method':>8} | {'repeat-free evenings':>20} {'repeats':>7} {'fives spread':>12} {'time':>7}")
    for method in ("mixer", "greedy"):
        free, rep, spread, elapsed = season(method, pool, evenings, seed=7)
        print(f"{method:>8} | {free:>20} {rep:>7} {spread:>12} {elapsed:>6.2f}s")
    print("   fives spread: max - min seats at tables of five among players who attended equally often")


def speed_table() -> bool:
    print("\n3. Speed")
    players = list(range(1, 401))
    history = find("mixer").rounds(400, 30, seed=3)
    ok = True
    for method in ("mixer", "swiss", "random"):
        request = SeatingRequest(players, history=history, seed=11, ranking=players[::-1])
        start = time.perf_counter()
        tables = find(method).next_round(request)
        elapsed = time.perf_counter() - start
        new = repeated_pairs([*history, tables]) - repeated_pairs(history)
        if method == "mixer":
            ok &= elapsed <= 1.0
        print(f"   next round, 400 players, 30 rounds of history, {method:>6}: {elapsed:.3f} s, {new} repeats")
    print("   target: mixer <= 1 s")
    start = time.perf_counter()
    rounds = find("schedule").rounds(100, 33, seed=1)
    elapsed = time.perf_counter() - start
    ok &= elapsed <= 30
    print(
        f"   full schedule, 100 players, 33 rounds (the limit): {elapsed:.2f} s, "
        f"{repeat_free_rounds(rounds)} repeat-free, {repeated_pairs(rounds)} repeats; target <= 30 s"
    )
    return ok


def main() -> None:
    ok = designs_table()
    season_table()
    ok &= speed_table()
    print("\nall targets met" if ok else "\nSOME TARGETS MISSED")


if __name__ == "__main__":
    main()
