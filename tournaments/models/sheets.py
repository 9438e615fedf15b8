import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments import limits
from tournaments.models.guarded import Guarded

# Crockford's base 32: no I, L, O or U, so nothing reads as another character; typed I and L count as 1, O as 0.
TABLE_CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
TABLE_CODE_CHARACTERS = 16  # 16 x 5 = 80 bits: guessing is hopeless without any attempt limit (README, "Security")
_TYPOS = str.maketrans({"I": "1", "L": "1", "O": "0"})


def new_table_code() -> str:
    """A fresh table code, printed in four groups of four: ``7KQ2-M9XD-4HTB-0WZC`` (80 random bits)."""
    return format_table_code("".join(secrets.choice(TABLE_CODE_ALPHABET) for _ in range(TABLE_CODE_CHARACTERS)))


def format_table_code(typed: str) -> str:
    """A code as typed or scanned, in the one form stored: capitals, Crockford's look-alikes read as digits,
    spaces and dashes dropped, then grouped by four. Anything else (not a code) comes back without its spaces."""
    bare = "".join(c for c in typed.upper() if c not in " -_\t").translate(_TYPOS)
    if len(bare) != TABLE_CODE_CHARACTERS:
        return bare
    return "-".join(bare[i : i + 4] for i in range(0, TABLE_CODE_CHARACTERS, 4))


class ScoreSheet(Guarded, models.Model):
    """A table's session. Its lines are ``DealEntry`` versions; points are always computed, never typed."""

    class State(models.TextChoices):
        DRAFT = "draft", _("Draft")
        ENTERED = "entered", _("Entered")
        CONFIRMED = "confirmed", _("Confirmed")
        FINAL = "final", _("Final")

    table = models.OneToOneField("tournaments.Table", on_delete=models.CASCADE, related_name="sheet")
    state = models.CharField(_("state"), max_length=16, choices=State.choices, default=State.DRAFT)
    # Given to the table: whoever holds it may enter this sheet's lines (a tablet at the table, a captain's phone).
    captain_code = models.CharField(_("table code"), max_length=24, unique=True, default=new_table_code)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Sheet of {self.table}"


class DealEntry(Guarded, models.Model):
    """One version of one line of a sheet. A correction adds a version; older ones stay."""

    class Source(models.TextChoices):
        FORM = "form", _("Entry form")
        API = "api", _("API")
        IMPORT = "import", _("Import")
        DEMO = "demo", _("Demo data")
        RESETTLE = "resettle", _("Re-settled after a correction")
        RESTORE = "restore", _("An earlier version restored")

    sheet = models.ForeignKey(ScoreSheet, on_delete=models.CASCADE, related_name="entries")
    deal_number = models.PositiveSmallIntegerField(_("deal"), validators=limits.DEAL_NUMBER.validators())
    version = models.PositiveIntegerField(default=1, validators=limits.VERSION.validators())
    is_current = models.BooleanField(default=True)
    line = models.JSONField(_("line"))
    contract = models.CharField(_("contract"), max_length=32)
    points = models.JSONField(_("points by seat"))
    multiplier = models.PositiveSmallIntegerField(default=1)
    source = models.CharField(max_length=16, choices=Source.choices, default=Source.FORM)
    idempotency_key = models.CharField(max_length=255, null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The device that sent it (``tournaments.devices``: a hash of its token, ``dev:`` known or ``one:`` one-off), on
    # every path, so that the same person cannot also confirm the sheet. Empty: entered before devices had marks.
    entered_in = models.CharField(max_length=32, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["sheet", "deal_number", "version"]
        verbose_name_plural = "deal entries"
        constraints = [
            models.UniqueConstraint(fields=["sheet", "deal_number", "version"], name="entry_version_once"),
            models.UniqueConstraint(
                fields=["sheet", "deal_number"], condition=models.Q(is_current=True), name="one_current_entry_per_deal"
            ),
            models.UniqueConstraint(
                fields=["sheet", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="idempotency_key_once_per_sheet",
            ),
            models.CheckConstraint(condition=models.Q(deal_number__gte=1), name="entry_deal_positive"),
            models.CheckConstraint(condition=models.Q(version__gte=1), name="entry_version_positive"),
            limits.DEAL_NUMBER.check("deal_number", "entry_deal_range"),
            limits.VERSION.check("version", "entry_version_range"),
        ]

    def __str__(self) -> str:
        return f"{self.sheet}, deal {self.deal_number} v{self.version}"


class Penalty(Guarded, models.Model):
    """Points an organiser deducts from a player in a competition (lateness, conduct), outside any deal."""

    competition = models.ForeignKey("tournaments.Competition", on_delete=models.CASCADE, related_name="penalties")
    round = models.ForeignKey("tournaments.Round", null=True, blank=True, on_delete=models.CASCADE)
    player = models.ForeignKey("tournaments.Player", on_delete=models.PROTECT, related_name="penalties")
    points = models.PositiveIntegerField(_("points deducted"), validators=limits.PENALTY_POINTS.validators())
    reason = models.CharField(_("reason"), max_length=200)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "penalties"
        constraints = [
            models.CheckConstraint(condition=models.Q(points__gt=0), name="penalty_points_positive"),
            limits.PENALTY_POINTS.check("points", "penalty_points_range"),
        ]

    def __str__(self) -> str:
        return f"-{self.points} {self.player} ({self.reason})"


class SeatResult(Guarded, models.Model):
    """One seat's session total on one sheet, kept up to date by the entry service in the same transaction.

    Standings and statistics read these few rows instead of every deal line.
    """

    sheet = models.ForeignKey(ScoreSheet, on_delete=models.CASCADE, related_name="seat_results")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey("tournaments.Player", on_delete=models.CASCADE, related_name="seat_results")
    points = models.IntegerField(default=0)
    deals = models.PositiveSmallIntegerField(default=0)
    contracts_bid = models.PositiveSmallIntegerField(default=0)
    contracts_made = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["sheet", "position"], name="seat_result_once_per_seat")]
