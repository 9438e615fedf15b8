"""SQLite rebuilds a table to add or change a column, and a rebuild breaks or drops the triggers of 0003.

A migration that changes a column of a table those triggers name runs ``around_sqlite_rebuild`` around its
operations: the triggers are dropped first and created again after (PostgreSQL alters in place: nothing to do).
"""

from __future__ import annotations

import importlib
from typing import Any

from django.db import migrations

_LOCKS = importlib.import_module("tournaments.migrations.0003_audit_locks_privacy")
# 0009's registration and seat locks (``IF NOT EXISTS``: a rebuild before 0009 creates them early, harmlessly)
_MORE_LOCKS = importlib.import_module("tournaments.migrations.0009_registration_and_seat_locks")


def _on_sqlite(statements: list[str]) -> Any:
    def run(apps: Any, schema_editor: Any) -> None:
        if schema_editor.connection.vendor == "sqlite":
            for sql in statements:
                schema_editor.execute(sql, params=None)

    return run


def around_sqlite_rebuild(*operations: Any) -> list[Any]:
    drop = _on_sqlite(_LOCKS.SQLITE_REVERSE + _MORE_LOCKS.SQLITE_REVERSE)
    create = _on_sqlite(_LOCKS.SQLITE + _MORE_LOCKS.SQLITE)
    return [migrations.RunPython(drop, create), *operations, migrations.RunPython(create, drop)]
