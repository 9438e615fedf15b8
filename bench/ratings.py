"""Ratings benchmark (issue 16, "Benchmark", third bullet): one new session rated incrementally, whatever the history.

Self-contained, on PostgreSQL: creates a scratch database (``wiezen_ratings_<pid>``, dropped at the end, also on
failure). One league season of ``--players`` players over ``--evenings`` evenings of 24 deals is generated with
``bench/standings.py``'s generator (engine-valid lines); further seasons are copies of it made in the database
(``INSERT ... SELECT``, players permuted per copy, each season later than the one before), so 960,000 deals take
seconds to build. For each history size (default 240,000 and 960,000 deals):

1. the ratings are brought up to date over the whole history (the state a real site is in);
2. one new 24-deal session of ``--players``/4 tables is entered (engine-valid lines) and finalised;
3. the incremental update is timed (``scoring.rating_ledger.update_ratings``: reads what changed, rates the new
   deals from the players' stored state, writes the new states), ``--repeats`` times (the session taken out of
   the ratings and finalised again between two, untimed), and the median kept: one run of a tenth of a second
   varies by half from one to the next on a shared machine;
4. a full recomputation from scratch is timed and compared with the incremental result (1e-9).

Then it prints a table: history deals, incremental seconds, full seconds, equal, and the ratio of the
incremental times (largest history over smallest), against the targets (issue 16): each incremental update
<= 0.5 s, within 1.5x of each other, equal to the full recomputation. Exit status 0 whether the targets are met
or not (1 only if it could not measure).

    python bench/ratings.py [--players 400] [--evenings 10] [--sizes 240000,960000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import time
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DB_NAME = f"wiezen_ratings_{os.getpid()}"
os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"
os.environ.pop("REDIS_URL", None)  # nothing is queued: the benchmark calls the services itself
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from bench.standings import fresh_database, generate  # noqa: E402  (a season in bulk, engine-valid lines)

TARGET_SECONDS = 0.5
TARGET_RATIO = 1.5
DEALS = 24


def drop_database() -> None:
    import psycopg

    with psycopg.connect("postgres://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


# --------------------------------------------------------------------------- history


class History:
    """The base season and its copies: enough seasons for a number of rated deals."""

    def __init__(self, players: int, evenings: int, seed: int) -> None:
        from django.db import connection

        from tournaments.models import Competition, Player

        self.base = generate(players, evenings, seed)  # rounds left in draft: copies are made before finalising
        Competition.objects.filter(pk=self.base.pk).update(
            starts_on=date(2000, 1, 1), is_public=True, public_results=True
        )
        ids = sorted(Player.objects.values_list("pk", flat=True))
        assert ids == list(range(ids[0], ids[0] + len(ids))), "the players' ids are consecutive"
        self.first_player, self.players = ids[0], len(ids)
        self.seasons = 1
        self.season_deals = DEALS * (players // 4) * evenings
        self.strides: dict[str, int] = {}
        with connection.cursor() as cursor:
            for model in self._models():
                cursor.execute(f"SELECT COALESCE(MAX(id), 0) FROM {model._meta.db_table}")
                self.strides[model._meta.db_table] = 10 ** len(str(2 * cursor.fetchone()[0]))  # copy k: id + k x stride
        self.finalise()

    @staticmethod
    def _models() -> list[Any]:
        from tournaments.models import Competition, DealEntry, Round, ScoreSheet, Seat, Table

        return [Competition, Round, Table, Seat, ScoreSheet, DealEntry]

    def grow_to(self, deals: int) -> None:
        """Copy the base season until the history holds ``deals`` deals (rounded to whole seasons)."""
        from django.db import connection, transaction

        with transaction.atomic(), connection.cursor() as cursor:
            while self.seasons * self.season_deals < deals:
                self._copy(cursor, self.seasons)
                self.seasons += 1
            for model in self._models():
                table = model._meta.db_table
                cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT MAX(id) FROM {table}))")
        self.finalise()
        analyze()

    def _copy(self, cursor: Any, k: int) -> None:
        """Season copy ``k``: every row of the base season under new ids, ``k`` weeks later, players permuted."""
        s = {name: stride * k for name, stride in self.strides.items()}
        c, r, t, se, sh, e = (m._meta.db_table for m in self._models())
        player = f"(({{col}} - {self.first_player} + {k * 37}) % {self.players}) + {self.first_player}"
        plans = [
            (
                c,
                f"id = {self.base.pk}",
                {
                    "id": f"id + {s[c]}",
                    "slug": f"slug || '-{k}'",
                    "name": f"name || ' {k}'",
                    "starts_on": f"starts_on + {7 * k}",
                },
            ),
            (
                r,
                f"competition_id = {self.base.pk}",
                {"id": f"id + {s[r]}", "competition_id": f"competition_id + {s[c]}", "status": "'complete'"},
            ),
            (
                t,
                f"round_id IN (SELECT id FROM {r} WHERE competition_id = {self.base.pk})",
                {"id": f"id + {s[t]}", "round_id": f"round_id + {s[r]}"},
            ),
            (
                se,
                f"round_id IN (SELECT id FROM {r} WHERE competition_id = {self.base.pk})",
                {
                    "id": f"id + {s[se]}",
                    "table_id": f"table_id + {s[t]}",
                    "round_id": f"round_id + {s[r]}",
                    "player_id": player.format(col="player_id"),
                },
            ),
            (
                sh,
                f"table_id IN (SELECT t.id FROM {t} t JOIN {r} r ON r.id = t.round_id WHERE r.competition_id = "
                f"{self.base.pk})",
                {
                    "id": f"id + {s[sh]}",
                    "table_id": f"table_id + {s[t]}",
                    "captain_code": f"captain_code || '-{k}'",
                    "state": "'confirmed'",
                },
            ),
            (
                e,
                f"sheet_id IN (SELECT sh.id FROM {sh} sh JOIN {t} t ON t.id = sh.table_id JOIN {r} r ON "
                f"r.id = t.round_id WHERE r.competition_id = {self.base.pk})",
                {"id": f"id + {s[e]}", "sheet_id": f"sheet_id + {s[sh]}"},
            ),
        ]
        for model, (table, where, changes) in zip(self._models(), plans, strict=True):
            columns = [f.column for f in model._meta.concrete_fields]
            chosen = ", ".join(changes.get(col, col) for col in columns)
            cursor.execute(f"INSERT INTO {table} ({', '.join(columns)}) SELECT {chosen} FROM {table} WHERE {where}")

    def finalise(self) -> None:
        """Every round of the history played and checked: sheets final, rounds finalised."""
        from tournaments.models import Round, ScoreSheet

        ScoreSheet.objects.exclude(state=ScoreSheet.State.FINAL).update(state=ScoreSheet.State.FINAL)
        Round.objects.exclude(status=Round.Status.FINALISED).update(status=Round.Status.FINALISED)

    def latest_season(self) -> Any:
        from tournaments.models import Competition

        return Competition.objects.order_by("-starts_on", "-pk").first()


def analyze() -> None:
    """Table statistics for the planner, as autovacuum keeps them on a live site (rows copied in bulk have none)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def new_session(competition: Any, seed: int) -> Any:
    """One more evening of the season: every player seated at tables of four, 24 engine-valid deals a table,
    then finalised as the services do (sheets final, the round finalised, the event logged)."""
    import games
    from games.generate import random_session
    from tournaments.models import DealEntry, Player, Round, RoundEvent, ScoreSheet, Seat, Table

    rng = random.Random(seed)
    rules = competition.rule_set.engine_rules()
    number = Round.objects.filter(competition=competition).count() + 1
    round_ = Round.objects.create(competition=competition, number=number, seed=seed, status=Round.Status.COMPLETE)
    ids = list(Player.objects.values_list("pk", flat=True))
    rng.shuffle(ids)
    tables = Table.objects.bulk_create(Table(round=round_, number=t + 1, size=4) for t in range(len(ids) // 4))
    Seat.objects.bulk_create(
        Seat(table=table, round=round_, position=pos, player_id=ids[t * 4 + pos])
        for t, table in enumerate(tables)
        for pos in range(4)
    )
    sheets = ScoreSheet.objects.bulk_create(
        ScoreSheet(table=table, captain_code=f"n{table.pk}", state=ScoreSheet.State.CONFIRMED) for table in tables
    )
    entries = []
    for sheet in sheets:
        engine = games.sheet_from_lines(rules, random_session(rules, rng, 4, DEALS), 4, DEALS)
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
    DealEntry.objects.bulk_create(entries, batch_size=5000)
    ScoreSheet.objects.filter(table__round=round_).update(state=ScoreSheet.State.FINAL)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.FINALISED)
    RoundEvent.objects.create(round=round_, action="finalised", from_status="complete", to_status="finalised")
    return round_


def reopen(round_: Any) -> None:
    """Take a session out of the ratings again (reopened), so the next history size starts from a whole number
    of seasons, or the next repeat rates it anew."""
    from tournaments.models import Round, RoundEvent

    Round.objects.filter(pk=round_.pk).update(status=Round.Status.COMPLETE)
    RoundEvent.objects.create(round=round_, action="reopened", from_status="finalised", to_status="complete")


def finalise_again(round_: Any) -> None:
    from tournaments.models import Round, RoundEvent

    Round.objects.filter(pk=round_.pk).update(status=Round.Status.FINALISED)
    RoundEvent.objects.create(round=round_, action="finalised", from_status="complete", to_status="finalised")


# --------------------------------------------------------------------------- measurement


def measure(history: History, deals: int, seed: int, repeats: int) -> dict[str, Any]:
    """The incremental update of one new session, ``repeats`` times (the session taken out of the ratings and
    finalised again between two, untimed): its median, then one full recomputation compared with it."""
    from scoring import rating_ledger
    from scoring.models import RatedRound

    history.grow_to(deals)
    t0 = time.perf_counter()
    rating_ledger.update_ratings()  # the site before the new evening: ratings up to date over the history
    settle = time.perf_counter() - t0
    analyze()
    rated = history.seasons * history.season_deals
    session = new_session(history.latest_season(), seed)
    times: list[tuple[float, Any]] = []
    for k in range(repeats):
        if k:
            reopen(session)
            rating_ledger.update_ratings()  # untimed: the session taken out again
            finalise_again(session)
        t0 = time.perf_counter()
        run = rating_ledger.update_ratings()
        times.append((time.perf_counter() - t0, run))
        assert run.rounds == 1 and run.start == RatedRound.objects.count() - 1, run
    incremental, run = sorted(times, key=lambda pair: pair[0])[len(times) // 2]
    t0 = time.perf_counter()
    report = rating_ledger.full_recompute()
    full = time.perf_counter() - t0
    reopen(session)
    print(
        f"  history {rated:,} deals ({history.seasons} seasons): brought up to date in {settle:.1f} s; new session "
        f"incremental {incremental:.3f} s (median of {repeats}: "
        + ", ".join(f"{seconds:.3f}" for seconds, _ in times)
        + f"; {run.players} players; "
        + ", ".join(f"{name} {seconds:.3f}" for name, seconds in run.seconds.items())
        + f"), full {full:.1f} s, "
        f"{len(report.differences)} difference(s)",
        flush=True,
    )
    for line in report.differences[:5]:
        print(f"    {line}")
    return {
        "history": rated,
        "incremental": incremental,
        "full": full,
        "equal": report.compared and not report.differences,
    }


def report(rows: list[dict[str, Any]]) -> None:
    print()
    print(f"{'history deals':>14} | {'incremental s':>13} | {'full s':>7} | {'full/incr':>9} | equal | target <= 0.5 s")
    print("-" * 80)
    for row in rows:
        ok = "met" if row["incremental"] <= TARGET_SECONDS else "MISSED"
        print(
            f"{row['history']:>14,} | {row['incremental']:>13.3f} | {row['full']:>7.1f} | "
            f"{row['full'] / row['incremental']:>8.0f}x | {'yes' if row['equal'] else 'NO':>5} | {ok}"
        )
    times = [row["incremental"] for row in rows]
    ratio = times[-1] / times[0]
    spread = max(times) / min(times)
    print("-" * 80)
    print(
        f"ratio incremental {rows[-1]['history']:,} / {rows[0]['history']:,} deals: {ratio:.2f}x "
        f"(target within {TARGET_RATIO}x: {'met' if spread <= TARGET_RATIO else 'MISSED'})"
    )
    print(f"equal to a full recomputation: {'yes' if all(row['equal'] for row in rows) else 'NO'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=400, help="a multiple of 4: players//4 tables a session")
    parser.add_argument("--evenings", type=int, default=10, help="evenings of a season (the unit copied)")
    parser.add_argument("--sizes", default="240000,960000", help="history sizes in deals, smallest first")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--repeats", type=int, default=5, help="incremental updates timed per size (the median)")
    args = parser.parse_args()
    if args.players < 4 or args.players % 4:
        parser.error("--players takes a multiple of 4 (tables of four)")
    sizes = sorted(int(size) for size in args.sizes.split(","))
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))  # the scratch database is dropped
    print(f"database {DB_NAME} (scratch, dropped at the end)")
    fresh_database(os.environ["DATABASE_URL"])
    try:
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        t0 = time.perf_counter()
        history = History(args.players, args.evenings, args.seed)
        print(f"base season: {history.season_deals:,} deals generated in {time.perf_counter() - t0:.1f} s", flush=True)
        rows = []
        for k, size in enumerate(sizes):
            t0 = time.perf_counter()
            rows.append(measure(history, size, args.seed + 1 + k, args.repeats))
            print(f"  ({time.perf_counter() - t0:.0f} s for this size, copies included)", flush=True)
        report(rows)
        return 0
    finally:
        from django.db import connections

        connections.close_all()
        drop_database()


if __name__ == "__main__":
    sys.exit(main())
