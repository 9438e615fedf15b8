"""The audit trail: who changed which result, seating, rule set or membership, when, from where, before/after.

Rows are only ever added. They hold plain ids and names rather than foreign keys, so deleting a competition or
a user leaves its history readable, and the database refuses to update them (a trigger, see the migration).
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class AuditEvent(models.Model):
    class Action(models.TextChoices):
        CREATE = "create", _("Created")
        CHANGE = "change", _("Changed")
        DELETE = "delete", _("Deleted")
        RESTORE = "restore", _("Restored")
        CONFIRM = "confirm", _("Confirmed")
        REJECT = "reject", _("Rejected")

    at = models.DateTimeField(auto_now_add=True, db_index=True)
    action = models.CharField(_("action"), max_length=8, choices=Action.choices)
    model = models.CharField(_("what"), max_length=32)  # "dealentry", "round", "ruleset", "membership"…
    object_id = models.CharField(max_length=64)
    competition_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    user_id = models.BigIntegerField(null=True, blank=True)
    username = models.CharField(_("who"), max_length=150, blank=True)
    ip = models.GenericIPAddressField(_("from"), null=True, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["model", "object_id"], name="audit_object")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.username or '-'} {self.action} {self.model} {self.object_id}"
