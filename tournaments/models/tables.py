from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments import limits
from tournaments.models.guarded import Guarded


class Table(Guarded, models.Model):
    """A table of a round: 4 or 5 players in seat order (seat 0 deals first)."""

    round = models.ForeignKey("tournaments.Round", on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("number"), validators=limits.TABLE_NUMBER.validators())
    size = models.PositiveSmallIntegerField(_("players"), validators=limits.TABLE_SIZE.validators())

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_once_per_round"),
            models.CheckConstraint(condition=models.Q(size__in=[4, 5]), name="table_seats_four_or_five"),
            limits.TABLE_NUMBER.check("number", "table_number_range"),
        ]

    def __str__(self) -> str:
        return f"{self.round} – table {self.number}"


class Seat(Guarded, models.Model):
    """A player at a table. ``round`` repeats the table's so the database can keep a player at one table a round."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey("tournaments.Round", on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(_("seat"), validators=limits.SEAT_POSITION.validators())
    player = models.ForeignKey("tournaments.Player", on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_once_per_table"),
            models.UniqueConstraint(fields=["table", "player"], name="player_once_per_table"),
            models.UniqueConstraint(fields=["round", "player"], name="player_one_table_per_round"),
            models.CheckConstraint(condition=models.Q(position__lte=4), name="seat_position_0_to_4"),
            limits.SEAT_POSITION.check("position", "seat_position_range"),
        ]

    def __str__(self) -> str:
        return f"{self.table}, seat {self.position}: {self.player}"
