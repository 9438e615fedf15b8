"""Scoring by comparison, the Django side: each player's boards as plain records, and who may rank by them.

The standings calculators (``scoring.methods.Matchpoints`` and ``CrossImps``) are pure: they read the
``scoring.records.BoardScore`` records on each session. ``with_boards`` gathers them, for the records builder
(``scoring.selectors.competition_sessions``), from what every table did on every board (``results.played_boards``):
on each board, the players who held the same compass position at different tables are compared. A table of five
compares like any other: its dealer holds no hand on the board, so has no record for it, and the comparison
averages over the boards each player played. A board only one table has played so far is kept with no others
to compare with; the calculators give it nothing (``scoring.methods.board_percentage``).

Only a duplicate competition whose standings method compares boards pays for this (four queries a round); any
other competition's sessions are returned as they are. ``method_problems`` is the rule that keeps the comparison
methods to duplicate competitions, asked by ``Competition.clean`` (beside ``rules.setting_problems``).
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from scoring.methods import METHODS
from scoring.records import BoardScore, SessionResult
from tournaments.duplicate.results import PlayedBoard, played_boards
from tournaments.models import Competition, Round, ScoreSheet

POSITIONS = range(4)  # N E S W


def compares_boards(method_key: str) -> bool:
    """Whether the standings method ``method_key`` ranks by comparing boards (unknown keys do not)."""
    method = METHODS.get(method_key)
    return method is not None and method.compares_boards


def board_records(lines: Sequence[PlayedBoard]) -> dict[tuple[int, int], BoardScore]:
    """{(table id, player id): their record} for one board's ``lines``, one per table that played it.

    Each position's points are compared with that position's points at every other table; a player only has a
    record for the position they held (a table of five's dealer holds none).
    """
    out: dict[tuple[int, int], BoardScore] = {}
    for position in POSITIONS:
        held = [line for line in lines if position in line.points_of and position in line.player_of]
        for line in held:
            others = tuple(other.points_of[position] for other in held if other is not line)
            out[line.table_id, line.player_of[position]] = BoardScore(line.board, line.points_of[position], others)
    return out


def round_board_records(round_: Round) -> dict[tuple[int, int], list[BoardScore]]:
    """{(table id, player id): their records on the round's boards, by board number}."""
    out: dict[tuple[int, int], list[BoardScore]] = defaultdict(list)
    for _board, lines in sorted(played_boards(round_).items()):
        for key, record in board_records(lines).items():
            out[key].append(record)
    return out


def with_boards(competition_id: int, sessions: list[SessionResult]) -> list[SessionResult]:
    """``sessions`` with each one's ``boards`` filled when the competition is duplicate and ranks by comparison.

    A session is a sheet (``session_id``); its table's records are the player's boards of that round.
    """
    competition = Competition.objects.filter(pk=competition_id, duplicate=True).first()
    if competition is None or not compares_boards(competition.standings_method):
        return sessions
    records: dict[tuple[int, int], list[BoardScore]] = {}
    for round_ in Round.objects.filter(competition=competition).select_related("competition"):
        records.update(round_board_records(round_))
    table_of = dict(ScoreSheet.objects.filter(table__round__competition=competition).values_list("pk", "table_id"))
    return [
        dataclasses.replace(
            session, boards=tuple(records.get((table_of.get(session.session_id, -1), session.player_id), ()))
        )
        for session in sessions
    ]


def method_problems(competition: Any) -> dict[str, str]:
    """The comparison methods need a duplicate competition: elsewhere no two tables hold the same cards."""
    if competition.duplicate or not compares_boards(competition.standings_method):
        return {}
    from scoring.explanations import NAMES

    method = METHODS[competition.standings_method]
    return {
        "standings_method": _(
            "%(method)s compares each player's score with the scores of the same hand at the other tables, "
            "so it is for duplicate competitions only. Tick “duplicate” or choose another standings method."
        )
        % {"method": NAMES.get(method.name.lower(), method.name)}
    }
