"""The engine's line errors as a person at the table reads them.

The engine (``games``) counts positions from 0 and writes English for developers; the API passes its ``code``,
``field`` and ``message`` on as they are. A person reads this instead: seats numbered as on the table card (1, 2,
3...) with the player's name, contracts as players say them, in their language, without codes.

Each code of ``games.codes.CODES`` has a sentence here; the error's ``seats`` (engine positions) and ``values``
fill it in. An error the engine does not make (a service's own refusal) keeps its message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext

from games.cards import SUIT_LETTERS, Card
from games.codes import RECORD_CODES
from games.contracts import CONTRACTS, Side
from games.errors import FieldError, GameError
from games.lines import NOTE_MAX_LENGTH
from tournaments.contract_names import contract_name
from tournaments.duplicate.cards import card_text
from tournaments.line_text import suit_text

# The entry form's labels (the same words, already translated), by the engine's field names.
FIELD_LABELS: Mapping[str, Any] = {
    "deal": gettext_lazy("Deal"),
    "dealer": gettext_lazy("Dealer"),
    "contract": gettext_lazy("Contract"),
    "declarers": gettext_lazy("Declarers"),
    "tricks": gettext_lazy("Tricks"),
    "level": gettext_lazy("Abondance level"),
    "trump": gettext_lazy("Trump"),
    "offender": gettext_lazy("Offender (penalty)"),
    "cut": gettext_lazy("Cut"),
    "played": gettext_lazy("Played"),
    "duties_failed": gettext_lazy("Failed a duty (trump ace, Belli)"),
    "points": gettext_lazy("Points"),
    "chips": gettext_lazy("Chips"),
    "pot": gettext_lazy("Pot"),
    "note": gettext_lazy("Note"),
    "trump_ace": gettext_lazy("Trump ace"),
}


class _Reader:
    """One error and the table's names: the pieces its sentence is made of."""

    def __init__(self, error: FieldError, names: Sequence[str]):
        self.error = error
        self.names = names
        self.values = error.values

    def seat(self, position: int) -> str:
        """Engine position 2 → "seat 3 (Ann)", as on the table card."""
        if 0 <= position < len(self.names):
            return _("seat %(number)s (%(name)s)") % {"number": position + 1, "name": self.names[position]}
        return _("seat %(number)s") % {"number": position + 1}

    def seats(self, positions: Sequence[int] | None = None) -> str:
        """ "seat 1 (Ann)", "seat 1 (Ann) and seat 3 (Cas)", "seat 1 (Ann), seat 2 (Bob) and seat 3 (Cas)"."""
        named = [self.seat(p) for p in (self.error.seats if positions is None else positions)]
        if len(named) <= 1:
            return "".join(named)
        return _("%(seats)s and %(last)s") % {"seats": ", ".join(named[:-1]), "last": named[-1]}

    def count(self) -> int:
        return len(self.error.seats)

    def contract(self) -> str:
        cid = self.values.get("contract")
        return contract_name(str(cid)) if cid else ""

    def field(self) -> str:
        label = FIELD_LABELS.get(self.error.field)
        return str(label) if label is not None else self.error.field

    def value(self, key: str) -> int | str:
        return self.values.get(key, "")

    def card(self, key: str) -> str:
        """A card of the values ("10H") as people write it ("♥10"); "" when there is none."""
        try:
            return card_text(Card.from_str(str(self.values.get(key, ""))))
        except GameError:
            return ""

    def suit(self, key: str) -> str:
        """A suit of the values ("H") in words ("♥ hearts"); "" when there is none."""
        letter = self.values.get(key)
        return suit_text(letter) if isinstance(letter, str) and letter in SUIT_LETTERS else ""


Sentence = Callable[[_Reader], str]


def _missing_field(r: _Reader) -> str:
    field, contract = r.error.field, r.contract()
    if field == "deal":
        return _("Give the deal number.")
    if field == "dealer":
        return _("Choose the dealer.")
    if field == "contract":
        return _("Choose the contract.")
    if field == "declarers":
        return _("%(contract)s: type the declarers' seat numbers.") % {"contract": contract}
    if field == "tricks" and contract:
        return _("%(contract)s: give the tricks taken.") % {"contract": contract}
    if field == "tricks":
        return _("Give the tricks each player took.")
    if field == "level" and r.value("least") == r.value("most"):
        return _("%(contract)s: choose the level (%(least)s tricks).") % {
            "contract": contract,
            "least": r.value("least"),
        }
    if field == "level":
        levels = {"contract": contract, "least": r.value("least"), "most": r.value("most")}
        return _("%(contract)s: choose the level (%(least)s to %(most)s tricks).") % levels
    if field == "offender":
        return _("A penalty names the player at fault.")
    if field == "played":
        return _("Tick who played.")
    return _("%(field)s is missing.") % {"field": r.field()}


def _unexpected_field(r: _Reader) -> str:
    field, contract = r.error.field, r.contract()
    if not contract:
        return _("On a cut no card was played: leave %(field)s empty.") % {"field": r.field()}
    if field == "level":
        return _("%(contract)s has no level: leave it empty.") % {"contract": contract}
    if field == "trump":
        return _("%(contract)s has no trump to choose: leave it empty.") % {"contract": contract}
    if field == "offender":
        return _("Only a penalty names a player at fault.")
    if field == "declarers":
        return _("%(contract)s has no declarers: leave the seats empty.") % {"contract": contract}
    if field == "tricks":
        return _("%(contract)s has no tricks to count: leave them empty.") % {"contract": contract}
    return _("%(contract)s has no %(field)s: leave it empty.") % {"contract": contract, "field": r.field()}


def _seat_out_of_range(r: _Reader) -> str:
    number = r.value("value")
    number = number + 1 if isinstance(number, int) else number
    players = r.value("players")
    if players:
        return _("There is no seat %(number)s at this table: its seats are 1 to %(players)s.") % {
            "number": number,
            "players": players,
        }
    return _("There is no seat %(number)s at this table.") % {"number": number}


def _dealer_out_of_rotation(r: _Reader) -> str:
    if len(r.error.seats) == 2:
        dealer, expected = r.error.seats
        return _("Deal %(deal)s is dealt by %(expected)s, not by %(dealer)s.") % {
            "deal": r.value("deal"),
            "expected": r.seat(expected),
            "dealer": r.seat(dealer),
        }
    return _("This dealer is out of turn.")


def _too_many_declarers(r: _Reader) -> str:
    if r.value("most") == 2:
        return _("%(contract)s is played by two, not by %(seats)s.") % {"contract": r.contract(), "seats": r.seats()}
    return _("At most four players play %(contract)s, not %(seats)s.") % {"contract": r.contract(), "seats": r.seats()}


def _tricks_shape(r: _Reader) -> str:
    contract = r.contract()
    if not contract:  # Zwicken: a count per seat
        return _("Give one trick count per player.")
    contract_id = str(r.value("contract"))
    if contract_id in CONTRACTS and CONTRACTS[contract_id].side is not Side.EACH_ALONE:
        return _("%(contract)s gives one trick count for the whole side, e.g. 9.") % {"contract": contract}
    return _("%(contract)s gives one trick count per declarer, in the order of their seats, e.g. 0,1.") % {
        "contract": contract
    }


def _tricks_out_of_range(r: _Reader) -> str:
    numbers = {"tricks": r.value("tricks"), "most": r.value("most")}
    if r.error.seats:
        return _("%(seat)s cannot take %(tricks)s tricks: 0 to %(most)s.") % {
            "seat": r.seat(r.error.seats[0]),
            **numbers,
        }
    return _("%(contract)s: %(tricks)s tricks is not possible, give 0 to %(most)s.") % {
        "contract": r.contract(),
        **numbers,
    }


def _tricks_impossible(r: _Reader) -> str:
    numbers = {"tricks": r.value("tricks"), "most": r.value("most")}
    if r.contract():
        return _("The %(contract)s players took %(tricks)s tricks together, more than the %(most)s played.") % {
            "contract": r.contract(),
            **numbers,
        }
    return _("The players took %(tricks)s tricks, but a deal has %(most)s.") % numbers


def _points_mismatch(r: _Reader) -> str:
    if r.error.seats:
        return _("The points typed for %(seats)s differ from what the rules give.") % {"seats": r.seats()}
    return _("The points typed differ from what the rules give.")


def _chips_mismatch(r: _Reader) -> str:
    if r.error.seats:
        return _("The chips typed for %(seats)s differ from what the rules give.") % {"seats": r.seats()}
    return _("The chips typed differ from what the rules give.")


def _sits_out(what: str) -> Sentence:
    def sentence(r: _Reader) -> str:
        seat = r.seat(r.error.seats[0]) if r.error.seats else ""
        if what == "declarer":
            return _("%(seat)s deals at a table of five and sits this deal out: they cannot play it.") % {"seat": seat}
        return _("%(seat)s deals at a table of five and sits this deal out: they cannot be at fault.") % {"seat": seat}

    return sentence


def _duplicate(r: _Reader) -> str:
    return ngettext("%(seats)s is named twice.", "%(seats)s are named twice.", r.count()) % {"seats": r.seats()}


def _by_passed_player(duty: bool) -> Sentence:
    def sentence(r: _Reader) -> str:
        if duty:
            return ngettext(
                "%(seats)s did not play, so had no duty to fail.",
                "%(seats)s did not play, so had no duty to fail.",
                r.count(),
            ) % {"seats": r.seats()}
        return ngettext(
            "%(seats)s did not play, so took no tricks.", "%(seats)s did not play, so took no tricks.", r.count()
        ) % {"seats": r.seats()}

    return sentence


def _contract_sentence(text: str) -> Sentence:
    """A sentence whose only variable is the contract (``text`` is marked for translation where it is defined)."""
    return lambda r: _(text) % {"contract": r.contract()}


def _fixed(text: str) -> Sentence:
    """A sentence without variables (``text`` is marked for translation where it is defined)."""
    return lambda r: _(text)


# -- a duplicate round's line against its board (``games.duplicate.validation``) --------------------------------------


def _dealer_not_boards(r: _Reader) -> str:
    if len(r.error.seats) == 2:
        dealer, expected = r.error.seats
        return _(
            "In duplicate play deal 1 is dealt by %(expected)s, not by %(dealer)s: the seat that deals takes the "
            "board's dealer hand."
        ) % {"expected": r.seat(expected), "dealer": r.seat(dealer)}
    return _("In duplicate play deal 1 is dealt by seat 1: the seat that deals takes the board's dealer hand.")


def _troel_without_three_aces(r: _Reader) -> str:
    seats = r.error.seats
    if len(seats) >= 2:
        holder = r.values.get("holder")
        if isinstance(holder, int):
            return _(
                "Troel is played by the player holding three aces: on this board that is %(holder)s, not %(seats)s."
            ) % {"holder": r.seat(holder), "seats": r.seats()}
        return _("Nobody at this table holds three aces on this board, so nobody plays troel.")
    if seats:
        return _("%(seat)s does not hold three aces: only a player holding three aces plays troel.") % {
            "seat": r.seat(seats[0])
        }
    return _("Only a player holding three aces plays troel.")


def _troel_wrong_partner(r: _Reader) -> str:
    if len(r.error.seats) >= 3:
        _holder, given, right = r.error.seats[:3]
        card = r.card("card")
        if card:
            return _("Troel's partner is %(right)s, who holds %(card)s, not %(given)s.") % {
                "right": r.seat(right),
                "card": card,
                "given": r.seat(given),
            }
        return _("Troel's partner is %(right)s, not %(given)s.") % {"right": r.seat(right), "given": r.seat(given)}
    return _(
        "Troel's partner is the player holding the fourth ace (with four aces: the highest heart the troel player "
        "lacks)."
    )


def _four_aces_not_troel(r: _Reader) -> str:
    if r.error.seats:
        return _("%(seat)s holds all four aces, and under these rules four aces are no troel.") % {
            "seat": r.seat(r.error.seats[0])
        }
    return _("Under these rules four aces in one hand are no troel.")


def _trump_not_turned(r: _Reader) -> str:
    contract = r.contract() or _("This contract")
    suit, card = r.suit("trump"), r.card("turned")
    if suit and card:
        return _(
            "%(contract)s is played in the turned trump, %(suit)s (the turned card is %(card)s): choose it or leave "
            "the trump empty."
        ) % {"contract": contract, "suit": suit, "card": card}
    if suit:
        return _("%(contract)s is played in the turned trump, %(suit)s: choose it or leave the trump empty.") % {
            "contract": contract,
            "suit": suit,
        }
    return _("%(contract)s is played in the turned trump: leave the trump empty.") % {"contract": contract}


def _trump_not_troel(r: _Reader) -> str:
    if r.value("aces") == 4:
        return _("With four aces troel is played in hearts: choose hearts or leave the trump empty.")
    suit = r.suit("trump")
    if suit:
        return _("Troel is played in the suit of the fourth ace, %(suit)s: choose it or leave the trump empty.") % {
            "suit": suit
        }
    return _("Troel is played in the suit of the fourth ace: leave the trump empty.")


def _no_board(r: _Reader) -> str:
    board = r.value("board")
    if board:
        return _("This round has no board %(board)s: ask the organiser to check the round's boards.") % {"board": board}
    return _("This round has no board for this deal: ask the organiser to check the round's boards.")


_RECORD = gettext_noop("This deal record is not valid: check its cards, bids and plays.")

SENTENCES: dict[str, Sentence] = {
    # a score-sheet line
    "not_an_object": _fixed(gettext_noop("This line could not be read.")),
    "unknown_field": lambda r: _("This line has a field the rules do not know: %(field)s.") % {"field": r.field()},
    "missing_field": _missing_field,
    "wrong_type": lambda r: _("%(field)s: this value cannot be read.") % {"field": r.field()},
    "deal_out_of_sequence": lambda r: (
        _("Deal %(deal)s is out of turn: the next deal on this sheet is %(next)s.")
        % {"deal": r.value("deal"), "next": r.value("next_deal")}
    ),
    "deal_beyond_session": _fixed(gettext_noop("Every deal of this session is on the sheet: correct one instead.")),
    "seat_out_of_range": _seat_out_of_range,
    "dealer_out_of_rotation": _dealer_out_of_rotation,
    "unknown_contract": _fixed(gettext_noop("That contract does not exist: choose one from the list.")),
    "contract_not_enabled": _contract_sentence(
        gettext_noop("%(contract)s is not played under this competition's rules.")
    ),
    "unexpected_field": _unexpected_field,
    "missing_declarer": _contract_sentence(gettext_noop("%(contract)s: type the declarer's seat number.")),
    "missing_partner": lambda r: (
        _("%(contract)s is played by two: %(seats)s has no partner. Type both seats.")
        % {"contract": r.contract(), "seats": r.seats()}
    ),
    "partner_on_solo": lambda r: (
        _("%(contract)s is played alone: type one seat, not %(seats)s.")
        % {"contract": r.contract(), "seats": r.seats()}
    ),
    "too_many_declarers": _too_many_declarers,
    "several_declarers_not_allowed": lambda r: (
        _("These rules allow one %(contract)s player a deal, not %(seats)s.")
        % {"contract": r.contract(), "seats": r.seats()}
    ),
    "duplicate_declarer": _duplicate,
    "declarer_sits_out": _sits_out("declarer"),
    "offender_sits_out": _sits_out("offender"),
    "tricks_shape": _tricks_shape,
    "tricks_out_of_range": _tricks_out_of_range,
    "tricks_impossible": _tricks_impossible,
    "tricks_after_early_end": lambda r: (
        _("%(contract)s ends as soon as its declarer takes a trick: type 0 or 1 tricks.") % {"contract": r.contract()}
        if r.value("declarers") == 1
        else _("%(contract)s ends once every declarer has taken a trick: one of %(seats)s has 0 or 1 tricks.")
        % {"contract": r.contract(), "seats": r.seats()}
    ),
    "level_out_of_range": lambda r: (
        _("Level %(level)s does not exist: %(least)s to %(most)s tricks.")
        % {"level": r.value("level"), "least": r.value("least") or 9, "most": r.value("most") or 12}
    ),
    "level_not_enabled": lambda r: (
        _("%(contract)s at level %(level)s is not played under these rules (levels: %(levels)s).")
        % {"contract": r.contract(), "level": r.value("level"), "levels": r.value("levels")}
    ),
    "trump_required": _contract_sentence(gettext_noop("%(contract)s: choose the trump the declarer named.")),
    "trump_not_allowed": _contract_sentence(
        gettext_noop("%(contract)s is played without trump: leave the trump empty.")
    ),
    "unknown_suit": _fixed(gettext_noop("Choose the trump: clubs, diamonds, hearts or spades.")),
    "points_not_zero_sum": lambda r: (
        _("The points typed add up to %(total)s, not to zero.") % {"total": r.value("total")}
    ),
    "points_mismatch": _points_mismatch,
    "too_long": lambda r: _("The note is too long: at most %(most)s characters.") % {"most": NOTE_MAX_LENGTH},
    # a Zwicken line
    "unknown_cut": _fixed(gettext_noop("That is not a cut: void or Belli.")),
    "cut_not_enabled": _fixed(gettext_noop("These rules play no hop-and-jump cut.")),
    "duplicate_seat": _duplicate,
    "pass_not_allowed": lambda r: (
        _("Nobody may pass under these rules: %(seats)s did not play.") % {"seats": r.seats()}
    ),
    "tricks_by_passed_player": _by_passed_player(duty=False),
    "duty_by_passed_player": _by_passed_player(duty=True),
    "trump_ace_passed": lambda r: _("%(seats)s held the trump ace and had to play.") % {"seats": r.seats()},
    "chips_not_conserved": _fixed(gettext_noop("The chips and the pot do not add up: together they change by zero.")),
    "chips_mismatch": _chips_mismatch,
    # a duplicate round's line against its board
    "dealer_not_boards": _dealer_not_boards,
    "troel_without_three_aces": _troel_without_three_aces,
    "troel_wrong_partner": _troel_wrong_partner,
    "four_aces_not_troel": _four_aces_not_troel,
    "trump_not_turned": _trump_not_turned,
    "trump_not_troel": _trump_not_troel,
    "no_board": _no_board,
    # the entry service's own refusals
    "season_closed": _fixed(gettext_noop("This competition is closed: it takes no more lines.")),
    "sheet_final": _fixed(gettext_noop("This score sheet is final: it takes no more lines.")),
    "sheet_gone": _fixed(gettext_noop("This table was seated again: open the entry page from its new table card.")),
    "too_many_deals": _fixed(gettext_noop("This sheet takes no more deals.")),
    "idempotency_conflict": _fixed(
        gettext_noop("This line was already sent with other contents: reload the page and type it again.")
    ),
    "stored_lines_invalid": _fixed(
        gettext_noop("The lines already on this sheet do not fit its rules: ask the organiser to check them.")
    ),
    "pot_mismatch": lambda r: (
        _("The pot typed (%(pot)s) differs from what the rules give (%(settled)s).")
        % {"pot": r.value("pot"), "settled": r.value("settled")}
    ),
}


def person_message(error: FieldError, names: Sequence[str]) -> str:
    """``error`` in the reader's language; ``names[i]`` is the player at engine position ``i`` (seat ``i + 1``)."""
    if error.code == "breaks_later_deal" and error.cause is not None:
        return _("This correction makes deal %(deal)s invalid: %(problem)s") % {
            "deal": error.values.get("deal", ""),
            "problem": person_message(error.cause, names),
        }
    sentence = SENTENCES.get(error.code)
    if sentence is not None:
        return str(capfirst(sentence(_Reader(error, names))))
    if error.code in RECORD_CODES:
        return _(_RECORD)
    return error.message
