"""Validate one score-sheet line against its rule set and the session so far.

Every problem of a line is collected (not just the first) as a ``FieldError``
with a stable code; nothing is settled from an invalid line. The codes:

``not_an_object``, ``unknown_field``, ``missing_field``, ``wrong_type``,
``deal_out_of_sequence``, ``deal_beyond_session``, ``seat_out_of_range``,
``dealer_out_of_rotation``, ``unknown_contract``, ``contract_not_enabled``,
``unexpected_field``, ``missing_declarer``, ``missing_partner``,
``partner_on_solo``, ``too_many_declarers``, ``several_declarers_not_allowed``,
``duplicate_declarer``, ``declarer_sits_out``, ``offender_sits_out``,
``tricks_shape``, ``tricks_out_of_range``, ``tricks_impossible``,
``level_out_of_range``, ``level_not_enabled``, ``trump_required``,
``trump_not_allowed``, ``unknown_suit``, ``points_not_zero_sum``,
``points_mismatch``, ``too_long`` (a note over ``NOTE_MAX_LENGTH``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.cards import SUIT_LETTERS
from games.contracts import CONTRACTS, Side, TrumpRule
from games.errors import FieldError, InvalidLine
from games.rulesets import RuleSet
from games.settlement import Play

REQUIRED_FIELDS = ("deal", "dealer", "contract")
PLAY_FIELDS = frozenset({"declarers", "tricks", "level", "trump", "offender"})
OPTIONAL_FIELDS = frozenset({"points", "note"})
#: a line's free-text note, in characters: a remark at the table, not a document
NOTE_MAX_LENGTH = 200
KNOWN_FIELDS = frozenset(REQUIRED_FIELDS) | PLAY_FIELDS | OPTIONAL_FIELDS

_FIELDS_BY_SIDE: dict[Side, frozenset[str]] = {
    Side.NONE: frozenset(),
    Side.PENALTY: frozenset({"offender"}),
    Side.PAIR: frozenset({"declarers", "tricks", "trump"}),
    Side.SOLO: frozenset({"declarers", "tricks", "trump"}),
    Side.EACH_ALONE: frozenset({"declarers", "tricks", "trump"}),
}


def is_int(value: Any) -> bool:
    return type(value) is int


def note_problem(note: Any) -> tuple[str, str] | None:
    """What is wrong with a line's ``note`` (every game's lines have one): ``(code, message)``, or None."""
    if note is None:
        return None
    if not isinstance(note, str):
        return "wrong_type", f"note must be text, got {note!r}"
    if len(note) > NOTE_MAX_LENGTH:
        return "too_long", f"note is {len(note)} characters long: at most {NOTE_MAX_LENGTH} are kept"
    return None


class LineErrors:
    """Collects a line's problems (every game's lines use it); cheap when there are none."""

    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list[FieldError] = []

    def add(self, code: str, field: str, message: str) -> None:
        self.items.append(FieldError(code, field, message))


def check_line(
    line: object,
    rules: RuleSet,
    players: int,
    *,
    next_deal: int,
    expected_dealer: int | None,
    deals_left: int | None,
) -> Play:
    """Return the line as a ``Play`` or raise ``InvalidLine`` with every problem found.

    ``expected_dealer`` is ``None`` for a session's first line (anyone may deal
    first); ``deals_left`` is ``None`` for an open-ended session.
    """
    if type(line) is not dict and not isinstance(line, Mapping):
        raise InvalidLine([FieldError("not_an_object", "", f"a line must be a JSON object, got {line!r}")])
    errors = LineErrors()
    if not KNOWN_FIELDS.issuperset(line):
        for key in line:
            if key not in KNOWN_FIELDS:
                errors.add(
                    "unknown_field", str(key), f"unknown field {key!r} (known: {', '.join(sorted(KNOWN_FIELDS))})"
                )

    deal = line.get("deal")
    if deal is None:
        errors.add("missing_field", "deal", "deal number is missing")
    elif not is_int(deal):
        errors.add("wrong_type", "deal", f"deal must be a whole number, got {deal!r}")
    elif deal != next_deal:
        errors.add(
            "deal_out_of_sequence",
            "deal",
            f"deal {deal} is out of sequence: the next deal of this sheet is {next_deal}",
        )
    if deals_left is not None and deals_left <= 0:
        errors.add(
            "deal_beyond_session", "deal", f"deal {deal!r} is beyond the end of the session: all its deals are played"
        )

    dealer = line.get("dealer")
    dealer_ok = False
    if dealer is None:
        errors.add("missing_field", "dealer", "dealer is missing")
    elif not is_int(dealer):
        errors.add("wrong_type", "dealer", f"dealer must be a seat number, got {dealer!r}")
    elif not 0 <= dealer < players:
        errors.add(
            "seat_out_of_range", "dealer", f"dealer {dealer} is not a seat at a table of {players} (0..{players - 1})"
        )
    else:
        dealer_ok = True
        if expected_dealer is not None and dealer != expected_dealer:
            errors.add(
                "dealer_out_of_rotation",
                "dealer",
                f"dealer {dealer} is out of rotation: deal {next_deal} is dealt by seat {expected_dealer}"
                f" (rotation {rules.rotation.value}, after a pass: {rules.after_pass.value})",
            )
    sitting_out = dealer if (players == 5 and dealer_ok and isinstance(dealer, int)) else -1

    contract_id = line.get("contract")
    contract = None
    if contract_id is None:
        errors.add("missing_field", "contract", "contract is missing")
    elif not isinstance(contract_id, str):
        errors.add("wrong_type", "contract", f"contract must be a contract name, got {contract_id!r}")
    elif contract_id not in CONTRACTS:
        errors.add("unknown_contract", "contract", f"unknown contract {contract_id!r} (known: {', '.join(CONTRACTS)})")
    elif not rules.enables(contract_id):
        errors.add(
            "contract_not_enabled",
            "contract",
            f"contract {contract_id!r} is not enabled in rule set {rules.name!r} (enabled: {', '.join(rules.ladder)})",
        )
    else:
        contract = CONTRACTS[contract_id]

    declarers: tuple[int, ...] = ()
    tricks: tuple[int, ...] = ()
    level: int | None = None
    trump: str | None = None
    offender: int | None = None
    if contract is not None:
        allowed = _FIELDS_BY_SIDE[contract.side]
        if contract.levels:
            allowed = allowed | {"level"}
        for key in PLAY_FIELDS:
            if key in line and key not in allowed:
                errors.add("unexpected_field", key, f"{key} has no meaning on a {contract.id} line")
        side = contract.side
        if side is Side.PENALTY:
            offender = _check_offender(line.get("offender"), players, sitting_out, errors)
        elif side is not Side.NONE:
            declarers = _check_declarers(line.get("declarers"), contract.id, side, rules, players, sitting_out, errors)
            tricks = _check_tricks(line.get("tricks"), contract.id, side, contract.max_tricks, declarers, errors)
            if contract.levels:
                level = _check_level(line.get("level"), contract.id, rules, errors)
            if "trump" in allowed:
                trump = _check_trump(line.get("trump"), contract.id, rules.trump_rule(contract.id), errors)

    if "points" in line:
        _check_points_shape(line["points"], players, errors)
    note = line.get("note")
    problem = note_problem(note)
    if problem is not None:
        errors.add(problem[0], "note", problem[1])

    if errors.items:
        raise InvalidLine(errors.items)
    assert isinstance(deal, int) and isinstance(dealer, int) and isinstance(contract_id, str)
    return Play(deal, dealer, contract_id, declarers, tricks, level, trump, offender)


def _check_seat(
    value: Any, field: str, what: str, players: int, sitting_out: int, errors: LineErrors, code_out: str
) -> bool:
    if not is_int(value):
        errors.add("wrong_type", field, f"{what} must be a seat number, got {value!r}")
        return False
    if not 0 <= value < players:
        errors.add(
            "seat_out_of_range", field, f"{what} {value} is not a seat at a table of {players} (0..{players - 1})"
        )
        return False
    if value == sitting_out:
        errors.add(code_out, field, f"{what} {value} is the dealer at a table of five and sits this deal out")
        return False
    return True


def _check_offender(value: Any, players: int, sitting_out: int, errors: LineErrors) -> int | None:
    if value is None:
        errors.add("missing_field", "offender", "a penalty line names its offender")
        return None
    return (
        value if _check_seat(value, "offender", "offender", players, sitting_out, errors, "offender_sits_out") else None
    )


def _check_declarers(
    value: Any, cid: str, side: Side, rules: RuleSet, players: int, sitting_out: int, errors: LineErrors
) -> tuple[int, ...]:
    if value is None:
        errors.add("missing_field", "declarers", f"a {cid} line lists its declarers")
        return ()
    if not isinstance(value, list):
        errors.add("wrong_type", "declarers", f"declarers must be a list of seats, got {value!r}")
        return ()
    ok = all(
        [_check_seat(v, "declarers", "declarer", players, sitting_out, errors, "declarer_sits_out") for v in value]
    )
    n = len(value)
    if ok and len(set(value)) != n:
        errors.add("duplicate_declarer", "declarers", f"a seat is listed twice in declarers {value}")
        ok = False
    if n == 0:
        errors.add("missing_declarer", "declarers", f"a {cid} line needs a declarer")
        ok = False
    elif side is Side.PAIR and n != 2:
        if n == 1:
            errors.add("missing_partner", "declarers", f"{cid} is played by two: declarers {value} lack the partner")
        else:
            errors.add("too_many_declarers", "declarers", f"{cid} is played by two, not by {n}: {value}")
        ok = False
    elif side is Side.SOLO and n != 1:
        errors.add(
            "partner_on_solo", "declarers", f"{cid} is played alone against three: declarers {value} name a partner"
        )
        ok = False
    elif side is Side.EACH_ALONE and n > 1:
        if not rules.multiple_miserie:
            errors.add(
                "several_declarers_not_allowed",
                "declarers",
                f"rule set {rules.name!r} allows one {cid} declarer a deal, got {value}",
            )
            ok = False
        elif n > 4:
            errors.add("too_many_declarers", "declarers", f"at most four players play {cid}, got {value}")
            ok = False
    return tuple(value) if ok else ()


def _check_tricks(
    value: Any, cid: str, side: Side, max_tricks: int, declarers: tuple[int, ...], errors: LineErrors
) -> tuple[int, ...]:
    if value is None:
        errors.add("missing_field", "tricks", f"a {cid} line gives the tricks taken")
        return ()
    if side is Side.EACH_ALONE:
        counts = [value] if is_int(value) else value
        if not isinstance(counts, list) or not all(is_int(c) for c in counts):
            errors.add("wrong_type", "tricks", f"tricks must be a number per declarer, got {value!r}")
            return ()
        if declarers and len(counts) != len(declarers):
            errors.add(
                "tricks_shape",
                "tricks",
                f"{cid} gives one trick count per declarer: {len(declarers)} declarers, {len(counts)} counts {value}",
            )
            return ()
    else:
        if not is_int(value):
            if isinstance(value, list):
                errors.add("tricks_shape", "tricks", f"{cid} gives one trick count for the whole side, got {value}")
            else:
                errors.add("wrong_type", "tricks", f"tricks must be a whole number, got {value!r}")
            return ()
        counts = [value]
    bad = [c for c in counts if not 0 <= c <= max_tricks]
    if bad:
        errors.add("tricks_out_of_range", "tricks", f"tricks {bad[0]} is outside 0..{max_tricks} for {cid}")
        return ()
    if len(counts) > 1 and sum(counts) > max_tricks:
        errors.add(
            "tricks_impossible",
            "tricks",
            f"{cid} declarers took {sum(counts)} tricks together, more than the {max_tricks} played",
        )
        return ()
    return tuple(counts)


def _check_level(value: Any, cid: str, rules: RuleSet, errors: LineErrors) -> int | None:
    if value is None:
        errors.add("missing_field", "level", f"{cid} names its level (9..12 tricks)")
        return None
    if not is_int(value):
        errors.add("wrong_type", "level", f"level must be a whole number, got {value!r}")
        return None
    if not 9 <= value <= 12:
        errors.add("level_out_of_range", "level", f"{cid} level {value} is outside 9..12")
        return None
    levels = dict(rules.compiled[cid].tariff.levels)
    if value not in levels:
        errors.add(
            "level_not_enabled",
            "level",
            f"{cid} level {value} is not played under {rules.name!r} (levels: {sorted(levels)})",
        )
        return None
    return int(value)


def _check_trump(value: Any, cid: str, rule: TrumpRule, errors: LineErrors) -> str | None:
    if value is None:
        if rule is TrumpRule.CHOSEN:
            errors.add(
                "trump_required", "trump", f"{cid} is played in a trump the declarer chooses: name it (C, D, H or S)"
            )
        return None
    if rule is TrumpRule.NONE:
        errors.add("trump_not_allowed", "trump", f"{cid} is played without trump, got trump {value!r}")
        return None
    if not isinstance(value, str) or value not in SUIT_LETTERS:
        errors.add("unknown_suit", "trump", f"trump {value!r} is not a suit: expected C, D, H or S")
        return None
    return value


def _check_points_shape(value: Any, players: int, errors: LineErrors) -> None:
    if not isinstance(value, list) or len(value) != players or not all(is_int(p) for p in value):
        errors.add("wrong_type", "points", f"points must be {players} whole numbers, one per seat, got {value!r}")
    elif sum(value) != 0:
        errors.add("points_not_zero_sum", "points", f"points {value} sum to {sum(value)}, not zero")
