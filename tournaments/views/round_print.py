"""Printable seating for a round: per table a table card and a blank score sheet, A4, one table at a time.

Who deals (checked against the engine, ``games.sheet`` and ``games.zwicken``):

- The engine leaves the first line's dealer free; the site's convention (``Table``: "seat 0 deals
  first", and the entry form offers seat 0 on an empty sheet) is that the player in the first seat,
  position 0, deals first. The printed card names that player.
- Wiezen and solo whist then rotate one seat per deal: clockwise (deal *k* by position
  ``(k - 1) mod size``) or, under a counter-clockwise rule set, the other way round. Under
  ``after_pass: same_dealer`` the dealer of an all-pass round deals again, so the rotation cannot be
  known in advance: only deal 1 is pre-filled and the sheet says why.
- At a trick-taking table of five the dealer sits each deal out (``games.sessions.sitting_out``); the
  pre-filled dealer's points cell is shaded.
- Zwicken: a void cut keeps the dealer and a Belli cut passes the deal to the cutter, so no dealer is
  pre-filled; nobody sits out; the sheet has 24 blank rows and chip columns plus the pot.
- A duplicate round's card says which seat takes which hand of a board (``games.duplicate.seats``: the seat that
  deals plays the board's dealer hand, the others clockwise after it; a five-table's dealer sits out): one
  sentence where every board is the same (a table of four, clockwise), otherwise a line a board.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlencode

import segno
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from games.duplicate import seats_by_position
from games.rulesets import AfterPass, Game, Rotation, RuleSet
from games.sessions import sitting_out
from tournaments.duplicate.cards import compass_name, spans
from tournaments.duplicate.movement import hand_overs_for, movement_of, orders_for
from tournaments.duplicate.selectors import board_dealers
from tournaments.models import Round, Seat, Table
from tournaments.permissions import can_manage_competition
from tournaments.services.privacy import public_name, shown_name
from tournaments.sit_outs import sit_out_counts
from tournaments.visibility import access as competition_access

ZWICKEN_ROWS = 24
BOARDS_A_COLUMN = 12  # the table card's list of hands by board: longer lists go in two columns
PARTS = ("cards", "sheets")


@dataclass(frozen=True)
class PrintSeat:
    position: int  # the engine's seat, 0-based
    player_id: int
    name: str
    short: str  # "Anna P.", for narrow columns

    @property
    def number(self) -> int:
        """The seat as printed: 1, 2, 3..."""
        return self.position + 1


@dataclass(frozen=True)
class PrintRow:
    deal: int
    dealer: PrintSeat | None  # None: to be filled in at the table
    out: tuple[bool, ...]  # by seat: sits this deal out


@dataclass(frozen=True)
class BoardHands:
    """Who takes which hand of one board at one table."""

    board: int
    sits_out: PrintSeat | None  # a table of five's dealer
    hands: tuple[PrintSeat, ...]  # the seat taking North's hand, East's, South's, West's


@dataclass(frozen=True)
class PrintTable:
    number: int
    seats: list[PrintSeat]
    first_dealer: PrintSeat | None  # None only for a table nobody is seated at yet
    dealing_order: list[PrintSeat]  # the first deals, then the next in rotation...
    dealer_sits_out: bool
    rows: list[PrintRow]
    entry_url: str | None = None  # the entry page with the table's code, on the organiser's print only
    sit_out_counts: tuple[int, ...] = ()  # by seat, deals sat out in the session; () where nobody sits out
    # a duplicate round: which seat takes which hand, in one sentence where every board is the same, else a board
    # at a time
    hands_sentence: str = ""
    board_hands: tuple[BoardHands, ...] = ()
    boards: tuple[int, ...] = ()  # a duplicate round's board numbers in the order this table plays them
    relay_sentence: str = ""  # a relay: where the boards go after every fourth deal, and where the next come from

    @property
    def board_order(self) -> str:
        """The boards as the table card lists them, "1–16" or a relay's "5–16, 1–4" (numbers only)."""
        return spans(self.boards)

    @property
    def board_hands_columns(self) -> list[tuple[BoardHands, ...]]:
        """The boards' hands in side-by-side lists of at most 12 boards, so that 24 of them fit on the card."""
        half = (len(self.board_hands) + 1) // 2 if len(self.board_hands) > BOARDS_A_COLUMN else len(self.board_hands)
        return [self.board_hands[k : k + half] for k in range(0, len(self.board_hands), half)] if half else []

    @property
    def sit_outs(self) -> list[tuple[PrintSeat, int]]:
        """Each seat with the deals it sits out (24 deals at five: seats 1-4 five times, seat 5 four times)."""
        return list(zip(self.seats, self.sit_out_counts, strict=False))

    @property
    def entry_qr(self) -> str:
        """The entry address as an inline SVG QR code: a phone at the table scans it and enters the scores.

        A ``viewBox`` and no width or height of its own (``omitsize``), so the print's CSS sets its printed size:
        with fixed attributes the drawing kept its 2 px a module (about 2 cm) inside a larger box.
        """
        if self.entry_url is None:
            return ""
        return segno.make(self.entry_url, error="m").svg_inline(scale=2, omitsize=True, title=self.entry_url)

    @property
    def size(self) -> int:
        return len(self.seats)


@dataclass(frozen=True)
class PrintRound:
    round: Round
    tables: list[PrintTable]
    is_zwicken: bool
    deals: int  # rows per sheet
    rotation_known: bool  # every row's dealer is pre-filled
    duplicate: bool = False

    @property
    def compass(self) -> list[str]:
        """North, East, South, West in the reader's language: the heads of a card's hands by board."""
        return [compass_name(position) for position in range(4)]


# -- selector -----------------------------------------------------------------------------------------------------


def printable_round(slug: str, round_number: int) -> Round:
    """The round with its competition, club and rule set; 404 if there is none."""
    try:
        return Round.objects.select_related("competition__club", "competition__rule_set").get(
            competition__slug=slug, number=round_number
        )
    except Round.DoesNotExist:
        raise Http404 from None


def round_tables(round_: Round) -> list[Table]:
    """The round's tables, seats in order with their players: three queries however many tables."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
    return list(round_.tables.order_by("number").select_related("sheet").prefetch_related(seats))


def dealer_position(rules: RuleSet, size: int, deal: int) -> int | None:
    """Who deals deal ``deal`` (1-based) when seat 0 dealt the first; ``None`` if the rules make it unknowable."""
    if rules.game is Game.ZWICKEN or size == 0:
        return None
    if deal > 1 and rules.after_pass is AfterPass.SAME_DEALER:
        return None
    return (rotation_step(rules) * (deal - 1)) % size


def rotation_step(rules: RuleSet) -> int:
    """+1 clockwise (the next position deals next), -1 counter-clockwise, as in ``games.sheet.Sheet``."""
    return -1 if rules.rotation is Rotation.COUNTER_CLOCKWISE else 1


def board_hands(
    rules: RuleSet, seats: list[PrintSeat], boards: list[tuple[int, int]]
) -> tuple[str, tuple[BoardHands, ...]]:
    """Which seat takes which hand of each board (number, dealer's position, in the table's play order: the k-th is
    deal k) at a table: a sentence where it is the same on every board, else a row a board; nothing where no
    dealer is known in advance."""
    size = len(seats)
    rows = []
    for deal, (number, board_dealer) in enumerate(boards, start=1):
        dealer = dealer_position(rules, size, deal)
        if dealer is None or size not in (4, 5):
            return "", ()
        by_position = seats_by_position(size, dealer, board_dealer)
        out = seats[dealer] if size == 5 else None
        rows.append(BoardHands(number, out, tuple(seats[by_position[position]] for position in range(4))))
    if not rows:
        return "", ()
    first = rows[0].hands
    if size == 4 and all(row.hands == first for row in rows):
        named = sorted((seat.number, compass_name(position)) for position, seat in enumerate(first))
        words = {f"seat{k}": number for k, (number, _name) in enumerate(named, start=1)}
        words |= {f"hand{k}": name for k, (_number, name) in enumerate(named, start=1)}
        return (
            _(
                "On every board seat %(seat1)s takes %(hand1)s's hand, seat %(seat2)s %(hand2)s's, "
                "seat %(seat3)s %(hand3)s's and seat %(seat4)s %(hand4)s's."
            )
            % words,
            (),
        )
    return "", tuple(rows)


def print_round(
    round_: Round,
    tables: list[Table],
    *,
    full_names: bool = True,
    entry_url: Callable[[Table], str | None] | None = None,
) -> PrintRound:
    """What to print; players by their full names for those who run the competition (``full_names``), otherwise
    by their public names (``tournaments.services.privacy``). ``entry_url`` gives each card its table's entry
    address with the table's code (only those who run the competition print that). ``tables`` are all the round's
    tables (``round_tables``): a duplicate round's movement hands its boards round them."""
    competition = round_.competition
    rules = competition.rule_set.engine_rules()
    is_zwicken = rules.game is Game.ZWICKEN
    deals = competition.deals_per_session or ZWICKEN_ROWS
    step = rotation_step(rules)
    dealers = dict(board_dealers(round_)) if competition.duplicate else {}
    numbers = [table.number for table in tables]
    orders = orders_for(movement_of(round_), numbers, len(dealers)) if competition.duplicate else {}
    hand_overs = hand_overs_for(movement_of(round_), numbers, len(dealers)) if competition.duplicate else {}
    printed = []
    for table in tables:
        seats = [
            PrintSeat(s.position, s.player_id, shown_name(s.player, full_names), public_name(s.player))
            for s in table.seats.all()
        ]
        size = len(seats)
        rotation_known = not is_zwicken and rules.after_pass is not AfterPass.SAME_DEALER
        counts = tuple(sit_out_counts(rules, size, competition.deals_per_session)) if rotation_known and size else ()
        rows = []
        for deal in range(1, deals + 1):
            position = dealer_position(rules, size, deal)
            out = None if position is None else sitting_out(rules, size, position)
            rows.append(
                PrintRow(
                    deal,
                    None if position is None else seats[position],
                    tuple(seat == out for seat in range(size)),
                )
            )
        order = [number for number in orders.get(table.number, []) if number in dealers]
        hands_sentence, hand_rows = board_hands(rules, seats, [(number, dealers[number]) for number in order])
        printed.append(
            PrintTable(
                number=table.number,
                seats=seats,
                first_dealer=seats[0] if seats else None,
                dealing_order=[] if is_zwicken else [seats[(step * k) % size] for k in range(size)],
                dealer_sits_out=sitting_out(rules, size, 0) is not None,
                rows=rows,
                entry_url=None if entry_url is None else entry_url(table),
                sit_out_counts=counts if any(counts) else (),
                hands_sentence=hands_sentence,
                board_hands=hand_rows,
                boards=tuple(order),
                relay_sentence=relay_sentence(*hand_overs[table.number]) if table.number in hand_overs else "",
            )
        )
    return PrintRound(
        round=round_,
        tables=printed,
        is_zwicken=is_zwicken,
        deals=deals,
        rotation_known=not is_zwicken and rules.after_pass is not AfterPass.SAME_DEALER,
        duplicate=competition.duplicate,
    )


def relay_sentence(gives_to: int | None, takes_from: int | None) -> str:
    """A relay table's hand-overs, as the card says them (``None``: the relay table at the side)."""
    given = _("table %(number)s") % {"number": gives_to} if gives_to is not None else _("the relay table")
    taken = _("table %(number)s") % {"number": takes_from} if takes_from is not None else _("the relay table")
    return _("Relay: after every fourth deal, hand your boards to %(given)s and take the next ones from %(taken)s.") % {
        "given": given,
        "taken": taken,
    }


def may_print(user: object, round_: Round) -> bool:
    """Those who manage the competition always; others a published round of a competition they may see.

    "Published" is any status past the draft: a round in play or finished keeps its seating public.
    """
    competition = round_.competition
    if can_manage_competition(user, competition):
        return True
    # the seating is a round's result page on paper: public only when the competition shows everything
    return round_.status != Round.Status.DRAFT and competition_access(user, competition).results


# -- view ---------------------------------------------------------------------------------------------------------


def round_print(request: HttpRequest, slug: str, round_number: int) -> HttpResponse:
    """Table cards and blank score sheets for a round; ``?only=cards`` or ``?only=sheets`` prints one kind."""
    round_ = printable_round(slug, round_number)
    if not may_print(request.user, round_):
        raise Http404
    manager = can_manage_competition(request.user, round_.competition)
    only = request.GET.get("only")
    parts = (only,) if only in PARTS else PARTS

    def entry_url(table: Table) -> str | None:
        sheet = getattr(table, "sheet", None)  # a draft's tables may have no sheet yet
        if sheet is None:
            return None
        address = reverse("sheet-entry", args=[slug, round_number, table.number])
        return request.build_absolute_uri(f"{address}?{urlencode({'code': sheet.captain_code})}")

    return render(
        request,
        "print/round.html",
        {
            "page": print_round(
                round_, round_tables(round_), full_names=manager, entry_url=entry_url if manager else None
            ),
            "competition": round_.competition,
            "show_cards": "cards" in parts,
            "show_sheets": "sheets" in parts,
        },
    )
