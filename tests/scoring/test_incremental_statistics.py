"""Statistics by delta (issue 16): a competition's statistics are updated from the sheets that changed, and
always equal counting the whole competition again."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from games.generate import random_session
from scoring.models import SheetStatistics, Statistics
from scoring.selectors import competition_deal_records
from scoring.services import recompute_statistics
from scoring.statistics import compute_statistics
from tests.factories import seated_competition
from tournaments.models import Competition, DealEntry, ScoreSheet, Seat

pytestmark = pytest.mark.django_db


def stored(competition: Competition) -> tuple[dict[int, Any], Any]:
    rows = dict(Statistics.objects.filter(competition=competition).values_list("player_id", "data"))
    return {pid: data for pid, data in rows.items() if pid is not None}, rows.get(None)


def full(competition: Competition) -> tuple[dict[int, Any], Any]:
    players, summary = compute_statistics(competition_deal_records(competition.pk))
    return {pid: stats.as_json() for pid, stats in players.items()}, summary


def write_lines(sheet: ScoreSheet, seed: int, deals: int) -> None:
    """Lines the engine accepts (a random session of ``deals`` deals), replacing the sheet's current ones."""
    rules = sheet.table.round.competition.rule_set.engine_rules()
    size = sheet.table.size
    lines = random_session(rules, random.Random(seed), size, 16)[:deals]
    engine = games.sheet_from_lines(rules, lines, size, sheet.table.round.competition.deals_per_session)
    versions = dict(DealEntry.objects.filter(sheet=sheet).values_list("deal_number", "version"))
    DealEntry.objects.filter(sheet=sheet, is_current=True).update(is_current=False)
    for line, settled in zip(engine.lines, engine.results, strict=True):
        DealEntry.objects.create(
            sheet=sheet,
            deal_number=settled.deal,
            version=versions.get(settled.deal, 0) + 1,
            line=line,
            contract=settled.contract,
            points=list(settled.points),
            multiplier=settled.multiplier,
        )


def test_a_new_sheet_adds_its_counts_and_reads_only_that_sheet(django_assert_max_num_queries: Any) -> None:
    competition = seated_competition(players=12, rounds=2)
    sheets = list(ScoreSheet.objects.filter(table__round__competition=competition).order_by("pk"))
    for k, sheet in enumerate(sheets[:-1]):
        write_lines(sheet, k, 6)
    recompute_statistics(competition.pk)
    assert stored(competition) == full(competition)
    before = dict(SheetStatistics.objects.values_list("sheet_id", "contribution"))
    write_lines(sheets[-1], 99, 6)
    recompute_statistics(competition.pk)
    assert stored(competition) == full(competition)
    after = dict(SheetStatistics.objects.values_list("sheet_id", "contribution"))
    assert {k: v for k, v in after.items() if k in before} == before and sheets[-1].pk in after


def test_nothing_changed_writes_nothing() -> None:
    competition = seated_competition(players=4)
    write_lines(ScoreSheet.objects.get(table__round__competition=competition), 1, 4)
    recompute_statistics(competition.pk)
    at = Statistics.objects.get(competition=competition, player=None).computed_at
    recompute_statistics(competition.pk)
    assert Statistics.objects.get(competition=competition, player=None).computed_at == at


OPERATIONS = st.lists(
    st.tuples(st.sampled_from(["write", "correct", "clear", "swap seats", "update"]), st.integers(0, 40)),
    min_size=1,
    max_size=8,
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=OPERATIONS)
def test_statistics_by_delta_equal_the_full_count_on_random_histories(operations: list[tuple[str, int]]) -> None:
    with transaction.atomic():
        competition = seated_competition(players=8, rounds=2)
        sheets = list(ScoreSheet.objects.filter(table__round__competition=competition).order_by("pk"))
        write_lines(sheets[0], 0, 5)
        recompute_statistics(competition.pk)
        for operation, seed in operations:
            sheet = sheets[seed % len(sheets)]
            if operation == "write":
                write_lines(sheet, seed, 3 + seed % 4)
            elif operation == "correct":  # one line replaced by another valid session's
                if DealEntry.objects.filter(sheet=sheet, is_current=True).exists():
                    write_lines(sheet, seed + 1000, DealEntry.objects.filter(sheet=sheet, is_current=True).count())
            elif operation == "clear":
                DealEntry.objects.filter(sheet=sheet, is_current=True).update(is_current=False)
            elif operation == "swap seats":
                seats = list(Seat.objects.filter(table=sheet.table).order_by("position"))
                first, second = seats[0], seats[1 + seed % (len(seats) - 1)]
                Seat.objects.filter(pk=first.pk).update(position=4)
                Seat.objects.filter(pk=second.pk).update(position=first.position)
                Seat.objects.filter(pk=first.pk).update(position=second.position)
            if operation == "update" or seed % 2:
                recompute_statistics(competition.pk)
                assert stored(competition) == full(competition)
        recompute_statistics(competition.pk)
        assert stored(competition) == full(competition)
        delta = stored(competition)
        recompute_statistics(competition.pk, full=True)
        assert stored(competition) == delta
        transaction.set_rollback(True)
