"""Each board of a duplicate round through the double-dummy solver: one job a board, queued at the commit that
stored the boards, claimed once, stored as JSON with the budget it ran under; a failure stored with its reason;
replaced boards take their analyses with them; the periodic reconciliation repairs what was lost.

The solver is replaced by a fake (``analyse`` monkeypatched) except in one test that runs the real one with a
small budget.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.cards import Suit
from games.duplicate import Board as EngineBoard
from games.duplicate import deal_boards, to_pbn
from games.solver import analysis as solver
from tests.factories import seated_competition
from tournaments.duplicate import analysis, tasks
from tournaments.duplicate.services import deal_round_boards, import_round_boards
from tournaments.models import Board, BoardAnalysis, Round

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[2]


class FakeSolved:
    """What the solver's ``Solved`` gives: contract, declarers, trump, leader, low, high."""

    def __init__(self, contract: str, declarers: tuple[int, ...], trump: Suit | None, low: int, high: int) -> None:
        self.contract, self.declarers, self.trump, self.leader = contract, declarers, trump, 1
        self.low, self.high = low, high

    @property
    def exact(self) -> bool:
        return self.low == self.high

    @property
    def tricks(self) -> int | None:
        return self.low if self.exact else None


class FakeSolver:
    """Counts its calls and the budgets it was given; answers three rows (one a range) for every board."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int | None]] = []
        self.fail = False

    def __call__(self, board: EngineBoard, *, budget: int | None = None) -> list[Any]:
        self.calls.append((board.number, budget))
        if self.fail:
            raise RuntimeError(f"no answer for board {board.number}")
        return [
            FakeSolved("vraag", (0, 2), board.trump, 9, 9),
            FakeSolved("alleen", (1,), board.trump, 4, 7),
            FakeSolved("miserie", (3,), None, 0, 0),
        ]


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeSolver:
    solve = FakeSolver()
    monkeypatch.setattr(solver, "analyse", solve)
    return solve


def duplicate_round(capture: Callable[..., Any], *, execute: bool = True) -> Round:
    with capture(execute=execute):
        competition = seated_competition(players=8, duplicate=True, deals_per_session=16)
    return Round.objects.get(competition=competition)


def test_the_boards_of_a_new_round_are_analysed_one_job_a_board_once_they_are_committed(
    fake: FakeSolver, django_capture_on_commit_callbacks: Callable[..., Any], settings: Any
) -> None:
    settings.WIEZEN_SOLVER_BUDGET = 1234
    round_ = duplicate_round(django_capture_on_commit_callbacks)

    analyses = BoardAnalysis.objects.filter(board__round=round_).order_by("board__number")
    assert analyses.count() == 16
    assert sorted(fake.calls) == [(number, 1234) for number in range(1, 17)]  # one call a board, with the budget
    first = analyses[0]
    assert first.status == BoardAnalysis.Status.DONE and first.budget == 1234 and first.attempts == 1
    assert first.started_at is not None and first.finished_at is not None and first.finished_at >= first.started_at
    trump = first.board.engine_board().trump.value
    assert first.rows == [
        {"contract": "vraag", "declarers": [0, 2], "trump": trump, "leader": 1, "low": 9, "high": 9},
        {"contract": "alleen", "declarers": [1], "trump": trump, "leader": 1, "low": 4, "high": 7},
        {"contract": "miserie", "declarers": [3], "trump": None, "leader": 1, "low": 0, "high": 0},
    ]


def test_nothing_is_analysed_before_the_boards_are_committed(
    fake: FakeSolver, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with django_capture_on_commit_callbacks(execute=False) as queued:
        competition = seated_competition(players=4, duplicate=True, deals_per_session=16)
    assert fake.calls == [] and not BoardAnalysis.objects.exists()
    round_ = Round.objects.get(competition=competition)
    analysis_jobs = [c for c in queued if getattr(c, "func", None) is analysis.queue_round]
    assert [job.args for job in analysis_jobs] == [(round_.pk,)]  # the one on_commit of deal_round_boards


def test_a_zero_budget_setting_means_no_budget(
    fake: FakeSolver, django_capture_on_commit_callbacks: Callable[..., Any], settings: Any
) -> None:
    settings.WIEZEN_SOLVER_BUDGET = 0
    round_ = duplicate_round(django_capture_on_commit_callbacks)
    assert {budget for _, budget in fake.calls} == {None}
    assert not BoardAnalysis.objects.filter(board__round=round_, budget__isnull=False).exists()


def test_replaced_boards_take_their_analyses_with_them_and_the_new_ones_are_queued(
    fake: FakeSolver, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    round_ = duplicate_round(django_capture_on_commit_callbacks)
    old = set(BoardAnalysis.objects.filter(board__round=round_).values_list("pk", flat=True))
    fake.calls.clear()

    with django_capture_on_commit_callbacks(execute=True):
        import_round_boards(round_, to_pbn(deal_boards(16, 99)))

    new = set(BoardAnalysis.objects.filter(board__round=round_).values_list("pk", flat=True))
    assert len(new) == 16 and not old & new
    assert not BoardAnalysis.objects.filter(pk__in=old).exists()
    assert len(fake.calls) == 16
    assert set(BoardAnalysis.objects.filter(pk__in=new).values_list("status", flat=True)) == {"done"}

    with django_capture_on_commit_callbacks(execute=True):
        deal_round_boards(round_, seed=5)
    assert BoardAnalysis.objects.filter(board__round=round_, status="done").count() == 16
    assert len(fake.calls) == 32


def test_two_workers_never_analyse_one_board_twice(
    fake: FakeSolver, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    round_ = duplicate_round(django_capture_on_commit_callbacks, execute=False)
    analysis.ensure_analyses(round_.pk)
    pending = BoardAnalysis.objects.filter(board__round=round_).order_by("pk").first()
    assert pending is not None

    first = analysis.claim(pending.pk)
    second = analysis.claim(pending.pk)
    assert first is not None and first.status == "running" and second is None
    assert tasks.analyse_board(pending.pk) is False  # a second message for the same board does nothing
    assert fake.calls == []

    BoardAnalysis.objects.filter(pk=pending.pk).update(status="pending", started_at=None)
    assert tasks.analyse_board(pending.pk) is True
    assert tasks.analyse_board(pending.pk) is False  # done: redelivered, it stays done
    assert len(fake.calls) == 1


def test_a_job_whose_board_was_replaced_meanwhile_does_nothing(fake: FakeSolver) -> None:
    assert tasks.analyse_board(987654) is False
    assert fake.calls == []


def test_a_solver_failure_is_stored_with_its_reason_and_the_reconciliation_tries_again_a_few_times(
    fake: FakeSolver, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    fake.fail = True
    round_ = duplicate_round(django_capture_on_commit_callbacks)  # the request that dealt them does not fail
    failed = BoardAnalysis.objects.filter(board__round=round_)
    assert set(failed.values_list("status", flat=True)) == {"failed"}
    one = failed.get(board__number=3)
    assert one.error == "RuntimeError: no answer for board 3" and one.rows == [] and one.finished_at is not None

    for attempt in range(2, analysis.MAX_ATTEMPTS + 1):
        assert analysis.reconcile() == 16
        assert set(failed.values_list("attempts", flat=True)) == {attempt}
    assert analysis.reconcile() == 0  # given up: the error is for someone to read
    assert set(failed.values_list("status", flat=True)) == {"failed"}

    fake.fail = False
    BoardAnalysis.objects.filter(board__round=round_).update(attempts=0)
    assert tasks.reconcile_board_analyses() == 16
    assert set(failed.values_list("status", flat=True)) == {"done"}
    assert set(failed.values_list("error", flat=True)) == {""}


def test_the_reconciliation_gives_boards_without_an_analysis_one_and_requeues_lost_runs(
    fake: FakeSolver, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    round_ = duplicate_round(django_capture_on_commit_callbacks, execute=False)  # the commit's job never ran
    assert not BoardAnalysis.objects.exists()
    analysis.ensure_analyses(round_.pk)
    stuck = BoardAnalysis.objects.get(board__round=round_, board__number=1)
    long_ago = timezone.now() - analysis.RUNNING_STALE * 2
    BoardAnalysis.objects.filter(pk=stuck.pk).update(status="running", started_at=long_ago)  # its worker died
    recent = BoardAnalysis.objects.get(board__round=round_, board__number=2)
    BoardAnalysis.objects.filter(pk=recent.pk).update(queued_at=timezone.now())  # queued a moment ago: left alone
    BoardAnalysis.objects.filter(board__round=round_, board__number__gt=8).delete()  # never made

    assert analysis.reconcile() == 15
    done = BoardAnalysis.objects.filter(board__round=round_, status="done")
    assert done.count() == 15 and not done.filter(pk=recent.pk).exists()
    assert BoardAnalysis.objects.filter(board__round=round_).count() == 16


def test_the_database_keeps_an_analysis_consistent(django_capture_on_commit_callbacks: Callable[..., Any]) -> None:
    round_ = duplicate_round(django_capture_on_commit_callbacks, execute=False)
    analysis.ensure_analyses(round_.pk)
    row = BoardAnalysis.objects.filter(board__round=round_).first()
    assert row is not None
    now = timezone.now()
    for wrong in (
        {"status": "lost"},
        {"status": "running"},  # never started
        {"status": "done", "started_at": now, "finished_at": now - timedelta(seconds=1)},
        {"status": "failed", "started_at": now, "finished_at": now},  # no reason
        {"error": "a reason without a failure"},
        {"budget": 0},
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            BoardAnalysis.objects.filter(pk=row.pk).update(**wrong)
    with pytest.raises(IntegrityError), transaction.atomic():
        BoardAnalysis.objects.create(board=row.board)  # one a board
    board = row.board
    Board.objects.filter(pk=board.pk).delete()
    assert not BoardAnalysis.objects.filter(pk=row.pk).exists()


def test_the_jobs_go_to_the_slow_queue_and_are_reconciled_periodically() -> None:
    assert settings.CELERY_TASK_ROUTES["tournaments.duplicate.tasks.analyse_board"] == {"queue": "analytics"}
    schedule = settings.CELERY_BEAT_SCHEDULE["reconcile-board-analyses"]
    assert schedule["task"] == tasks.reconcile_board_analyses.name


def test_a_worker_finds_the_tasks() -> None:
    """``config.celery`` discovers the tasks of ``tournaments.duplicate``, which is not an app of its own."""
    code = (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings'); django.setup()\n"
        "from config.celery import app; app.loader.import_default_modules()\n"
        "print(sorted(n for n in app.tasks if n.startswith('tournaments.duplicate.')))"
    )
    found = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == str(
        ["tournaments.duplicate.tasks.analyse_board", "tournaments.duplicate.tasks.reconcile_board_analyses"]
    )


def test_the_real_solver_analyses_a_board_within_a_small_budget(
    django_capture_on_commit_callbacks: Callable[..., Any], settings: Any
) -> None:
    """The one run of the real solver here: a board of a round, every row within its bounds."""
    settings.WIEZEN_SOLVER_BUDGET = 2000
    round_ = duplicate_round(django_capture_on_commit_callbacks, execute=False)
    analysis.ensure_analyses(round_.pk)
    one = BoardAnalysis.objects.get(board__round=round_, board__number=1)

    assert tasks.analyse_board(one.pk) is True

    one.refresh_from_db()
    assert one.status == "done", one.error
    assert one.budget == 2000
    rows = analysis.stored_rows(one)
    assert len(rows) == len(one.rows) >= 6 + 4 + 16 + 16 + 4  # vraag, alleen, abondance, solo slim, miserie
    assert all(0 <= row.low <= row.high <= 13 for row in rows)
    assert {row.contract for row in rows} >= {"vraag", "alleen", "abondance", "solo_slim", "miserie"}
