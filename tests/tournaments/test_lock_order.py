"""Two requests on the same round at the same instant take turns; neither ends in a deadlock (a server error).

PostgreSQL aborts one of two transactions that each wait for a row the other holds. Every service takes its row
locks in one order, a round's sheets (by id) before the round, the round before its competition
(``tournaments.services.lock_order``). Each test holds the first request just after its first lock, lets the
second run until it waits for a lock, then lets the first go on: in the old orders each of these ended in
"deadlock detected" for one of the two.
"""

from __future__ import annotations

import ast
import importlib
import random
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.conf import settings as django_settings
from django.db import connection

import tournaments
from games.generate import random_session
from tests.factories import PlayerFactory, UserFactory, seated_competition
from tournaments.models import Competition, DealEntry, Registration, Round, ScoreSheet
from tournaments.services.competitions import register_players
from tournaments.services.entry import record_deal
from tournaments.services.errors import ServiceError
from tournaments.services.rounds import finalise_round, reseat_round, withdraw_player
from tournaments.services.seating import round_tables
from tournaments.services.sheets import confirm_sheet, reject_sheet

ON_POSTGRESQL = django_settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


def racing(test: Callable[..., None]) -> Callable[..., None]:
    on_postgresql = pytest.mark.skipif(not ON_POSTGRESQL, reason="racing transactions need PostgreSQL (CI runs on it)")
    return on_postgresql(pytest.mark.django_db(transaction=True)(test))


Status = Round.Status
PASS = {"deal": 1, "dealer": 0, "contract": "pass"}
AFTER_THE_SHEET_LOCK = {
    "entry": "tournaments.services.entry._current_lines",
    "review": "tournaments.services.sheets.refuse_locked_write",
}


@dataclass
class Outcome:
    value: Any = None
    error: BaseException | None = None


def _run(work: Callable[[], Any], outcome: Outcome) -> None:
    try:
        outcome.value = work()
    except BaseException as exc:  # the test reads it
        outcome.error = exc
    finally:
        connection.close()  # each thread has its own connection


def _waiting_for_a_lock() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        (count,) = cursor.fetchone()
    return int(count)


@dataclass
class Race:
    first: Outcome
    second: Outcome
    second_waited: bool = False  # for a row the first held: the two did meet


def race(first: Callable[[], Any], *, paused_after: str, second: Callable[[], Any]) -> Race:
    """Run ``first`` until it calls ``paused_after`` (it holds its first lock then), then ``second`` until it waits
    for a lock (or ends), then let ``first`` go on; both run to their end."""
    module_name, name = AFTER_THE_SHEET_LOCK[paused_after].rsplit(".", 1)
    module = importlib.import_module(module_name)
    real = getattr(module, name)
    reached, go = threading.Event(), threading.Event()
    outcomes = Race(Outcome(), Outcome())
    first_thread = threading.Thread(target=_run, args=(first, outcomes.first))
    second_thread = threading.Thread(target=_run, args=(second, outcomes.second))

    def pausing(*args: Any, **kwargs: Any) -> Any:
        if threading.current_thread() is first_thread and not go.is_set():
            reached.set()
            go.wait(20)
        return real(*args, **kwargs)

    with mock.patch.object(module, name, pausing):
        first_thread.start()
        assert reached.wait(20), "the first request never reached its pause"
        second_thread.start()
        deadline = time.monotonic() + 10
        while second_thread.is_alive() and time.monotonic() < deadline:
            if _waiting_for_a_lock():
                outcomes.second_waited = True
                break
            time.sleep(0.01)
        go.set()
        first_thread.join(60)
        second_thread.join(60)
    assert not first_thread.is_alive() and not second_thread.is_alive()
    assert outcomes.second_waited, "the second request never waited for the first: the test raced nothing"
    return outcomes


def fill(sheet: ScoreSheet, by: Any) -> None:
    rules = sheet.table.round.competition.rule_set.engine_rules()
    for line in random_session(rules, random.Random(sheet.pk), sheet.table.size, 16):
        record_deal(sheet, line, by=by)


def sheets_of(competition: Competition) -> list[ScoreSheet]:
    return list(
        ScoreSheet.objects.filter(table__round__competition=competition)
        .select_related("table__round__competition__rule_set")
        .order_by("table__number")
    )


@pytest.fixture
def two_tables() -> Iterator[Competition]:
    yield seated_competition(players=8)


@racing
def test_a_first_line_and_a_late_arrivals_reseating_take_turns(two_tables: Competition) -> None:
    round_ = two_tables.rounds.get()
    first_sheet, _ = sheets_of(two_tables)
    seated = round_tables(round_)
    late = PlayerFactory()
    register_players(two_tables, [late])
    everyone = [p for table in seated for p in table] + [late.pk]

    outcomes = race(
        lambda: record_deal(first_sheet, PASS),
        paused_after="entry",
        second=lambda: reseat_round(round_, players=everyone, reason="late"),
    )

    assert outcomes.first.error is None, repr(outcomes.first.error)
    assert isinstance(outcomes.second.error, ServiceError) and "(In play)" in str(outcomes.second.error)
    assert DealEntry.objects.filter(sheet=first_sheet).count() == 1
    assert Round.objects.get(pk=round_.pk).status == Status.IN_PLAY
    assert round_tables(round_) == seated


@racing
def test_a_first_line_and_a_withdrawal_take_turns(two_tables: Competition) -> None:
    round_ = two_tables.rounds.get()
    first_sheet, _ = sheets_of(two_tables)
    seated = round_tables(round_)
    leaving = seated[1][0]

    outcomes = race(
        lambda: record_deal(first_sheet, PASS),
        paused_after="entry",
        second=lambda: withdraw_player(two_tables, leaving, reason="ill"),
    )

    assert outcomes.first.error is None, repr(outcomes.first.error)
    assert outcomes.second.error is None, repr(outcomes.second.error)
    assert outcomes.second.value == [], "the round was in play by then: its seating stays"
    assert Registration.objects.get(competition=two_tables, player_id=leaving).withdrawn_at is not None
    assert DealEntry.objects.filter(sheet=first_sheet).count() == 1
    assert round_tables(round_) == seated


@racing
def test_two_tables_confirming_at_once_both_confirm_and_complete_the_round(two_tables: Competition) -> None:
    round_ = two_tables.rounds.get()
    scorer, checker = UserFactory(), UserFactory()
    first_sheet, second_sheet = sheets_of(two_tables)
    fill(first_sheet, scorer)
    fill(second_sheet, scorer)

    outcomes = race(
        lambda: confirm_sheet(first_sheet, by=checker),
        paused_after="review",
        second=lambda: confirm_sheet(second_sheet, by=checker),
    )

    assert outcomes.first.error is None, repr(outcomes.first.error)
    assert outcomes.second.error is None, repr(outcomes.second.error)
    assert set(ScoreSheet.objects.filter(table__round=round_).values_list("state", flat=True)) == {"confirmed"}
    assert Round.objects.get(pk=round_.pk).status == Status.COMPLETE


@pytest.fixture
def complete_round() -> Iterator[tuple[Round, ScoreSheet, Any]]:
    competition = seated_competition(players=4)
    (sheet,) = sheets_of(competition)
    scorer, checker = UserFactory(), UserFactory()
    fill(sheet, scorer)
    confirm_sheet(sheet, by=checker)
    round_ = competition.rounds.get()
    assert round_.status == Status.COMPLETE
    yield round_, sheet, scorer


@racing
def test_a_correction_and_the_finalisation_of_its_round_take_turns(
    complete_round: tuple[Round, ScoreSheet, Any],
) -> None:
    round_, sheet, scorer = complete_round
    first = sheet.entries.get(deal_number=1, is_current=True)
    other = {**first.line, "note": "the scores of seats 2 and 3 were swapped"}

    outcomes = race(
        lambda: record_deal(sheet, other, by=scorer, expected_version=first.version),
        paused_after="entry",
        second=lambda: finalise_round(round_),
    )

    assert outcomes.first.error is None, repr(outcomes.first.error)
    assert isinstance(outcomes.second.error, ServiceError) and "(In play)" in str(outcomes.second.error)
    assert sheet.entries.get(deal_number=1, is_current=True).version == first.version + 1
    assert Round.objects.get(pk=round_.pk).status == Status.IN_PLAY
    assert ScoreSheet.objects.get(pk=sheet.pk).state == ScoreSheet.State.ENTERED


@racing
def test_a_rejection_and_the_finalisation_of_its_round_take_turns(
    complete_round: tuple[Round, ScoreSheet, Any],
) -> None:
    round_, sheet, _ = complete_round

    outcomes = race(
        lambda: reject_sheet(sheet, by=UserFactory(), reason="deal 3 was a miserie"),
        paused_after="review",
        second=lambda: finalise_round(round_),
    )

    assert outcomes.first.error is None, repr(outcomes.first.error)
    assert isinstance(outcomes.second.error, ServiceError) and "(In play)" in str(outcomes.second.error)
    assert Round.objects.get(pk=round_.pk).status == Status.IN_PLAY
    assert ScoreSheet.objects.get(pk=sheet.pk).state == ScoreSheet.State.DRAFT


def _receiver_names(node: ast.expr) -> set[str]:
    """The names along a call chain's receiver: ``Round.objects.filter(...)`` gives Round, objects, filter."""
    names: set[str] = set()
    while True:
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
            node = node.value
        else:
            if isinstance(node, ast.Name):
                names.add(node.id)
            return names


ROUND_ROWS = {"Round", "rounds"}


def test_a_round_row_is_locked_only_through_lock_order() -> None:
    """New code that locks a round (and then its sheets, or under a held competition) keeps the one order."""
    root = Path(tournaments.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            locks = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            if locks and node.func.attr == "select_for_update" and _receiver_names(node.func.value) & ROUND_ROWS:
                found.append(f"{path.relative_to(root)}:{node.lineno}")
    assert found and all(place.startswith("services/lock_order.py:") for place in found), found
