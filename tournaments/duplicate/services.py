"""A duplicate round's boards: dealt when the round is made, or read from a dealing machine's PBN file.

Every table of the round plays boards 1..N in deal order, N being the competition's deals per session: board *k*
is deal *k* of every table's sheet. The boards are dealt by the engine (``games.duplicate.deal_boards``) from a
seed drawn at random and kept with them: a seed anyone could work out (the round's seating seed is the
competition's id and the round's number) would give every player the hand records. A PBN file replaces them
only until the first line of the round is stored, never afterwards: lines are played on the boards the tables
held. Both steps are in the audit trail (without the seed or the cards).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from functools import partial
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.duplicate import Board as EngineBoard
from games.duplicate import deal_boards, from_pbn
from games.errors import GameError
from tournaments import limits
from tournaments.duplicate import analysis
from tournaments.duplicate.cards import spans
from tournaments.duplicate.pbn_errors import reader_message
from tournaments.models import AuditEvent, Board, DealEntry, Round
from tournaments.services import audit, lock_order
from tournaments.services.errors import ServiceError


def board_count(round_: Round) -> int:
    """How many boards the round plays: one for each deal of a table's session."""
    deals = round_.competition.deals_per_session
    if not round_.competition.duplicate or deals is None:
        raise ServiceError(
            _("%(competition)s is not a duplicate competition: its rounds have no boards.")
            % {"competition": round_.competition}
        )
    return deals


def new_seed() -> int:
    """A seed nobody can work out: the boards stay unknown until someone reads them here."""
    return secrets.randbelow(limits.SEED.high + 1)


def _refuse_if_played(round_: Round) -> None:
    """Boards change only while the round's competition is open and no line of the round is stored."""
    competition = round_.competition
    if competition.closed_at is not None:
        raise ServiceError(
            _("%(competition)s is closed: its boards stay as they are (reopen it first, with a reason).")
            % {"competition": competition}
        )
    if round_.status == Round.Status.FINALISED or DealEntry.objects.filter(sheet__table__round=round_).exists():
        raise ServiceError(
            _(
                "Round %(number)s has scores entered: its boards stay the ones its tables played. Boards can be "
                "replaced only before the first line of the round is stored."
            )
            % {"number": round_.number}
        )


def _store(round_: Round, boards: Sequence[EngineBoard], *, seed: int | None) -> list[Board]:
    Board.objects.filter(round=round_).delete()
    transaction.on_commit(partial(analysis.queue_round, round_.pk))  # the solver's jobs, one a board, after commit
    return Board.objects.bulk_create(Board.from_engine(round_, board, seed=seed) for board in boards)


def _locked(round_: Round) -> Round:
    """The round row-locked, with its competition: two organisers' uploads, or an upload and a first line's
    step into play (``services.rounds.note_entry`` locks the round too), take turns."""
    return lock_order.round_only(round_)  # boards only: no sheet is locked after it


@transaction.atomic
def deal_round_boards(round_: Round, *, seed: int | None = None, by: Any = None) -> list[Board]:
    """Deal the round's boards 1..N from ``seed`` (a new random one by default), replacing any it had.

    Called when a round of a duplicate competition is made (``services.rounds.create_round``); refused once a
    line of the round is stored.
    """
    round_ = _locked(round_)
    count = board_count(round_)
    _refuse_if_played(round_)
    if seed is None:
        seed = new_seed()
    elif seed not in limits.SEED:
        raise ServiceError(_("the seed must be a number from %(low)s to %(high)s") % vars(limits.SEED))
    stored = _store(round_, deal_boards(count, seed), seed=seed)
    audit.record(
        AuditEvent.Action.CREATE,
        ("boards", round_.pk),
        after={"boards": count, "source": "dealt"},
        by=by,
        competition_id=round_.competition_id,
        note=f"round {round_.number}: boards dealt",
    )
    return stored


def read_pbn(text: str) -> list[EngineBoard]:
    """The boards of a PBN file; what is wrong with it in the reader's language (``ServiceError``)."""
    try:
        boards = from_pbn(text)
    except GameError as exc:
        raise ServiceError(reader_message(exc)) from None
    if not boards:
        raise ServiceError(
            _('The file holds no boards: a PBN file gives each board as [Board "1"], [Deal "N:…"] and so on.')
        )
    return boards


def check_numbers(boards: Sequence[EngineBoard], count: int) -> None:
    """The file's boards are numbered 1..``count`` exactly, as the round's tables play them."""
    numbers = sorted(board.number for board in boards)
    if numbers == list(range(1, count + 1)):
        return
    found = ngettext(
        "The file has %(count)s board, numbered %(numbers)s.",
        "The file has %(count)s boards, numbered %(numbers)s.",
        len(numbers),
    ) % {"count": len(numbers), "numbers": spans(numbers)}
    wanted = _("This round plays boards 1 to %(count)s, one for each deal: give a file of exactly those.") % {
        "count": count
    }
    raise ServiceError(found + " " + wanted)


@transaction.atomic
def import_round_boards(round_: Round, text: str, *, by: Any = None) -> list[Board]:
    """Replace the round's boards with those of a PBN file (boards 1..N exactly), before any line is stored."""
    round_ = _locked(round_)
    count = board_count(round_)
    _refuse_if_played(round_)
    boards = read_pbn(text)
    check_numbers(boards, count)
    stored = _store(round_, sorted(boards, key=lambda board: board.number), seed=None)
    audit.record(
        AuditEvent.Action.CHANGE,
        ("boards", round_.pk),
        after={"boards": count, "source": "pbn"},
        by=by,
        competition_id=round_.competition_id,
        note=f"round {round_.number}: boards read from a PBN file",
    )
    return stored
