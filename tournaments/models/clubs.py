from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    slug = models.SlugField(unique=True)
    city = models.CharField(_("city"), max_length=80, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    first_name = models.CharField(_("first name"), max_length=80)
    last_name = models.CharField(_("last name"), max_length=80)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    federation_id = models.CharField(_("federation id"), max_length=32, null=True, blank=True, unique=True)
    # What public pages show: the name the player chose (empty: first name and initial).
    display_name = models.CharField(_("display name"), max_length=80, blank=True)
    anonymised_at = models.DateTimeField(_("anonymised at"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["last_name", "first_name", "id"]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    def clean(self) -> None:
        """Public names are unambiguous (``tournaments.public_names``): a chosen name nobody else shows; without
        one, the default name, made longer when another player shows it already."""
        from tournaments import public_names

        super().clean()
        self.display_name = " ".join(self.display_name.split())
        if self.anonymised_at is not None:
            return
        if self.display_name and public_names.taken(self.display_name, self):
            raise ValidationError(
                {
                    "display_name": _("Another player is shown as %(name)s: choose another name.")
                    % {"name": self.display_name}
                }
            )
        if not self.display_name and self.first_name:
            self.display_name = public_names.unambiguous_default(self)

    @property
    def public_name(self) -> str:
        """What the public sees: the display name the player chose, else first name and initial ("Anna P.")."""
        if self.display_name:
            return self.display_name
        initial = f" {self.last_name[:1]}." if self.last_name else ""
        return f"{self.first_name}{initial}".strip()


class Membership(models.Model):
    """A player's membership of a club; ``is_admin`` lets them run the club's competitions."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    is_admin = models.BooleanField(_("club administrator"), default=False)
    joined_on = models.DateField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "player"], name="membership_once_per_club")]

    def __str__(self) -> str:
        return f"{self.player} @ {self.club}"
