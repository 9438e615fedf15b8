"""A score-sheet line the way players write it: contract, level, trump, declarers by name, tricks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tournaments.contract_names import contract_name


def describe_line(line: Mapping[str, Any], names: Sequence[str], game: str) -> str:
    """``line`` (the engine's keys, positions from 0) in words; ``names[i]`` sits at seat ``i + 1``."""
    return str(contract_name(str(line.get("contract", ""))))
