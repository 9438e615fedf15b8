"""Table codes of 80 bits (16 characters of Crockford's base 32, printed ``XXXX-XXXX-XXXX-XXXX``) instead of 32.

Every sheet gets a new code: an 8-hex code could be guessed. Cards printed before this migration no longer open
their sheet; print them again (the round's print page). Going back issues 8-hex codes again.
"""

import secrets

from django.db import migrations, models

import tournaments.models.sheets
from tournaments.migrations._sqlite_triggers import around_sqlite_rebuild

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # frozen here: the model's generator may change later


def _code() -> str:
    bare = "".join(secrets.choice(ALPHABET) for _ in range(16))
    return "-".join(bare[i : i + 4] for i in range(0, 16, 4))


def new_codes(apps, schema_editor):
    ScoreSheet = apps.get_model("tournaments", "ScoreSheet")
    for pk in ScoreSheet.objects.values_list("pk", flat=True):
        ScoreSheet.objects.filter(pk=pk).update(captain_code=_code())


def old_codes(apps, schema_editor):
    ScoreSheet = apps.get_model("tournaments", "ScoreSheet")
    for pk in ScoreSheet.objects.values_list("pk", flat=True):
        ScoreSheet.objects.filter(pk=pk).update(captain_code=secrets.token_hex(4))


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0007_text_limits_and_idempotency_expiry"),
    ]

    operations = around_sqlite_rebuild(
        migrations.AlterField(
            model_name="scoresheet",
            name="captain_code",
            field=models.CharField(
                default=tournaments.models.sheets.new_table_code,
                max_length=24,
                unique=True,
                verbose_name="table code",
            ),
        ),
        migrations.RunPython(new_codes, old_codes),
    )
