"""A round event's reason gets a length limit (500), a line's note 200; idempotency claims are found by age."""

from django.db import migrations, models
from django.db.models.functions import Length, Substr

from tournaments.migrations._sqlite_triggers import around_sqlite_rebuild

REASON_MAX_LENGTH = 500


def shorten_reasons(apps, schema_editor):
    """Reasons were unlimited text: keep the first 500 characters of a longer one (the column could not hold it)."""
    RoundEvent = apps.get_model("tournaments", "RoundEvent")
    longer = RoundEvent.objects.annotate(length=Length("reason")).filter(length__gt=REASON_MAX_LENGTH)
    longer.update(reason=Substr("reason", 1, REASON_MAX_LENGTH))


NOTE_MAX_LENGTH = 200


def shorten_notes(apps, schema_editor):
    """A line's note is now at most 200 characters (games.lines.NOTE_MAX_LENGTH), and a sheet's stored lines are
    checked again whenever a line is added: a longer stored note would leave its sheet unable to take any line."""
    DealEntry = apps.get_model("tournaments", "DealEntry")
    for entry in DealEntry.objects.filter(line__has_key="note").only("pk", "line").iterator():
        note = entry.line.get("note")
        if isinstance(note, str) and len(note) > NOTE_MAX_LENGTH:
            DealEntry.objects.filter(pk=entry.pk).update(line={**entry.line, "note": note[:NOTE_MAX_LENGTH]})


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0006_integer_ranges"),
    ]

    operations = around_sqlite_rebuild(
        migrations.RunPython(shorten_reasons, migrations.RunPython.noop),
        migrations.RunPython(shorten_notes, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="roundevent",
            name="reason",
            field=models.CharField(blank=True, max_length=500, verbose_name="reason"),
        ),
        migrations.AddIndex(
            model_name="idempotentrequest",
            index=models.Index(fields=["created_at"], name="idempotency_created_at"),
        ),
    )
