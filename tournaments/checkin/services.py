"""Check-in: who may check whom in, for which round, and seating who checked in.

- **Who.** A player with an account checks themselves in, if they are an active player of the competition. Anyone
  holding the venue code (on the poster at the venue: 80 random bits, compared in constant time, as table codes
  are) checks in an active player by their public name, the name the standings show (``tournaments.public_names``:
  no two players show the same one). Without the right code nothing is checked, names included: a wrong code is
  refused the same way whatever the name, so the page tells a stranger nothing about who plays.
- **For which round.** The latest round while it is a draft or published (late arrivals), else the next round
  to be seated. A round in play or complete takes no check-ins, nor does a closed competition.
- **Twice** is once: checking in again answers with the first check-in.
- **Seating.** ``seat_checked_in`` seats a new round with exactly who checked in, re-seats a draft for exactly
  them, and adds late arrivals to a published round (everyone seated stays; tables are kept where they can be).
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from tournaments import limits
from tournaments.models import AuditEvent, CheckIn, Competition, Registration, Round, VenueCode
from tournaments.models.sheets import format_table_code, new_table_code
from tournaments.public_names import name_key
from tournaments.services import audit
from tournaments.services import rounds as lifecycle
from tournaments.services.errors import ServiceError
from tournaments.services.privacy import public_name
from tournaments.services.seating import round_tables

Status = Round.Status
OPEN = (Status.DRAFT, Status.PUBLISHED)  # a round that still seats late arrivals
NAME_MAX_LENGTH = 80  # as Player.display_name
CODE_MAX_LENGTH = 64  # typed codes longer than this are not codes (as permissions.table_code_opens)


class CheckInRefused(ServiceError):
    """A check-in that cannot be taken; the message says why, in the reader's language."""


@dataclass(frozen=True)
class Target:
    """The round check-ins are for: ``number``, and the round itself once it is seated."""

    number: int
    round: Round | None


def venue_code(competition: Competition) -> str:
    """The competition's venue code, made on first use."""
    stored, _created = VenueCode.objects.get_or_create(competition=competition)
    return stored.code


def new_venue_code(competition: Competition, *, by: Any = None) -> str:
    """Replace the venue code (a poster gone astray): the old code opens nothing from now on. The audit trail
    says who replaced it and when, not the code."""
    code = new_table_code()
    stored, _created = VenueCode.objects.update_or_create(competition=competition, defaults={"code": code})
    audit.record(AuditEvent.Action.CHANGE, stored, by=by, competition_id=competition.pk, note="new venue code")
    return code


def code_opens(competition: Competition, typed: str | None) -> bool:
    """Whether ``typed`` is the competition's venue code, typed in any case, with or without dashes or spaces."""
    if not typed or len(typed) > CODE_MAX_LENGTH:
        return False
    stored = VenueCode.objects.filter(competition=competition).values_list("code", flat=True).first()
    if stored is None:
        return False
    return hmac.compare_digest(format_table_code(typed).encode(), format_table_code(stored).encode())


def target(competition: Competition) -> Target:
    """The round check-ins go to now, or ``CheckInRefused`` saying why none do."""
    if competition.closed_at is not None:
        raise CheckInRefused(
            gettext("%(competition)s is closed: nobody checks in any more.") % {"competition": competition}
        )
    latest = competition.rounds.order_by("-number").first()
    if latest is None:
        return Target(1, None)
    if latest.status in OPEN:
        return Target(latest.number, latest)
    if latest.status == Status.FINALISED:
        if latest.number + 1 not in limits.ROUND_NUMBER:
            raise CheckInRefused(
                gettext("%(competition)s has %(n)s rounds, the most a competition may have")
                % {"competition": competition, "n": limits.ROUND_NUMBER.high}
            )
        return Target(latest.number + 1, None)
    raise CheckInRefused(
        gettext("Round %(number)s is being played: check-in opens again for the next round. Ask the organiser.")
        % {"number": latest.number}
    )


def registration_named(competition: Competition, name: str) -> Registration | None:
    """The active player of ``competition`` whose public name is ``name`` (case and spacing aside), if any."""
    wanted = name_key(name)
    if not wanted or len(name) > NAME_MAX_LENGTH:
        return None
    active = Registration.objects.filter(competition=competition, withdrawn_at__isnull=True).select_related("player")
    found = [r for r in active if r.player.anonymised_at is None and name_key(r.player.public_name) == wanted]
    return found[0] if len(found) == 1 else None


def registration_of(competition: Competition, user: Any) -> Registration | None:
    """The signed-in user's own active registration in ``competition``, if they have one."""
    if not getattr(user, "is_authenticated", False):
        return None
    return (
        Registration.objects.filter(competition=competition, player__user=user, withdrawn_at__isnull=True)
        .select_related("player")
        .first()
    )


@dataclass(frozen=True)
class Result:
    check_in: CheckIn
    created: bool  # False: they had checked in already
    name: str  # the player's public name


def check_in(registration: Registration, *, via: str, device: str = "") -> Result:
    """Check ``registration``'s player in for the target round; again is once (the first check-in comes back)."""
    competition = Competition.objects.get(pk=registration.competition_id)
    with transaction.atomic():
        Competition.objects.select_for_update().filter(pk=competition.pk).first()  # one check-in, one round, at a time
        number = target(competition).number
        fresh = Registration.objects.select_related("player").get(pk=registration.pk)
        if fresh.withdrawn_at is not None:
            raise CheckInRefused(gettext("This player has withdrawn from the competition."))
        existing = CheckIn.objects.filter(registration=fresh, round_number=number).first()
        if existing is not None:
            return Result(existing, False, public_name(fresh.player))
        made = CheckIn(registration=fresh, round_number=number, via=via, device=device[:32])
        try:
            made.full_clean(validate_constraints=False)  # "once" is the database's: a race is idempotent below
        except ValidationError as exc:
            raise CheckInRefused(" ".join(exc.messages)) from exc
        try:
            with transaction.atomic():
                made.save()
        except IntegrityError:  # the same player's other phone, a moment earlier
            made = CheckIn.objects.get(registration=fresh, round_number=number)
            return Result(made, False, public_name(fresh.player))
        after = {"player_id": fresh.player_id, "round_number": number, "via": via}
        audit.record(AuditEvent.Action.CREATE, made, after=after, competition_id=competition.pk, note="check-in")
    return Result(made, True, public_name(fresh.player))


def check_in_with_code(competition: Competition, *, name: str, code: str, device: str = "") -> Result:
    """Check in the active player shown as ``name``, for whoever holds the venue code."""
    if not code_opens(competition, code):
        raise CheckInRefused(gettext("That is not the venue code: it is printed on the poster, under the QR code."))
    target(competition)  # a closed competition or a round in play says so before any name is looked at
    registration = registration_named(competition, name)
    if registration is None:
        raise CheckInRefused(
            gettext("No player of %(competition)s goes by that name: type it as the standings show it.")
            % {"competition": competition}
        )
    return check_in(registration, via=CheckIn.Via.CODE, device=device)


def check_in_account(competition: Competition, user: Any, *, device: str = "") -> Result:
    """Check the signed-in user in, if they are an active player of ``competition``."""
    registration = registration_of(competition, user)
    if registration is None:
        raise CheckInRefused(
            gettext("Your account is not an active player of %(competition)s: ask the organiser.")
            % {"competition": competition}
        )
    return check_in(registration, via=CheckIn.Via.ACCOUNT, device=device)


# -- the organiser's side -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Arrival:
    player_id: int
    name: str  # for the organiser: the full name
    via: str  # how they checked in, in words
    at: Any  # when
    seated: bool  # already at a table (or with a bye) in the round


def present_in(round_: Round | None) -> set[int]:
    """Who a seated round counts as present: at a table or with a bye."""
    if round_ is None:
        return set()
    return {p for table in round_tables(round_) for p in table} | set(round_.byes or ())


def arrivals(competition: Competition, number: int, round_: Round | None = None) -> list[Arrival]:
    """Who checked in for round ``number``, earliest first, and whether the round seats them already."""
    present = present_in(round_)
    rows = CheckIn.objects.filter(
        registration__competition=competition, round_number=number, registration__withdrawn_at__isnull=True
    ).select_related("registration__player")
    return [
        Arrival(
            player_id=row.registration.player_id,
            name=row.registration.player.name,
            via=row.get_via_display(),
            at=row.checked_in_at,
            seated=row.registration.player_id in present,
        )
        for row in rows
    ]


def arrivals_context(competition: Competition, goal: Target | None) -> dict[str, Any]:
    """For the pages that list who checked in (``checkin/_arrivals.html``): them, and how many wait for a seat."""
    if goal is None:
        return {"arrivals": [], "waiting": 0}
    found = arrivals(competition, goal.number, goal.round)
    return {"arrivals": found, "waiting": sum(1 for arrival in found if not arrival.seated)}


def seat_checked_in(competition: Competition, *, by: Any = None) -> Round:
    """Seat who checked in for the target round: a new round, a draft seated again for exactly them, or a
    published round with the late arrivals added (re-seated as ``reseat_round`` does, keeping tables)."""
    goal = target(competition)
    checked = [a.player_id for a in arrivals(competition, goal.number, goal.round)]
    if not checked:
        raise CheckInRefused(gettext("Nobody has checked in for round %(number)s yet.") % {"number": goal.number})
    if goal.round is None:
        return lifecycle.create_round(competition, players=checked, by=by)
    if goal.round.status == Status.DRAFT:
        players: Sequence[int] = sorted(checked)
    else:
        late = set(checked) - present_in(goal.round)
        if not late:
            raise CheckInRefused(
                gettext("Everyone who checked in is seated in round %(number)s already.") % {"number": goal.number}
            )
        players = sorted(present_in(goal.round) | late)
    return lifecycle.reseat_round(goal.round, players=players, by=by, reason="check-in")
