"""Benchmark standings, ratings and statistics on a federation season, on PostgreSQL.

Generates 1,000 players, 40 evenings of 250 tables of 24 deals (about 240,000
deal lines, all valid under the engine) in a scratch database, then prints,
measured in the same run:

- full recomputation time of standings, of ratings and of statistics;
- time from one new line to updated standings, with a real Celery worker
  (needs Redis: REDIS_URL), p50/p95 over 100 lines;
- the same standings computed naively (per-object ORM loops), as a ratio.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/wiezen_bench REDIS_URL=redis://127.0.0.1:6379/13 \\
        python bench/standings.py [--players 1000] [--evenings 40] [--lines 100]

Targets (issue 8): standings <= 2 s; a new line -> standings <= 1 s (p95); ratings <= 20 s; >= 20x naive.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/wiezen_bench")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("STANDINGS_COALESCE_SECONDS", "0")


def fresh_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def migrated_scratch_database(script: str) -> None:
    """Django set up on a fresh, migrated copy of the PostgreSQL database of ``DATABASE_URL`` (the benches that
    measure queries need PostgreSQL: SQLite's figures would say nothing of a club's server)."""
    if not os.environ["DATABASE_URL"].startswith("postgres"):
        sys.exit(f"{script} needs DATABASE_URL=postgres://...")
    fresh_database(os.environ["DATABASE_URL"])

    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def timed(fn: Any, *args: Any, **kwargs: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return time.perf_counter() - start, result


def generate(players: int, evenings: int, seed: int) -> Any:
    import games
    from games.generate import random_session
    from tournaments.models import (
        Club,
        DealEntry,
        Player,
        Registration,
        Round,
        ScoreSheet,
        Seat,
        SeatResult,
        Table,
    )
    from tournaments.services.competitions import create_competition, create_rule_set

    rng = random.Random(seed)
    club = Club.objects.create(name="Federation", slug="federation")
    rule_set = create_rule_set(name="IWWA", game="wiezen", preset="iwwa", club=club)
    competition = create_competition(
        club=club, name="Season", slug="season", rule_set=rule_set, kind="league", deals_per_session=24
    )
    people = Player.objects.bulk_create(Player(first_name=f"P{i}", last_name="Bench") for i in range(players))
    Registration.objects.bulk_create(Registration(competition=competition, player=p) for p in people)
    rules = rule_set.engine_rules()
    ids = [p.pk for p in people]
    entries: list[DealEntry] = []
    results: list[SeatResult] = []
    for evening in range(1, evenings + 1):
        round_ = Round.objects.create(competition=competition, number=evening, seed=evening)
        rng.shuffle(ids)
        tables = Table.objects.bulk_create(Table(round=round_, number=t + 1, size=4) for t in range(players // 4))
        Seat.objects.bulk_create(
            Seat(table=table, round=round_, position=pos, player_id=ids[t * 4 + pos])
            for t, table in enumerate(tables)
            for pos in range(4)
        )
        sheets = ScoreSheet.objects.bulk_create(
            ScoreSheet(table=table, captain_code=f"b{table.pk}") for table in tables
        )
        for t, sheet in enumerate(sheets):
            engine = games.sheet_from_lines(rules, random_session(rules, rng, 4, 24), 4, 24)
            for line, settled in zip(engine.lines, engine.results, strict=True):
                entries.append(
                    DealEntry(
                        sheet=sheet,
                        deal_number=settled.deal,
                        line=line,
                        contract=settled.contract,
                        points=list(settled.points),
                        multiplier=settled.multiplier,
                        source="import",
                    )
                )
            for pos, summary in enumerate(games.seat_summaries(engine)):
                results.append(
                    SeatResult(
                        sheet=sheet,
                        position=pos,
                        player_id=ids[t * 4 + pos],
                        points=summary.points,
                        deals=summary.deals,
                        contracts_bid=summary.bid,
                        contracts_made=summary.made,
                    )
                )
        if len(entries) > 20_000:
            DealEntry.objects.bulk_create(entries, batch_size=5000)
            entries.clear()
    DealEntry.objects.bulk_create(entries, batch_size=5000)
    SeatResult.objects.bulk_create(results, batch_size=5000)
    return competition


def naive_standings(competition: Any) -> dict[int, int]:
    """What a first version would do: walk every object through the ORM."""
    from tournaments.models import DealEntry, Seat

    totals: dict[int, int] = {}
    for player in competition.players.all():
        total = 0
        for seat in Seat.objects.filter(round__competition=competition, player=player):
            for entry in DealEntry.objects.filter(sheet__table=seat.table, is_current=True):
                total += entry.points[seat.position]
        totals[player.pk] = total
    return totals


def entry_lag(competition: Any, lines: int, seed: int) -> list[float]:
    """Seconds from a saved line to standings that include it, with a real worker."""
    from games.generate import random_session
    from scoring.models import StandingsState
    from tournaments.models import Competition, ScoreSheet
    from tournaments.services.entry import record_deal
    from tournaments.services.rounds import create_round, publish_round

    workers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool",
                "solo",
                "-l",
                "warning",
                "-Q",
                queue,
                "-n",
                f"bench-{queue}@%h",
            ],
            cwd=ROOT,
            env={**os.environ, "CELERY_TASK_ALWAYS_EAGER": "false"},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for queue in ("celery", "analytics")  # standings never wait behind ratings and statistics
    ]
    try:
        time.sleep(5)
        round_ = publish_round(create_round(competition, seed=seed))
        sheets = list(ScoreSheet.objects.filter(table__round=round_).order_by("pk"))
        rules = competition.rule_set.engine_rules()
        rng = random.Random(seed)
        pending = {sheet.pk: random_session(rules, rng, sheet.table.size, 24) for sheet in sheets[:10]}
        lags: list[float] = []
        for i in range(lines):
            sheet = sheets[i % 10]
            record_deal(sheet, pending[sheet.pk][i // 10], source="api")
            saved = time.perf_counter()
            version = Competition.objects.get(pk=competition.pk).entries_version
            while StandingsState.objects.get(competition=competition).computed_version < version:
                time.sleep(0.01)
                if time.perf_counter() - saved > 30:
                    raise RuntimeError("standings did not follow within 30 s: is the worker running?")
            lags.append(time.perf_counter() - saved)
        return lags
    finally:
        for worker in workers:
            worker.terminate()
            worker.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--evenings", type=int, default=40)
    parser.add_argument("--lines", type=int, default=100)
    parser.add_argument("--seed", type=int, default=8)
    args = parser.parse_args()
    migrated_scratch_database("bench/standings.py")
    from scoring import services
    from tournaments.models import DealEntry

    build, competition = timed(generate, args.players, args.evenings, args.seed)
    lines = DealEntry.objects.count()
    print(f"season: {args.players} players, {args.evenings} evenings, {lines:,} deal lines (built in {build:.0f} s)")
    t_standings, _ = timed(services.recompute_standings, competition.pk, claim=False)
    t_ratings, rated = timed(services.recompute_ratings)
    t_naive, naive = timed(naive_standings, competition)
    from scoring.models import Standing

    fast = dict(Standing.objects.filter(competition=competition).values_list("player_id", "points"))
    assert naive == fast, "naive and optimised standings differ"
    print(f"standings, full recomputation: {t_standings:.3f} s   (target <= 2 s)")
    print(f"standings, naive ORM loops:    {t_naive:.3f} s   ratio {t_naive / t_standings:.0f}x (target >= 20x)")
    print(f"ratings (OpenSkill, {rated} players): {t_ratings:.1f} s   (target <= 20 s)")
    if hasattr(services, "recompute_statistics"):
        t_stats, _ = timed(services.recompute_statistics, competition.pk)
        print(f"statistics: {t_stats:.2f} s")
    if os.environ.get("REDIS_URL"):
        lags = sorted(entry_lag(competition, args.lines, args.seed))
        p95 = lags[int(len(lags) * 0.95) - 1]
        print(f"new line -> standings (worker): p50 {statistics.median(lags):.3f} s, p95 {p95:.3f} s (target <= 1 s)")
    else:
        print("new line -> standings: skipped, set REDIS_URL to run a worker")


if __name__ == "__main__":
    main()
