"""What the display, the entry pages and the round pages show of the clock, the announcements and the seating.

Nothing here depends on the current time except where it says so: the polled fragment carries the clock's stored
end or time left, and the browser counts down from them with the server's time (sent in a header, never in the
body), so an unchanged clock keeps its validator and polls are answered ``304``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from tournaments.models import Announcement, Competition, Round, RoundClock, RoundEvent, Seat
from tournaments.public_names import sort_key
from tournaments.services.privacy import public_name

SHOWN = (Round.Status.PUBLISHED, Round.Status.IN_PLAY, Round.Status.COMPLETE, Round.Status.FINALISED)


@dataclass(frozen=True)
class ClockView:
    """A clock as a page shows it: its state and, in milliseconds since the epoch or of time, what the browser
    counts down from (``ends_ms`` while running, ``remaining_ms`` while paused)."""

    round_number: int
    state: str
    state_label: str
    duration_ms: int
    ends_at: datetime | None
    ends_ms: int | None
    remaining_ms: int | None

    @property
    def key(self) -> tuple[object, ...]:
        return ("clock", self.round_number, self.state, self.duration_ms, self.ends_ms, self.remaining_ms)

    def remaining_text(self, now: datetime | None = None) -> str:
        """The time left as "mm:ss" (or "h:mm:ss"), at ``now``: for a page read without scripts."""
        if self.remaining_ms is not None:
            left = self.remaining_ms
        elif self.ends_at is not None:
            left = max(int((self.ends_at - (now or timezone.now())).total_seconds() * 1000), 0)
        else:
            return ""
        return clock_text(left)


def clock_text(milliseconds: int) -> str:
    """Whole seconds, rounded up (the last second shows "0:01", not "0:00"), as the browser's script shows them."""
    seconds = -(-milliseconds // 1000)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes:02d}:{seconds:02d}"


def _ms(value: Any) -> int:
    return round(value.total_seconds() * 1000)


def clock_view(clock: RoundClock | None) -> ClockView | None:
    """``clock`` for a page; ``None`` when it is stopped or there is none."""
    if clock is None or clock.state == RoundClock.State.STOPPED:
        return None
    return ClockView(
        round_number=clock.round.number,
        state=clock.state,
        state_label=str(clock.get_state_display()),
        duration_ms=_ms(clock.duration),
        ends_at=clock.ends_at,
        ends_ms=round(clock.ends_at.timestamp() * 1000) if clock.ends_at else None,
        remaining_ms=_ms(clock.remaining) if clock.remaining is not None else None,
    )


def round_clock(round_: Round) -> ClockView | None:
    clock = RoundClock.objects.filter(round=round_).select_related("round").first()
    return clock_view(clock)


def competition_clock(competition: Competition) -> ClockView | None:
    """The clock a competition's displays show: the latest round's whose clock is not stopped."""
    clock = (
        RoundClock.objects.filter(round__competition=competition, round__status__in=SHOWN)
        .exclude(state=RoundClock.State.STOPPED)
        .select_related("round")
        .order_by("-round__number")
        .first()
    )
    return clock_view(clock)


def active_announcements(competition: Competition) -> QuerySet[Announcement]:
    return Announcement.objects.filter(competition=competition, hidden_at__isnull=True).order_by("-created_at", "-pk")


def announcements_key(announcements: list[Announcement]) -> tuple[object, ...]:
    return ("announcements", *((a.pk, a.text) for a in announcements))


# -- between rounds: the next round's seating -----------------------------------------------------------------------


@dataclass(frozen=True)
class SeatRow:
    name: str
    table: int
    seat: int  # from 1, as on the table card


def next_round(competition: Competition) -> Round | None:
    """The round whose seating the venue needs: the latest one, when it is published and not yet in play."""
    latest = Round.objects.filter(competition=competition).exclude(status=Round.Status.DRAFT).order_by("-number")
    round_ = latest.first()
    return round_ if round_ is not None and round_.status == Round.Status.PUBLISHED else None


def seating_by_name(round_: Round) -> list[SeatRow]:
    """Every seat of ``round_``, by public name, so a player finds themselves."""
    seats = Seat.objects.filter(round=round_).select_related("player", "table")
    rows = [SeatRow(public_name(seat.player), seat.table.number, seat.position + 1) for seat in seats]
    return sorted(rows, key=lambda row: (sort_key(row.name), row.name, row.table, row.seat))


def display_view(competition: Competition) -> str:
    """What the display's main area shows: "seating:<round>" between rounds, else "standings". When it changes, a
    display reloads."""
    round_ = next_round(competition)
    if round_ is None:
        return "standings"
    # a reseating after publication is a new step in the round's log: the seating shown is read again
    step = RoundEvent.objects.filter(round=round_).order_by("-pk").values_list("pk", flat=True).first()
    return f"seating:{round_.number}:{step}"
