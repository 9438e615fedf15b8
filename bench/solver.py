"""Benchmark the double-dummy solver of duplicate Wiezen (games/solver) on one core, in one run:

1. Single solves by the shape of the sides, on the same random deals (``games.duplicate.deal_boards``): two
   against two opposite (the shape bridge shares: also solved by DDS through ``endplay``, a test dependency, on
   one thread; the answers must agree, and the ratio of the medians is printed), two side by side, one against
   three (alleen), miserie. Median and worst time a solve. Each solve is capped at ``--cap`` nodes so that one
   pathological deal cannot stall the run: the number that hit the cap is printed (their time counts as is).
2. A board's full analysis (every contract of ``games.solver.analysis``), each count searched as far as a tariff
   reads it (a miserie: made or not; an abondance: the count from 9 up), with no budget: median and worst time a
   board over ``--boards`` boards, and how many contracts came out settled (all must: nothing stops the search)
   and with an exact count, by contract. Target: a median of 2 s or less over 100 boards.
3. The same on a node budget a question (``--budget``; a worker's default): what a worker stores.
4. A worker's second pass (``games.solver.deepen``) over the first pass's rows, on ``--every-boards`` boards (0 to
   skip), with ``--deep-budget`` nodes a search (``settings.WIEZEN_SOLVER_DEEP_BUDGET``): the counts no tariff reads
   (a failed miserie's tricks, an abondance's below 9, solo slim's below 13). Time a board, and how many come out
   exact. ``--only-deep`` runs this part alone.
5. A failed miserie's count, side by side on the same miseries (``--miserie-boards`` boards, 0 to skip), with
   ``--miserie-budget`` nodes a search: from the changed game (``games.solver.analysis.miserie_count``) and from
   the plain search alone (``bounds``, halving from 1..13). How many come out exact, and the median and worst time
   a miserie. ``--only-miserie`` runs this part alone.

    python bench/solver.py [--deals N] [--boards N] [--budget B] [--every-boards N] [--deep-budget D] [--cap C]
                           [--miserie-boards N] [--miserie-budget M] [--seed S] [--only-deep] [--only-miserie]

DDS is timed per table (``calc_dd_table``: the 20 contracts of a deal, 4 declarers x 5 strains, sharing work)
and divided by 20; ours per single solve.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.duplicate import deal_boards
from games.duplicate.pbn import hand_to_pbn
from games.solver import analyse, bounds, deepen
from games.solver.analysis import miserie_count, question

TARGET_MEDIAN_S = 2.0


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def shapes(deals: int, seed: int, cap: int) -> None:
    from endplay import _dds
    from endplay.dds import calc_dd_table
    from endplay.types import Deal

    _dds.SetMaxThreads(1)  # one core, as ours
    times: dict[str, list[float]] = {"opposite pair": [], "pair side by side": [], "one against three": []}
    times["miserie"] = []
    capped = dict.fromkeys(times, 0)
    dds_times: list[float] = []
    for board in deal_boards(deals, seed + 1):
        hands = board.hands
        declarer = board.number % 4
        lead = (declarer + 1) % 4
        start = time.perf_counter()
        table = calc_dd_table(Deal("N:" + " ".join(hand_to_pbn(h) for h in hands))).to_list()
        dds_times.append((time.perf_counter() - start) / 20)
        trump = (None, 0, 1, 2, 3)[board.number % 5]
        others = tuple(p for p in range(4) if p != declarer)
        cases: dict[str, tuple[tuple[int, ...], tuple[int, ...] | None, int | None]] = {
            "opposite pair": ((declarer, (declarer + 2) % 4), None, trump),
            "pair side by side": ((declarer, (declarer + 3) % 4), None, trump),
            "one against three": ((declarer,), None, trump),
            "miserie": (others, (declarer,), None),
        }
        for shape, (maximisers, counted, strain) in cases.items():
            start = time.perf_counter()
            low, high = bounds(hands, leader=lead, trump=strain, maximisers=maximisers, counted=counted, budget=cap)
            times[shape].append(time.perf_counter() - start)
            if low != high:
                capped[shape] += 1
            elif shape == "opposite pair":
                expected = table[4 if trump is None else 3 - trump][declarer]
                if low != expected:
                    raise SystemExit(f"board {board.number}: ours {low}, DDS {expected} (trump {trump})")
    dds = statistics.median(dds_times)
    print(f"single solves, {deals} deals, each capped at {cap:,} nodes:")
    for shape, spent in times.items():
        median = statistics.median(spent)
        line = f"  {shape:18s} median {ms(median)}, worst {ms(max(spent))}, {capped[shape]} hit the cap"
        if shape == "opposite pair":
            line += f"; DDS median {ms(dds)} (its table / 20): ratio {median / dds:.0f}x, every exact answer agrees"
        print(line, flush=True)


def full_analysis(boards: int, seed: int, budget: int | None) -> None:
    times: list[float] = []
    done: Counter[str] = Counter()
    exact: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for board in deal_boards(boards, seed):
        start = time.perf_counter()
        rows = analyse(board, budget=budget)
        times.append(time.perf_counter() - start)
        done.update(row.contract for row in rows if row.settled)
        exact.update(row.contract for row in rows if row.exact)
        total.update(row.contract for row in rows)
    median = statistics.median(times)
    label = "no budget" if budget is None else f"budget {budget:,} nodes a question"
    label += ", the counts a tariff reads"
    every = sum(done.values()) == sum(total.values())
    verdict = "met" if median <= TARGET_MEDIAN_S and every else "NOT met" + ("" if every else ": not every one settled")
    print(
        f"full analysis, {label}: {boards} boards, median {median:.2f} s, worst {max(times):.2f} s a board,"
        f" {sum(done.values())}/{sum(total.values())} contracts settled"
        f" (target: every one settled, median <= {TARGET_MEDIAN_S} s: {verdict})",
        flush=True,
    )
    print("  settled by contract: " + of_each(done, total), flush=True)
    print("  an exact count:      " + of_each(exact, total), flush=True)


def of_each(counts: Counter[str], total: Counter[str], before: Counter[str] | None = None) -> str:
    """Per contract, how many of its rows (``before`` ->) ``counts`` has: "miserie 0 -> 9/12"."""
    return ", ".join(f"{k} {'' if before is None else f'{before[k]} -> '}{counts[k]}/{total[k]}" for k in total)


def second_pass(boards: int, seed: int, budget: int) -> None:
    times: list[float] = []
    exact: Counter[str] = Counter()
    before: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for board in deal_boards(boards, seed):
        first = analyse(board)
        start = time.perf_counter()
        rows = deepen(board, first, budget=budget)
        times.append(time.perf_counter() - start)
        before.update(row.contract for row in first if row.exact)
        exact.update(row.contract for row in rows if row.exact)
        total.update(row.contract for row in rows)
        print(f"  board {board.number}: {times[-1]:.1f} s, {sum(r.exact for r in rows)}/{len(rows)} exact", flush=True)
    print(
        f"second pass, {budget:,} nodes a search: {boards} boards, median {statistics.median(times):.1f} s,"
        f" worst {max(times):.1f} s a board; exact {sum(before.values())} -> {sum(exact.values())}"
        f" of {sum(total.values())}",
        flush=True,
    )
    print("  exact after it: " + of_each(exact, total, before), flush=True)


def failed_miseries(boards: int, seed: int, budget: int) -> None:
    ways: dict[str, list[tuple[float, bool]]] = {"changed game": [], "plain search": []}
    for board in deal_boards(boards, seed):
        for row in analyse(board):
            if row.contract != "miserie" or row.low < 1:
                continue
            declarer = row.declarers[0]
            start = time.perf_counter()
            low, high = miserie_count(board.hands, declarer, leader=row.leader, within=(1, 13), budget=budget)
            ways["changed game"].append((time.perf_counter() - start, low == high))
            start = time.perf_counter()
            plain = bounds(board.hands, **question(board, row), within=(1, 13), budget=budget)
            ways["plain search"].append((time.perf_counter() - start, plain[0] == plain[1]))
            assert plain[0] <= high and low <= plain[1], (board.number, declarer, (low, high), plain)
            print(
                f"  board {board.number}, seat {declarer + 1}: {low}..{high} in {ways['changed game'][-1][0]:.1f} s;"
                f" plain search {plain[0]}..{plain[1]} in {ways['plain search'][-1][0]:.1f} s",
                flush=True,
            )
    new, old = ways["changed game"], ways["plain search"]
    print(f"failed miseries, {budget:,} nodes a search: {len(new)} on {boards} boards", flush=True)
    for name, found in ways.items():
        times = [t for t, _ in found]
        print(
            f"  {name}: {sum(e for _, e in found)}/{len(found)} exact, median {statistics.median(times):.1f} s,"
            f" worst {max(times):.1f} s a miserie",
            flush=True,
        )
    ratio = statistics.median(t for t, _ in new) / statistics.median(t for t, _ in old)
    print(f"  changed game / plain search, median time: {ratio:.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--budget", type=int, default=20_000_000)
    parser.add_argument("--every-boards", type=int, default=3)
    parser.add_argument("--deep-budget", type=int, default=1_000_000_000)
    parser.add_argument("--cap", type=int, default=20_000_000)
    parser.add_argument("--only-deep", action="store_true")
    parser.add_argument("--miserie-boards", type=int, default=5)
    parser.add_argument("--miserie-budget", type=int, default=100_000_000)
    parser.add_argument("--only-miserie", action="store_true")
    parser.add_argument("--seed", type=int, default=2026)
    options = parser.parse_args()
    print(f"solver benchmark, one core, seed {options.seed}")
    everything = not (options.only_deep or options.only_miserie)
    if everything:
        shapes(options.deals, options.seed, options.cap)
        full_analysis(options.boards, options.seed, None)
        full_analysis(options.boards, options.seed, options.budget)
    if options.every_boards and not options.only_miserie:
        second_pass(options.every_boards, options.seed, options.deep_budget)
    if options.miserie_boards and not options.only_deep:
        failed_miseries(options.miserie_boards, options.seed, options.miserie_budget)


if __name__ == "__main__":
    main()
