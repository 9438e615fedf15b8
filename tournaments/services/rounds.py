"""A round's life: draft seating → published → in play → complete → finalised, every step logged.

A draft can be regenerated, have two players swapped and be checked; publishing shows it to players. The
first line entered puts it in play; when every sheet is confirmed it is complete; finalising locks its sheets.
A finalised round takes a correction only after an explicit reopen with a reason.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring.explanations import listed
from scoring.tasks import request_ratings
from tournaments import limits, live, seating_words
from tournaments.duplicate.movement import relay_hand_overs
from tournaments.duplicate.services import deal_round_boards
from tournaments.models import (
    AuditEvent,
    Competition,
    Registration,
    Round,
    RoundEvent,
    ScoreSheet,
    Seat,
    Table,
)
from tournaments.seating import SeatingError, seating_problems
from tournaments.seating.attendance import reseat
from tournaments.services import audit, lock_order
from tournaments.services.errors import ServiceError
from tournaments.services.seasons import refuse_if_closed
from tournaments.services.seating import generate, round_tables, seating_request
from tournaments.services.standings import standings_follow
from tournaments.text_limits import checked_reason

Status = Round.Status


def _user(by: Any) -> Any:
    return by if getattr(by, "is_authenticated", False) else None


def _log(round_: Round, action: str, before: str, *, by: Any = None, reason: str = "", **detail: Any) -> None:
    """Log a step in the round's own log and in the audit trail (with the seating after seating steps)."""
    after: dict[str, Any] = {"status": round_.status}
    if action in ("seated", "regenerated", "swapped", "reseated"):
        after["tables"] = round_tables(round_)
    audit.record(
        AuditEvent.Action.CREATE if action == "seated" else AuditEvent.Action.CHANGE,
        round_,
        before={"status": before} if before else None,
        after=after,
        by=by,
        competition_id=round_.competition_id,
        note=f"{action}: {reason}" if reason else action,
    )
    live.changed(round_.competition_id)
    RoundEvent.objects.create(
        round=round_,
        action=action,
        from_status=before,
        to_status=round_.status,
        by=_user(by),
        reason=reason,
        detail=detail,
    )


def _locked(round_: Round) -> Round:
    """The round, row-locked for this transaction (after its sheets: ``lock_order``): two organisers' clicks take
    turns, and so do a click and a table's line."""
    return lock_order.round_after_its_sheets(round_)


def _require(round_: Round, *allowed: str, refusal: str) -> None:
    """Refuse a step the round's status does not allow: ``refusal`` says which rounds take it, in words."""
    if round_.status not in allowed:
        said = {"number": round_.number, "status": round_.get_status_display()}
        raise ServiceError(gettext("Round %(number)s (%(status)s):") % said + " " + refusal)


def _seat(
    round_: Round, tables: Sequence[Sequence[int]], present: Sequence[int], *, kept: Collection[int] = ()
) -> None:
    """Create the tables, seats and blank sheets of ``tables``; who is present but unseated has a bye.

    The tables numbered in ``kept`` are already there as they should be, and are left alone.
    """
    seated = {p for table in tables for p in table}
    round_.byes = sorted(p for p in present if p not in seated)
    round_.save(update_fields=["byes"])
    for number, players in enumerate(tables, start=1):
        if number in kept:
            continue
        table = Table.objects.create(round=round_, number=number, size=len(players))
        Seat.objects.bulk_create(
            Seat(table=table, round=round_, position=position, player_id=player_id)
            for position, player_id in enumerate(players)
        )
        ScoreSheet.objects.create(table=table)


@transaction.atomic
def create_round(
    competition: Competition,
    *,
    seed: int | None = None,
    method: str | None = None,
    players: Sequence[int] | None = None,
    tables: Sequence[Sequence[int]] = (),
    board_seed: int | None = None,
    by: Any = None,
) -> Round:
    """Add the next round as a draft and seat the players present (default: every active registration).

    ``method`` defaults to the competition's; ``manual`` takes the organiser's ``tables``. A round of a duplicate
    competition gets its boards (``tournaments.duplicate.services``), dealt from ``board_seed`` (default: a secret
    one).
    """
    competition = Competition.objects.select_for_update().get(pk=competition.pk)  # one new round at a time
    refuse_if_closed(competition)
    number = (competition.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    if number not in limits.ROUND_NUMBER:
        message = gettext("%(competition)s has %(n)s rounds, the most a competition may have")
        raise ServiceError(message % {"competition": competition, "n": limits.ROUND_NUMBER.high})
    seed = _seed(seed) if seed is not None else (competition.pk * 1000 + number) % (limits.SEED.high + 1)
    method = method or competition.seating_method
    request = seating_request(competition, players=players, before=number, seed=seed, tables=tables)
    _check_registered(competition, request.players)
    seating = generate(method, request)
    round_ = Round.objects.create(competition=competition, number=number, seed=seed, method=method)
    _seat(round_, seating, request.players)
    if competition.duplicate:  # every table plays the same boards, dealt now from a seed of their own
        deal_round_boards(round_, seed=board_seed, by=by)
    _log(round_, "seated", "", by=by, method=method, seed=seed)
    return round_


def _seed(seed: int) -> int:
    """A seed in ``limits.SEED``: a given one out of range is refused, the next one after the last wraps to 0."""
    if seed == limits.SEED.high + 1:
        return 0
    if seed not in limits.SEED:
        raise ServiceError(gettext("the seed must be a number from %(low)s to %(high)s") % vars(limits.SEED))
    return seed


def _check_registered(competition: Competition, players: Sequence[int]) -> None:
    registered = set(competition.registrations.values_list("player_id", flat=True))
    strangers = sorted(set(players) - registered)
    if strangers:
        message = gettext("not registered for %(competition)s: %(players)s")
        names = listed(seating_words.named(strangers, competition))
        raise ServiceError(message % {"players": names, "competition": competition})


def _present(round_: Round) -> list[int]:
    return sorted({p for table in round_tables(round_) for p in table} | set(round_.byes or ()))


@transaction.atomic
def regenerate_round(
    round_: Round,
    *,
    seed: int | None = None,
    method: str | None = None,
    tables: Sequence[Sequence[int]] = (),
    by: Any = None,
) -> Round:
    """Draw a draft's seating again (a new seed by default) for the same players."""
    round_ = _locked(round_)
    _require(round_, Status.DRAFT, refusal=gettext("only a draft seating can be drawn again."))
    present = _present(round_)
    round_.seed = _seed(seed if seed is not None else round_.seed + 1)
    round_.method = method or round_.method
    request = seating_request(
        round_.competition, players=present, before=round_.number, seed=round_.seed, tables=tables
    )
    seating = generate(round_.method, request)
    round_.tables.all().delete()
    round_.save(update_fields=["seed", "method"])
    _seat(round_, seating, present)
    _log(round_, "regenerated", round_.status, by=by, method=round_.method, seed=round_.seed)
    return round_


@transaction.atomic
def swap_players(round_: Round, first: int, second: int, *, by: Any = None) -> Round:
    """Exchange two players' seats in a draft (or a seated player with one who has a bye)."""
    round_ = _locked(round_)
    _require(round_, Status.DRAFT, refusal=gettext("players can be swapped only in a draft seating."))
    seats = {s.player_id: s for s in Seat.objects.filter(round=round_, player_id__in=[first, second])}
    byes = list(round_.byes or [])
    if first == second or not seats or any(p not in seats and p not in byes for p in (first, second)):
        first_name, second_name = seating_words.named([first, second], round_.competition)
        said = {"first": first_name, "second": second_name, "number": round_.number}
        raise ServiceError(
            gettext("%(first)s and %(second)s are not two different players of round %(number)s.") % said
        )
    placed = [(s.table_id, s.position, other) for p, s in seats.items() for other in (first, second) if other != p]
    Seat.objects.filter(pk__in=[s.pk for s in seats.values()]).delete()
    Seat.objects.bulk_create(
        Seat(table_id=table_id, round=round_, position=position, player_id=player_id)
        for table_id, position, player_id in placed
    )
    if len(seats) == 1:  # one of them had a bye: the bye changes hands
        leaving = next(iter(seats))
        round_.byes = sorted([p for p in byes if p not in (first, second)] + [leaving])
        round_.save(update_fields=["byes"])
    _log(round_, "swapped", round_.status, by=by, players=[first, second])
    return round_


def round_problems(round_: Round) -> list[str]:
    """What is wrong with a round's seating for its players and the competition's wishes (empty if nothing)."""
    tables = round_tables(round_)
    request = seating_request(round_.competition, players=_present(round_), before=round_.number)
    return seating_words.problems_words(seating_problems(tables, request))


@transaction.atomic
def publish_round(round_: Round, *, by: Any = None) -> Round:
    """Show a valid draft seating to the players."""
    round_ = _locked(round_)
    _require(round_, Status.DRAFT, refusal=gettext("only a draft seating can be published."))
    problems = round_problems(round_)
    if problems:
        raise ServiceError(" ".join(problems))
    before, round_.status = round_.status, Status.PUBLISHED
    round_.save(update_fields=["status"])
    _log(round_, "published", before, by=by)
    return round_


@transaction.atomic
def reseat_round(round_: Round, *, players: Sequence[int], by: Any = None, reason: str = "") -> Round:
    """Seat a round again for ``players`` (after withdrawals or late arrivals), keeping what tables it can.

    Only before play: once a sheet has lines its table is part of the results.
    """
    reason = checked_reason(reason)
    round_ = _locked(round_)
    refusal = gettext("a round is seated again only before its first score: its seating stays.")
    _require(round_, Status.DRAFT, Status.PUBLISHED, refusal=refusal)
    _check_registered(round_.competition, players)
    request = seating_request(round_.competition, players=players, before=round_.number, seed=round_.seed)
    before_tables = round_tables(round_)
    hand_overs = relay_hand_overs(round_)
    try:
        seating = reseat(before_tables, request)
    except SeatingError as exc:  # e.g. fewer than four players: the organiser's to fix, not a bug
        raise ServiceError(seating_words.refusal(exc.problems)) from exc
    # A table seated exactly as before keeps its rows: its code and the phones signed in with it stay good, and so
    # does its printed card, unless a relay's hand-overs changed with the number of tables.
    kept = {n for n, (old, new) in enumerate(zip(before_tables, seating, strict=False), start=1) if old == new}
    round_.tables.exclude(number__in=kept).delete()
    _seat(round_, seating, request.players, kept=kept)
    anew = [n for n in range(1, len(seating) + 1) if n not in kept]
    hand_overs_now = relay_hand_overs(round_)
    cards = sorted({*anew, *(n for n in kept if hand_overs.get(n) != hand_overs_now.get(n))})
    detail = {"kept_tables": len(kept), "new_tables": anew, "cards_changed": cards, "players": len(request.players)}
    _log(round_, "reseated", round_.status, by=by, reason=reason, **detail)
    return round_


def cards_changed(round_: Round) -> list[int]:
    """The tables whose printed card the round's last re-seating made wrong: seated anew (a new code), or kept
    with other relay hand-overs."""
    event = round_.events.filter(action="reseated").order_by("-pk").first()
    return list(event.detail.get("cards_changed", [])) if event is not None else []


@transaction.atomic
def withdraw_player(competition: Competition, player_id: int, *, by: Any = None, reason: str = "") -> list[Round]:
    """Stop seating a player from now on, and re-seat the rounds not yet in play; results stay."""
    reason = checked_reason(reason)
    # the sheets it may delete first, as a line entered meanwhile locks them before the round and the competition
    refuse_if_closed(lock_order.competition_after_its_sheets(competition, [Status.DRAFT, Status.PUBLISHED]))
    updated = Registration.objects.filter(
        competition=competition, player_id=player_id, withdrawn_at__isnull=True
    ).update(withdrawn_at=timezone.now())
    if not updated:
        said = {"player": seating_words.named([player_id], competition)[0], "competition": competition}
        raise ServiceError(gettext("%(player)s is not an active player of %(competition)s.") % said)
    audit.record(
        AuditEvent.Action.CHANGE,
        ("registration", f"{competition.pk}:{player_id}"),
        before={"withdrawn": False},
        after={"withdrawn": True},
        by=by,
        competition_id=competition.pk,
        note=f"withdrawn: {reason}" if reason else "withdrawn",
    )
    changed = []
    for round_ in competition.rounds.filter(status__in=[Status.DRAFT, Status.PUBLISHED]):
        present = _present(round_)
        if player_id in present:
            others = [p for p in present if p != player_id]
            changed.append(reseat_round(round_, players=others, by=by, reason=reason or "withdrawal"))
    return changed


def note_entry(round_: Round, *, by: Any = None, sheet_was_confirmed: bool = False) -> None:
    """A line was entered or corrected: a published round is now in play, a complete one is in play again.

    ``round_`` is as the entry read it, with its sheet locked. A round in play is not locked: every table
    of the round enters at once. It can have become complete since only if this sheet was confirmed
    (``refresh_completion`` locks the round's sheets, so it saw this one's latest state); a conditional
    update catches that case.
    """
    if round_.status == Status.IN_PLAY:
        if not sheet_was_confirmed:
            return
        if not Round.objects.filter(pk=round_.pk, status=Status.COMPLETE).update(status=Status.IN_PLAY):
            return
        _log(Round.objects.get(pk=round_.pk), "in_play", Status.COMPLETE, by=by)
        return
    round_ = lock_order.round_only(round_)  # the entry holds only its sheet: ``lock_order``'s order
    if round_.status in (Status.PUBLISHED, Status.COMPLETE):
        before, round_.status = round_.status, Status.IN_PLAY
        round_.save(update_fields=["status"])
        _log(round_, "in_play", before, by=by)


def entry_refusal(status: str) -> str | None:
    """Why a round in ``status`` takes no lines, or ``None`` when it does."""
    if status == Status.DRAFT:
        return "this round's seating is still a draft: publish it before entering scores"
    if status == Status.FINALISED:
        return "this round is finalised: an organiser must reopen it, with a reason, before a correction"
    return None


def refresh_completion(round_: Round, *, by: Any = None) -> Round:
    """In play → complete once every sheet of the round is confirmed."""
    round_ = _locked(round_)
    # Its sheets are locked with it (``_locked``), so a line being entered on one of them (which holds its sheet) is
    # seen once it commits.
    states = ScoreSheet.objects.filter(table__round=round_).values_list("state", flat=True)
    if round_.status == Status.IN_PLAY and all(state == ScoreSheet.State.CONFIRMED for state in states):
        before, round_.status = round_.status, Status.COMPLETE
        round_.save(update_fields=["status"])
        _log(round_, "complete", before, by=by)
    return round_


@transaction.atomic
def finalise_round(round_: Round, *, by: Any = None) -> Round:
    """Lock a complete round: its sheets become final and take no more lines."""
    round_ = _locked(round_)
    _require(round_, Status.COMPLETE, refusal=gettext("a round is finalised once every sheet is confirmed."))
    ScoreSheet.objects.filter(table__round=round_).update(state=ScoreSheet.State.FINAL)
    before, round_.status = round_.status, Status.FINALISED
    round_.save(update_fields=["status"])
    _log(round_, "finalised", before, by=by)
    transaction.on_commit(request_ratings)  # ratings count finalised rounds only (scoring.selectors.rated_rounds)
    if round_.competition.duplicate:  # the standings count a duplicate round from now on (``boards_in_play``)
        standings_follow(round_.competition_id)
    return round_


@transaction.atomic
def reopen_round(round_: Round, *, reason: str, by: Any = None) -> Round:
    """Unlock a finalised round for a correction; the reason is logged with who asked."""
    reason = checked_reason(reason)
    if not reason:
        raise ServiceError(gettext("Give a reason to reopen a finalised round."))
    round_ = _locked(round_)
    refuse_if_closed(round_.competition)
    _require(round_, Status.FINALISED, refusal=gettext("only a finalised round can be reopened."))
    ScoreSheet.objects.filter(table__round=round_, state=ScoreSheet.State.FINAL).update(
        state=ScoreSheet.State.CONFIRMED
    )
    before, round_.status = round_.status, Status.COMPLETE
    round_.save(update_fields=["status"])
    _log(round_, "reopened", before, by=by, reason=reason.strip())
    transaction.on_commit(request_ratings)  # its deals leave the ratings until it is finalised again
    if round_.competition.duplicate:  # and a duplicate round's leave the standings, as its boards are open again
        standings_follow(round_.competition_id)
    return round_
