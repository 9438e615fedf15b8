"""Incremental ratings (issue 16): new rounds are rated from the players' current state, a changed round is
replayed from there on, and the result always equals a full recomputation over every rated deal."""

from __future__ import annotations

import math
from datetime import date, timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scoring import rating_ledger
from scoring.models import RatedRound, Rating, RatingStep
from scoring.ratings import DealResult, PlayerState, compute_ratings, plackett_luce
from scoring.selectors import all_deal_results, rating_history
from scoring.services import recompute_ratings
from tests.factories import CompetitionFactory, PlayerFactory, RuleSetFactory
from tournaments.models import Competition, DealEntry, Player, Round, RoundEvent, ScoreSheet, Seat, Table

pytestmark = pytest.mark.django_db

SHAPES = [(3, 3, -3, -3), (9, -3, -3, -3), (0, 0, 0, 0), (-6, 2, 2, 2), (3, -3, 3, -3), (-15, 5, 5, 5)]


# -- the pure fold continues where it stopped ---------------------------------------------------------------------


def test_rating_in_two_runs_from_the_stored_states_equals_one_run() -> None:
    deals = [DealResult((1, 2, 3, 4), SHAPES[k % len(SHAPES)], f"r{k // 3}", k // 3) for k in range(12)]
    whole = {r.player_id: r for r in compute_ratings(deals)}
    first = compute_ratings(deals[:6])
    start = {r.player_id: PlayerState(r.mu, r.sigma, r.deals) for r in first}
    rest = {r.player_id: r for r in compute_ratings(deals[6:], start)}
    for pid, rating in whole.items():
        assert (rest[pid].mu, rest[pid].sigma, rest[pid].deals) == (rating.mu, rating.sigma, rating.deals)
        assert {r.player_id: r for r in first}[pid].history + rest[pid].history == rating.history


# -- a small world built row by row ---------------------------------------------------------------------------------


class World:
    """Competitions, rounds of one or two tables of four, deals with points: what the ratings read."""

    def __init__(self) -> None:
        self.players = PlayerFactory.create_batch(8)
        self.rules = RuleSetFactory()
        self.competitions: list[Competition] = []
        self.rounds: list[Round] = []

    def competition(self, days: int) -> Competition:
        competition = CompetitionFactory(rule_set=self.rules, starts_on=date(2026, 1, 1) + timedelta(days=days))
        competition.visibility = Competition.Visibility.EVERYTHING
        competition.save()
        self.competitions.append(competition)
        return competition

    def add_round(self, competition: Competition, seed: int) -> Round:
        number = (Round.objects.filter(competition=competition).count()) + 1
        round_ = Round.objects.create(competition=competition, number=number, status=Round.Status.COMPLETE)
        order = self.players[seed % 8 :] + self.players[: seed % 8]
        for t in range(1 + seed % 2):
            table = Table.objects.create(round=round_, number=t + 1, size=4)
            for pos in range(4):
                Seat.objects.create(table=table, round=round_, position=pos, player=order[t * 4 + pos])
            sheet = ScoreSheet.objects.create(table=table, state=ScoreSheet.State.FINAL, captain_code=f"t{table.pk}")
            for deal in range(1, 4 + (seed + t) % 3):
                shape = SHAPES[(seed * 7 + deal * 3 + t) % len(SHAPES)]
                turn = (seed + deal) % 4
                points = list(shape[turn:] + shape[:turn])
                DealEntry.objects.create(
                    sheet=sheet, deal_number=deal, line={"dealer": (deal - 1) % 4}, contract="x", points=points
                )
        self.set_status(round_, Round.Status.FINALISED)
        self.rounds.append(round_)
        return round_

    def correct(self, round_: Round, seed: int) -> None:
        """Reopen, change one line, finalise again (the services log both)."""
        status = Round.objects.get(pk=round_.pk).status
        self.set_status(round_, Round.Status.COMPLETE)
        entry = DealEntry.objects.filter(sheet__table__round=round_, is_current=True).order_by("pk").first()
        assert entry is not None
        DealEntry.objects.filter(pk=entry.pk).update(is_current=False)
        shape = SHAPES[seed % len(SHAPES)]
        DealEntry.objects.create(
            sheet=entry.sheet,
            deal_number=entry.deal_number,
            version=entry.version + 1,
            line=entry.line,
            contract="x",
            points=list(shape),
        )
        self.set_status(round_, status)

    def set_status(self, round_: Round, status: str) -> None:
        Round.objects.filter(pk=round_.pk).update(status=status)
        RoundEvent.objects.create(round=round_, action=status, to_status=status)

    def set_visibility(self, competition: Competition, visibility: str) -> None:
        competition.refresh_from_db()
        competition.visibility = visibility
        competition.save()


def stored() -> dict[int, tuple[float, float, int, list[Any]]]:
    return {
        pid: (mu, sigma, deals, rating_history(pid))
        for pid, mu, sigma, deals in Rating.objects.values_list("player_id", "mu", "sigma", "deals_rated")
    }


def assert_equal_to_a_full_computation() -> None:
    full = {r.player_id: r for r in compute_ratings(all_deal_results())}
    incremental = stored()
    assert set(incremental) == set(full)
    for pid, (mu, sigma, deals, history) in incremental.items():
        assert math.isclose(mu, full[pid].mu, abs_tol=1e-9) and math.isclose(sigma, full[pid].sigma, abs_tol=1e-9)
        assert deals == full[pid].deals
        assert [tuple(point) for point in history] == list(full[pid].history)


OPERATIONS = st.lists(
    st.tuples(
        st.sampled_from(["append", "new competition", "earlier competition", "correct", "reopen", "hide", "update"]),
        st.integers(min_value=0, max_value=50),
    ),
    min_size=1,
    max_size=9,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=OPERATIONS)
def test_incremental_ratings_equal_a_full_recomputation_on_random_histories(
    operations: list[tuple[str, int]],
) -> None:
    with transaction.atomic():
        world = World()
        world.add_round(world.competition(10), 1)
        recompute_ratings()
        for operation, seed in operations:
            if operation == "append":
                world.add_round(world.competitions[-1], seed)
            elif operation == "new competition":
                world.add_round(world.competition(20 + seed), seed)
            elif operation == "earlier competition":  # inserted before rounds already rated
                world.add_round(world.competition(-seed), seed)
            elif operation == "correct":
                world.correct(world.rounds[seed % len(world.rounds)], seed)
            elif operation == "reopen":
                round_ = world.rounds[seed % len(world.rounds)]
                reopened = Round.objects.get(pk=round_.pk).status == Round.Status.COMPLETE
                world.set_status(round_, Round.Status.FINALISED if reopened else Round.Status.COMPLETE)
            elif operation == "hide":
                competition = world.competitions[seed % len(world.competitions)]
                hidden = Competition.objects.get(pk=competition.pk).public_results
                world.set_visibility(
                    competition, Competition.Visibility.STANDINGS if hidden else Competition.Visibility.EVERYTHING
                )
            if operation == "update" or seed % 3:
                recompute_ratings()
                assert_equal_to_a_full_computation()
        recompute_ratings()
        assert_equal_to_a_full_computation()
        assert not rating_ledger.full_recompute().differences
        transaction.set_rollback(True)


def test_a_new_round_is_rated_from_the_current_ratings_without_replaying_the_history() -> None:
    world = World()
    competition = world.competition(0)
    for seed in range(4):
        world.add_round(competition, seed)
    recompute_ratings()
    steps_before = set(RatingStep.objects.values_list("pk", flat=True))
    world.add_round(competition, 5)
    run = rating_ledger.update_ratings()
    assert (run.start, run.rounds) == (4, 1)  # only the new round
    assert steps_before <= set(RatingStep.objects.values_list("pk", flat=True))  # earlier states kept as they were
    assert_equal_to_a_full_computation()
    assert rating_ledger.update_ratings().rounds == 0  # nothing new: nothing done


def test_a_correction_replays_from_the_corrected_round_on() -> None:
    world = World()
    competition = world.competition(0)
    for seed in range(5):
        world.add_round(competition, seed)
    recompute_ratings()
    world.correct(world.rounds[2], 4)
    run = rating_ledger.update_ratings()
    assert (run.start, run.rounds) == (2, 3)
    assert list(RatedRound.objects.values_list("round_id", flat=True)) == [r.pk for r in world.rounds]
    assert_equal_to_a_full_computation()


def test_a_deleted_competition_leaves_a_gap_that_is_replayed() -> None:
    world = World()
    first, second = world.competition(0), world.competition(5)
    world.add_round(first, 1)
    world.add_round(second, 2)
    world.add_round(second, 3)
    recompute_ratings()
    world.set_status(world.rounds[0], Round.Status.COMPLETE)
    Seat.objects.filter(round__competition=first).delete()  # seats protect players, not rounds
    first.delete()
    assert rating_ledger.ledger_stale()
    recompute_ratings()
    assert_equal_to_a_full_computation()


def test_the_command_reports_a_planted_difference_and_stores_the_full_result() -> None:
    world = World()
    competition = world.competition(0)
    for seed in range(3):
        world.add_round(competition, seed)
    recompute_ratings()
    out = StringIO()
    call_command("recompute_ratings", "--check", stdout=out)
    assert "Equal to the incremental ratings." in out.getvalue()

    planted: Player = world.players[0]
    Rating.objects.filter(player=planted).update(mu=Rating.objects.get(player=planted).mu + 1e-6)
    out = StringIO()
    with pytest.raises(CommandError) as failed:
        call_command("recompute_ratings", "--check", stdout=out)
    assert failed.value.returncode == 1
    assert f"player {planted.pk}: mu" in out.getvalue() and "1 player(s) differed" in out.getvalue()
    assert_equal_to_a_full_computation()  # the full result replaced the planted one
    call_command("recompute_ratings", "--check", stdout=StringIO())  # and now they agree


def test_the_full_recomputation_reports_a_history_that_differs() -> None:
    """The history is the ledger's steps: a planted step is a difference, at the round where it was planted."""
    world = World()
    competition = world.competition(0)
    for seed in range(3):
        world.add_round(competition, seed)
    recompute_ratings()
    planted: Player = world.players[0]
    step = RatingStep.objects.filter(player=planted).order_by("position")[1]
    RatingStep.objects.filter(pk=step.pk).update(sigma=step.sigma + 0.5)
    report = rating_ledger.full_recompute()
    assert report.differences == [
        f"player {planted.pk}: history differs from round {step.position + 1} of the ledger on"
    ]
    assert_equal_to_a_full_computation()
    assert rating_ledger.full_recompute().differences == []


def test_a_players_history_is_read_in_one_query(django_assert_num_queries: Any) -> None:
    world = World()
    competition = world.competition(0)
    for seed in range(4):
        world.add_round(competition, seed)
    recompute_ratings()
    player = world.players[0]
    labels = list(
        RatedRound.objects.filter(position__in=RatingStep.objects.filter(player=player).values("position"))
        .order_by("position")
        .values_list("label", flat=True)
    )
    with django_assert_num_queries(1):
        history = rating_history(player.pk)
    assert [label for label, _ in history] == labels and len(labels) >= 2
    assert history[-1][1] == pytest.approx(Rating.objects.get(player=player).ordinal, abs=1e-3)


def test_the_command_without_check_reports_but_succeeds() -> None:
    world = World()
    world.add_round(world.competition(0), 1)
    recompute_ratings()
    Rating.objects.filter(player=world.players[1]).update(deals_rated=99)
    out = StringIO()
    call_command("recompute_ratings", stdout=out)
    assert f"player {world.players[1].pk}: 99 deals rated" in out.getvalue()


TEAM_SIZES = st.sampled_from([[2, 2], [1, 3], [3, 1], [1, 1, 2], [2, 1, 1], [1, 2, 1], [1, 1, 1, 1], [1, 1], [1, 2]])
RATING = st.tuples(st.floats(min_value=-20, max_value=70), st.floats(min_value=0.05, max_value=9))


@settings(max_examples=300, deadline=None)
@given(sizes=TEAM_SIZES, data=st.data())
def test_the_fast_plackett_luce_gives_openskills_floats_bit_for_bit(sizes: list[int], data: st.DataObject) -> None:
    teams = [[data.draw(RATING) for _ in range(size)] for size in sizes]
    model = PlackettLuce()
    reference = model.rate(
        [[model.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams],
        ranks=[float(i) for i in range(len(teams))],
    )
    assert plackett_luce(teams) == [[(r.mu, r.sigma) for r in team] for team in reference]
