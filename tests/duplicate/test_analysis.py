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


class FakeDeepen:
    """The second pass: records the boards, budgets and open rows it was given; narrows alleen 4..7 to 6."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int | None, list[tuple[str, int, int]]]] = []
        self.meanwhile: Callable[[], None] | None = None  # another pass storing while this one searches

    def __call__(self, board: EngineBoard, rows: list[Any], *, budget: int | None) -> list[Any]:
        self.calls.append((board.number, budget, [(r.contract, r.low, r.high) for r in rows if not r.exact]))
        if self.meanwhile is not None:
            self.meanwhile()
        return [
            solver.Solved(r.contract, r.declarers, r.trump, r.leader, 6, 6) if r.contract == "alleen" else r
            for r in rows
        ]


@pytest.fixture
def fake_deepen(monkeypatch: pytest.MonkeyPatch) -> FakeDeepen:
    deepen = FakeDeepen()
    monkeypatch.setattr(solver, "deepen", deepen)
    return deepen


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
        {"deep_queued_at": now},  # a second pass before the first is done
        {"deepened_at": now},
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
    # the second pass runs minutes a board: a queue of its own, so ratings and first passes never wait behind it
    assert settings.CELERY_TASK_ROUTES["tournaments.duplicate.tasks.deepen_board"] == {"queue": "deep"}
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
        [
            "tournaments.duplicate.tasks.analyse_board",
            "tournaments.duplicate.tasks.deepen_board",
            "tournaments.duplicate.tasks.reconcile_board_analyses",
        ]
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


def stored(round_: Round, number: int = 1) -> dict[str, tuple[int, int]]:
    one = BoardAnalysis.objects.get(board__round=round_, board__number=number)
    return {row["contract"]: (row["low"], row["high"]) for row in one.rows}


def test_a_board_left_with_ranges_gets_a_second_pass_that_narrows_them(
    fake: FakeSolver,
    fake_deepen: FakeDeepen,
    django_capture_on_commit_callbacks: Callable[..., Any],
    settings: Any,
) -> None:
    settings.WIEZEN_SOLVER_DEEP_BUDGET = 5000
    round_ = duplicate_round(django_capture_on_commit_callbacks)

    # one second pass a board, after its first, with the deep budget and the one range the first left
    assert sorted(fake_deepen.calls) == [(n, 5000, [("alleen", 4, 7)]) for n in range(1, 17)]
    assert stored(round_) == {"vraag": (9, 9), "alleen": (6, 6), "miserie": (0, 0)}
    one = BoardAnalysis.objects.get(board__round=round_, board__number=1)
    assert (one.status == "done" and one.budget is None) or one.budget == settings.WIEZEN_SOLVER_BUDGET
    assert one.finished_at is not None and one.deep_queued_at is not None and one.deepened_at is not None
    assert one.finished_at <= one.deep_queued_at <= one.deepened_at
    assert tasks.deepen_board(one.pk) is False  # the pass ended: a redelivered message does not search again
    assert len(fake_deepen.calls) == 16


def test_no_second_pass_without_its_budget_or_where_every_count_is_known(
    fake: FakeSolver,
    fake_deepen: FakeDeepen,
    django_capture_on_commit_callbacks: Callable[..., Any],
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings.WIEZEN_SOLVER_DEEP_BUDGET = 0
    round_ = duplicate_round(django_capture_on_commit_callbacks)
    assert fake_deepen.calls == [] and stored(round_)["alleen"] == (4, 7)
    one = BoardAnalysis.objects.get(board__round=round_, board__number=1)
    assert tasks.deepen_board(one.pk) is False and fake_deepen.calls == []

    settings.WIEZEN_SOLVER_DEEP_BUDGET = 5000
    queued: list[int] = []
    monkeypatch.setattr(analysis, "queue_deepening", queued.append)
    exact = [FakeSolved("vraag", (0, 2), Suit.HEARTS, 9, 9), FakeSolved("miserie", (3,), None, 0, 0)]
    monkeypatch.setattr(solver, "analyse", lambda board, *, budget=None: exact)
    BoardAnalysis.objects.filter(pk=one.pk).update(status="pending", started_at=None)
    assert tasks.analyse_board(one.pk) is True
    assert queued == [] and fake_deepen.calls == []
    one.refresh_from_db()
    assert one.deepened_at == one.finished_at and one.deep_queued_at is None  # nothing for a second pass: ended
    assert tasks.deepen_board(one.pk) is False and fake_deepen.calls == []  # all exact: not even searched


def test_a_second_pass_keeps_what_another_stored_while_it_searched(
    fake: FakeSolver,
    fake_deepen: FakeDeepen,
    django_capture_on_commit_callbacks: Callable[..., Any],
    settings: Any,
) -> None:
    round_ = duplicate_round(django_capture_on_commit_callbacks)  # deep budget 0 here: first passes only
    one = BoardAnalysis.objects.get(board__round=round_, board__number=1)
    assert stored(round_)["alleen"] == (4, 7)
    settings.WIEZEN_SOLVER_DEEP_BUDGET = 5000

    def another_pass() -> None:  # a redelivered message's pass, storing first what this one also finds
        rows = [dict(row, low=6, high=6) if row["contract"] == "alleen" else row for row in one.rows]
        BoardAnalysis.objects.filter(pk=one.pk).update(rows=rows)

    fake_deepen.meanwhile = another_pass
    assert analysis.deepen(one.pk) is False  # what is stored already says as much: nothing to write
    assert stored(round_)["alleen"] == (6, 6)


def test_a_second_pass_narrows_to_what_both_passes_proved(
    fake: FakeSolver,
    django_capture_on_commit_callbacks: Callable[..., Any],
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    round_ = duplicate_round(django_capture_on_commit_callbacks)
    one = BoardAnalysis.objects.get(board__round=round_, board__number=1)
    settings.WIEZEN_SOLVER_DEEP_BUDGET = 5000

    def found(board: EngineBoard, rows: list[Any], *, budget: int | None) -> list[Any]:
        # meanwhile another pass proved at most 6; this one proves at least 5
        narrowed = [dict(row, high=6) if row["contract"] == "alleen" else row for row in one.rows]
        BoardAnalysis.objects.filter(pk=one.pk).update(rows=narrowed)
        return [solver.Solved(r.contract, r.declarers, r.trump, r.leader, max(r.low, 5), r.high) for r in rows]

    monkeypatch.setattr(solver, "deepen", found)
    assert analysis.deepen(one.pk) is True
    assert stored(round_) == {"vraag": (9, 9), "alleen": (5, 6), "miserie": (0, 0)}


def test_a_second_pass_of_an_analysis_not_done_gone_or_unreadable_changes_nothing(
    fake: FakeSolver,
    fake_deepen: FakeDeepen,
    django_capture_on_commit_callbacks: Callable[..., Any],
    settings: Any,
) -> None:
    settings.WIEZEN_SOLVER_DEEP_BUDGET = 5000
    round_ = duplicate_round(django_capture_on_commit_callbacks, execute=False)
    analysis.ensure_analyses(round_.pk)
    pending = BoardAnalysis.objects.filter(board__round=round_).order_by("pk").first()
    assert pending is not None
    assert tasks.deepen_board(pending.pk) is False  # not analysed yet
    assert tasks.deepen_board(987654) is False  # its board was replaced
    assert fake_deepen.calls == []

    rows = [
        {"contract": "alleen", "declarers": [1], "trump": "H", "leader": 1, "low": 4, "high": 7},
        {"contract": "no such contract", "low": 1},
    ]
    BoardAnalysis.objects.filter(pk=pending.pk).update(status="done", rows=rows, started_at=timezone.now())
    assert tasks.deepen_board(pending.pk) is False  # storing would drop the row it cannot read: kept for a person
    pending.refresh_from_db()
    assert pending.rows == rows


def test_the_real_second_pass_counts_how_badly_a_miserie_fails(
    django_capture_on_commit_callbacks: Callable[..., Any], settings: Any
) -> None:
    settings.WIEZEN_SOLVER_BUDGET = 2000
    settings.WIEZEN_SOLVER_DEEP_BUDGET = 100_000
    round_ = duplicate_round(django_capture_on_commit_callbacks, execute=False)
    analysis.ensure_analyses(round_.pk)
    one = BoardAnalysis.objects.get(board__round=round_, board__number=1)
    board = one.board.engine_board()
    first = solver.analyse(board, budget=2000)

    assert tasks.analyse_board(one.pk) is True  # eager: the second pass runs at once

    one.refresh_from_db()
    deeper = [analysis.solved(row) for row in analysis.stored_rows(one)]
    assert len(deeper) == len(first)
    for rough, fine in zip(first, deeper, strict=True):
        assert (rough.contract, rough.declarers, rough.trump) == (fine.contract, fine.declarers, fine.trump)
        assert rough.low <= fine.low <= fine.high <= rough.high, (rough, fine)
    assert sum(row.exact for row in deeper) > sum(row.exact for row in first)
    failed = [row for row in deeper if row.contract == "miserie" and row.low >= 1]
    assert failed and all((row.low, row.high) != (1, 13) for row in failed), failed  # was "≥1": now a range
    assert any(row.low > 1 for row in failed), failed


def test_the_reconciliation_queues_a_second_pass_that_was_lost_or_never_queued(
    fake: FakeSolver,
    fake_deepen: FakeDeepen,
    django_capture_on_commit_callbacks: Callable[..., Any],
    settings: Any,
) -> None:
    round_ = duplicate_round(django_capture_on_commit_callbacks)  # deep budget 0 here: first passes only
    boards = BoardAnalysis.objects.filter(board__round=round_)
    assert set(boards.values_list("deep_queued_at", "deepened_at")) == {(None, None)}  # ranges left, no pass
    assert analysis.reconcile() == 0  # without a second pass configured, nothing to queue

    settings.WIEZEN_SOLVER_DEEP_BUDGET = 5000
    long_ago = timezone.now() - analysis.DEEP_STALE * 2
    boards.filter(board__number=1).update(deep_queued_at=long_ago)  # its message was lost on the way
    boards.filter(board__number=2).update(deep_queued_at=timezone.now())  # queued a moment ago: left alone
    boards.filter(board__number=3).update(deep_queued_at=long_ago, deepened_at=long_ago)  # ended: left alone

    assert analysis.reconcile() == 14  # 1, and 4..16 that were never queued (the setting came later)
    assert sorted(number for number, _budget, _rows in fake_deepen.calls) == [1, *range(4, 17)]
    assert stored(round_, 1)["alleen"] == (6, 6) and stored(round_, 2)["alleen"] == (4, 7)
    assert boards.filter(deepened_at__isnull=True).count() == 1  # board 2's pass, still on its way
    assert analysis.reconcile() == 0  # nothing lost any more


def test_a_second_pass_the_broker_refuses_is_left_to_the_reconciliation(
    fake: FakeSolver,
    fake_deepen: FakeDeepen,
    django_capture_on_commit_callbacks: Callable[..., Any],
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings.WIEZEN_SOLVER_DEEP_BUDGET = 5000

    def refuse(analysis_id: int) -> None:
        raise ConnectionError("the broker is down")

    with monkeypatch.context() as broker_down:
        broker_down.setattr(tasks.deepen_board, "delay", refuse)
        round_ = duplicate_round(django_capture_on_commit_callbacks)  # the request that dealt them does not fail
    boards = BoardAnalysis.objects.filter(board__round=round_)
    assert set(boards.values_list("status", flat=True)) == {"done"} and fake_deepen.calls == []
    assert not boards.filter(deep_queued_at__isnull=True).exists()  # marked queued before the broker refused
    assert not boards.filter(deepened_at__isnull=False).exists()

    assert analysis.reconcile() == 0  # queued a moment ago, as far as anyone can tell
    boards.update(deep_queued_at=timezone.now() - analysis.DEEP_STALE * 2)
    assert analysis.reconcile() == 16
    assert len(fake_deepen.calls) == 16 and not boards.filter(deepened_at__isnull=True).exists()
