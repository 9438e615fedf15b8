"""The round clock's state machine and the announcements: every change goes through here, in a transaction with the
clock's row locked (two organisers' clicks take turns), refused with a ``ServiceError`` that says why, and audited.

The clock stores what does not age: the end (``ends_at``) while it runs, the time left (``remaining``) while it is
paused. ``remaining_at`` turns either into the time left at a given moment.

    stopped --start--> running --pause--> paused --resume--> running;  adjust: running or paused;  stop: any
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Announcement, AuditEvent, Competition, Round, RoundClock
from tournaments.models.display import ANNOUNCEMENT_MAX_LENGTH, CLOCK_MAX
from tournaments.services import audit
from tournaments.services.errors import ServiceError

State = RoundClock.State
#: a round whose clock may be started, resumed or adjusted: its seating is out and it is not finalised
CLOCKED = (Round.Status.PUBLISHED, Round.Status.IN_PLAY, Round.Status.COMPLETE)
#: how many announcements a competition shows at once (the screen holds a few lines, not a feed)
ACTIVE_ANNOUNCEMENTS_MAX = 5
MINUTES_MAX = int(CLOCK_MAX.total_seconds() // 60)


def remaining_at(clock: RoundClock | None, now: datetime) -> timedelta | None:
    """The time left on ``clock`` at ``now`` (never negative); ``None`` when it is stopped or there is none."""
    if clock is None or clock.state == State.STOPPED:
        return None
    if clock.state == State.PAUSED:
        return clock.remaining
    assert clock.ends_at is not None
    return max(clock.ends_at - now, timedelta(0))


def _snapshot(clock: RoundClock) -> dict[str, Any]:
    return {
        "state": clock.state,
        "duration": clock.duration.total_seconds(),
        "ends_at": clock.ends_at.isoformat() if clock.ends_at else None,
        "remaining": clock.remaining.total_seconds() if clock.remaining is not None else None,
    }


def _locked_clock(round_: Round) -> RoundClock:
    """The round's clock, created stopped the first time, row-locked for this transaction."""
    RoundClock.objects.get_or_create(round=round_)
    return RoundClock.objects.select_for_update().select_related("round__competition").get(round=round_)


def _require_open(round_: Round) -> None:
    competition = round_.competition
    if competition.closed_at is not None:
        raise ServiceError(_("%(competition)s is closed: its clock does not run.") % {"competition": competition})
    if round_.status not in CLOCKED:
        raise ServiceError(
            _("Round %(number)s: %(status)s. Its clock runs once the seating is published, until it is finalised.")
            % {"number": round_.number, "status": round_.get_status_display()}
        )


def _change(round_: Round, doing: str, step: Any, *, by: Any = None) -> RoundClock:
    """Apply ``step(clock, now)`` to the locked clock, save it, and audit before and after."""
    with transaction.atomic():
        clock = _locked_clock(round_)
        before = _snapshot(clock)
        now = timezone.now()
        step(clock, now)
        clock.changed_at = now
        clock.save()
        audit.record(
            AuditEvent.Action.CHANGE,
            clock,
            before=before,
            after=_snapshot(clock),
            by=by,
            competition_id=clock.round.competition_id,
            note=f"round clock {doing}",
        )
    return clock


def _minutes(minutes: int, *, low: int) -> timedelta:
    if not low <= minutes <= MINUTES_MAX:
        raise ServiceError(_("Give a number of minutes from %(low)s to %(high)s.") % {"low": low, "high": MINUTES_MAX})
    return timedelta(minutes=minutes)


def start_clock(round_: Round, minutes: int, *, by: Any = None) -> RoundClock:
    """Start a stopped clock for ``minutes`` from now."""
    duration = _minutes(minutes, low=1)

    def step(clock: RoundClock, now: datetime) -> None:
        _require_open(clock.round)
        if clock.state == State.RUNNING:
            raise ServiceError(_("The clock is running already: stop it first to start it again."))
        if clock.state == State.PAUSED:
            raise ServiceError(_("The clock is paused: stop it first to start it again."))
        clock.state, clock.duration, clock.started_at = State.RUNNING, duration, now
        clock.ends_at, clock.remaining = now + duration, None

    return _change(round_, "started", step, by=by)


def pause_clock(round_: Round, *, by: Any = None) -> RoundClock:
    """Freeze a running clock with the time it has left."""

    def step(clock: RoundClock, now: datetime) -> None:
        if clock.state != State.RUNNING:
            raise ServiceError(_("The clock is not running: there is nothing to pause."))
        clock.state, clock.remaining, clock.ends_at = State.PAUSED, remaining_at(clock, now), None

    return _change(round_, "paused", step, by=by)


def resume_clock(round_: Round, *, by: Any = None) -> RoundClock:
    """Run a paused clock again with the time it had left."""

    def step(clock: RoundClock, now: datetime) -> None:
        _require_open(clock.round)
        if clock.state != State.PAUSED:
            raise ServiceError(_("The clock is not paused: there is nothing to resume."))
        assert clock.remaining is not None
        clock.state, clock.ends_at, clock.remaining = State.RUNNING, now + clock.remaining, None

    return _change(round_, "resumed", step, by=by)


def adjust_clock(round_: Round, minutes: int, *, by: Any = None) -> RoundClock:
    """Add (or, negative, take) ``minutes`` to a running or paused clock; it never goes below zero, nor above the
    longest a clock runs."""
    if minutes == 0 or abs(minutes) > MINUTES_MAX:
        raise ServiceError(_("Give a number of minutes from %(low)s to %(high)s.") % {"low": 1, "high": MINUTES_MAX})
    delta = timedelta(minutes=minutes)

    def step(clock: RoundClock, now: datetime) -> None:
        _require_open(clock.round)
        left = remaining_at(clock, now)
        if left is None:
            raise ServiceError(_("The clock is stopped: start it first."))
        left = min(max(left + delta, timedelta(0)), CLOCK_MAX)
        if clock.state == State.RUNNING:
            clock.ends_at = now + left
        else:
            clock.remaining = left

    return _change(round_, f"adjusted by {minutes:+d} min", step, by=by)


def stop_clock(round_: Round, *, by: Any = None) -> RoundClock:
    """Stop the clock: the displays no longer show it."""

    def step(clock: RoundClock, now: datetime) -> None:
        if clock.state == State.STOPPED:
            raise ServiceError(_("The clock is already stopped."))
        clock.state, clock.ends_at, clock.remaining = State.STOPPED, None, None

    return _change(round_, "stopped", step, by=by)


# -- announcements --------------------------------------------------------------------------------------------------


def checked_text(text: str | None) -> str:
    """An announcement's text without surrounding blanks, refused when empty or longer than the column holds."""
    cleaned = " ".join((text or "").split())
    if not cleaned:
        raise ServiceError(_("Type the announcement's text."))
    if len(cleaned) > ANNOUNCEMENT_MAX_LENGTH:
        raise ServiceError(
            _("The announcement is %(length)s characters long: at most %(max)s are allowed.")
            % {"length": len(cleaned), "max": ANNOUNCEMENT_MAX_LENGTH}
        )
    return cleaned


def announce(competition: Competition, text: str | None, *, by: Any = None) -> Announcement:
    """Show ``text`` on the competition's displays, at most ``ACTIVE_ANNOUNCEMENTS_MAX`` at a time."""
    cleaned = checked_text(text)
    with transaction.atomic():
        Competition.objects.select_for_update().filter(pk=competition.pk).first()  # one announcement at a time
        if competition.announcements.filter(hidden_at__isnull=True).count() >= ACTIVE_ANNOUNCEMENTS_MAX:
            raise ServiceError(
                _("%(max)s announcements are shown already: hide one first.") % {"max": ACTIVE_ANNOUNCEMENTS_MAX}
            )
        announcement = Announcement.objects.create(competition=competition, text=cleaned)
        audit.record(
            AuditEvent.Action.CREATE,
            announcement,
            after={"text": cleaned},
            by=by,
            competition_id=competition.pk,
            note="announcement shown",
        )
    return announcement


def hide_announcement(announcement: Announcement, *, by: Any = None) -> Announcement:
    """Take an announcement off the displays (it stays in the list, hidden)."""
    with transaction.atomic():
        announcement = Announcement.objects.select_for_update().get(pk=announcement.pk)
        if announcement.hidden_at is not None:
            raise ServiceError(_("This announcement is hidden already."))
        announcement.hidden_at = timezone.now()
        announcement.save(update_fields=["hidden_at"])
        audit.record(
            AuditEvent.Action.CHANGE,
            announcement,
            before={"hidden": False},
            after={"hidden": True},
            by=by,
            competition_id=announcement.competition_id,
            note="announcement hidden",
        )
    return announcement
