"""Self check-in for league evenings: a registered player says "I'm here" from their phone.

A competition has one venue code (``VenueCode``), printed on the poster beside its QR code; whoever types it
with a registered player's public name, or a player signed in with their own account, checks that player in
for the round about to be seated (``CheckIn``). The organiser seats who checked in (``tournaments.checkin``).
"""

from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import limits
from tournaments.models.competitions import Competition, Registration
from tournaments.models.guarded import Guarded
from tournaments.models.sheets import new_table_code


class VenueCode(Guarded, models.Model):
    """The code on a competition's check-in poster: 16 characters of Crockford's base 32, as a table code."""

    competition = models.OneToOneField(Competition, on_delete=models.CASCADE, related_name="venue_code")
    code = models.CharField(_("venue code"), max_length=24, unique=True, default=new_table_code)
    changed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Venue code of {self.competition}"


class CheckIn(Guarded, models.Model):
    """A registered player is present for round ``round_number`` (a round to come, or one not yet in play)."""

    class Via(models.TextChoices):
        ACCOUNT = "account", _("Own account")
        CODE = "code", _("Name and venue code")

    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="check_ins")
    round_number = models.PositiveSmallIntegerField(_("round"), validators=limits.ROUND_NUMBER.validators())
    via = models.CharField(_("checked in with"), max_length=16, choices=Via.choices)
    device = models.CharField(_("device"), max_length=32, blank=True)  # tournaments.devices: a mark, not the token
    checked_in_at = models.DateTimeField(_("checked in at"), default=timezone.now)

    class Meta:
        ordering = ["round_number", "checked_in_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["registration", "round_number"], name="check_in_once"),
            limits.ROUND_NUMBER.check("round_number", "check_in_round_number_range"),
            models.CheckConstraint(condition=models.Q(via__in=["account", "code"]), name="check_in_via_known"),
        ]

    def __str__(self) -> str:
        return f"Check-in of registration {self.registration_id} for round {self.round_number}"

    def clean(self) -> None:
        super().clean()
        registration = Registration.objects.select_related("competition").filter(pk=self.registration_id).first()
        if registration is None:
            return
        if registration.competition.closed_at is not None:
            raise ValidationError(
                _("%(competition)s is closed: nobody checks in any more.") % {"competition": registration.competition}
            )
        if registration.withdrawn_at is not None:
            raise ValidationError(_("This player has withdrawn from the competition."))
