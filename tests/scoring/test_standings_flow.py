"""Standings follow entries: queued on commit, coalesced, claimed once, reconciled after a broker outage."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.test import override_settings

from config.celery import app as celery_app
from scoring import services
from scoring.models import Standing, StandingsState
from scoring.tasks import recompute_standings
from tests.factories import seated_competition
from tournaments.models import Competition, ScoreSheet
from tournaments.services.entry import record_deal

pytestmark = pytest.mark.django_db


def setup_sheet(preset: str = "iwwa") -> tuple[Competition, ScoreSheet]:
    competition = seated_competition(players=4, preset=preset)
    return competition, ScoreSheet.objects.get(table__round__competition=competition)


def alleen(deal: int, declarer: int, tricks: int) -> dict[str, Any]:
    return {"deal": deal, "dealer": (deal - 1) % 4, "contract": "alleen", "declarers": [declarer], "tricks": tricks}


def standings_by_seat(competition: Competition, sheet: ScoreSheet) -> list[int]:
    players = [s.player_id for s in sheet.table.seats.order_by("position")]
    points = dict(Standing.objects.filter(competition=competition).values_list("player_id", "points"))
    return [points[p] for p in players]


@contextmanager
def broker(url: str) -> Iterator[None]:
    """Send tasks to ``url`` for real (not eagerly), then restore the test configuration."""
    saved = (celery_app.conf.task_always_eager, celery_app.conf.broker_url)

    def reset_connections() -> None:  # the app keeps its broker connections: let it open new ones
        celery_app._pool = None
        celery_app.amqp._producer_pool = None

    reset_connections()
    celery_app.conf.task_always_eager, celery_app.conf.broker_url = False, url
    try:
        yield
    finally:
        celery_app.conf.task_always_eager, celery_app.conf.broker_url = saved
        reset_connections()


@pytest.fixture
def queued_tasks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[Any, ...]]]:
    """Tasks sent to the broker, recorded instead of sent (no eager run)."""
    sent: list[tuple[Any, ...]] = []
    monkeypatch.setattr(recompute_standings, "apply_async", lambda args, **kw: sent.append(tuple(args)))
    yield sent


def test_an_entry_updates_the_standings_after_commit(django_capture_on_commit_callbacks: Any) -> None:
    competition, sheet = setup_sheet()
    with django_capture_on_commit_callbacks(execute=True):
        record_deal(sheet, alleen(1, 2, 6))
    # iwwa alleen: 2 + 1 overtrick = 3 per opponent; the lone player settles with each of three
    assert standings_by_seat(competition, sheet) == [-3, -3, 9, -3]
    state = StandingsState.objects.get(competition=competition)
    assert state.computed_version == Competition.objects.get(pk=competition.pk).entries_version
    assert state.computed_at is not None and not state.queued


def test_nothing_is_queued_before_the_entry_commits(
    django_capture_on_commit_callbacks: Any, queued_tasks: list[Any]
) -> None:
    competition, sheet = setup_sheet()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        record_deal(sheet, alleen(1, 2, 6))
        assert queued_tasks == []
    for callback in callbacks:  # the commit: the standings are queued once (the live pages forget what they kept)
        callback()
    assert queued_tasks == [(competition.pk,)]


def test_a_burst_of_entries_queues_one_recomputation(
    django_capture_on_commit_callbacks: Any, queued_tasks: list[Any]
) -> None:
    competition = seated_competition(players=16, preset="iwwa")
    sheets = list(ScoreSheet.objects.filter(table__round__competition=competition))
    for deal in range(1, 17):
        for sheet in sheets:
            with django_capture_on_commit_callbacks(execute=True):
                record_deal(sheet, alleen(deal, deal % 4, 5 + deal % 3))
    assert queued_tasks == [(competition.pk,)]  # 64 entries, one task

    assert recompute_standings(competition.pk) is True
    assert recompute_standings(competition.pk) is False  # a duplicate delivery does nothing
    assert StandingsState.objects.get(competition=competition).computations == 1
    assert Standing.objects.filter(competition=competition).count() == 16

    # after the computation, the next entry queues the next one
    with django_capture_on_commit_callbacks(execute=True):
        record_deal(sheets[0], alleen(1, 1, 9), expected_version=1)  # a correction of deal 1
    assert queued_tasks == [(competition.pk,), (competition.pk,)]


def test_a_queued_recomputation_is_claimed_once(queued_tasks: list[Any]) -> None:
    competition, _ = setup_sheet()
    assert services.request_standings(competition.pk) is True
    assert services.request_standings(competition.pk) is False
    assert queued_tasks == [(competition.pk,)]


def test_reconcile_repairs_standings_left_stale_while_the_broker_was_down(
    django_capture_on_commit_callbacks: Any,
) -> None:
    competition, sheet = setup_sheet()
    # nothing listens on port 1: the broker is down when the entry commits
    with (
        broker("redis://127.0.0.1:1/0"),
        override_settings(STANDINGS_COALESCE_SECONDS=0),
        django_capture_on_commit_callbacks(execute=True),
    ):
        record_deal(sheet, alleen(1, 2, 6))  # the entry is saved all the same
    competition.refresh_from_db()
    state = StandingsState.objects.get(competition=competition)
    assert sheet.entries.count() == 1
    assert state.computed_version < competition.entries_version and not state.queued
    assert not Standing.objects.filter(competition=competition).exists()

    assert services.reconcile_standings() == [competition.pk]  # broker back (eager here): requeued and run

    state.refresh_from_db()
    assert state.computed_version == competition.entries_version
    assert standings_by_seat(competition, sheet) == [-3, -3, 9, -3]
    assert services.reconcile_standings() == []  # nothing stale any more


def test_reconcile_releases_a_request_lost_with_its_worker(queued_tasks: list[Any]) -> None:
    competition, sheet = setup_sheet()
    record_deal(sheet, alleen(1, 2, 6))
    StandingsState.objects.update_or_create(competition=competition, defaults={"queued": True})
    StandingsState.objects.filter(competition=competition).update(queued_at="2000-01-01T00:00:00Z")
    assert services.reconcile_standings() == [competition.pk]
    assert queued_tasks == [(competition.pk,)]
