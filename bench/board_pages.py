"""Benchmark the board pages of a duplicate round at the Belgian championship's size, on PostgreSQL.

Once a duplicate round is finalised, every player opens its boards and a few boards on a phone at once. This
builds, in a scratch database, a finalised round of ``--players`` players (59 tables of four for 236) and
``--boards`` boards played at every table at once, each board analysed by the solver and every table's line
entered as the demo enters them, then prints, measured in the same run (the median and the fastest of
``--repeat`` renderings through Django's test client, one process, no cache in front):

- the round page (``/c/<slug>/r1/``), for scale;
- the round's list of boards (``/c/<slug>/r1/boards/``) and one board's page (``/c/<slug>/r1/boards/1/``), each
  also as a ratio to the round page;
- side by side, the two ways the list and the board page were built before 2026-12-06: the list wording every
  table's line of every board (``analysis.board_page`` for each), and a board page settling the par of every
  board of the round (``analysis.round_data`` without ``board_number``).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/wiezen_bench_boards \\
        python bench/board_pages.py [--players 236] [--boards 24] [--repeat 25]

No target in an issue: the figures go in the closing note of issue 19.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/wiezen_bench_boards")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from bench.standings import migrated_scratch_database  # noqa: E402  (drops, makes and migrates the scratch database)


def drop_database(url: str) -> None:
    from django.db import connections

    connections.close_all()
    import psycopg

    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')


def build(players: int, boards: int, seed: int) -> Any:
    """A finalised duplicate round, all tables at once, its lines drawn as the demo draws them."""
    from django.contrib.auth import get_user_model

    from tournaments.duplicate import demo
    from tournaments.models import Club, Competition, Player, ScoreSheet
    from tournaments.services.competitions import create_competition, create_rule_set, register_players
    from tournaments.services.rounds import create_round, finalise_round, publish_round
    from tournaments.services.sheets import confirm_sheet

    demo.DEALS = boards  # the demo plays its module's board count
    club = Club.objects.create(name="Championship", slug="championship")
    organiser = get_user_model().objects.create_user("director", password="bench-only")
    rule_set = create_rule_set(name="IWWA championship", game="wiezen", preset="iwwa", club=club)
    competition = create_competition(
        club=club,
        name="Championship",
        slug="championship",
        rule_set=rule_set,
        deals_per_session=boards,
        duplicate=True,
        movement=Competition.Movement.ALL_AT_ONCE,
        standings_method="matchpoints",
    )
    competition.organisers.add(organiser)
    register_players(
        competition, [Player.objects.create(first_name="Player", last_name=f"{i:03d}") for i in range(players)]
    )
    round_ = publish_round(create_round(competition, seed=seed, board_seed=seed))
    demo._play(round_, rule_set, random.Random(seed))
    for sheet in ScoreSheet.objects.filter(table__round=round_):
        confirm_sheet(sheet, by=organiser)
    finalise_round(round_, by=organiser)
    return round_


def timed(render: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """Median and fastest of ``repeat`` renderings, in milliseconds, after one to warm up."""
    render()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        render()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=236)
    parser.add_argument("--boards", type=int, default=24)
    parser.add_argument("--repeat", type=int, default=25)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    migrated_scratch_database("bench/board_pages.py")
    from django.test import Client

    from tournaments.duplicate import analysis
    from tournaments.models import DealEntry, Table

    start = time.perf_counter()
    round_ = build(args.players, args.boards, args.seed)
    tables = Table.objects.filter(round=round_).count()
    lines = DealEntry.objects.filter(sheet__table__round=round_, is_current=True).count()
    print(f"round: {args.players} players at {tables} tables, {args.boards} boards, {lines:,} lines, analysed")
    print(f"(built in {time.perf_counter() - start:.0f} s)\n")

    client = Client()
    slug = round_.competition.slug

    def page(address: str) -> Callable[[], Any]:
        def render() -> Any:
            response = client.get(address)
            assert response.status_code == 200, (address, response.status_code)
            return response

        return render

    round_ms = timed(page(f"/c/{slug}/r1/"), args.repeat)
    rows = [
        ("round page", round_ms),
        ("list of boards", timed(page(f"/c/{slug}/r1/boards/"), args.repeat)),
        ("board 1's page", timed(page(f"/c/{slug}/r1/boards/1/"), args.repeat)),
    ]
    print(f"{'page':<16} {'median ms':>10} {'fastest ms':>11} {'÷ round page':>13}")
    for name, (median, fastest) in rows:
        print(f"{name:<16} {median:>10.1f} {fastest:>11.1f} {median / round_ms[0]:>12.2f}×")

    data = analysis.round_data(round_, full_names=False)
    parts = [
        ("list's rows", lambda: [analysis.board_row(data, board) for board in data.boards]),
        ("… as full pages", lambda: [analysis.board_page(data, board) for board in data.boards]),
        ("one board's data", lambda: analysis.round_data(round_, full_names=False, board_number=1)),
        ("… every board's", lambda: analysis.round_data(round_, full_names=False)),
    ]
    print("\nside by side, the parts that changed (the first of each pair is what the pages now do)")
    measured = [(name, timed(part, args.repeat)[0]) for name, part in parts]
    for (name, ms), (other, other_ms) in zip(measured[::2], measured[1::2], strict=True):
        print(f"{name:<18} {ms:>8.1f} ms   {other:<18} {other_ms:>8.1f} ms   ratio {other_ms / ms:.1f}×")
    drop_database(os.environ["DATABASE_URL"])


if __name__ == "__main__":
    main()
