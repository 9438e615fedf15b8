"""A player's own rank line in each competition they played, drawn bold over the field's top ten (faint)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tournaments.models import Competition, Player
from tournaments.progression.selectors import competition_progression
from tournaments.progression.services import Cell, Chart, chart

FIELD = 10  # the top players drawn faint behind the player's own line


@dataclass(frozen=True)
class OwnRound:
    round: int
    cell: Cell


@dataclass(frozen=True)
class PlayerProgression:
    competition: Competition
    chart: Chart | None
    rounds: list[OwnRound]  # the player's rank and points after each round, for the table beside the chart
    league: bool


def player_progression(competition: Competition, player: Player, *, manages: bool) -> PlayerProgression | None:
    """The player's rank after each round of ``competition``, as the progression page computes it for this viewer
    (cached per version), against the field's top ten; None when they have no rank in it."""
    data = competition_progression(competition, manages=manages)
    own = data.line_of(player.pk)
    if own is None or not any(cell is not None for cell in own.cells):
        return None
    field = [line for line in data.lines if line.final is not None and line.final.rank][:FIELD]
    drawn = [(line, "faint") for line in field if line.player_id != player.pk] + [(own, "bold")]
    return PlayerProgression(
        competition,
        chart(data.rounds, drawn),
        [OwnRound(number, cell) for number, cell in zip(data.rounds, own.cells, strict=True) if cell],
        competition.kind == Competition.Kind.LEAGUE,
    )


def played_competitions(competitions: Iterable[Competition]) -> list[Competition]:
    """Each competition once, in the order given (the player page's sessions, oldest first)."""
    seen: dict[int, Competition] = {}
    for competition in competitions:
        seen.setdefault(competition.pk, competition)
    return list(seen.values())
