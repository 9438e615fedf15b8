"""The database refuses what a lock keeps, whatever the path: no registration in a closed competition, no seat
added to or changed in a finalised round or a closed competition (beside 0003's lines and penalties).

SQLite statements say ``IF NOT EXISTS``: ``_sqlite_triggers.around_sqlite_rebuild`` creates them again after a
later migration rebuilds a table. Deleting stays possible for the database (the admin and services refuse it;
test databases are emptied with DELETE).
"""

from django.db import migrations

CLOSED = "SELECT 1 FROM tournaments_competition c WHERE c.id = NEW.competition_id AND c.closed_at IS NOT NULL"


def _seat_locked(row: str) -> str:
    return (
        "SELECT 1 FROM tournaments_round r JOIN tournaments_competition c ON c.id = r.competition_id "
        f"WHERE r.id = {row}.round_id AND (r.status = 'finalised' OR c.closed_at IS NOT NULL)"
    )


POSTGRESQL = [
    f"""CREATE FUNCTION tournaments_refuse_closed_registration() RETURNS trigger AS $$
    BEGIN
        IF EXISTS ({CLOSED}) THEN
            RAISE EXCEPTION 'season closed: no more registrations' USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END $$ LANGUAGE plpgsql""",
    "CREATE TRIGGER registration_locked BEFORE INSERT ON tournaments_registration "
    "FOR EACH ROW EXECUTE FUNCTION tournaments_refuse_closed_registration()",
    f"""CREATE FUNCTION tournaments_refuse_locked_seat() RETURNS trigger AS $$
    BEGIN
        IF TG_OP = 'UPDATE' THEN
            IF EXISTS ({_seat_locked("OLD")}) THEN
                RAISE EXCEPTION 'round finalised or season closed: its seats stay' USING ERRCODE = 'check_violation';
            END IF;
        END IF;
        IF EXISTS ({_seat_locked("NEW")}) THEN
            RAISE EXCEPTION 'round finalised or season closed: its seats stay' USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END $$ LANGUAGE plpgsql""",
    "CREATE TRIGGER seat_locked BEFORE INSERT OR UPDATE ON tournaments_seat "
    "FOR EACH ROW EXECUTE FUNCTION tournaments_refuse_locked_seat()",
]
POSTGRESQL_REVERSE = [
    "DROP TRIGGER IF EXISTS registration_locked ON tournaments_registration",
    "DROP FUNCTION IF EXISTS tournaments_refuse_closed_registration()",
    "DROP TRIGGER IF EXISTS seat_locked ON tournaments_seat",
    "DROP FUNCTION IF EXISTS tournaments_refuse_locked_seat()",
]
SQLITE = [
    f"""CREATE TRIGGER IF NOT EXISTS registration_locked BEFORE INSERT ON tournaments_registration
    WHEN EXISTS ({CLOSED}) BEGIN SELECT RAISE(ABORT, 'season closed: no more registrations'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS seat_locked_insert BEFORE INSERT ON tournaments_seat
    WHEN EXISTS ({_seat_locked("NEW")})
    BEGIN SELECT RAISE(ABORT, 'round finalised or season closed: its seats stay'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS seat_locked_update BEFORE UPDATE ON tournaments_seat
    WHEN EXISTS ({_seat_locked("OLD")}) OR EXISTS ({_seat_locked("NEW")})
    BEGIN SELECT RAISE(ABORT, 'round finalised or season closed: its seats stay'); END""",
]
SQLITE_REVERSE = [
    "DROP TRIGGER IF EXISTS registration_locked",
    "DROP TRIGGER IF EXISTS seat_locked_insert",
    "DROP TRIGGER IF EXISTS seat_locked_update",
]


def _run(statements: dict[str, list[str]]):  # type: ignore[no-untyped-def]
    def run(apps, schema_editor):  # type: ignore[no-untyped-def]
        for sql in statements.get(schema_editor.connection.vendor, []):
            schema_editor.execute(sql, params=None)  # no placeholders: RAISE uses % itself

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0008_longer_table_codes"),
    ]

    operations = [
        migrations.RunPython(
            _run({"postgresql": POSTGRESQL, "sqlite": SQLITE}),
            _run({"postgresql": POSTGRESQL_REVERSE, "sqlite": SQLITE_REVERSE}),
        ),
    ]
