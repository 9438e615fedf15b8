"""An entry's standings are computed by a separate Celery worker process, not eagerly.

The worker is a real ``celery -A config worker`` process over the project's
broker: Redis when ``REDIS_URL`` is set (CI), otherwise kombu's filesystem
transport; it reads and writes the same test database (PostgreSQL in CI).
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.models import Standing, StandingsState
from tests.e2e.conftest import wait_for
from tests.factories import seated_competition
from tournaments.models import Competition, ScoreSheet
from tournaments.services.entry import record_deal

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.real_worker]


def test_a_worker_process_computes_the_standings_after_an_entry(worker: dict[str, Any]) -> None:
    competition = seated_competition(players=4, preset="iwwa")
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    seats = [s.player_id for s in sheet.table.seats.order_by("position")]

    record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6})

    # Entry did not wait: nothing was computed in this process.
    assert not Standing.objects.filter(competition=competition).exists()

    def computed() -> bool:
        state = StandingsState.objects.filter(competition=competition).first()
        return (
            state is not None and state.computed_version == Competition.objects.get(pk=competition.pk).entries_version
        )

    assert wait_for(computed), f"no standings after 60 s; worker log:\n{worker['log'].read_text()}"
    points = dict(Standing.objects.filter(competition=competition).values_list("player_id", "points"))
    # iwwa alleen with 6 tricks: 2 + 1 = 3 per opponent (RULES.md §4)
    assert [points[p] for p in seats] == [-3, -3, 9, -3]
    assert "scoring.tasks.recompute_standings" in worker["log"].read_text()

    # A burst of entries is computed in far fewer runs than entries.
    before = StandingsState.objects.get(competition=competition).computations
    for deal in range(2, 12):
        record_deal(
            sheet, {"deal": deal, "dealer": (deal - 1) % 4, "contract": "alleen", "declarers": [deal % 4], "tricks": 5}
        )
    assert wait_for(computed), f"standings did not catch up; worker log:\n{worker['log'].read_text()}"
    runs = StandingsState.objects.get(competition=competition).computations - before
    assert 1 <= runs < 10
    totals = dict(Standing.objects.filter(competition=competition).values_list("player_id", "points"))
    expected = [0, 0, 0, 0]
    for entry in sheet.entries.filter(is_current=True):
        expected = [a + b for a, b in zip(expected, entry.points, strict=True)]
    assert [totals[p] for p in seats] == expected
