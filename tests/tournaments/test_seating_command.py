"""``manage.py seating`` prints a seating without touching the database."""

from __future__ import annotations

import io
import json
from itertools import combinations

from django.core.management import call_command


def test_the_command_prints_a_repeat_free_schedule_for_sixteen_players_as_json() -> None:
    out = io.StringIO()
    call_command("seating", players=16, rounds=5, method="schedule", seed=3, as_json=True, stdout=out)
    rounds = json.loads(out.getvalue())["rounds"]
    assert len(rounds) == 5
    pairs = [pair for tables in rounds for table in tables for pair in combinations(sorted(table), 2)]
    assert all(sorted(p for t in tables for p in t) == list(range(1, 17)) for tables in rounds)
    assert len(pairs) == len(set(pairs)) == 5 * 4 * 6  # the affine plane: nobody meets twice
