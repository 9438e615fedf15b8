"""A table's last contact: when a device holding its table code last reached the server (issue 18).

When a café's Wi-Fi drops, the organiser's progress table shows which tables have gone quiet. Every request of
the entry page (the page, its keystroke preview, a save, a confirmation) or of the API with the table's code
counts. Kept in the shared cache, not the database: a contact is written at most once per ``EVERY`` seconds
a sheet, so a table typing fast costs a cache read a request and no writes to the database; a cache that restarts
forgets when tables were last seen, which the next request of each table tells again.

Best effort: with the cache unreachable (Redis down) a line is still saved and the progress table still shows;
only the contacts are missing meanwhile (a warning in the log says why).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from datetime import UTC, datetime

from django.core.cache import cache

EVERY = 15  # seconds: how stale "last contact" may be
KEEP = 24 * 3600  # a contact older than a day says nothing about tonight
log = logging.getLogger(__name__)


def _key(sheet_id: int) -> str:
    return f"table-contact:{sheet_id}"


def note(sheet_id: int, now: float | None = None) -> None:
    """``sheet_id``'s table reached the server now."""
    now = time.time() if now is None else now
    try:
        seen = cache.get(_key(sheet_id))
        if seen is None or now - seen >= EVERY:
            cache.set(_key(sheet_id), now, KEEP)
    except Exception as exc:
        log.warning("could not note the contact of sheet %s: %s", sheet_id, exc)


def last_contacts(sheet_ids: Iterable[int]) -> dict[int, datetime]:
    """Each sheet's last contact (those never seen are left out), read in one round trip."""
    ids = list(sheet_ids)
    try:
        found = cache.get_many([_key(i) for i in ids])
    except Exception as exc:
        log.warning("could not read the tables' last contacts: %s", exc)
        return {}
    return {i: datetime.fromtimestamp(found[_key(i)], UTC) for i in ids if _key(i) in found}
