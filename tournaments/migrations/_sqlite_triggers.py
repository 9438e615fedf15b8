"""SQLite rebuilds a table to add or change a column, and a rebuild breaks or drops the triggers of 0003.

A migration that changes a column of a table those triggers name runs ``around_sqlite_rebuild`` around its
operations: the triggers are dropped first and created again after (PostgreSQL alters in place: nothing to do).
"""

from __future__ import annotations

import importlib
from typing import Any

from django.db import migrations

_LOCKS = importlib.import_module("tournaments.migrations.0003_audit_locks_privacy")


def _on_sqlite(statements: list[str]) -> Any:
    def run(apps: Any, schema_editor: Any) -> None:
        if schema_editor.connection.vendor == "sqlite":
            for sql in statements:
                schema_editor.execute(sql, params=None)

    return run


def around_sqlite_rebuild(*operations: Any) -> list[Any]:
    drop, create = _on_sqlite(_LOCKS.SQLITE_REVERSE), _on_sqlite(_LOCKS.SQLITE)
    return [migrations.RunPython(drop, create), *operations, migrations.RunPython(create, drop)]
