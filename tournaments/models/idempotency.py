from django.conf import settings
from django.db import models


class IdempotentRequest(models.Model):
    """A POST made with an ``Idempotency-Key``: a retry gets the first response back instead of a second write."""

    class State(models.TextChoices):
        PENDING = "pending"
        DONE = "done"

    key = models.CharField(max_length=255)
    # Anonymous senders are told apart by their table code: two tables may pick the same key.
    scope = models.CharField(max_length=40, default="", blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    # method, path and body hash: the same key with another request is refused, not replayed
    fingerprint = models.CharField(max_length=64)
    state = models.CharField(max_length=8, choices=State.choices, default=State.PENDING)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    response = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # the beat job deletes expired claims by age (tournaments.services.idempotency)
        indexes = [models.Index(fields=["created_at"], name="idempotency_created_at")]
        constraints = [
            models.UniqueConstraint(fields=["key", "user"], name="idempotency_key_once_per_user"),
            models.UniqueConstraint(
                fields=["key", "scope"], condition=models.Q(user__isnull=True), name="idempotency_key_once_anonymous"
            ),
        ]
