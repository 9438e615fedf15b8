"""Benchmark the rules engine on one core, both measured in the same run.

1. Score-sheet lines: 100,000 random valid lines in 16-deal sessions over
   every Wiezen and Solo whist preset (tables of 4 and 5), timing
   ``Sheet.add`` (validate in context + settle). Target: 100,000 lines/s.
   The same again under a house rule set that uses every house-rule option
   (``HOUSE``: pooled miserie, troel for nine, early end, capped overtricks, a
   failure costing double, every trick off counted, a fixed all-tricks amount,
   vraag and alleen bid higher, a tariff set seat by seat that does not sum to
   zero).
2. Full deal records: 10,000 random legal Wiezen deals (cards, auction, 52
   plays), timing ``check_record`` (validate every bid and card, derive the
   line, settle). Target: 5,000 records/s.

    python bench/engine.py [--lines N] [--records N] [--repeat R]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import RuleSet, Sheet, find, names
from games.generate import random_record, random_session
from games.records import check_record

TARGET_LINES_PER_S = 100_000
TARGET_RECORDS_PER_S = 5_000
WIEZEN_RECORD_PRESETS = ("iwwa", "flemish", "belgian")
HOUSE = {
    "preset": "belgian",
    "name": "house",
    "miserie_settlement": "pooled",
    "troel_target": 9,
    "early_end": True,
    "tariffs": {
        "vraag": {"over_until": 11, "fail_factor": 2, "all_tricks": 20, "levels": {"9": 4, "10": 6, "13": 20}},
        "alleen": {"over": 1, "over_until": 8, "levels": {"6": 4, "7": 6, "8": 8}},
        "abondance": {"over": 1, "fail_per": 1, "fail_per_from_first": True},
        "kleine_miserie": {"declarer_made": 36, "others_made": 0, "declarer_failed": 18, "others_failed": 12},
    },
}


def rule_set(name: str) -> RuleSet:
    return RuleSet.from_json(HOUSE) if name == "house" else find(name)


def build_sessions(total: int, seed: int, house: bool = False) -> list[tuple[str, int, list[dict[str, object]]]]:
    rng = random.Random(seed)
    presets = ["house"] if house else [name for name in names() if find(name).zwicken is None]
    sessions: list[tuple[str, int, list[dict[str, object]]]] = []
    count = 0
    while count < total:
        name = rng.choice(presets)
        players = rng.choice((4, 5))
        lines = random_session(rule_set(name), rng, players, 16)
        sessions.append((name, players, lines))
        count += len(lines)
    return sessions


def run_lines(sessions: list[tuple[str, int, list[dict[str, object]]]]) -> tuple[int, float]:
    rules = {name: rule_set(name) for name, _, _ in sessions}
    count = 0
    start = time.perf_counter()
    for name, players, lines in sessions:
        sheet = Sheet(rules[name], players, None)
        add = sheet.add
        for line in lines:
            add(line)
        count += len(lines)
    return count, time.perf_counter() - start


def build_records(total: int, seed: int) -> list[dict[str, object]]:
    rng = random.Random(seed)
    return [random_record(find(rng.choice(WIEZEN_RECORD_PRESETS)), rng, rng.choice((4, 4, 5))) for _ in range(total)]


def run_records(records: list[dict[str, object]]) -> float:
    start = time.perf_counter()
    for record in records:
        check_record(record)
    return time.perf_counter() - start


def report(what: str, count: int, seconds: float, repeat: int, target: int) -> None:
    rate = count / seconds
    verdict = "OK" if rate >= target else "BELOW TARGET"
    print(f"{what}: {count} in {seconds:.3f} s (best of {repeat}) = {rate:,.0f}/s")
    print(f"  target {target:,}/s: ratio {rate / target:.2f}x {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args()

    sessions = build_sessions(args.lines, args.seed)
    house = build_sessions(args.lines, args.seed, house=True)
    records = build_records(args.records, args.seed)
    line_best = house_best = record_best = float("inf")
    count = house_count = 0
    for _ in range(args.repeat):
        count, elapsed = run_lines(sessions)
        line_best = min(line_best, elapsed)
        house_count, elapsed = run_lines(house)
        house_best = min(house_best, elapsed)
        record_best = min(record_best, run_records(records))
    report("score-sheet lines", count, line_best, args.repeat, TARGET_LINES_PER_S)
    report("score-sheet lines, house rules", house_count, house_best, args.repeat, TARGET_LINES_PER_S)
    report("full Wiezen deal records", len(records), record_best, args.repeat, TARGET_RECORDS_PER_S)


if __name__ == "__main__":
    main()
