"""Tables of five: the extra sit-out goes to different players from round to round (issue 15, item 12).

At a table of five the dealer sits each deal out and the deal goes round from seat 1: with 24 deals seats 1-4 sit
out 5 deals and seat 5 four; with 16 deals seat 1 sits out 4 and seats 2-5 three. The seating orders the players
of each table of five so that who sat out more before takes a seat that sits out less. Expectations here count
seats in the produced rounds, independently of the code under test.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest
from django.template import Context, Template

from tests.factories import CompetitionFactory, PlayerFactory, RuleSetFactory, register_players
from tournaments.models import Competition, Seat
from tournaments.seating import SeatingRequest
from tournaments.seating.attendance import reseat
from tournaments.seating.generators import (
    Generator,
    GreedySeating,
    ManualSeating,
    MixerSeating,
    RandomSeating,
    ScheduleSeating,
    SwissSeating,
)
from tournaments.seating.sit_outs import SitOuts, balance, planned, tally
from tournaments.services.entry import record_deal
from tournaments.services.rounds import create_round, publish_round
from tournaments.services.seating import round_sit_outs, round_tables, seating_request

Round = list[list[int]]

SEATS_24 = (5, 5, 5, 5, 4)  # deals each seat sits out at a table of five, 24 deals, seat 1 deals first
SEATS_16 = (4, 3, 3, 3, 3)


def generators() -> list[Generator]:
    return [
        RandomSeating(),
        GreedySeating(restarts=3),
        MixerSeating(budget=400),
        SwissSeating(),
        ScheduleSeating(restarts=5),
    ]


def play(gen: Generator, n: int, rounds: int, seats: Sequence[int], seed: int = 0) -> list[Round]:
    """``rounds`` rounds of ``n`` players, each seated by ``gen`` told the sit-outs of the rounds before."""
    players = list(range(1, n + 1))
    history: list[Round] = []
    byes: Counter[int] = Counter()
    for index in range(rounds):
        request = SeatingRequest(
            players, history=list(history), seed=seed * 100 + index, byes=dict(byes), sit_out_seats=seats
        )
        rnd = gen.seat(request)
        history.append(rnd)
        seated = {p for table in rnd for p in table}
        byes.update(p for p in players if p not in seated)
    return history


def seat_counts(history: Sequence[Round], seats: Sequence[int]) -> tuple[Counter[int], Counter[int]]:
    """Per player: deals sat out in all, and rounds on a seat sitting out more than the table's fewest."""
    total: Counter[int] = Counter()
    heavy: Counter[int] = Counter()
    for rnd in history:
        for table in rnd:
            if len(table) == 5:
                for position, player in enumerate(table):
                    total[player] += seats[position]
                    heavy[player] += seats[position] - min(seats)
    return total, heavy


# --- the pure step ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("gen", generators(), ids=lambda g: g.key)
@pytest.mark.parametrize("seats", [SEATS_24, SEATS_16], ids=["24 deals", "16 deals"])
def test_five_players_take_the_odd_seat_in_turn(gen: Generator, seats: Sequence[int]) -> None:
    """One table of five for five rounds: each player takes the seat that differs (the lighter one with 24
    deals, the heavier one with 16) exactly once, so everyone sits out the same number of deals."""
    history = play(gen, 5, 5, seats)
    odd = min(seats) if seats.count(min(seats)) == 1 else max(seats)
    on_odd = Counter(table[seats.index(odd)] for rnd in history for table in rnd)
    assert on_odd == Counter(dict.fromkeys(range(1, 6), 1)), history
    total, _ = seat_counts(history, seats)
    assert set(total.values()) == {sum(seats)}, total


@pytest.mark.parametrize("gen", generators(), ids=lambda g: g.key)
@pytest.mark.parametrize("seats", [SEATS_24, SEATS_16], ids=["24 deals", "16 deals"])
@pytest.mark.parametrize("n", [9, 10, 13, 18])
def test_at_every_table_of_five_who_sat_out_more_takes_the_lighter_seat(
    gen: Generator, seats: Sequence[int], n: int
) -> None:
    """Every round, at every table of five: nobody on a seat sitting out more had sat out more, beyond their
    tables, than anybody on a seat sitting out less (the generator chose the tables; the seats are fair)."""
    history = play(gen, n, 8, seats, seed=n)
    for index, rnd in enumerate(history):
        _, heavy = seat_counts(history[:index], seats)
        total, _ = seat_counts(history[:index], seats)
        for table in rnd:
            if len(table) != 5:
                continue
            for a, seat_a in zip(table, seats, strict=True):
                for b, seat_b in zip(table, seats, strict=True):
                    if seat_a > seat_b:  # a sits out more this round than b
                        assert (heavy[a], total[a]) <= (heavy[b], total[b]), (index, table, heavy, total)


@pytest.mark.parametrize("gen", generators(), ids=lambda g: g.key)
@pytest.mark.parametrize("seed", range(4))
def test_two_tables_of_five_spread_the_extra_sit_out(gen: Generator, seed: int) -> None:
    """Ten players, two tables of five, five rounds of 16 deals: ten turns on the seat that sits out once more.
    Seats alone cannot undo the generator's tables (two who never had it may meet at one table in the last
    round), but nobody has it three times and at most one player never had it; without the step, several do."""
    history = play(gen, 10, 5, SEATS_16, seed=seed)
    _, heavy = seat_counts(history, SEATS_16)
    counts = [heavy[p] for p in range(1, 11)]
    assert sum(counts) == 10
    assert max(counts) <= 2, counts
    assert counts.count(0) <= 1, counts


def test_without_sit_out_seats_the_seating_is_the_generators_own() -> None:
    request = SeatingRequest(list(range(1, 10)), seed=4)
    for gen in generators():
        assert gen.seat(request) == gen.next_round(request)


def test_tables_of_four_and_even_seats_are_left_as_drawn() -> None:
    tables = [[1, 2, 3, 4, 5], [6, 7, 8, 9]]
    so_far = {1: SitOuts(5, 1), 6: SitOuts(9, 3)}
    assert balance(tables, (3, 3, 3, 3, 3), so_far) == tables  # every seat sits out as often
    assert balance(tables, (), so_far) == tables  # nobody sits out (Zwicken)
    assert balance(tables, SEATS_24, so_far)[1] == [6, 7, 8, 9]  # a table of four has no dealer sitting out


def test_the_one_who_sat_out_more_moves_to_the_lighter_seat_and_nobody_else_moves() -> None:
    tables = [[1, 2, 3, 4, 5]]
    assert balance(tables, SEATS_24, {}) == [[1, 2, 3, 4, 5]]  # nobody has a claim: as drawn
    assert balance(tables, SEATS_24, {2: SitOuts(5, 1)}) == [[1, 5, 3, 4, 2]]
    # among equals the last drawn takes the heavier seat: two players move, no more
    assert balance(tables, SEATS_16, {1: SitOuts(4, 1)}) == [[5, 2, 3, 4, 1]]
    # equal extra: the one who sat out more deals in all is spared
    assert balance(tables, SEATS_24, {1: SitOuts(5, 1), 3: SitOuts(10, 1)}) == [[1, 2, 5, 4, 3]]


def test_sit_outs_are_counted_per_table_beyond_its_fewest() -> None:
    history = [[[1, 2, 3, 4, 5], [6, 7, 8, 9]], [[5, 6, 7, 8, 9], [1, 2, 3, 4]]]
    so_far = planned(history, SEATS_24)
    assert so_far[1] == SitOuts(5, 1)
    assert so_far[5] == SitOuts(4 + 5, 0 + 1)
    assert so_far[9] == SitOuts(4, 0)
    assert 6 in so_far and so_far[6] == SitOuts(5, 1)
    # a sheet whose dealers differed from the plan counts as played
    assert tally([([1, 2, 3, 4, 5], [6, 5, 5, 4, 4])])[1] == SitOuts(6, 2)


def test_the_organisers_manual_tables_keep_their_seats() -> None:
    tables = [[1, 2, 3, 4, 5], [6, 7, 8, 9]]
    request = SeatingRequest(list(range(1, 10)), tables=tables, sit_out_seats=SEATS_24, sit_outs={1: SitOuts(5, 1)})
    assert ManualSeating().seat(request) == tables


def test_a_reseat_keeps_seats_at_kept_tables_and_balances_new_ones() -> None:
    before = [[1, 2, 3, 4, 5], [6, 7, 8, 9]]
    so_far = {1: SitOuts(5, 1), 10: SitOuts(5, 1), 11: SitOuts(5, 1)}
    request = SeatingRequest(list(range(1, 15)), seed=1, sit_out_seats=SEATS_24, sit_outs=so_far)
    out = reseat(before, request)
    assert [1, 2, 3, 4, 5] in out  # kept as it sat down, although 1 sat out more before
    fives = [table for table in out if len(table) == 5 and table != [1, 2, 3, 4, 5]]
    assert fives, out
    for table in fives:
        claims = [p for p in table if p in so_far]
        if claims:
            assert table[4] in claims, table


# --- the database: the competition's deals, the sheets' lines, the round page ----------------------------------


def competition_of(players: int, deals: int, preset: str = "iwwa") -> Competition:
    competition = CompetitionFactory(rule_set=RuleSetFactory(preset=preset), deals_per_session=deals)
    register_players(competition, PlayerFactory.create_batch(players))
    return competition


@pytest.mark.django_db
@pytest.mark.parametrize(("deals", "seats"), [(24, SEATS_24), (16, SEATS_16)])
def test_a_competition_tells_the_seating_what_each_seat_of_five_sits_out(deals: int, seats: tuple[int, ...]) -> None:
    request = seating_request(competition_of(5, deals))
    assert tuple(request.sit_out_seats) == seats
    assert request.sit_outs == {}


@pytest.mark.django_db
def test_a_zwicken_competition_has_nothing_to_balance() -> None:
    competition = CompetitionFactory(rule_set=RuleSetFactory(preset="zwicken", game="zwicken"), deals_per_session=None)
    register_players(competition, PlayerFactory.create_batch(5))
    assert tuple(seating_request(competition).sit_out_seats) == ()


@pytest.mark.django_db
def test_five_rounds_of_five_players_give_each_the_lighter_seat_once() -> None:
    competition = competition_of(5, 24)
    lighter = []
    for _ in range(5):
        round_ = publish_round(create_round(competition))
        [table] = round_tables(round_)
        lighter.append(table[4])
    assert sorted(lighter) == sorted(competition.registrations.values_list("player_id", flat=True))


@pytest.mark.django_db
def test_the_round_page_rows_count_sit_outs_before_and_in_the_round() -> None:
    competition = competition_of(5, 24)
    first = publish_round(create_round(competition))
    second = create_round(competition)
    rows = round_sit_outs(second)
    assert [row.seat for row in rows] == [1, 2, 3, 4, 5]
    assert [row.now for row in rows] == list(SEATS_24)
    before = {seat.player_id: SEATS_24[seat.position] for seat in Seat.objects.filter(round=first)}
    by_name = {Seat.objects.get(round=second, position=row.seat - 1).player_id: row for row in rows}
    assert {p: row.before for p, row in by_name.items()} == before
    assert {p: row.extra_before for p, row in by_name.items()} == {p: b - 4 for p, b in before.items()}
    assert rows[4].before == 5  # the one who sat out once more in round 1 takes seat 5 in round 2
    assert round_sit_outs(first)[0].before == 0


@pytest.mark.django_db
def test_the_sheets_lines_count_where_the_deal_went_otherwise() -> None:
    """A table that let seat 2 deal first: its lines so far count, the plan covers the deals still to come."""
    competition = competition_of(5, 24)
    round_ = publish_round(create_round(competition))
    sheet = round_.tables.get().sheet
    record_deal(sheet, {"deal": 1, "dealer": 1, "contract": "vraag", "declarers": [2, 3], "tricks": 8})
    rows = round_sit_outs(round_)
    assert [row.now for row in rows] == [4, 5, 5, 5, 5]  # deal 1 by seat 2, then 23 deals from seat 3


@pytest.mark.django_db
def test_a_round_without_a_table_of_five_shows_nothing() -> None:
    competition = competition_of(8, 24)
    assert round_sit_outs(create_round(competition)) == []


@pytest.mark.django_db
def test_the_include_shows_a_row_per_player_at_a_table_of_five() -> None:
    competition = competition_of(5, 24)
    create_round(competition)
    round_ = create_round(competition)
    html = Template("{% load sit_outs %}{% sit_outs round %}").render(Context({"round": round_}))
    assert "Sitting out at tables of five" in html
    assert html.count('data-seat="1-') == 5
