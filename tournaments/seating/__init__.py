"""Pure-Python seating for Wiezen tournaments and leagues (no Django): generators, designs, re-seating."""

from .core import Problem, SeatingError, SeatingRequest, repeat_free_rounds, repeated_pairs, table_sizes
from .generators import GENERATORS, Generator, find, seating_problems

__all__ = [
    "GENERATORS",
    "Generator",
    "Problem",
    "SeatingError",
    "SeatingRequest",
    "find",
    "repeat_free_rounds",
    "repeated_pairs",
    "seating_problems",
    "table_sizes",
]
