"""Seating wishes of a competition and the log of every round's lifecycle."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.guarded import Guarded
from tournaments.text_limits import REASON_MAX_LENGTH


class SeatingWish(Guarded, models.Model):
    """Two players to keep apart (a feud, a family at the same table) or together (one car, one interpreter)."""

    class Kind(models.TextChoices):
        APART = "apart", _("Keep apart")
        TOGETHER = "together", _("Keep together")

    competition = models.ForeignKey("tournaments.Competition", on_delete=models.CASCADE, related_name="seating_wishes")
    player = models.ForeignKey("tournaments.Player", on_delete=models.CASCADE, related_name="+")
    other = models.ForeignKey("tournaments.Player", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["competition", "player", "other"], name="seating_wish_once"),
            models.CheckConstraint(condition=~models.Q(player=models.F("other")), name="seating_wish_two_players"),
            models.CheckConstraint(condition=models.Q(kind__in=["apart", "together"]), name="seating_wish_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.player} / {self.other}: {self.get_kind_display()}"


class RoundEvent(models.Model):
    """One step of a round's life (seated, swapped, published, finalised, reopened…): who, when, why."""

    round = models.ForeignKey("tournaments.Round", on_delete=models.CASCADE, related_name="events")
    action = models.CharField(_("action"), max_length=16)
    from_status = models.CharField(max_length=16, blank=True)
    to_status = models.CharField(max_length=16, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    reason = models.CharField(_("reason"), max_length=REASON_MAX_LENGTH, blank=True)
    detail = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round", "at", "id"]

    def __str__(self) -> str:
        return f"{self.round}: {self.action}"
