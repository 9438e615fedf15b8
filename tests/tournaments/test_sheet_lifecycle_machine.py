"""A round's sheets under random sequences of everything people do to them, through the services.

The other tests walk one path each (enter, correct, confirm, reject, finalise, reopen, close). Here hypothesis
interleaves them at a table of five and one of four: next lines, a deal typed again, corrections right and
stale, confirmations by the enterer and by someone else, rejections, finalising and reopening the round,
closing and reopening the competition. After every step:

- no stored line was changed or removed; a version only ever stops being current;
- each sheet's current lines are deals 1..k, one version each, the highest;
- a refused action stored nothing and changed no state;
- sheets and round agree (final only in a finalised round, confirmed only when complete, a complete round's
  sheets all confirmed);
- each seat's stored total is the sum of its current lines, and the standings computed afresh give each
  player exactly that.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from games.generate import random_line, random_session
from scoring.services import standings_rows
from tests.factories import seated_competition
from tournaments.models import Competition, DealEntry, Round, ScoreSheet, SeatResult
from tournaments.services.entry import record_deal
from tournaments.services.errors import EntryRejected, ServiceError, StaleVersion
from tournaments.services.rounds import finalise_round, reopen_round
from tournaments.services.seasons import close_competition, reopen_competition
from tournaments.services.sheets import confirm_sheet, reject_sheet

Status = Round.Status
State = ScoreSheet.State
# passes are common here: a pass corrected into a contract (or back) re-settles the deals after it under flemish
PASS_RATE = 0.25
SHEETS = st.integers(min_value=0, max_value=1)  # the table of five, the table of four


def _stored(entry: DealEntry) -> tuple[Any, ...]:
    """What a stored line is, apart from whether it is current."""
    return (
        entry.sheet_id,
        entry.deal_number,
        entry.version,
        entry.line,
        entry.contract,
        entry.points,
        entry.multiplier,
        entry.source,
        entry.created_by_id,
        entry.entered_in,
        entry.created_at,
    )


class SheetLifecycle(RuleBasedStateMachine):
    """One competition, one round of nine players; each example runs in a savepoint rolled back at the end."""

    preset = "iwwa"

    def __init__(self) -> None:
        super().__init__()
        self._atomic = transaction.atomic()
        self._atomic.__enter__()
        self.seen: dict[int, tuple[Any, ...]] = {}
        self.was_current: dict[int, bool] = {}

    def teardown(self) -> None:
        transaction.set_rollback(True)
        self._atomic.__exit__(None, None, None)

    @initialize(seed=st.integers(min_value=0, max_value=2**32 - 1))
    def seat_the_round(self, seed: int) -> None:
        users = get_user_model().objects
        self.enterer = users.create(username=f"enterer-{seed}", is_staff=True, is_superuser=True)
        self.checker = users.create(username=f"checker-{seed}", is_staff=True, is_superuser=True)
        self.competition = seated_competition(players=9, preset=self.preset)
        self.round = Round.objects.get(competition=self.competition)
        self.sheets = list(
            ScoreSheet.objects.filter(table__round=self.round).select_related("table").order_by("-table__size")
        )
        assert [s.table.size for s in self.sheets] == [5, 4]
        self.rules = self.competition.rule_set.engine_rules()
        self.deals = self.competition.deals_per_session
        self.rng = random.Random(seed)
        self.sessions = [
            random_session(self.rules, self.rng, s.table.size, self.deals, pass_rate=PASS_RATE) for s in self.sheets
        ]

    # -- reading the world --

    def sheet(self, i: int) -> ScoreSheet:
        return ScoreSheet.objects.select_related("table__round__competition").get(pk=self.sheets[i].pk)

    def current(self, i: int) -> list[DealEntry]:
        return list(DealEntry.objects.filter(sheet=self.sheets[i], is_current=True).order_by("deal_number"))

    def snapshot(self) -> tuple[Any, ...]:
        competition = Competition.objects.get(pk=self.competition.pk)
        return (
            DealEntry.objects.filter(sheet__in=self.sheets).count(),
            tuple(self.sheet(i).state for i in range(2)),
            Round.objects.get(pk=self.round.pk).status,
            competition.closed_at,
        )

    def locked(self, i: int) -> bool:
        """Whether sheet ``i`` takes no line at all, whatever the line."""
        sheet = self.sheet(i)
        return (
            sheet.table.round.competition.closed_at is not None
            or sheet.table.round.status in (Status.DRAFT, Status.FINALISED)
            or sheet.state == State.FINAL
        )

    def refused(self, before: tuple[Any, ...], action: Any, *errors: type[Exception]) -> None:
        """``action`` must raise one of ``errors`` and leave everything as it was."""
        with pytest.raises(errors), transaction.atomic():  # as a request would: its failure is rolled back
            action()
        assert self.snapshot() == before

    # -- what people do --

    @rule(i=SHEETS)
    def enter_the_next_deal(self, i: int) -> None:
        lines = self.current(i)
        if len(lines) == self.deals:
            before = self.snapshot()
            extra = {**self.sessions[i][-1], "deal": self.deals + 1}
            self.refused(before, lambda: record_deal(self.sheet(i), extra, by=self.enterer), EntryRejected)
            return
        line = self.sessions[i][len(lines)]
        if self.locked(i):
            self.refused(self.snapshot(), lambda: record_deal(self.sheet(i), line, by=self.enterer), EntryRejected)
            return
        result = record_deal(self.sheet(i), line, by=self.enterer)
        assert result.created and result.entry.version == 1 and result.entry.deal_number == len(lines) + 1

    @rule(i=SHEETS)
    def enter_the_rest_of_the_sheet(self, i: int) -> None:
        for _ in range(self.deals - len(self.current(i))):
            self.enter_the_next_deal(i)

    @precondition(lambda self: any(self.current(i) for i in range(2)))
    @rule(i=SHEETS, pick=st.integers(min_value=0))
    def type_an_entered_deal_again(self, i: int, pick: int) -> None:
        """Adding never overwrites: the same deal without the version it replaces is refused."""
        lines = self.current(i)
        if not lines:
            return
        entry = lines[pick % len(lines)]
        other = {**entry.line, "note": "typed again"}
        refusal = EntryRejected if self.locked(i) else StaleVersion
        self.refused(self.snapshot(), lambda: record_deal(self.sheet(i), other, by=self.enterer), refusal)

    @precondition(lambda self: any(self.current(i) for i in range(2)))
    @rule(i=SHEETS, pick=st.integers(min_value=0), kind=st.sampled_from(["note", "other line", "pass", "stale"]))
    def correct_a_deal(self, i: int, pick: int, kind: str) -> None:
        lines = self.current(i)
        if not lines:
            return
        entry = lines[pick % len(lines)]
        before = self.snapshot()
        if kind == "stale":
            line = {**entry.line, "note": "stale"}
            refusal = EntryRejected if self.locked(i) else StaleVersion
            for version in (entry.version - 1, entry.version + 1):
                self.refused(
                    before,
                    lambda seen=version: record_deal(self.sheet(i), line, by=self.enterer, expected_version=seen),
                    refusal,
                )
            return
        if kind == "note":
            line = {**entry.line, "note": f"v{entry.version + 1}"}
        elif kind == "pass":  # under flemish the next deal then counts double, or no longer does
            line = {"deal": entry.deal_number, "dealer": entry.line["dealer"], "contract": "pass"}
        else:
            size = self.sheets[i].table.size
            line = random_line(self.rules, self.rng, entry.deal_number, entry.line["dealer"], size, pass_rate=PASS_RATE)

        def correct() -> Any:
            return record_deal(self.sheet(i), line, by=self.enterer, expected_version=entry.version)

        if self.locked(i):
            self.refused(before, correct, EntryRejected)
            return
        state = self.sheet(i).state
        try:
            with transaction.atomic():
                result = correct()
        except EntryRejected:
            assert kind != "note", "a note changes nothing the engine checks"
            assert self.snapshot() == before
            return
        assert result.created and result.entry.version == entry.version + 1
        assert DealEntry.objects.get(pk=entry.pk).is_current is False
        if state == State.CONFIRMED:
            assert self.sheet(i).state == State.ENTERED, "a corrected confirmed sheet needs confirming again"

    @rule()
    def the_evening_goes_well(self) -> None:
        """Both sheets entered to the end and confirmed: the round is complete, unless something stops it."""
        for i in range(2):
            self.enter_the_rest_of_the_sheet(i)
            self.someone_else_confirms(i)

    @rule(i=SHEETS)
    def the_enterer_confirms(self, i: int) -> None:
        """Whoever entered a sheet's lines never confirms it, whatever its state."""
        if not self.current(i):
            return
        self.refused(self.snapshot(), lambda: confirm_sheet(self.sheet(i), by=self.enterer), ServiceError)

    @rule(i=SHEETS)
    def someone_else_confirms(self, i: int) -> None:
        before = self.snapshot()
        if self.locked(i) or self.sheet(i).state != State.ENTERED:
            self.refused(before, lambda: confirm_sheet(self.sheet(i), by=self.checker), ServiceError)
            return
        confirm_sheet(self.sheet(i), by=self.checker)
        assert self.sheet(i).state == State.CONFIRMED

    @rule(i=SHEETS, reason=st.sampled_from(["", "deal 3 is wrong"]))
    def reject(self, i: int, reason: str) -> None:
        before = self.snapshot()
        state = self.sheet(i).state
        allowed = state in (State.ENTERED, State.CONFIRMED) and not self.locked(i)
        if not reason or not allowed:
            self.refused(before, lambda: reject_sheet(self.sheet(i), by=self.checker, reason=reason), ServiceError)
            return
        reject_sheet(self.sheet(i), by=self.checker, reason=reason)
        assert self.sheet(i).state == State.DRAFT
        assert Round.objects.get(pk=self.round.pk).status == Status.IN_PLAY

    @rule()
    def finalise(self) -> None:
        round_ = Round.objects.get(pk=self.round.pk)
        if round_.status != Status.COMPLETE:
            self.refused(self.snapshot(), lambda: finalise_round(round_), ServiceError)
            return
        finalise_round(round_)
        assert [self.sheet(i).state for i in range(2)] == [State.FINAL, State.FINAL]

    @rule(reason=st.sampled_from(["", "table 2 found a mistake"]))
    def reopen(self, reason: str) -> None:
        round_ = Round.objects.get(pk=self.round.pk)
        closed = Competition.objects.get(pk=self.competition.pk).closed_at is not None
        if not reason or closed or round_.status != Status.FINALISED:
            self.refused(self.snapshot(), lambda: reopen_round(round_, reason=reason), ServiceError)
            return
        reopen_round(round_, reason=reason)
        assert [self.sheet(i).state for i in range(2)] == [State.CONFIRMED, State.CONFIRMED]

    @rule(now=st.integers(min_value=0, max_value=3))
    def close_or_reopen_the_competition(self, now: int) -> None:
        """Seldom: a closed competition takes nothing, and the other rules would mostly meet that."""
        if now:
            return
        competition = Competition.objects.get(pk=self.competition.pk)
        if competition.closed_at is None:
            close_competition(competition)
        else:
            reopen_competition(competition, reason="one more correction")

    # -- what must hold after every step --

    @invariant()
    def no_stored_line_changed(self) -> None:
        if not hasattr(self, "sheets"):
            return
        entries = {e.pk: e for e in DealEntry.objects.filter(sheet__in=self.sheets)}
        assert set(self.seen) <= set(entries), "a stored line was removed"
        for pk, entry in entries.items():
            if pk in self.seen:
                assert _stored(entry) == self.seen[pk], f"stored line {pk} was changed"
                assert entry.is_current <= self.was_current[pk], (
                    f"an old version of deal {entry.deal_number} is current again"
                )
            self.seen[pk] = _stored(entry)
            self.was_current[pk] = entry.is_current

    @invariant()
    def each_deal_has_one_current_version_the_highest(self) -> None:
        if not hasattr(self, "sheets"):
            return
        for sheet in self.sheets:
            versions: dict[int, list[tuple[int, bool]]] = {}
            for deal, version, current in DealEntry.objects.filter(sheet=sheet).values_list(
                "deal_number", "version", "is_current"
            ):
                versions.setdefault(deal, []).append((version, current))
            assert sorted(versions) == list(range(1, len(versions) + 1)), "the current deals are not 1..k"
            for deal, held in versions.items():
                held.sort()
                assert [v for v, _ in held] == list(range(1, len(held) + 1)), f"deal {deal}: versions {held}"
                assert [c for _, c in held] == [False] * (len(held) - 1) + [True], f"deal {deal}: current {held}"

    @invariant()
    def sheets_and_round_agree(self) -> None:
        if not hasattr(self, "sheets"):
            return
        status = Round.objects.get(pk=self.round.pk).status
        states = [self.sheet(i).state for i in range(2)]
        counts = [len(self.current(i)) for i in range(2)]
        assert (status == Status.FINALISED) == (State.FINAL in states)
        if status == Status.FINALISED:
            assert states == [State.FINAL, State.FINAL]
        if status == Status.COMPLETE:
            assert states == [State.CONFIRMED, State.CONFIRMED]
        if status == Status.IN_PLAY:
            assert states != [State.CONFIRMED, State.CONFIRMED], "every sheet is confirmed but the round is in play"
        if status == Status.PUBLISHED:
            assert counts == [0, 0]
        for state, count in zip(states, counts, strict=True):
            if state in (State.ENTERED, State.CONFIRMED, State.FINAL):
                assert count == self.deals, f"a sheet of {count} deals is {state}"

    @invariant()
    def totals_are_the_sum_of_the_current_lines(self) -> None:
        if not hasattr(self, "sheets"):
            return
        by_player: dict[int, int] = {}
        for i, sheet in enumerate(self.sheets):
            lines = self.current(i)
            stored = {r.position: r for r in SeatResult.objects.filter(sheet=sheet)}
            if not lines:
                assert all(r.points == 0 for r in stored.values())
                continue
            for seat in sheet.table.seats.all():
                expected = sum(e.points[seat.position] for e in lines)
                assert stored[seat.position].points == expected, f"sheet {i} seat {seat.position + 1}"
                by_player[seat.player_id] = expected
        standings = {
            row.player_id: row.points for row in standings_rows(Competition.objects.get(pk=self.competition.pk))
        }
        for player, points in by_player.items():
            assert standings[player] == points


class FlemishSheetLifecycle(SheetLifecycle):
    """The deal after a pass counts double: a correction re-settles the deals after it."""

    preset = "flemish"


# derandomized, so that CI runs the same sequences each time; a longer random run is how this test was explored
MACHINE = settings(
    derandomize=True,
    max_examples=40,
    stateful_step_count=40,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@pytest.mark.django_db
@pytest.mark.parametrize("machine", [SheetLifecycle, FlemishSheetLifecycle], ids=["iwwa", "flemish"])
def test_sheet_lifecycle(machine: type[SheetLifecycle]) -> None:
    machine.TestCase.settings = MACHINE
    machine.TestCase().runTest()
