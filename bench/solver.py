"""Benchmark the double-dummy solver of duplicate Wiezen (games/solver) on one core.

1. Full analysis of a board (every contract of ``games.solver.analysis``: vraag for every pair, alleen, abondance
   in every trump, solo slim, troel, miserie) on random boards from ``games.duplicate.deal_boards``: time per
   board, median and worst. Target: a median of 2 s or less over 100 boards.
2. The shape bridge shares with Wiezen (two against two, partners opposite, the declarer's left leads): the same
   deals solved by ours and by DDS through ``endplay`` (a test dependency, single-threaded here), time per solve
   and the ratio, measured side by side in this run. The two answers must agree.

    python bench/solver.py [--boards N] [--deals N] [--seed S]

DDS is timed per table (``calc_dd_table``: the 20 contracts of a deal, 4 declarers x 5 strains, sharing work)
and divided by 20; ours per single solve. Both on one thread (``SetMaxThreads(1)``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.duplicate import deal_boards
from games.duplicate.pbn import hand_to_pbn
from games.solver import analyse, solve

TARGET_MEDIAN_S = 2.0


def full_analysis(boards: int, seed: int) -> None:
    times = []
    for board in deal_boards(boards, seed):
        start = time.perf_counter()
        rows = analyse(board)
        elapsed = time.perf_counter() - start
        times.append(elapsed)
        print(f"  board {board.number:3d}: {len(rows)} contracts in {elapsed:7.2f} s", flush=True)
    median = statistics.median(times)
    verdict = "met" if median <= TARGET_MEDIAN_S else "NOT met"
    print(
        f"full analysis: {boards} boards, median {median:.2f} s, worst {max(times):.2f} s a board"
        f" (target: median <= {TARGET_MEDIAN_S} s: {verdict})"
    )


def against_dds(deals: int, seed: int) -> None:
    from endplay import _dds
    from endplay.dds import calc_dd_table
    from endplay.types import Deal

    _dds.SetMaxThreads(1)  # one core, as ours
    ours_times, dds_times = [], []
    for board in deal_boards(deals, seed + 1):
        hands = board.hands
        start = time.perf_counter()
        table = calc_dd_table(Deal("N:" + " ".join(hand_to_pbn(h) for h in hands))).to_list()
        dds_times.append((time.perf_counter() - start) / 20)
        for trump in (None, 0, 1, 2, 3):
            declarer = board.number % 4
            start = time.perf_counter()
            tricks = solve(hands, leader=(declarer + 1) % 4, trump=trump, maximisers=(declarer, (declarer + 2) % 4))
            ours_times.append(time.perf_counter() - start)
            expected = table[4 if trump is None else 3 - trump][declarer]
            if tricks != expected:
                raise SystemExit(f"board {board.number}: ours {tricks}, DDS {expected} (trump {trump})")
    ours, dds = statistics.median(ours_times), statistics.median(dds_times)
    print(
        f"opposite partners: {len(ours_times)} solves, ours median {ours * 1000:.1f} ms a solve,"
        f" DDS {dds * 1000:.2f} ms a solve (its table / 20): ratio {ours / dds:.0f}x; every answer agrees"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    options = parser.parse_args()
    print(f"solver benchmark, one core, seed {options.seed}")
    against_dds(options.deals, options.seed)
    full_analysis(options.boards, options.seed)


if __name__ == "__main__":
    main()
