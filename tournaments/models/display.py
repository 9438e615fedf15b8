"""The venue's projector display: a round clock per round, and the organiser's announcements per competition.

The clock is stored so the remaining time follows from the server's clock alone: when it runs, the moment it ends
(``ends_at``); when it is paused, the time that was left (``remaining``). Every display and entry page computes the
same remaining time from these and the server's current time, and a reload shows it again
(``tournaments.display``).
"""

from datetime import timedelta

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models.competitions import Competition, Round

#: the longest a round clock runs (a whole evening), and the longest an announcement is
CLOCK_MAX = timedelta(hours=12)
ANNOUNCEMENT_MAX_LENGTH = 280


class RoundClock(models.Model):
    """A round's clock: stopped, running until ``ends_at``, or paused with ``remaining`` left."""

    class State(models.TextChoices):
        STOPPED = "stopped", _("Stopped")
        RUNNING = "running", _("Running")
        PAUSED = "paused", _("Paused")

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="clock")
    state = models.CharField(_("state"), max_length=8, choices=State.choices, default=State.STOPPED)
    duration = models.DurationField(_("duration"), default=timedelta(0))
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    ends_at = models.DateTimeField(_("ends at"), null=True, blank=True)
    remaining = models.DurationField(_("time left"), null=True, blank=True)
    changed_at = models.DateTimeField(_("changed at"), default=timezone.now)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(state__in=["stopped", "running", "paused"]), name="round_clock_state_known"
            ),
            models.CheckConstraint(
                condition=models.Q(duration__gte=timedelta(0), duration__lte=CLOCK_MAX),
                name="round_clock_duration_range",
            ),
            models.CheckConstraint(
                condition=models.Q(remaining__isnull=True)
                | models.Q(remaining__gte=timedelta(0), remaining__lte=CLOCK_MAX),
                name="round_clock_remaining_range",
            ),
            # what each state keeps: an end when running, the time left when paused, neither when stopped
            models.CheckConstraint(
                condition=models.Q(
                    state="running", ends_at__isnull=False, started_at__isnull=False, remaining__isnull=True
                )
                | models.Q(state="paused", ends_at__isnull=True, started_at__isnull=False, remaining__isnull=False)
                | models.Q(state="stopped", ends_at__isnull=True, remaining__isnull=True),
                name="round_clock_state_fields",
            ),
        ]

    def __str__(self) -> str:
        return f"Clock of {self.round}"


class Announcement(models.Model):
    """A line the organiser types for the venue's screen; shown until hidden."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="announcements")
    text = models.CharField(_("announcement"), max_length=ANNOUNCEMENT_MAX_LENGTH)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    hidden_at = models.DateTimeField(_("hidden at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.CheckConstraint(condition=~models.Q(text=""), name="announcement_text_not_empty")]

    def __str__(self) -> str:
        return self.text[:40]

    @property
    def active(self) -> bool:
        return self.hidden_at is None
