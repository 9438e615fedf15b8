"""Small line charts drawn on the server as inline SVG: no script, nothing for the CSP to allow.

Only the geometry is computed here (plain numbers in, coordinates out); the template draws the SVG and a page
gives the same numbers as a table beside it, for screen readers and for anyone who wants the values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 320
HEIGHT = 120
LEFT = 40  # room for the value labels
TOP = 8
BOTTOM = 8


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    value: int
    label: str


@dataclass(frozen=True)
class LineChart:
    width: int
    height: int
    points: str  # the polyline's "x,y x,y ..."
    dots: list[Dot]
    low: int
    high: int
    low_y: float
    high_y: float
    zero_y: float  # the zero line (the series starts at zero, so it is always in range)

    @property
    def view_box(self) -> str:
        return f"0 0 {self.width} {self.height}"

    @property
    def left(self) -> int:
        return LEFT


def line_chart(values: Sequence[int], labels: Sequence[str]) -> LineChart | None:
    """A chart of ``values`` in order (cumulative points after each session), starting from zero; None if empty."""
    if not values:
        return None
    series = [0, *values]
    low, high = min(series), max(series)
    span = (high - low) or 1
    step = (WIDTH - LEFT - 4) / (len(series) - 1)

    def y(value: int) -> float:
        return round(TOP + (high - value) / span * (HEIGHT - TOP - BOTTOM), 1)

    coordinates = [(round(LEFT + i * step, 1), y(v)) for i, v in enumerate(series)]
    dots = [Dot(x, y_, v, label) for (x, y_), v, label in zip(coordinates[1:], values, labels, strict=True)]
    return LineChart(
        width=WIDTH,
        height=HEIGHT,
        points=" ".join(f"{x},{y_}" for x, y_ in coordinates),
        dots=dots,
        low=low,
        high=high,
        low_y=y(low),
        high_y=y(high),
        zero_y=y(0),
    )
