"""Validate one Zwicken score-sheet line against its rule set and the session so far.

Every problem of a line is collected as a ``FieldError`` with a stable code
(the format is described in ``games.zwicken``). The codes:

``not_an_object``, ``unknown_field``, ``missing_field``, ``wrong_type``,
``deal_out_of_sequence``, ``seat_out_of_range``, ``dealer_out_of_rotation``,
``unknown_cut``, ``cut_not_enabled``, ``unexpected_field``, ``duplicate_seat``,
``pass_not_allowed``, ``tricks_shape``, ``tricks_out_of_range``,
``tricks_by_passed_player``, ``tricks_impossible``, ``duty_by_passed_player``,
``trump_ace_passed``, ``chips_not_conserved``, ``too_long`` (a note); after settlement (only for an
otherwise valid line) ``chips_mismatch`` and ``pot_mismatch``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from games.errors import FieldError, InvalidLine, SessionError
from games.lines import LineErrors, is_int, note_problem, out_of_range, seat_text
from games.rulesets import RuleSet, ZwickenOptions
from games.settlement import Settled

REQUIRED_FIELDS = ("deal", "dealer")
PLAY_FIELDS = ("played", "tricks", "duties_failed", "trump_ace")
OPTIONAL_FIELDS = ("cut", "chips", "pot", "note")
KNOWN_FIELDS = frozenset(REQUIRED_FIELDS + PLAY_FIELDS + OPTIONAL_FIELDS)
CUTS = ("void", "belli")


class ZwickenPlay(NamedTuple):
    """A validated Zwicken line. ``kind`` is ``"zwicken"`` (cards were dealt), ``"void"`` or ``"belli"`` (a cut)."""

    deal: int
    dealer: int
    kind: str
    played: tuple[int, ...] = ()
    tricks: tuple[int, ...] = ()
    duties_failed: tuple[int, ...] = ()
    trump_ace: int | None = None
    chips: tuple[int, ...] | None = None  # entered by hand: checked against the settlement
    pot: int | None = None  # entered by hand: the pot after the deal


def zwicken_options(rules: RuleSet) -> ZwickenOptions:
    """The rule set's Zwicken options; a Wiezen rule set has none."""
    if rules.zwicken is None:
        raise SessionError(f"rule set {rules.name!r} is a {rules.game.value} rule set, not a Zwicken one")
    return rules.zwicken


def check_zwicken_line(
    line: object,
    rules: RuleSet,
    players: int,
    *,
    next_deal: int,
    expected_dealer: int | None,
    pot: int,
) -> ZwickenPlay:
    """Return the line as a ``ZwickenPlay`` or raise ``InvalidLine`` with every problem found.

    ``expected_dealer`` is ``None`` for a session's first line; ``pot`` is the
    pot before the deal (for the conservation check of entered chips).
    """
    options = zwicken_options(rules)
    if not isinstance(line, Mapping):
        raise InvalidLine([FieldError("not_an_object", "", f"a line must be a JSON object, got {line!r}")])
    errors = LineErrors()
    for key in line:
        if key not in KNOWN_FIELDS:
            errors.add("unknown_field", str(key), f"unknown field {key!r} (known: {', '.join(sorted(KNOWN_FIELDS))})")

    deal = line.get("deal")
    if deal is None:
        errors.add("missing_field", "deal", "deal number is missing")
    elif not is_int(deal):
        errors.add("wrong_type", "deal", f"deal must be a whole number, got {deal!r}")
    elif deal != next_deal:
        errors.add(
            "deal_out_of_sequence",
            "deal",
            f"deal {deal} is out of sequence: the next deal is {next_deal}",
            deal=deal,
            next_deal=next_deal,
        )

    dealer = line.get("dealer")
    if dealer is None:
        errors.add("missing_field", "dealer", "dealer is missing")
    elif not is_int(dealer):
        errors.add("wrong_type", "dealer", f"dealer must be a seat number, got {dealer!r}")
    elif not 0 <= dealer < players:
        errors.add(
            "seat_out_of_range", "dealer", out_of_range("dealer", dealer, players), value=dealer, players=players
        )
    elif expected_dealer is not None and dealer != expected_dealer:
        errors.add(
            "dealer_out_of_rotation",
            "dealer",
            f"the dealer at {seat_text(dealer)} is out of rotation:"
            f" deal {next_deal} is dealt by {seat_text(expected_dealer)}"
            " (clockwise; the same dealer after a void cut, the cutter after a Belli cut)",
            seats=(dealer, expected_dealer),
            deal=next_deal,
        )

    kind = "zwicken"
    played: tuple[int, ...] = ()
    tricks: tuple[int, ...] = ()
    duties: tuple[int, ...] = ()
    trump_ace: int | None = None
    if "cut" in line:
        cut = line["cut"]
        if not isinstance(cut, str):
            errors.add("wrong_type", "cut", f'cut must be "void" or "belli", got {cut!r}')
        elif cut not in CUTS:
            errors.add("unknown_cut", "cut", f'cut {cut!r} is not a cut event: "void" (an ace or a seven) or "belli"')
        elif not options.hop_and_jump:
            errors.add(
                "cut_not_enabled", "cut", f"rule set {rules.name!r} plays no hop-and-jump cut: no {cut} cut", cut=cut
            )
        else:
            kind = cut
        for key in PLAY_FIELDS:
            if key in line:
                errors.add("unexpected_field", key, f"{key} has no meaning on a cut line: no card was played")
    else:
        played, tricks, duties, trump_ace = _check_play(line, options, players, errors)

    chips = _check_chips(line.get("chips"), players, errors) if "chips" in line else None
    pot_after = line.get("pot")
    if pot_after is not None and (not is_int(pot_after) or pot_after < 0):
        errors.add("wrong_type", "pot", f"pot must be a whole number of chips, 0 or more, got {pot_after!r}")
        pot_after = None
    if chips is not None and pot_after is not None and sum(chips) + pot_after - pot != 0:
        errors.add(
            "chips_not_conserved",
            "chips",
            f"chips {list(chips)} sum to {sum(chips)} but the pot went from {pot} to {pot_after}"
            f" ({pot_after - pot:+d}): chips and pot must change by zero in total",
        )
    problem = note_problem(line.get("note"))
    if problem is not None:
        errors.add(problem[0], "note", problem[1])

    if errors.items:
        raise InvalidLine(errors.items)
    assert isinstance(deal, int) and isinstance(dealer, int)
    return ZwickenPlay(deal, dealer, kind, played, tricks, duties, trump_ace, chips, pot_after)


def _check_play(
    line: Mapping[str, Any], options: ZwickenOptions, players: int, errors: LineErrors
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int | None]:
    hand = options.hand
    for key in ("played", "tricks"):
        if key not in line:
            errors.add("missing_field", key, f"a dealt deal's line gives {key} (or it is a cut line with a cut)")
    played = _check_seats(line.get("played"), "played", players, errors) if "played" in line else None
    if played is not None and not options.may_pass and len(played) != players:
        missing = [s for s in range(players) if s not in played]
        errors.add(
            "pass_not_allowed",
            "played",
            f"nobody may pass under these rules: {seat_text(missing)} did not play",
            seats=missing,
        )

    tricks: tuple[int, ...] | None = None
    value = line.get("tricks")
    if "tricks" in line:
        if not isinstance(value, list):
            errors.add(
                "wrong_type", "tricks", f"tricks must be a list of {players} counts, one per seat, got {value!r}"
            )
        elif len(value) != players:
            errors.add(
                "tricks_shape",
                "tricks",
                f"tricks gives one count per seat: {players} counts, got {value}",
                declarers=players,
                counts=len(value),
            )
        elif not all(is_int(t) for t in value):
            errors.add("wrong_type", "tricks", f"tricks must be whole numbers, got {value}")
        elif any(not 0 <= t <= hand for t in value):
            errors.add(
                "tricks_out_of_range",
                "tricks",
                f"each seat takes 0..{hand} tricks, got {value}",
                seats=[s for s, t in enumerate(value) if not 0 <= t <= hand],
                tricks=next(t for t in value if not 0 <= t <= hand),
                most=hand,
            )
        else:
            tricks = tuple(value)
    if tricks is not None and played is not None:
        idle = [s for s in range(players) if s not in played and tricks[s]]
        if idle:
            errors.add(
                "tricks_by_passed_player",
                "tricks",
                f"{seat_text(idle)} did not play but {'is' if len(idle) == 1 else 'are'} given tricks {value}",
                seats=idle,
            )
        elif played and sum(tricks) != hand:
            errors.add(
                "tricks_impossible",
                "tricks",
                f"the players took {sum(tricks)} tricks, but a deal has {hand}: {value}",
                tricks=sum(tricks),
                most=hand,
            )

    duties: tuple[int, ...] = ()
    if "duties_failed" in line:
        checked = _check_seats(line["duties_failed"], "duties_failed", players, errors)
        if checked is not None and played is not None:
            idle = [s for s in checked if s not in played]
            if idle:
                errors.add(
                    "duty_by_passed_player",
                    "duties_failed",
                    f"{seat_text(idle)} did not play, so had no duty to fail",
                    seats=idle,
                )
        duties = checked or ()

    trump_ace = line.get("trump_ace")
    if trump_ace is not None:
        if not is_int(trump_ace):
            errors.add("wrong_type", "trump_ace", f"trump_ace must be a seat number, got {trump_ace!r}")
            trump_ace = None
        elif not 0 <= trump_ace < players:
            errors.add(
                "seat_out_of_range",
                "trump_ace",
                out_of_range("trump_ace", trump_ace, players),
                value=trump_ace,
                players=players,
            )
            trump_ace = None
        elif played is not None and trump_ace not in played:
            errors.add(
                "trump_ace_passed",
                "trump_ace",
                f"{seat_text(trump_ace)} held the trump ace and may not pass: it must play",
                seats=(trump_ace,),
            )
    return played or (), tricks or (), duties, trump_ace


def _check_seats(value: Any, field: str, players: int, errors: LineErrors) -> tuple[int, ...] | None:
    if not isinstance(value, list) or not all(is_int(s) for s in value):
        errors.add("wrong_type", field, f"{field} must be a list of seat numbers, got {value!r}")
        return None
    out = [s for s in value if not 0 <= s < players]
    if out:
        errors.add(
            "seat_out_of_range",
            field,
            f"{field}: positions {out} are not at a table of {players} (0..{players - 1}, seats 1..{players})",
            value=out[0],
            players=players,
        )
        return None
    if len(set(value)) != len(value):
        twice = sorted({s for s in value if value.count(s) > 1})
        errors.add("duplicate_seat", field, f"{field} lists {seat_text(twice)} twice", seats=twice)
        return None
    return tuple(sorted(value))


def _check_chips(value: Any, players: int, errors: LineErrors) -> tuple[int, ...] | None:
    if not isinstance(value, list) or len(value) != players or not all(is_int(c) for c in value):
        errors.add("wrong_type", "chips", f"chips must be {players} whole numbers, one change per seat, got {value!r}")
        return None
    return tuple(value)


def entered_mismatches(play: ZwickenPlay, settled: Settled) -> list[FieldError]:
    """Hand-entered ``chips`` and ``pot`` that differ from the settlement."""
    out: list[FieldError] = []
    if play.chips is not None and play.chips != settled.points:
        out.append(
            FieldError(
                "chips_mismatch",
                "chips",
                f"chips {list(play.chips)} differ from the settlement {list(settled.points)}",
                seats=tuple(s for s, (a, b) in enumerate(zip(play.chips, settled.points, strict=False)) if a != b),
            )
        )
    if play.pot is not None and play.pot != settled.pot:
        out.append(
            FieldError(
                "pot_mismatch",
                "pot",
                f"pot {play.pot} differs from the settlement's pot {settled.pot}",
                values={"pot": play.pot, "settled": settled.pot},
            )
        )
    return out
