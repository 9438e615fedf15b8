"""A round event's reason gets a length limit (500); idempotency claims are found by age, for their expiry."""

from django.db import migrations, models
from django.db.models.functions import Length, Substr

from tournaments.migrations._sqlite_triggers import around_sqlite_rebuild

REASON_MAX_LENGTH = 500


def shorten_reasons(apps, schema_editor):
    """Reasons were unlimited text: keep the first 500 characters of a longer one (the column could not hold it)."""
    RoundEvent = apps.get_model("tournaments", "RoundEvent")
    longer = RoundEvent.objects.annotate(length=Length("reason")).filter(length__gt=REASON_MAX_LENGTH)
    longer.update(reason=Substr("reason", 1, REASON_MAX_LENGTH))


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0006_integer_ranges"),
    ]

    operations = around_sqlite_rebuild(
        migrations.RunPython(shorten_reasons, migrations.RunPython.noop),
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
