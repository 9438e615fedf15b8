"""The double-dummy solver of duplicate Wiezen: Wiezen's partnerships (any pair, one against three, miserie),
searched in C (``wiezendd.c``, built by ``make install``) and asked contract by contract by ``analysis``."""

from games.solver.analysis import Solved, analyse, deepen, troel_row
from games.solver.native import SolverUnavailable, bounds, reaches, solve

__all__ = ["Solved", "SolverUnavailable", "analyse", "bounds", "deepen", "reaches", "solve", "troel_row"]
