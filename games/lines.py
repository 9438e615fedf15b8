"""Validate one score-sheet line against its rule set and the session so far.

Every problem of a line is collected (not just the first) as a ``FieldError``
with a stable code; nothing is settled from an invalid line. The codes:

``not_an_object``, ``unknown_field``, ``missing_field``, ``wrong_type``,
``deal_out_of_sequence``, ``deal_beyond_session``, ``seat_out_of_range``,
``dealer_out_of_rotation``, ``unknown_contract``, ``contract_not_enabled``,
``unexpected_field``, ``missing_declarer``, ``missing_partner``,
``partner_on_solo``, ``too_many_declarers``, ``several_declarers_not_allowed``,
``duplicate_declarer``, ``declarer_sits_out``, ``offender_sits_out``,
``tricks_shape``, ``tricks_out_of_range``, ``tricks_impossible``, ``tricks_after_early_end``,
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


def seat_text(seats: Any) -> str:
    """Positions as the table card numbers them: ``(2,)`` is "seat 3", ``(0, 1)`` "seats 1 and 2"."""
    if not isinstance(seats, list | tuple):
        seats = (seats,)
    numbers = [str(s + 1) if is_int(s) else repr(s) for s in seats]
    if not numbers:
        return "no seat"
    if len(numbers) == 1:
        return f"seat {numbers[0]}"
    return f"seats {', '.join(numbers[:-1])} and {numbers[-1]}"


def out_of_range(what: str, value: int, players: int) -> str:
    """An input position that is no seat, said both ways: positions count from 0, the table card from 1."""
    return f"{what} {value} is not a position at a table of {players} (0..{players - 1}, seats 1..{players})"


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

    def add(self, code: str, field: str, message: str, *, seats: Any = (), **values: int | str) -> None:
        """One problem; ``seats`` (engine positions) and ``values`` say what it is about (see ``FieldError``)."""
        self.items.append(FieldError(code, field, message, tuple(s for s in seats if is_int(s)), values))


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
            deal=deal,
            next_deal=next_deal,
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
            "seat_out_of_range", "dealer", out_of_range("dealer", dealer, players), value=dealer, players=players
        )
    else:
        dealer_ok = True
        if expected_dealer is not None and dealer != expected_dealer:
            errors.add(
                "dealer_out_of_rotation",
                "dealer",
                f"the dealer at {seat_text(dealer)} is out of rotation:"
                f" deal {next_deal} is dealt by {seat_text(expected_dealer)}"
                f" (rotation {rules.rotation.value}, after a pass: {rules.after_pass.value})",
                seats=(dealer, expected_dealer),
                deal=next_deal,
            )
    sitting_out = dealer if (players == 5 and dealer_ok and isinstance(dealer, int)) else -1

    contract_id = line.get("contract")
    contract = None
    if contract_id is None:
        errors.add("missing_field", "contract", "contract is missing")
    elif not isinstance(contract_id, str):
        errors.add("wrong_type", "contract", f"contract must be a contract name, got {contract_id!r}")
    elif contract_id not in CONTRACTS:
        errors.add(
            "unknown_contract",
            "contract",
            f"unknown contract {contract_id!r} (known: {', '.join(CONTRACTS)})",
            contract=contract_id,
        )
    elif not rules.enables(contract_id):
        errors.add(
            "contract_not_enabled",
            "contract",
            f"contract {contract_id!r} is not enabled in rule set {rules.name!r} (enabled: {', '.join(rules.ladder)})",
            contract=contract_id,
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
        raised = (
            bool(contract.higher) and contract.id in rules.compiled and bool(rules.compiled[contract.id].tariff.levels)
        )
        if contract.levels or raised:
            allowed = allowed | {"level"}
        for key in PLAY_FIELDS:
            if key in line and key not in allowed:
                errors.add(
                    "unexpected_field", key, f"{key} has no meaning on a {contract.id} line", contract=contract.id
                )
        side = contract.side
        if side is Side.PENALTY:
            offender = _check_offender(line.get("offender"), players, sitting_out, errors)
        elif side is not Side.NONE:
            declarers = _check_declarers(line.get("declarers"), contract.id, side, rules, players, sitting_out, errors)
            tricks = _check_tricks(line.get("tricks"), contract.id, side, contract.max_tricks, declarers, errors)
            if tricks and rules.early_end:
                _check_early_end(tricks, contract.id, contract.target, declarers, rules, errors)
            if contract.levels or (raised and line.get("level") is not None):  # no level: the ordinary bid
                level = _check_level(line.get("level"), contract.id, rules, errors)
            if "trump" in allowed:
                trump = _check_trump(line.get("trump"), contract.id, rules.trump_rule(contract.id), errors)

    if "points" in line:
        _check_points_shape(line["points"], players, errors, zero_sum=rules.zero_sum)
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
        errors.add("seat_out_of_range", field, out_of_range(what, value, players), value=value, players=players)
        return False
    if value == sitting_out:
        errors.add(
            code_out,
            field,
            f"the {what} at {seat_text(value)} is the dealer at a table of five and sits this deal out",
            seats=(value,),
        )
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
        errors.add("missing_field", "declarers", f"a {cid} line lists its declarers", contract=cid)
        return ()
    if not isinstance(value, list):
        errors.add("wrong_type", "declarers", f"declarers must be a list of seats, got {value!r}")
        return ()
    ok = all(
        [_check_seat(v, "declarers", "declarer", players, sitting_out, errors, "declarer_sits_out") for v in value]
    )
    n = len(value)
    if ok and len(set(value)) != n:
        twice = sorted({v for v in value if value.count(v) > 1})
        errors.add(
            "duplicate_declarer",
            "declarers",
            f"{seat_text(twice)} {'is' if len(twice) == 1 else 'are'} listed twice among the declarers",
            seats=twice,
        )
        ok = False
    if n == 0:
        errors.add("missing_declarer", "declarers", f"a {cid} line needs a declarer", contract=cid)
        ok = False
    elif side is Side.PAIR and n != 2:
        if n == 1:
            errors.add(
                "missing_partner",
                "declarers",
                f"{cid} is played by two: {seat_text(value)} lacks a partner",
                seats=value,
                contract=cid,
            )
        else:
            errors.add(
                "too_many_declarers",
                "declarers",
                f"{cid} is played by two, not by {n}: {seat_text(value)}",
                seats=value,
                contract=cid,
                most=2,
            )
        ok = False
    elif side is Side.SOLO and n != 1:
        errors.add(
            "partner_on_solo",
            "declarers",
            f"{cid} is played alone against three: {seat_text(value)} are named",
            seats=value,
            contract=cid,
        )
        ok = False
    elif side is Side.EACH_ALONE and n > 1:
        if not rules.multiple_miserie:
            errors.add(
                "several_declarers_not_allowed",
                "declarers",
                f"rule set {rules.name!r} allows one {cid} declarer a deal, got {seat_text(value)}",
                seats=value,
                contract=cid,
            )
            ok = False
        elif n > 4:
            errors.add(
                "too_many_declarers",
                "declarers",
                f"at most four players play {cid}, got {seat_text(value)}",
                seats=value,
                contract=cid,
                most=4,
            )
            ok = False
    return tuple(value) if ok else ()


def _check_tricks(
    value: Any, cid: str, side: Side, max_tricks: int, declarers: tuple[int, ...], errors: LineErrors
) -> tuple[int, ...]:
    if value is None:
        errors.add("missing_field", "tricks", f"a {cid} line gives the tricks taken", contract=cid)
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
                contract=cid,
                declarers=len(declarers),
                counts=len(counts),
            )
            return ()
    else:
        if not is_int(value):
            if isinstance(value, list):
                errors.add(
                    "tricks_shape",
                    "tricks",
                    f"{cid} gives one trick count for the whole side, got {value}",
                    contract=cid,
                    declarers=1,
                    counts=len(value),
                )
            else:
                errors.add("wrong_type", "tricks", f"tricks must be a whole number, got {value!r}")
            return ()
        counts = [value]
    bad = [c for c in counts if not 0 <= c <= max_tricks]
    if bad:
        errors.add(
            "tricks_out_of_range",
            "tricks",
            f"tricks {bad[0]} is outside 0..{max_tricks} for {cid}",
            contract=cid,
            tricks=bad[0],
            most=max_tricks,
        )
        return ()
    if len(counts) > 1 and sum(counts) > max_tricks:
        errors.add(
            "tricks_impossible",
            "tricks",
            f"{cid} declarers took {sum(counts)} tricks together, more than the {max_tricks} played",
            contract=cid,
            tricks=sum(counts),
            most=max_tricks,
        )
        return ()
    return tuple(counts)


def _check_early_end(
    tricks: tuple[int, ...],
    cid: str,
    target: int | None,
    declarers: tuple[int, ...],
    rules: RuleSet,
    errors: LineErrors,
) -> None:
    """Under ``early_end`` a miserie stops when its declarer takes a trick (RULES.md 1; 003: « une misère est perdue
    dès que son déclarant fait un pli »); with several declarers, when the last of them takes one: so at least one
    of them ends with at most 1 trick."""
    if target != 0 or CONTRACTS[cid].side is not Side.EACH_ALONE or min(tricks) <= 1:
        return
    seats = list(declarers) if declarers else []
    alone = len(tricks) == 1
    errors.add(
        "tricks_after_early_end",
        "tricks",
        f"under {rules.name!r} {cid} ends as soon as "
        + (
            "its declarer takes a trick: at most 1"
            if alone
            else "every declarer has taken a trick: one takes at most 1"
        )
        + f", got {tricks[0] if alone else list(tricks)}",
        contract=cid,
        seats=seats,
        tricks=min(tricks),
        declarers=len(tricks),
    )


def _check_level(value: Any, cid: str, rules: RuleSet, errors: LineErrors) -> int | None:
    allowed = CONTRACTS[cid].bid_levels
    least, most = min(allowed), max(allowed)
    compiled = rules.compiled.get(cid)
    levels = dict(compiled.tariff.levels) if compiled is not None else {}
    if value is None:
        played = sorted(levels) or list(allowed)  # what this rule set plays (Solo whist's abondance: 9 only)
        errors.add(
            "missing_field",
            "level",
            f"{cid} names its level ({played[0]}..{played[-1]} tricks)",
            contract=cid,
            least=played[0],
            most=played[-1],
        )
        return None
    if not is_int(value):
        errors.add("wrong_type", "level", f"level must be a whole number, got {value!r}")
        return None
    if not least <= value <= most:
        errors.add(
            "level_out_of_range",
            "level",
            f"{cid} level {value} is outside {least}..{most}",
            contract=cid,
            level=value,
            least=least,
            most=most,
        )
        return None
    if value not in levels:
        errors.add(
            "level_not_enabled",
            "level",
            f"{cid} level {value} is not played under {rules.name!r} (levels: {', '.join(map(str, sorted(levels)))})",
            contract=cid,
            level=value,
            levels=", ".join(map(str, sorted(levels))),
        )
        return None
    return int(value)


def _check_trump(value: Any, cid: str, rule: TrumpRule, errors: LineErrors) -> str | None:
    if value is None:
        if rule is TrumpRule.CHOSEN:
            errors.add(
                "trump_required",
                "trump",
                f"{cid} is played in a trump the declarer chooses: name it (C, D, H or S)",
                contract=cid,
            )
        return None
    if rule is TrumpRule.NONE:
        errors.add("trump_not_allowed", "trump", f"{cid} is played without trump, got trump {value!r}", contract=cid)
        return None
    if not isinstance(value, str) or value not in SUIT_LETTERS:
        errors.add("unknown_suit", "trump", f"trump {value!r} is not a suit: expected C, D, H or S")
        return None
    return value


def _check_points_shape(value: Any, players: int, errors: LineErrors, *, zero_sum: bool = True) -> None:
    if not isinstance(value, list) or len(value) != players or not all(is_int(p) for p in value):
        errors.add("wrong_type", "points", f"points must be {players} whole numbers, one per seat, got {value!r}")
    elif zero_sum and sum(value) != 0:
        errors.add("points_not_zero_sum", "points", f"points {value} sum to {sum(value)}, not zero", total=sum(value))
