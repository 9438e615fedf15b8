"""Rank and points after every round, and the geometry of a chart of them: pure, no database.

The rank after round k is exactly what the standings would have said then: ``scoring.services.rank_competition``
(the competition's method, tie-breaks and league options) over the sessions of rounds up to k and the penalties
dated up to k; undated penalties count in every round, as the season table counts them. So the last column is the
standings table itself, and a player who skipped a round keeps a rank (usually a lower one) for it.

Each column is kept by a digest of what it was computed from (``round_digests``), so a new line in the current
round computes that round's column again, not the whole season's: the cost follows the new results, not history.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from scoring.records import Penalty, SessionResult
from scoring.services import rank_competition
from tournaments.models import Competition


@dataclass(frozen=True)
class Cell:
    """One player's standing after one round."""

    rank: int  # 0: not ranked yet (fewer evenings than the competition asks)
    points: int  # session points minus penalties, as the standings' Points column
    shared: bool  # level with someone on every tie-break
    played: bool  # had a session in this round (False: skipped it, the rank is from the rounds before)


@dataclass(frozen=True)
class Line:
    player_id: int
    name: str  # as the viewer may see it (``tournaments.services.privacy``)
    cells: tuple[Cell | None, ...]  # one per round; None: not in the standings yet

    @property
    def final(self) -> Cell | None:
        return self.cells[-1] if self.cells else None


@dataclass(frozen=True)
class Progression:
    rounds: tuple[int, ...]  # the round numbers with results, in order
    lines: tuple[Line, ...]  # in the order of the standings after the last round

    def line_of(self, player_id: int) -> Line | None:
        return next((line for line in self.lines if line.player_id == player_id), None)


Column = tuple[tuple[int, Cell], ...]  # the standings after one round: (player id, cell) in their order


class ColumnStore(Protocol):
    """Where columns already computed are kept, by the digest of what they were computed from (the shared cache)."""

    def get_many(self, keys: list[str]) -> dict[str, Column]: ...

    def set_many(self, columns: dict[str, Column]) -> None: ...


def round_digests(
    sessions: Sequence[SessionResult], penalties: Sequence[Penalty], registered: Sequence[int], rounds: Sequence[int]
) -> list[str]:
    """For each of ``rounds``, a digest of everything the standings after it are computed from: the registered
    players, the sessions up to it, the penalties dated up to it or undated. A new line in the last round changes
    only the last digest, so only that column is computed again."""
    running = hashlib.sha256(repr(sorted(registered)).encode())
    running.update(repr(sorted((p for p in penalties if p.evening is None), key=repr)).encode())
    ordered = sorted(sessions, key=lambda s: (s.evening, s.session_id, s.player_id))
    dated = sorted((p for p in penalties if p.evening is not None), key=lambda p: (p.evening, repr(p)))
    digests: list[str] = []
    i = j = 0
    for number in rounds:
        while i < len(ordered) and ordered[i].evening <= number:
            running.update(repr(ordered[i]).encode())
            i += 1
        while j < len(dated) and (dated[j].evening or 0) <= number:
            running.update(repr(dated[j]).encode())
            j += 1
        digests.append(running.copy().hexdigest())
    return digests


def column(
    competition: Competition,
    sessions: Sequence[SessionResult],
    penalties: Sequence[Penalty],
    registered: Sequence[int],
    number: int,
) -> Column:
    """The standings after round ``number``: ``rank_competition`` over the sessions and penalties up to it."""
    upto = [s for s in sessions if s.evening <= number]
    dated = [p for p in penalties if p.evening is None or p.evening <= number]
    played = {s.player_id for s in upto if s.evening == number}
    rows = rank_competition(competition, upto, dated, registered)
    # ranked first by rank and id, then those not ranked: the standings' own order
    return tuple((r.player_id, Cell(r.rank, r.points, r.shared, r.player_id in played)) for r in rows)


def progression(
    competition: Competition,
    sessions: Iterable[SessionResult],
    penalties: Iterable[Penalty],
    registered: Iterable[int],
    names: Mapping[int, str],
    store: ColumnStore | None = None,
) -> Progression:
    """Every player's rank and points after each round that has results (a session with deals); the columns
    ``store`` holds already are taken from it, the others computed and given to it."""
    all_sessions = list(sessions)
    all_penalties = list(penalties)
    listed = list(registered)
    rounds = tuple(sorted({s.evening for s in all_sessions if s.deals > 0}))
    keys = round_digests(all_sessions, all_penalties, listed, rounds) if store is not None else []
    known = store.get_many(keys) if store is not None else {}
    computed: dict[str, Column] = {}
    columns: list[Column] = []
    for index, number in enumerate(rounds):
        key = keys[index] if keys else ""
        found = known.get(key) if key else None
        if found is None:
            found = column(competition, all_sessions, all_penalties, listed, number)
            if key:
                computed[key] = found
        columns.append(found)
    if store is not None and computed:
        store.set_many(computed)
    after = [dict(c) for c in columns]
    order = [pid for pid, _ in columns[-1]] if columns else []
    return Progression(
        rounds,
        tuple(
            Line(pid, names.get(pid, "?"), tuple(cells.get(pid) for cells in after))
            for pid in order  # everyone in the last standings: nobody leaves them once in
        ),
    )


# -- the chart ------------------------------------------------------------------------------------------------------

WIDTH = 600  # at most: a few rounds make a narrower chart, which fits a phone without scrolling
NARROWEST = 340
ROUND_WIDTH = 56  # horizontal room per round
HEIGHT = 320
LEFT = 40  # room for the rank labels
RIGHT = 40  # room for the final ranks at the lines' ends
TOP = 12
BOTTOM = 28  # room for the round labels
# dark enough for 3:1 against white (WCAG 1.4.11), told apart by dashes too where colours are hard to tell apart
COLOURS = (
    "#0b6e4f",
    "#1f5fa8",
    "#b3261e",
    "#7a3e9d",
    "#8c4b16",
    "#0e6a80",
    "#4d6b0f",
    "#b0185a",
    "#374151",
    "#9a3412",
)
DASHES = ("", "", "", "", "", "6 3", "6 3", "6 3", "2 3", "2 3")
FAINT = "#9aa3ad"


@dataclass(frozen=True)
class Vertex:
    x: float
    y: float
    round: int
    cell: Cell


@dataclass(frozen=True)
class Series:
    line: Line
    path: str  # an SVG path: "M x y L x y ..." with a gap where the player has no rank
    vertices: tuple[Vertex, ...]
    colour: str
    dash: str
    style: str  # "bold" (the player looked for), "normal" or "faint" (the field behind)
    end: Vertex | None  # the last ranked point, labelled with the rank

    @property
    def stroke_width(self) -> int:
        return {"bold": 3, "faint": 1}.get(self.style, 2)


@dataclass(frozen=True)
class Tick:
    at: float
    label: int


@dataclass(frozen=True)
class Chart:
    series: tuple[Series, ...]  # faint first, bold last: drawn over the others
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    worst: int  # the lowest rank drawn (bottom of the axis)
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    top: int = TOP

    @property
    def view_box(self) -> str:
        return f"0 0 {self.width} {self.height}"

    @property
    def right(self) -> int:
        return self.width - RIGHT

    @property
    def bottom(self) -> int:
        return self.height - BOTTOM

    @property
    def label_y(self) -> int:
        return self.height - 8


def _step(span: int) -> int:
    """A round step between rank labels so that about six labels fit."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span / step <= 6:
            return step
    return span


def chart(rounds: Sequence[int], styled: Sequence[tuple[Line, str]]) -> Chart | None:
    """Rank (1 at the top) against rounds for ``styled`` lines, each "bold", "normal" or "faint"; None if nothing
    has a rank. The vertical axis runs from 1 to the lowest rank any drawn line reaches."""
    ranks = [c.rank for line, _ in styled for c in line.cells if c is not None and c.rank]
    if not rounds or not ranks:
        return None
    worst = max(2, max(ranks))
    inner = HEIGHT - TOP - BOTTOM
    width = max(NARROWEST, min(WIDTH, LEFT + RIGHT + ROUND_WIDTH * (len(rounds) - 1)))
    span = width - LEFT - RIGHT
    step_x = span / (len(rounds) - 1) if len(rounds) > 1 else 0.0

    def x(i: int) -> float:
        return round(LEFT + i * step_x if len(rounds) > 1 else LEFT + span / 2, 1)

    def y(rank: int) -> float:
        return round(TOP + (rank - 1) / (worst - 1) * inner, 1)

    series: list[Series] = []
    coloured = 0
    for line, style in sorted(styled, key=lambda pair: {"faint": 0, "normal": 1}.get(pair[1], 2)):
        vertices: list[Vertex] = []
        parts: list[str] = []
        pen_down = False
        for i, cell in enumerate(line.cells):
            if cell is None or not cell.rank:
                pen_down = False
                continue
            vertex = Vertex(x(i), y(cell.rank), rounds[i], cell)
            vertices.append(vertex)
            parts.append(f"{'L' if pen_down else 'M'}{vertex.x} {vertex.y}")
            pen_down = True
        if style == "faint":
            colour, dash = FAINT, ""
        else:
            colour, dash = COLOURS[coloured % len(COLOURS)], DASHES[coloured % len(DASHES)]
            coloured += 1
        series.append(Series(line, " ".join(parts), tuple(vertices), colour, dash, style, (vertices or [None])[-1]))
    every = -(-len(rounds) // 15)  # a label for every round up to 15, then every other one, and so on
    step = _step(worst - 1)
    labels = sorted({1, worst, *range(step, worst, step)})
    # drop a label too close to the last one (they would overlap)
    near = max(1, step // 2)
    labels = [r for r in labels if r in (1, worst) or worst - r >= near]
    return Chart(
        tuple(series),
        tuple(Tick(x(i), n) for i, n in enumerate(rounds) if i % every == 0 or i == len(rounds) - 1),
        tuple(Tick(y(r), r) for r in labels),
        worst,
        width,
    )
