"""Miserie's count through its changed game (games.solver.native.miserie_ceiling): checked against an exhaustive
minimax of the game as specified, the bound against the real game, and the full count
(games.solver.analysis.miserie_count) against the plain search."""

from __future__ import annotations

import random
from functools import cache
from types import SimpleNamespace

import pytest

from games.duplicate.boards import deal_boards
from games.errors import GameError
from games.solver import bounds, solve
from games.solver.analysis import miserie_count, miserie_row, miserie_search
from games.solver.native import miserie_ceiling, reaches

SUIT = 0x1FFF


def minimax(hands: tuple[int, ...], leader: int, declarer: int, changed: bool) -> int:
    """The declarer's tricks in miserie (no trump; the three others raise them), every card tried. In the
    ``changed`` game, a trick the declarer loses is followed by the others' choice of leader among those of them who
    played the suit led with no card of the declarer's (in hand or in the trick) between theirs and the winning
    card."""

    @cache
    def trick(hands: tuple[int, ...], leader: int) -> int:
        return 0 if hands[leader] == 0 else play(hands, leader, ())

    def play(hands: tuple[int, ...], leader: int, cards: tuple[int, ...]) -> int:
        k = len(cards)
        seat = (leader + k) % 4
        follow = hands[seat] & (SUIT << (13 * (cards[0] // 13))) if k else 0
        rest = follow or hands[seat]
        values = []
        while rest:
            card = (rest & -rest).bit_length() - 1
            rest &= rest - 1
            after = tuple(h & ~(1 << card) if s == seat else h for s, h in enumerate(hands))
            played = (*cards, card)
            values.append(play(after, leader, played) if k < 3 else settle(after, leader, played))
        return min(values) if seat == declarer else max(values)

    def settle(hands: tuple[int, ...], leader: int, played: tuple[int, ...]) -> int:
        led = played[0] // 13
        best = max((i for i in range(4) if played[i] // 13 == led), key=lambda i: played[i])
        winner = (leader + best) % 4
        if winner == declarer:
            return 1 + trick(hands, winner)
        if not changed:
            return trick(hands, winner)
        gaps = hands[declarer] | 1 << played[(declarer - leader) % 4]
        leaders = [
            (leader + i) % 4
            for i in range(4)
            if (leader + i) % 4 != declarer
            and played[i] // 13 == led
            and not any(gaps >> card & 1 for card in range(played[i] + 1, played[best]))
        ]
        return max(trick(hands, q) for q in leaders)

    return trick(hands, leader)


def random_ending(rng: random.Random, size: int) -> list[int]:
    cards = rng.sample(range(52), 4 * size)
    return [sum(1 << c for c in cards[i * size : (i + 1) * size]) for i in range(4)]


def test_the_changed_game_is_the_game_specified_and_bounds_the_real_one_from_above() -> None:
    """2,000 endings of one to four cards a hand, any declarer and leader."""
    rng = random.Random("miserie changed game")
    met = 0
    for case in range(2_000):
        size = 1 + case % 4
        hands = random_ending(rng, size)
        leader, declarer = rng.randrange(4), rng.randrange(4)
        real = minimax(tuple(hands), leader, declarer, False)
        changed = minimax(tuple(hands), leader, declarer, True)
        assert real <= changed, (hands, leader, declarer)
        assert miserie_ceiling(hands, leader=leader, declarer=declarer, budget=None) == changed, (hands, leader)
        assert miserie_ceiling(hands, leader=leader, declarer=declarer, within=(0, real), budget=None) == real
        met += changed == real
    assert met > 1_600  # it meets the real count on most endings, or it would save nothing


def test_the_count_from_the_changed_game_is_the_plain_search_count() -> None:
    """400 endings of five to eight cards a hand, where the changed game is deep enough to differ."""
    rng = random.Random("miserie counts")
    for case in range(400):
        size = 5 + case % 4
        hands = random_ending(rng, size)
        leader, declarer = rng.randrange(4), rng.randrange(4)
        others = tuple(p for p in range(4) if p != declarer)
        exact = solve(hands, leader=leader, trump=None, maximisers=others, counted=(declarer,))
        assert miserie_ceiling(hands, leader=leader, declarer=declarer, budget=None) >= exact, (hands, leader)
        assert miserie_count(hands, declarer, leader=leader, budget=None) == (exact, exact), (hands, leader, declarer)
        budget = rng.choice([0, 10, 1_000])
        low, high = miserie_count(hands, declarer, leader=leader, within=(0, size), budget=budget)
        assert low <= exact <= high, (hands, leader, declarer, budget)
        assert miserie_ceiling(hands, leader=leader, declarer=declarer, budget=budget) >= exact


def test_a_known_range_is_where_the_changed_game_starts() -> None:
    hands = random_ending(random.Random("a failed miserie"), 8)
    others = (1, 2, 3)
    exact = solve(hands, leader=1, trump=None, maximisers=others, counted=(0,))
    assert exact >= 2
    assert miserie_ceiling(hands, leader=1, declarer=0, within=(exact, exact), budget=None) == exact
    assert miserie_ceiling(hands, leader=1, declarer=0, within=(1, exact), budget=None) == exact
    plain = bounds(hands, leader=1, trump=None, maximisers=others, counted=(0,), budget=0)
    assert miserie_count(hands, 0, leader=1, within=plain, budget=None) == (exact, exact)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"declarer": 4}, "a declarer sits at one of the four seats 0..3, not 4"),
        ({"within": (3, 2)}, "a range of tricks runs from 0 to 13, low to high, not 3..2"),
        ({"hands": [1, 2, 4]}, "the solver plays four hands, not 3"),
        ({"hands": [1, 2, 4, 8 | 16]}, "the solver needs four hands of equal size"),
    ],
)
def test_questions_the_changed_games_cannot_answer_are_refused(arguments: dict[str, object], message: str) -> None:
    question: dict[str, object] = {"hands": [1, 2, 4, 8], "leader": 0, "declarer": 0, "budget": None} | arguments
    with pytest.raises(GameError, match=message.replace("(", r"\(")):
        miserie_ceiling(**question)  # type: ignore[arg-type]


def test_a_made_miserie_the_real_game_cannot_prove_in_its_budget_is_proved_by_the_changed_game() -> None:
    # the demo's board 4 (seed 20264), East's miserie: no trick. The real game's proof, every combination of the
    # three others' cards, is not done in 20,000,000 nodes (nor in 4 minutes without a budget); the changed
    # game's takes about 3,400,000
    board = deal_boards(16, 20264)[3]
    east = 1
    real = miserie_search(east, board.leader)
    assert reaches(board.hands, 1, **real, budget=5_000_000) is None  # what the first pass asked alone
    row = miserie_row(board, east, 5_000_000)
    assert (row.low, row.high) == (0, 0)


@pytest.mark.parametrize("budget", [300, 2000, None])
def test_the_first_pass_says_made_only_of_a_miserie_that_is_and_holds_the_count(budget: int | None) -> None:
    rng = random.Random(budget)
    made = said_made = real_alone = 0
    for _ in range(150):
        hands = random_ending(rng, rng.randrange(5, 8))
        board = SimpleNamespace(hands=hands, leader=rng.randrange(4))  # an ending: what miserie_row reads of a board
        for declarer in range(4):
            row = miserie_row(board, declarer, budget)  # type: ignore[arg-type]
            real = miserie_search(declarer, board.leader)
            count = solve(hands, **real)
            assert row.low <= count <= row.high, (hands, board.leader, declarer, budget, row)
            made += count == 0
            said_made += row.high == 0
            real_alone += reaches(hands, 1, **real, budget=budget) is False
    if budget is None:
        assert said_made == made > 30
    else:  # on a small budget the changed game proves made miseries the real game's question leaves open
        assert real_alone < said_made <= made, (real_alone, said_made, made)
