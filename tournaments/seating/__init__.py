"""Pure-Python seating schedules for Wiezen tournaments (no Django)."""

from .generators import (
    GENERATORS,
    GreedySeating,
    RandomSeating,
    ScheduleSeating,
    SeatingGenerator,
    find,
    repeat_free_rounds,
    repeated_pairs,
    table_sizes,
)

__all__ = [
    "GENERATORS",
    "GreedySeating",
    "RandomSeating",
    "ScheduleSeating",
    "SeatingGenerator",
    "find",
    "repeat_free_rounds",
    "repeated_pairs",
    "table_sizes",
]
