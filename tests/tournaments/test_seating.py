"""Pure tests for the seating generators and their shared core (no database).

Expectations are computed here independently of the code under test: table sizes by brute force, fairness from
counting seats in the produced rounds, constraint checks from the produced tables.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tournaments.seating import (
    GENERATORS,
    SeatingError,
    SeatingRequest,
    find,
    repeat_free_rounds,
    repeated_pairs,
    seating_problems,
    table_sizes,
)
from tournaments.seating.core import Ledger
from tournaments.seating.fields import SUPPORTED_ORDERS, field, prime_power
from tournaments.seating.generators import (
    Generator,
    GreedySeating,
    ManualSeating,
    MixerSeating,
    RandomSeating,
    ScheduleSeating,
    SwissSeating,
    round_seed,
)

Round = list[list[int]]

GENERATED = ["random", "greedy", "mixer", "swiss", "schedule"]  # every generator except manual
ALL_KEYS = [*GENERATED, "manual"]


def cheap(key: str) -> Generator:
    """The registered generator, with a smaller search where the default one is slow to run many times."""
    return GreedySeating(restarts=3) if key == "greedy" else find(key)


def faster(key: str) -> Generator:
    """Like ``cheap`` with the search budgets cut further. Who gets a seat at a table of 5 or a bye is decided
    before the search (and the swap search keeps it), so fairness does not depend on these budgets."""
    return {"mixer": MixerSeating(budget=400), "schedule": ScheduleSeating(restarts=5)}.get(key) or cheap(key)


# --- helpers computed independently of the code under test ----------------------------------------------------


def brute_sizes(n: int) -> tuple[int, int]:
    """(tables of 4, tables of 5) seating the most players, then with the fewest tables of 5."""
    options = [(4 * a + 5 * f, f, a) for a in range(n // 4 + 1) for f in range(n // 5 + 1) if 4 * a + 5 * f <= n]
    seated, fives, fours = min(options, key=lambda o: (-o[0], o[1]))
    assert seated >= 4
    return fours, fives


def seated_in(rnd: Iterable[Iterable[int]]) -> list[int]:
    return [p for table in rnd for p in table]


def table_of(rnd: Sequence[Sequence[int]]) -> dict[int, int]:
    return {p: i for i, table in enumerate(rnd) for p in table}


def pairs_in(rnd: Iterable[Iterable[int]]) -> set[tuple[int, int]]:
    return {pair for table in rnd for pair in combinations(sorted(table), 2)}


def assert_valid_round(rnd: Sequence[Sequence[int]], players: Sequence[int]) -> None:
    """Each present player at most once, only present players, tables of 4 or 5, as many seated and as many
    tables of 5 as the brute-force table sizes say."""
    fours, fives = brute_sizes(len(players))
    seated = seated_in(rnd)
    assert len(seated) == len(set(seated)), f"someone is seated twice: {rnd}"
    assert set(seated) <= set(players), f"a seated player is not present: {rnd}"
    assert all(len(table) in (4, 5) for table in rnd), rnd
    assert len(seated) == 4 * fours + 5 * fives
    assert sum(len(table) == 5 for table in rnd) == fives
    assert sum(len(table) == 4 for table in rnd) == fours


def burdens(rounds: Iterable[Sequence[Sequence[int]]], players: Sequence[int]) -> tuple[Counter, Counter]:
    """Per player: seats at tables of 5 and byes over ``rounds``."""
    fives: Counter = Counter(dict.fromkeys(players, 0))
    byes: Counter = Counter(dict.fromkeys(players, 0))
    for rnd in rounds:
        seated = set(seated_in(rnd))
        for table in rnd:
            if len(table) == 5:
                fives.update(table)
        byes.update(p for p in players if p not in seated)
    return fives, byes


def spread(counts: Counter) -> int:
    return max(counts.values()) - min(counts.values())


# --- finite fields (the designs' arithmetic) -----------------------------------------------------------------


@pytest.mark.parametrize("q", SUPPORTED_ORDERS)
def test_field_axioms(q: int) -> None:
    f = field(q)
    els = list(f.elements)
    assert els == list(range(q))
    for a in els:
        assert f.add(a, 0) == a and f.mul(a, 1) == a and f.mul(a, 0) == 0
        assert f.add(a, f.neg(a)) == 0
        if a:
            assert f.mul(a, f.inv(a)) == 1
        for b in els:
            assert f.add(a, b) == f.add(b, a)
            assert f.mul(a, b) == f.mul(b, a)
            assert f.sub(f.add(a, b), b) == a
            if a and b:
                assert f.mul(a, b) != 0
    for a in els:  # Latin squares
        assert sorted(f.add_table[a]) == els
        if a:
            assert sorted(f.mul_table[a]) == els


@pytest.mark.parametrize("q", [4, 8, 9])
def test_field_associativity_and_distributivity(q: int) -> None:
    f = field(q)
    els = list(f.elements)
    for a in els:
        for b in els:
            for c in els:
                assert f.add(f.add(a, b), c) == f.add(a, f.add(b, c))
                assert f.mul(f.mul(a, b), c) == f.mul(a, f.mul(b, c))
                assert f.mul(a, f.add(b, c)) == f.add(f.mul(a, b), f.mul(a, c))


def test_prime_power_and_field_errors() -> None:
    assert prime_power(49) == (7, 2)
    assert prime_power(32) == (2, 5)
    assert prime_power(7) == (7, 1)
    assert prime_power(12) is None
    assert prime_power(1) is None
    with pytest.raises(ValueError):
        field(6)
    with pytest.raises(ZeroDivisionError):
        field(4).inv(0)


# --- table sizes and metrics ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(4, 31))
def test_table_sizes_match_brute_force(n: int) -> None:
    fours, fives = brute_sizes(n)
    assert sorted(table_sizes(n)) == [4] * fours + [5] * fives


def test_table_sizes_put_tables_of_five_first() -> None:
    assert table_sizes(18) == [5, 5, 4, 4]
    assert table_sizes(13) == [5, 4, 4]
    for n in range(4, 60):
        assert table_sizes(n) == sorted(table_sizes(n), reverse=True)


def test_table_sizes_byes_only_for_6_7_11() -> None:
    leaves = {n: n - sum(table_sizes(n)) for n in range(4, 200)}
    assert {n: left for n, left in leaves.items() if left} == {6: 1, 7: 2, 11: 1}
    assert table_sizes(6) == table_sizes(7) == [5]
    assert sorted(table_sizes(11)) == [5, 5]


@pytest.mark.parametrize("n", [-1, 0, 1, 2, 3])
def test_table_sizes_need_four_players(n: int) -> None:
    with pytest.raises(SeatingError, match="at least 4"):
        table_sizes(n)


def test_repeat_free_rounds_and_repeated_pairs_on_hand_examples() -> None:
    r1 = [[1, 2, 3, 4], [5, 6, 7, 8]]
    r2 = [[1, 5, 9, 10], [2, 6, 11, 12]]  # nobody met before
    r3 = [[2, 1, 7, 11], [3, 5, 8, 12]]  # 1-2 and 5-8 (from r1) and 2-11 (from r2) meet again
    assert repeat_free_rounds([]) == 0
    assert repeated_pairs([]) == 0
    assert repeat_free_rounds([r1]) == 1
    assert repeat_free_rounds([r1, r2]) == 2
    assert repeat_free_rounds([r1, r2, r3]) == 2
    assert repeat_free_rounds([r1, r3, r2]) == 1
    assert repeat_free_rounds([r1, r1]) == 1
    assert repeated_pairs([r1, r2, r3]) == 3
    assert repeated_pairs([r1, r1]) == 12
    assert repeated_pairs([r1, r1, r1]) == 24  # a pair meeting k times counts k - 1
    assert repeated_pairs([[[4, 3, 2, 1]], [[1, 2, 3, 4]]]) == 6  # seat order does not matter


# --- registry ------------------------------------------------------------------------------------------------


def test_registry() -> None:
    assert set(GENERATORS) == set(ALL_KEYS)
    expected = {
        "random": RandomSeating,
        "greedy": GreedySeating,
        "mixer": MixerSeating,
        "swiss": SwissSeating,
        "schedule": ScheduleSeating,
        "manual": ManualSeating,
    }
    for key, cls in expected.items():
        assert isinstance(find(key), cls)
        assert find(key).key == key and find(key).name
    with pytest.raises(KeyError, match="nope"):
        find("nope")
    with pytest.raises(SeatingError, match="manual"):
        find("manual").rounds(8, 1, seed=1)


def test_round_seeds_are_distinct() -> None:
    seeds = {round_seed(seed, index) for seed in range(20) for index in range(50)}
    assert len(seeds) == 20 * 50


# --- 1. invariants ---------------------------------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(
    key=st.sampled_from(GENERATED),
    n=st.integers(4, 60),
    count=st.integers(1, 4),
    seed=st.integers(0, 2**20),
)
def test_rounds_are_valid_for_small_fields(key: str, n: int, count: int, seed: int) -> None:
    rounds = cheap(key).rounds(n, count, seed)
    assert len(rounds) == count
    players = list(range(1, n + 1))
    for rnd in rounds:
        assert_valid_round(rnd, players)


@settings(max_examples=30, deadline=None)
@example(key="swiss", n=399, count=1, seed=1)  # the largest fields, whatever hypothesis draws
@example(key="mixer", n=400, count=2, seed=1)
@example(key="schedule", n=398, count=2, seed=1)
@example(key="greedy", n=397, count=2, seed=1)
@example(key="random", n=399, count=2, seed=1)
@given(
    key=st.sampled_from(GENERATED),
    n=st.integers(61, 400),
    count=st.integers(1, 2),
    seed=st.integers(0, 2**20),
)
def test_rounds_are_valid_for_big_fields(key: str, n: int, count: int, seed: int) -> None:
    rounds = cheap(key).rounds(n, count, seed)
    assert len(rounds) == count
    for rnd in rounds:
        assert_valid_round(rnd, list(range(1, n + 1)))


@settings(max_examples=40, deadline=None)
@given(
    key=st.sampled_from(GENERATED),
    players=st.sets(st.integers(1, 10**6), min_size=4, max_size=50),
    seed=st.integers(0, 2**20),
)
def test_next_round_is_valid_for_any_player_ids(key: str, players: set[int], seed: int) -> None:
    ids = sorted(players, key=lambda p: (p * 7919) % 1009)  # not sorted: generators must not assume order
    rnd = cheap(key).next_round(SeatingRequest(ids, seed=seed))
    assert_valid_round(rnd, ids)


@pytest.mark.parametrize("key", GENERATED)
def test_history_with_absent_players_is_ignored(key: str) -> None:
    history = [[[1, 2, 3, 100], [4, 5, 6, 7, 101]], [[1, 4, 200, 201], [2, 5, 202, 203]]]
    players = list(range(1, 14))
    rnd = cheap(key).next_round(SeatingRequest(players, history=history, seed=3))
    assert_valid_round(rnd, players)


@pytest.mark.parametrize("key", GENERATED)
def test_seeded_generation_is_reproducible(key: str) -> None:
    gen = cheap(key)
    for n in (13, 20, 26):
        assert gen.rounds(n, 3, seed=7) == gen.rounds(n, 3, seed=7)


@pytest.mark.parametrize("key", ["random", "mixer", "schedule"])
def test_different_seeds_give_different_seatings(key: str) -> None:
    gen = cheap(key)
    draws = {repr(gen.rounds(26, 2, seed=seed)) for seed in range(5)}
    assert len(draws) > 1


# --- 2. fair rotation ------------------------------------------------------------------------------------------

ROTATION_NS = [5, 6, 7, 9, 10, 11, 13, 14, 15, 17, 18, 19, 21, 22, 23, 26, 27, 31]


@pytest.mark.parametrize("key", GENERATED)
@pytest.mark.parametrize("n", ROTATION_NS)
def test_fives_and_byes_rotate_fairly(key: str, n: int) -> None:
    rounds_count = 12
    rounds = faster(key).rounds(n, rounds_count, seed=n)
    players = list(range(1, n + 1))
    fives, byes = burdens(rounds, players)
    fours_tables, five_tables = brute_sizes(n)
    assert sum(fives.values()) == rounds_count * 5 * five_tables  # the counts are real
    assert sum(byes.values()) == rounds_count * (n - 4 * fours_tables - 5 * five_tables)
    assert spread(fives) <= 1, fives
    assert spread(byes) <= 1, byes


@pytest.mark.parametrize("n", [6, 7, 11])
def test_byes_are_shared_exactly_over_a_full_cycle(n: int) -> None:
    """n rounds with n - seated byes each: every player sits out exactly (n - seated) times."""
    per_round = n - sum(table_sizes(n))
    for key in GENERATED:
        _, byes = burdens(faster(key).rounds(n, n, seed=1), list(range(1, n + 1)))
        assert set(byes.values()) == {per_round}, (key, byes)


@pytest.mark.parametrize("key", GENERATED)
def test_after_an_uneven_history_the_next_fives_go_to_those_without(key: str) -> None:
    # 9 players: one table of 4 and one of 5. 1..5 sat at the table of 5 last time, 6..9 did not.
    history = [[[1, 2, 3, 4, 5], [6, 7, 8, 9]]]
    for seed in range(4):
        (rnd,) = faster(key).rounds(9, 1, seed, history=history)
        (five,) = [table for table in rnd if len(table) == 5]
        assert {6, 7, 8, 9} <= set(five), (seed, rnd)


@pytest.mark.parametrize("key", GENERATED)
def test_after_an_uneven_history_the_next_byes_go_to_those_without(key: str) -> None:
    # 7 players: five seated, two byes. 6 and 7 sat out the only earlier round.
    history = [[[1, 2, 3, 4, 5]]]
    for seed in range(4):
        (rnd,) = faster(key).rounds(7, 1, seed, history=history)
        assert {6, 7} <= set(seated_in(rnd)), (seed, rnd)


@pytest.mark.parametrize("key", ["random", "greedy", "mixer", "swiss"])
def test_byes_so_far_are_taken_from_the_request(key: str) -> None:
    # (schedule is left out: with an empty history it starts its own plan, which counts its own byes)
    players = [10, 20, 30, 40, 50, 60]
    byes = {20: 1, 30: 1, 40: 1, 50: 1, 60: 1}  # only 10 has not sat out yet
    for seed in range(4):
        rnd = faster(key).next_round(SeatingRequest(players, byes=byes, seed=seed))
        assert set(seated_in(rnd)) == {20, 30, 40, 50, 60}, (seed, rnd)


@pytest.mark.parametrize("key", GENERATED)
def test_byes_rotate_round_by_round_through_next_round(key: str) -> None:
    """Seat 7 players for 7 rounds the way the app does: one next_round per round, byes counted so far."""
    players = [3, 14, 15, 92, 65, 35, 89]
    rounds: list[Round] = []
    byes = dict.fromkeys(players, 0)
    for _ in range(7):
        rnd = faster(key).next_round(SeatingRequest(players, history=rounds, byes=dict(byes), seed=5))
        assert_valid_round(rnd, players)
        for p in set(players) - set(seated_in(rnd)):
            byes[p] += 1
        rounds.append(rnd)
    assert set(byes.values()) == {2}, byes


@pytest.mark.parametrize("key", GENERATED)
@pytest.mark.parametrize("n", [13, 14, 18, 23, 27])
def test_the_least_burdened_get_the_next_burden(key: str, n: int) -> None:
    """After an arbitrary uneven history, nobody at a table of 5 has more such seats than anyone at a table of 4."""
    players = list(range(1, n + 1))
    # an uneven history: rounds seated for a subset of the players, so the counts differ
    history = [*RandomSeating().rounds(n - 3, 2, seed=n), *RandomSeating().rounds(n - 1, 1, seed=n + 1)]
    before, _ = burdens(history, players)
    assert spread(before) >= 1
    (rnd,) = faster(key).rounds(n, 1, seed=2, history=history)
    at_five = [p for table in rnd if len(table) == 5 for p in table]
    at_four = [p for table in rnd if len(table) == 4 for p in table]
    assert max(before[p] for p in at_five) <= min(before[p] for p in at_four), rnd
    after, _ = burdens([*history, rnd], players)
    assert spread(after) <= max(1, spread(before))


# --- 3. constraints -------------------------------------------------------------------------------------------

WISHFUL = ["mixer", "swiss", "schedule"]


def assert_wishes(rnd: Round, apart: Sequence[tuple[int, int]], together: Sequence[tuple[int, int]]) -> None:
    where = table_of(rnd)
    for a, b in apart:
        assert a not in where or b not in where or where[a] != where[b], f"{a} and {b} share a table: {rnd}"
    for a, b in together:
        assert where[a] == where[b], f"{a} and {b} are apart: {rnd}"


@settings(max_examples=60, deadline=None)
@given(
    key=st.sampled_from(WISHFUL),
    n=st.integers(12, 60),
    seed=st.integers(0, 2**20),
    history_rounds=st.integers(0, 3),
    n_apart=st.integers(0, 4),
    n_together=st.integers(0, 3),
    data=st.data(),
)
def test_apart_and_together_pairs_are_kept(
    key: str, n: int, seed: int, history_rounds: int, n_apart: int, n_together: int, data: st.DataObject
) -> None:
    players = list(range(1, n + 1))  # at least 3 tables: the pairs below can always be seated
    order = data.draw(st.permutations(players))
    together = [(order[2 * i], order[2 * i + 1]) for i in range(n_together)]
    rest = order[2 * n_together :]
    apart = [(rest[2 * i], rest[2 * i + 1]) for i in range(min(n_apart, len(rest) // 2))]
    if together:
        apart.append((together[0][0], rest[-1]))
    # a history only where it leaves every player with as many seats at tables of 5 (see the xfail below)
    history = RandomSeating().rounds(n, history_rounds, seed) if n % 4 == 0 else []
    request = SeatingRequest(players, history=history, seed=seed, apart=apart, together=together)
    rnd = find(key).next_round(request)
    assert_valid_round(rnd, players)
    assert_wishes(rnd, apart, together)
    assert seating_problems(rnd, request) == []


@pytest.mark.parametrize("key", WISHFUL)
def test_together_groups_of_three_to_five_sit_at_one_table(key: str) -> None:
    players = list(range(1, 18))  # 17 = 4 + 4 + 4 + 5
    groups = [[1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11, 12]]
    for group in groups if key != "swiss" else groups[:2]:  # swiss and a group of 5: see the xfail below
        together = list(combinations(group, 2))
        for seed in range(3):
            rnd = find(key).next_round(SeatingRequest(players, seed=seed, together=together))
            assert len({table_of(rnd)[p] for p in group}) == 1, (group, seed, rnd)


@pytest.mark.parametrize("key", [k for k in WISHFUL if k != "swiss"])  # swiss keeps each player near their rank
def test_clubmates_are_kept_apart_when_possible(key: str) -> None:
    players = list(range(1, 17))
    clubs = {p: [p % 4] for p in players}  # 4 clubs of 4
    for seed in range(4):
        rnd = find(key).next_round(SeatingRequest(players, seed=seed, clubs=clubs, keep_clubmates_apart=True))
        assert_valid_round(rnd, players)
        for table in rnd:
            assert sorted(clubs[p][0] for p in table) == [0, 1, 2, 3], rnd


def test_players_in_two_clubs_are_kept_apart_from_both() -> None:
    players = list(range(1, 17))
    clubs = {p: [(p - 1) // 4, 10 + (p - 1) % 4] for p in players}  # rows and columns of a 4x4 grid
    for seed in range(4):
        rnd = find("mixer").next_round(SeatingRequest(players, seed=seed, clubs=clubs, keep_clubmates_apart=True))
        for table in rnd:
            assert len({clubs[p][0] for p in table}) == 4 and len({clubs[p][1] for p in table}) == 4, rnd


def test_clubmates_are_spread_as_thinly_as_possible_when_they_cannot_all_be_apart() -> None:
    players = list(range(1, 17))
    clubs = {p: ["big"] for p in range(1, 9)}  # 8 club-mates, 4 tables: at best 2 per table
    for seed in range(4):
        rnd = find("mixer").next_round(SeatingRequest(players, seed=seed, clubs=clubs, keep_clubmates_apart=True))
        assert_valid_round(rnd, players)
        assert sorted(sum(p in clubs for p in table) for table in rnd) == [2, 2, 2, 2], rnd


def test_clubs_are_ignored_unless_asked() -> None:
    players = list(range(1, 21))
    clubs = {p: [p % 5] for p in players}
    history = RandomSeating().rounds(20, 2, seed=4)
    plain = find("mixer").next_round(SeatingRequest(players, history=history, seed=9))
    with_clubs = find("mixer").next_round(SeatingRequest(players, history=history, seed=9, clubs=clubs))
    assert plain == with_clubs
    ledger = Ledger(SeatingRequest(players, clubs=clubs))
    assert ledger.weight[ledger.index[1]][ledger.index[6]] == 0
    ledger = Ledger(SeatingRequest(players, clubs=clubs, keep_clubmates_apart=True))
    assert ledger.weight[ledger.index[1]][ledger.index[6]] > 0
    assert ledger.weight[ledger.index[1]][ledger.index[2]] == 0


@pytest.mark.parametrize("key", ALL_KEYS)
@pytest.mark.parametrize(
    ("players", "kwargs", "message"),
    [
        (list(range(1, 13)), {"together": [(1, 2), (2, 3), (3, 4), (4, 5), (5, 6)]}, "no table seats 6"),
        (list(range(1, 13)), {"together": [(1, 2)], "apart": [(2, 1)]}, "both to sit together and to be kept apart"),
        (list(range(1, 13)), {"together": [(1, 2), (2, 3)], "apart": [(1, 3)]}, "both to sit together"),
        (list(range(1, 13)), {"apart": [(4, 4)]}, "themselves"),
        ([1, 2, 3], {}, "at least 4"),
        ([], {}, "at least 4"),
        ([1, 2, 3, 4, 5, 3], {}, "listed twice"),
    ],
)
def test_impossible_requests_are_refused_with_a_reason(
    key: str, players: list[int], kwargs: dict, message: str
) -> None:
    request = SeatingRequest(players, seed=1, tables=[players[:4], players[4:9]], **kwargs)
    with pytest.raises(SeatingError, match=message) as caught:
        find(key).next_round(request)
    assert caught.value.problems


@pytest.mark.parametrize("key", WISHFUL)
def test_unseatable_wishes_are_refused_after_the_search(key: str) -> None:
    with pytest.raises(SeatingError, match="should sit together"):  # 16 = 4 tables of 4: no room for 5
        find(key).next_round(SeatingRequest(list(range(1, 17)), together=[(1, 2), (2, 3), (3, 4), (4, 5)]))
    with pytest.raises(SeatingError, match="kept apart"):  # 4 players, one table
        find(key).next_round(SeatingRequest([1, 2, 3, 4], apart=[(1, 2)]))


@pytest.mark.parametrize("key", WISHFUL)
def test_together_wins_over_the_rotation_of_tables_of_five(key: str) -> None:
    # 9 players (a table of 4 and one of 5); 1..5 sat at the table of 5 last round. The fair rotation puts
    # 6, 7, 8, 9 and one of 1..5 at the table of 5, so 1, 2 and 6 cannot share a table fairly. They can share
    # one, e.g. [[1, 2, 6, 7, 8], [3, 4, 5, 9]]; a hard wish should win over the soft rotation.
    request = SeatingRequest(
        list(range(1, 10)), history=[[[1, 2, 3, 4, 5], [6, 7, 8, 9]]], seed=0, together=[(1, 2), (1, 6)]
    )
    assert seating_problems([[1, 2, 6, 7, 8], [3, 4, 5, 9]], request) == []
    rnd = find(key).next_round(request)
    assert_wishes(rnd, [], [(1, 2), (1, 6)])


def test_a_together_pair_survives_a_history_that_fixes_who_sits_at_fives() -> None:
    # 30 players = 5 tables of 4 + 2 of 5: 10 seats at fives per round. 1..10 sat at fives in round 1,
    # 11..20 in round 2, so the fair round 3 must put exactly 21..30 at the fives and 1 at a table of 4.
    players = list(range(1, 31))
    fours = [list(range(k, k + 4)) for k in range(21, 41, 4)]
    round_1 = [*[[p if p <= 30 else p - 20 for p in t] for t in fours], [1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]
    round_2 = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 21, 22], [23, 24, 25, 26], [27, 28, 29, 30]]
    round_2 += [[11, 12, 13, 14, 15], [16, 17, 18, 19, 20]]
    for rnd in (round_1, round_2):
        assert_valid_round(rnd, players)
    request = SeatingRequest(players, history=[round_1, round_2], seed=0, together=[(1, 21)])
    rnd = find("mixer").next_round(request)
    assert_wishes(rnd, [], [(1, 21)])


def test_swiss_seats_a_together_chain_of_four() -> None:
    players = list(range(1, 17))
    chain = [(1, 2), (2, 3), (3, 4)]
    for seed in range(10):
        rnd = find("swiss").next_round(SeatingRequest(players, seed=seed, together=chain))
        assert_wishes(rnd, [], chain)


def test_swiss_seats_a_together_group_of_five() -> None:
    players = list(range(1, 18))
    group = list(combinations([8, 9, 10, 11, 12], 2))
    for seed in range(10):
        rnd = find("swiss").next_round(SeatingRequest(players, seed=seed, together=group))
        assert_wishes(rnd, [], group)


def test_mixer_seats_a_together_group_of_five_among_many() -> None:
    players = list(range(1, 102))  # one table of 5 among 24 of 4
    group = list(combinations(range(1, 6), 2))
    for seed in range(5):
        rnd = find("mixer").next_round(SeatingRequest(players, seed=seed, together=group))
        assert_wishes(rnd, [], group)
        assert len(rnd[table_of(rnd)[1]]) == 5


def test_mixer_seats_a_together_chain_of_five_among_many() -> None:
    players = list(range(1, 102))
    chain = [(1, 2), (2, 3), (3, 4), (4, 5)]
    for seed in range(10):
        rnd = find("mixer").next_round(SeatingRequest(players, seed=seed, together=chain))
        assert_wishes(rnd, [], chain)


# --- 4. mixer quality ---------------------------------------------------------------------------------------------


def test_mixer_avoids_repeats_much_better_than_random() -> None:
    mixer_free, random_free = [], []
    for seed in range(3):
        mixed = find("mixer").rounds(16, 4, seed)
        drawn = find("random").rounds(16, 4, seed)
        mixer_free.append(repeat_free_rounds(mixed))
        random_free.append(repeat_free_rounds(drawn))
        assert repeated_pairs(mixed) < repeated_pairs(drawn)
        assert repeated_pairs(mixed) <= 4
    assert min(mixer_free) >= 3
    assert min(random_free) < 3


@pytest.mark.parametrize(("n", "count"), [(24, 4), (32, 5), (41, 5)])
def test_mixer_finds_repeat_free_rounds_when_there_is_room(n: int, count: int) -> None:
    for seed in range(3):
        assert repeat_free_rounds(find("mixer").rounds(n, count, seed)) == count


def test_mixer_continues_a_history_without_repeats() -> None:
    players = list(range(1, 17))
    history = find("schedule").rounds(16, 3, seed=2)  # three rounds of an affine plane: two more fit
    for seed in range(3):
        rnd = find("mixer").next_round(SeatingRequest(players, history=history, seed=seed))
        assert_valid_round(rnd, players)
        assert not pairs_in(rnd) & set().union(*map(pairs_in, history)), rnd


def test_ledger_weighs_recent_meetings_more() -> None:
    players = list(range(1, 9))
    history = [[[1, 2, 9, 10]], [[3, 4, 9, 10]], [[5, 6, 9, 10]]]  # oldest first
    request = SeatingRequest(players, history=history)
    weighted = Ledger(request, recency=True)
    flat = Ledger(request)

    def w(ledger: Ledger, a: int, b: int) -> float:
        return ledger.weight[ledger.index[a]][ledger.index[b]]

    assert w(weighted, 5, 6) > w(weighted, 3, 4) > w(weighted, 1, 2) > 0
    assert w(weighted, 5, 6) == w(weighted, 6, 5)
    assert w(weighted, 7, 8) == 0 and w(weighted, 1, 3) == 0
    assert w(flat, 5, 6) == w(flat, 3, 4) == w(flat, 1, 2) > 0
    # every meeting still weighs at least as much as without recency: a repeat is never cheap
    assert w(weighted, 1, 2) >= w(flat, 1, 2)


def test_mixer_repeats_the_oldest_meeting_when_one_is_unavoidable() -> None:
    # 8 players at 2 tables: 1, 2 and 3 cannot all be at different tables, so one of the pairs 1-2, 1-3, 2-3
    # meets again. 1-2 met longest ago, 2-3 most recently (absent players 9..13 fill the old tables).
    history = [
        [[1, 2, 9, 10], [3, 11, 12, 13]],
        [[1, 3, 9, 11], [2, 10, 12, 13]],
        [[2, 3, 9, 12], [1, 10, 11, 13]],
    ]
    players = list(range(1, 9))
    met = set().union(*map(pairs_in, history))
    # brute force: the fewest repeats any seating of 1..8 at two tables of 4 can have
    fewest = min(
        len(pairs_in([four, [p for p in players if p not in four]]) & met)
        for four in ([1, *rest] for rest in combinations(range(2, 9), 3))
    )
    assert fewest == 1
    for key in ("mixer", "schedule"):  # schedule falls back to the mixer: this history is not its own
        for seed in range(5):
            rnd = find(key).next_round(SeatingRequest(players, history=history, seed=seed))
            assert pairs_in(rnd) & met == {(1, 2)}, (key, seed, rnd)


# --- 5. swiss --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [8, 16, 20, 40])
def test_swiss_seats_ranks_in_fours(n: int) -> None:
    ranking = sorted(range(1, n + 1), key=lambda p: (p * 37) % (n + 1))  # a scrambled ranking
    for seed in range(3):
        rnd = find("swiss").next_round(SeatingRequest(list(range(1, n + 1)), ranking=ranking, seed=seed))
        assert [set(t) for t in rnd] == [set(ranking[i : i + 4]) for i in range(0, n, 4)]


def test_swiss_ranks_unranked_players_last() -> None:
    players = list(range(1, 13))
    ranking = [12, 11, 10, 9, 8, 7, 6, 5]
    for seed in range(3):
        rnd = find("swiss").next_round(SeatingRequest(players, ranking=ranking, seed=seed))
        assert [set(t) for t in rnd] == [{12, 11, 10, 9}, {8, 7, 6, 5}, {1, 2, 3, 4}]


def rank_tables(rnd: Round, ranking: Sequence[int]) -> dict[int, tuple[int, int]]:
    """Per player: (table index in ``rnd``, table index by rank when seated in fours)."""
    where = table_of(rnd)
    return {p: (where[p], r // 4) for r, p in enumerate(ranking)}


def test_swiss_avoids_a_repeat_at_the_top_by_moving_one_table() -> None:
    players = list(range(1, 21))
    # the top two met last round; no other two players of one rank-table of four met
    history = [[[1, 2, 13, 17], [3, 14, 5, 9], [4, 18, 6, 10], [15, 19, 7, 11], [16, 20, 8, 12]]]
    met = pairs_in(history[0])
    assert met & pairs_in([players[i : i + 4] for i in range(0, 20, 4)]) == {(1, 2)}
    for seed in range(5):
        rnd = find("swiss").next_round(SeatingRequest(players, ranking=players, history=history, seed=seed))
        assert_valid_round(rnd, players)
        assert not pairs_in(rnd) & met, rnd
        for p, (table, by_rank) in rank_tables(rnd, players).items():
            assert abs(table - by_rank) <= 1, (p, rnd)


def test_swiss_stays_within_one_table_when_the_top_four_met() -> None:
    players = list(range(1, 21))
    history = [[[1, 2, 3, 4], [5, 9, 13, 17], [6, 10, 14, 18], [7, 11, 15, 19], [8, 12, 16, 20]]]
    for seed in range(5):
        rnd = find("swiss").next_round(SeatingRequest(players, ranking=players, history=history, seed=seed))
        assert set(rnd[0]) != {1, 2, 3, 4}, rnd  # the top table is not simply repeated
        for p, (table, by_rank) in rank_tables(rnd, players).items():
            assert abs(table - by_rank) <= 1, (seed, p, rnd)


def test_swiss_keeps_the_fair_rotation_of_tables_of_five() -> None:
    players = list(range(1, 14))  # 4 + 4 + 5
    rounds: list[Round] = []
    for index in range(13):
        request = SeatingRequest(players, ranking=players, history=rounds, seed=index)
        rounds.append(find("swiss").next_round(request))
    fives, _ = burdens(rounds, players)
    assert set(fives.values()) == {5}  # 13 rounds x 5 seats = 65 = 5 each


# --- 6. schedule ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "count", "at_least"), [(16, 5, 5), (40, 13, 10), (48, 12, 12), (64, 21, 21), (100, 25, 25)]
)
def test_schedule_reaches_the_design_counts(n: int, count: int, at_least: int) -> None:
    rounds = find("schedule").rounds(n, count, seed=5)
    assert len(rounds) == count
    for rnd in rounds:
        assert_valid_round(rnd, list(range(1, n + 1)))
        assert sorted(seated_in(rnd)) == list(range(1, n + 1))
    assert repeat_free_rounds(rounds) >= at_least
    if at_least == count:
        met = [pair for rnd in rounds for pair in pairs_in(rnd)]
        assert len(met) == len(set(met)) == count * (n // 4) * 6


def test_schedule_for_sixteen_meets_every_pair_exactly_once() -> None:
    rounds = find("schedule").rounds(16, 5, seed=11)
    met = Counter(pair for rnd in rounds for pair in pairs_in(rnd))
    assert set(met) == set(combinations(range(1, 17), 2))
    assert set(met.values()) == {1}


def test_schedule_goes_on_past_its_design() -> None:
    rounds = find("schedule").rounds(16, 7, seed=1)
    assert len(rounds) == 7
    for rnd in rounds:
        assert_valid_round(rnd, list(range(1, 17)))
    assert repeat_free_rounds(rounds) == 5


@pytest.mark.parametrize("n", [16, 17, 40])
def test_schedule_is_reproducible_and_varies_with_the_seed(n: int) -> None:
    gen = find("schedule")
    assert gen.rounds(n, 3, seed=4) == gen.rounds(n, 3, seed=4)
    assert len({repr(gen.rounds(n, 3, seed=seed)) for seed in range(4)}) == 4


@pytest.mark.parametrize("n", [16, 17, 22, 40])
def test_schedule_next_round_continues_its_own_schedule(n: int) -> None:
    gen = find("schedule")
    plan = gen.rounds(n, 4, seed=8)
    ids = [1000 + 7 * i for i in range(n)]  # database ids rather than 1..n
    label = dict(zip(range(1, n + 1), ids, strict=True))

    def relabel(rnd: Round) -> Round:
        return [[label[p] for p in table] for table in rnd]

    for done in range(4):
        history = [relabel(rnd) for rnd in plan[:done]]
        request = SeatingRequest(list(reversed(ids)), history=history, seed=8)
        assert gen.next_round(request) == relabel(plan[done])


def test_schedule_next_round_seats_like_the_mixer_off_its_schedule() -> None:
    players = list(range(1, 17))
    history = find("random").rounds(16, 2, seed=3)
    own = find("schedule").rounds(16, 1, seed=3)[0]
    assert {frozenset(t) for t in history[0]} != {frozenset(t) for t in own}
    request = SeatingRequest(players, history=history, seed=3)
    assert find("schedule").next_round(request) == MixerSeating().next_round(request)
    wishes = SeatingRequest(players, seed=3, apart=[(1, 2)])  # wishes: seated like the mixer too
    assert find("schedule").next_round(wishes) == MixerSeating().next_round(wishes)


# --- 7. manual --------------------------------------------------------------------------------------------------


def manual(tables: list[list[int]], players: Sequence[int], **kwargs: object) -> Round:
    return find("manual").next_round(SeatingRequest(list(players), tables=tables, **kwargs))


def test_manual_accepts_valid_tables_unchanged() -> None:
    tables = [[8, 3, 1, 6], [2, 9, 4, 7, 5]]
    copy = [list(t) for t in tables]
    out = manual(tables, range(1, 10))
    assert out == copy
    assert out is not tables and all(a is not b for a, b in zip(out, tables, strict=True))
    assert tables == copy


@pytest.mark.parametrize(
    ("tables", "kwargs", "message"),
    [
        ([[1, 2, 3], [4, 5, 6, 7, 8]], {}, "table 1 seats 3 players"),
        ([[1, 2, 3, 4, 5, 6], [7, 8, 9, 10]], {}, "table 1 seats 6 players"),
        ([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10]], {}, "table 3 seats 2 players"),
        ([[1, 2, 3, 4], [5, 6, 7, 1]], {}, "player 1 is seated twice"),
        ([[1, 2, 3, 4], [5, 6, 7, 99]], {}, "player 99 at table 2 is not present"),
        ([[1, 2, 3, 4], [5, 6, 7, 8]], {}, "players 9, 10 have no table"),
        ([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], {"apart": [(3, 5)]}, "3 and 5 should be kept apart"),
        ([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], {"together": [(5, 6)]}, "5 and 6 should sit together"),
        ([], {}, "needs the organiser's tables"),
    ],
)
def test_manual_rejects_invalid_tables(tables: list[list[int]], kwargs: dict, message: str) -> None:
    with pytest.raises(SeatingError, match=message):
        manual(tables, range(1, 11), **kwargs)


@pytest.mark.parametrize(("n", "byes"), [(6, 1), (7, 2), (11, 1)])
def test_manual_allows_exactly_the_forced_byes(n: int, byes: int) -> None:
    players = list(range(1, n + 1))
    seated = players[byes:]
    tables = [seated[i : i + 5] for i in range(0, len(seated), 5)]
    assert manual(tables, players) == tables
    one_more = [seated[1:5], *tables[1:]] if n == 11 else [seated[1:5]]
    with pytest.raises(SeatingError, match="have no table"):
        manual(one_more, players)


def test_manual_reports_every_problem_at_once() -> None:
    with pytest.raises(SeatingError) as caught:
        manual([[1, 2, 3], [4, 4, 5, 6, 7, 99]], range(1, 10), apart=[(1, 2)])
    problems = " | ".join(caught.value.problems)
    for fragment in (
        "table 1 seats 3",
        "table 2 seats 6",
        "player 4 is seated twice",
        "99",
        "8, 9 have no table",
        "1 and 2",
    ):
        assert fragment in problems, problems
