"""Rule sets: a game's contracts, tariffs and options as plain data.

A rule set is immutable. Clubs change one by overriding a preset with a plain
JSON object (see ``apply_overrides``); every rule set serialises to JSON and
back (``to_json``/``from_json``). Nothing here is a constant of the game: every
number is a preset's default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from enum import Enum, StrEnum
from functools import cached_property
from typing import Any, NamedTuple

from games.contracts import CONTRACTS, LADDER_ORDER, Contract, Side, TrumpRule
from games.errors import RuleSetError


class Game(StrEnum):
    WIEZEN = "wiezen"
    SOLO_WHIST = "solo_whist"
    ZWICKEN = "zwicken"  # part 2 of the engine brings its presets


class Settlement(StrEnum):
    PER_PLAYER = "per_player"  # each winner gets X, each loser pays X; 1 v 3 settles with each of three
    PER_PAIR = "per_pair"  # every loser pays every winner X


class Doubling(StrEnum):
    NONE = "none"  # an all-pass round changes nothing
    NEXT_DEAL = "next_deal"  # the deal after an all-pass round counts double
    PER_PASS = "per_pass"  # x2 for each consecutive all-pass round


class AfterPass(StrEnum):
    NEXT_DEALER = "next_dealer"
    SAME_DEALER = "same_dealer"  # 000: the same dealer redeals


class Rotation(StrEnum):
    CLOCKWISE = "clockwise"
    COUNTER_CLOCKWISE = "counter_clockwise"


class UnacceptedVraag(StrEnum):
    ALONE = "alone"  # 002: the asker may go alone for 5 (or pass)
    VOID = "void"  # 003: an unaccepted proposal is a passed deal


class MiserieSettlement(StrEnum):
    """How several miserie-type declarers on one deal settle (RULES.md 3)."""

    INDEPENDENT = "independent"  # each declarer settles alone against the other players; the results add up
    # those who made it collect from those who failed; nobody failed: the other players pay them; all failed: they
    # pay the other players (every loser pays every winner; a pair with a declarer who failed settles that one's
    # amount, otherwise the declarer's)
    POOLED = "pooled"


class TieBreak(StrEnum):
    NONE = "none"
    EXTRA_DEAL = "extra_deal"  # 000: a session tie is broken by one extra deal


@dataclass(frozen=True, slots=True)
class Tariff:
    """What a contract pays per opponent (or per winner-loser pair).

    Made: ``base + over * overtricks``, the overtricks counted up to ``over_until`` tricks when set (overtricks
    beyond it pay nothing more). Failed by ``u`` tricks: ``fail_factor * (fail_base + fail_per * (u - 1))``, or
    ``fail_per * u`` with ``fail_per_from_first`` (every trick off adds, the first too). ``fail_base`` of ``None``
    means the same as ``base``. Abondance pays ``levels[level]`` instead of ``base`` and ``fail_base`` (made or
    failed). ``all_tricks``, when set, is what the side gets for taking every trick, instead of the formula.
    """

    base: int = 0
    over: int = 0
    fail_base: int | None = None
    fail_per: int = 0
    levels: tuple[tuple[int, int], ...] = ()
    over_until: int | None = None
    fail_factor: int = 1
    fail_per_from_first: bool = False
    all_tricks: int | None = None
    # A tariff that need not sum to zero (a house rule): made, each declarer gets ``declarer_made`` and each other
    # player pays ``others_made``; failed, each declarer pays ``declarer_failed`` and each other player gets
    # ``others_failed``. Set, these four replace every other amount of the tariff; miserie players settle alone.
    declarer_made: int | None = None
    others_made: int | None = None
    declarer_failed: int | None = None
    others_failed: int | None = None

    @property
    def split(self) -> tuple[int, int, int, int] | None:
        """The four amounts of a tariff set seat by seat, or None for one that pays per opponent."""
        amounts = (self.declarer_made, self.others_made, self.declarer_failed, self.others_failed)
        if any(a is None for a in amounts):
            return None
        return amounts  # type: ignore[return-value]

    def made(self, target: int, tricks: int, level: int | None = None) -> int:
        start = self.level_amount(level) if level is not None else self.base
        counted = tricks if self.over_until is None else min(tricks, self.over_until)
        return start + self.over * max(0, counted - target)

    def failed(self, undertricks: int, level: int | None = None) -> int:
        if level is not None:
            start = self.level_amount(level)
        else:
            start = self.base if self.fail_base is None else self.fail_base
        extra = undertricks if self.fail_per_from_first else undertricks - 1
        return self.fail_factor * (start + self.fail_per * extra)

    def level_amount(self, level: int) -> int:
        for lvl, amount in self.levels:
            if lvl == level:
                return amount
        raise RuleSetError(f"tariff has no amount for level {level}: levels are {dict(self.levels)}")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "base": self.base,
            "over": self.over,
            "fail_base": self.fail_base,
            "fail_per": self.fail_per,
        }
        if self.levels:
            out["levels"] = {str(lvl): amount for lvl, amount in self.levels}
        out |= {
            "over_until": self.over_until,
            "fail_factor": self.fail_factor,
            "fail_per_from_first": self.fail_per_from_first,
            "all_tricks": self.all_tricks,
        }
        if any(a is not None for a in (self.declarer_made, self.others_made, self.declarer_failed, self.others_failed)):
            out |= {k: getattr(self, k) for k in _SPLIT_KEYS}
        return out


_SPLIT_KEYS = ("declarer_made", "others_made", "declarer_failed", "others_failed")
_RAISING = frozenset(cid for cid, c in CONTRACTS.items() if c.higher and not c.levels)  # vraag and alleen


def _raising_left(ladder: tuple[str, ...], cid: str) -> bool:
    """Whether a contract whose bids may be raised comes after ``cid`` in ``ladder``."""
    return any(other in _RAISING for other in ladder[ladder.index(cid) + 1 :])


def fixed(amount: int) -> Tariff:
    """A tariff that pays the same made or failed, with no over- or undertricks."""
    return Tariff(base=amount)


def by_level(amounts: Mapping[int, int]) -> Tariff:
    return Tariff(levels=tuple(sorted(amounts.items())))


@dataclass(frozen=True, slots=True)
class ZwickenOptions:
    """What sets Zwicken variants apart (RULES.md §6, source 001)."""

    deck: int = 32  # 7 to ace; 36 adds the sixes (Styrian)
    hand: int = 3  # cards dealt, and tricks played, a deal; 4 in Carinthia
    ante: int = 3  # the dealer's stake into the pot
    bete: int = 3  # what a player pays into the next pot when gezwickt
    min_players: int = 2
    max_players: int = 5
    may_pass: bool = True  # Dreierzwicken: nobody passes, the dealer must play
    exchange: int = 3  # cards a player who plays may exchange from the talon
    sechser_belli: bool = False  # Styrian: the 6 of diamonds is the third trump
    hop_and_jump: bool = True  # the cut card may void the deal or make the dealer pay

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True, slots=True)
class CompiledContract:
    """What settling one contract under one rule set needs, looked up once."""

    contract: Contract
    trump: TrumpRule
    tariff: Tariff
    doubles_on_all_tricks: bool
    factor: int  # a fixed multiplier of the contract itself (troel x2)
    target: int | None  # the tricks the side needs under these rules (troel: ``troel_target``); None: by level


@dataclass(frozen=True)
class RuleSet:
    """A named, complete set of rules for one game.

    ``ladder`` lists the enabled contracts from low to high (the bidding
    order); ``trump`` overrides a contract's trump rule (kleurenwiezen makes
    every turned trump a chosen one).
    """

    name: str
    game: Game
    ladder: tuple[str, ...]
    tariffs: Mapping[str, Tariff]
    settlement: Settlement
    description: str = ""
    trump: Mapping[str, TrumpRule] = field(default_factory=dict)
    doubling: Doubling = Doubling.NONE
    troel_doubles: bool = False
    all_tricks_double: tuple[str, ...] = ()
    multiplier_cap: int | None = None
    after_pass: AfterPass = AfterPass.NEXT_DEALER
    passes_count: bool = True
    rotation: Rotation = Rotation.CLOCKWISE
    penalty: int = 5
    multiple_miserie: bool = True
    miserie_settlement: MiserieSettlement = MiserieSettlement.INDEPENDENT
    unaccepted_vraag: UnacceptedVraag = UnacceptedVraag.ALONE
    early_end: bool = False
    four_aces_troel: bool = True
    troel_target: int = 8  # tricks troel's pair needs: 8, or 9 in some clubs
    dealing: tuple[int, ...] = (4, 4, 5)
    tie_break: TieBreak = TieBreak.NONE
    zwicken: ZwickenOptions | None = None  # set exactly when game is zwicken

    def __post_init__(self) -> None:
        problems = _problems_of(self)
        if problems:
            raise RuleSetError(f"rule set {self.name!r} is invalid: " + "; ".join(problems))

    @cached_property
    def compiled(self) -> Mapping[str, CompiledContract]:
        out: dict[str, CompiledContract] = {}
        for cid in self.ladder:
            contract = CONTRACTS[cid]
            out[cid] = CompiledContract(
                contract=contract,
                trump=self.trump.get(cid, contract.trump),
                tariff=self.tariffs[cid],
                doubles_on_all_tricks=cid in self.all_tricks_double,
                factor=2 if (cid == "troel" and self.troel_doubles) else 1,
                target=self.troel_target if cid == "troel" else contract.target,
            )
        return out

    @cached_property
    def bid_ranks(self) -> Mapping[tuple[str, int], int]:
        """Each bid of the auction and its rank, low to high: ``(contract, level)``, level 0 for a bid without one.

        The ladder gives the order; abondance's levels rank in turn. The higher bids of vraag and alleen (issue 17,
        option 3: their tariff's levels) rank between the ordinary game and abondance, as Belgian and French
        clubs bid them: by the tricks they ask, a vraag for N tricks beside an alleen for N - 3, the alleen
        higher (vraag 9 < alleen 6 < vraag 10 < alleen 7 < ...). Without abondance they follow the last
        contract they raise.
        """
        raised: list[tuple[float, str, int]] = []
        for cid in self.ladder:
            contract = CONTRACTS[cid]
            if contract.higher and not contract.levels:
                alone = 3.5 if contract.side is Side.SOLO else 0.0  # an alleen for N asks what a vraag for N + 3 does
                raised.extend((level + alone, cid, level) for level, _ in self.tariffs[cid].levels)
        order: list[tuple[str, int]] = []
        for cid in self.ladder:
            if raised and (cid == "abondance" or (cid not in _RAISING and not _raising_left(self.ladder, cid))):
                order.extend((c, lvl) for _, c, lvl in sorted(raised))
                raised = []
            contract = CONTRACTS[cid]
            if contract.levels:
                order.extend((cid, level) for level, _ in self.tariffs[cid].levels)
            else:
                order.append((cid, 0))
        order.extend((c, lvl) for _, c, lvl in sorted(raised))
        return {bid: rank for rank, bid in enumerate(order)}

    @cached_property
    def zero_sum(self) -> bool:
        """Whether every deal's points sum to zero: not where a tariff is set seat by seat (``Tariff.split``)."""
        return all(self.tariffs[cid].split is None for cid in self.ladder if cid in self.tariffs)

    def enables(self, contract_id: str) -> bool:
        return contract_id in self.compiled or contract_id in ("pass", "penalty")

    def trump_rule(self, contract_id: str) -> TrumpRule:
        return self.compiled[contract_id].trump

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "tariffs":
                value = {cid: t.to_json() for cid, t in value.items()}
            elif f.name == "trump":
                value = {cid: rule.value for cid, rule in value.items()}
            elif isinstance(value, ZwickenOptions):
                value = value.to_json()
            elif isinstance(value, Enum):
                value = value.value
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out

    @classmethod
    def from_json(cls, obj: object) -> RuleSet:
        """Build a rule set from ``to_json`` output, or from overrides of a ``"preset"``."""
        if not isinstance(obj, Mapping):
            raise RuleSetError(f"a rule set must be a JSON object, got {type(obj).__name__}")
        if "preset" in obj:
            from games.registry import find

            preset = obj["preset"]
            if not isinstance(preset, str):
                raise RuleSetError(f"preset: expected a rule set name, got {preset!r}")
            rest = {k: v for k, v in obj.items() if k != "preset"}
            return apply_overrides(find(preset), rest)
        missing = [f.name for f in fields(cls) if f.name not in obj and f.name not in _OPTIONAL_FIELDS]
        if missing:
            raise RuleSetError(f'rule set is missing {", ".join(missing)}: give every field, or a "preset" to override')
        return _build(cls(**_REFERENCE_FIELDS), obj, merge=False)

    def with_(self, **changes: Any) -> RuleSet:
        return replace(self, **changes)


#: The house rules a club may set beyond the presets (issue 17): the JSON key and what it does. ``python -m games
#: presets`` lists them with their defaults.
HOUSE_OPTIONS: tuple[tuple[str, str], ...] = (
    ("multiple_miserie", "several players may play a miserie-type contract on one deal"),
    (
        "miserie_settlement",
        "several miserie players: 'independent' (each alone against the other players) or 'pooled' (those who made "
        "it collect from those who failed; nobody failed: the other players pay; all failed: they pay them)",
    ),
    ("early_end", "play stops when the result is decided: a miserie line then gives 0 or 1 tricks"),
    ("troel_target", "the tricks troel's pair needs: 8 to 12"),
    (
        "tariffs.*.levels",
        "vraag (9..13) and alleen (6..8): the higher bids the rule set plays, each with its amount, bid between the "
        "ordinary game and abondance; abondance: its levels (9..12)",
    ),
    ("tariffs.*.over_until", "overtricks count up to this many tricks (null: all of them)"),
    ("tariffs.*.fail_factor", "a failure costs this many times its amount: 1 to 10"),
    ("tariffs.*.fail_per_from_first", "fail_per counts every trick off, the first too (false: after the first)"),
    ("tariffs.*.all_tricks", "a fixed amount for taking every trick (null: the formula, or all_tricks_double)"),
    (
        "tariffs.*.declarer_made",
        "with others_made, declarer_failed, others_failed: amounts set seat by seat, which need not sum to zero",
    ),
)

_OPTIONAL_FIELDS = frozenset(
    {
        "description",
        "trump",
        "all_tricks_double",
        "multiplier_cap",
        "zwicken",
        # options added later: a rule set stored before them reads with their defaults
        "miserie_settlement",
        "troel_target",
    }
)
_ENUM_FIELDS: dict[str, type[Enum]] = {
    "game": Game,
    "settlement": Settlement,
    "doubling": Doubling,
    "after_pass": AfterPass,
    "rotation": Rotation,
    "unaccepted_vraag": UnacceptedVraag,
    "tie_break": TieBreak,
    "miserie_settlement": MiserieSettlement,
}
_BOOL_FIELDS = frozenset({"troel_doubles", "passes_count", "multiple_miserie", "early_end", "four_aces_troel"})


class _Mappings(NamedTuple):
    """What a complete rule set's tariffs and trump rules start from: nothing to merge with."""

    tariffs: Mapping[str, Tariff]
    trump: Mapping[str, TrumpRule]


_EMPTY_MAPPINGS = _Mappings({}, {})
_TARIFF_KEYS = (
    "base",
    "over",
    "fail_base",
    "fail_per",
    "levels",
    "over_until",
    "fail_factor",
    "fail_per_from_first",
    "all_tricks",
    *_SPLIT_KEYS,
)
# A neutral starting point for from_json of a complete object; every field is then overwritten.
_REFERENCE_FIELDS: dict[str, Any] = {
    "name": "reference",
    "game": Game.WIEZEN,
    "ladder": ("alleen",),
    "tariffs": {"alleen": Tariff(base=1)},
    "settlement": Settlement.PER_PLAYER,
}


def apply_overrides(base: RuleSet, overrides: object) -> RuleSet:
    """Return ``base`` changed by a plain JSON object of overrides.

    Keys are the rule set's field names plus ``variants`` (a list of variant
    names applied first). ``tariffs`` merge per contract and per key, so
    ``{"tariffs": {"miserie": {"base": 8}}}`` changes one amount only. Every
    problem is reported at once.
    """
    if not isinstance(overrides, Mapping):
        raise RuleSetError(f"overrides must be a JSON object, got {type(overrides).__name__}")
    rules = base
    if "variants" in overrides:
        from games.presets import apply_variant

        variants = overrides["variants"]
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            raise RuleSetError(f"variants: expected a list of variant names, got {variants!r}")
        for variant in variants:
            rules = apply_variant(rules, variant)
    rest = {k: v for k, v in overrides.items() if k != "variants"}
    if "name" not in rest and rest:
        rest["name"] = f"{rules.name}*"
    return _build(rules, rest)


def _build(base: RuleSet, obj: Mapping[str, Any], *, merge: bool = True) -> RuleSet:
    """``base`` changed by ``obj``; with ``merge``, tariffs and trump rules merge per contract instead of replacing."""
    known = {f.name for f in fields(RuleSet)}
    problems: list[str] = []
    changes: dict[str, Any] = {}
    for key, value in obj.items():
        if key not in known:
            problems.append(f"unknown key {key!r} (known: {', '.join(sorted(known))})")
            continue
        try:
            changes[key] = _convert(key, value, base if merge else _EMPTY_MAPPINGS)
        except RuleSetError as exc:
            problems.append(str(exc))
    if problems:
        raise RuleSetError("invalid rule set overrides: " + "; ".join(problems))
    return replace(base, **changes)


def _convert(key: str, value: Any, base: RuleSet | _Mappings) -> Any:
    if key in ("name", "description"):
        return _expect(key, value, str)
    if key in _ENUM_FIELDS:
        enum = _ENUM_FIELDS[key]
        try:
            return enum(value)
        except ValueError:
            choices = ", ".join(repr(m.value) for m in enum)
            raise RuleSetError(f"{key}: {value!r} is not one of {choices}") from None
    if key in _BOOL_FIELDS:
        return _expect(key, value, bool)
    if key == "penalty":
        return _amount(key, value)
    if key == "troel_target":
        target = _expect(key, value, int)
        if not 8 <= target <= 12:
            raise RuleSetError(f"troel_target: troel asks for 8 to 12 tricks, got {target}")
        return target
    if key == "multiplier_cap":
        if value is None:
            return None
        cap = _expect(key, value, int)
        if cap < 1:
            raise RuleSetError(f"multiplier_cap: must be at least 1 or null, got {cap}")
        return cap
    if key in ("ladder", "all_tricks_double"):
        items = _expect(key, value, list)
        for item in items:
            _contract_id(key, item)
        return tuple(items)
    if key == "zwicken":
        return _zwicken(value, base)
    if key == "dealing":
        packets = _expect(key, value, list)
        for p in packets:
            if _expect(key, p, int) < 1:
                raise RuleSetError(f"dealing: packet sizes must be positive, got {p}")
        return tuple(packets)
    if key == "trump":
        mapping = _expect(key, value, dict)
        out: dict[str, TrumpRule] = {}
        for cid, rule in mapping.items():
            _contract_id(key, cid)
            try:
                out[cid] = TrumpRule(rule)
            except ValueError:
                choices = ", ".join(repr(r.value) for r in TrumpRule)
                raise RuleSetError(f"trump.{cid}: {rule!r} is not one of {choices}") from None
        return {**base.trump, **out}
    if key == "tariffs":
        mapping = _expect(key, value, dict)
        tariffs = dict(base.tariffs)
        for cid, tariff in mapping.items():
            _contract_id(key, cid)
            tariffs[cid] = _tariff(f"tariffs.{cid}", tariff, tariffs.get(cid, Tariff()), CONTRACTS[cid].bid_levels)
        return tariffs
    raise RuleSetError(f"{key}: cannot be overridden")  # pragma: no cover - every field is handled above


def _tariff(where: str, value: Any, base: Tariff, allowed_levels: tuple[int, ...] = (9, 10, 11, 12)) -> Tariff:
    if isinstance(value, int) and not isinstance(value, bool):
        return fixed(_amount(where, value))
    obj = _expect(where, value, dict)
    unknown = [k for k in obj if k not in _TARIFF_KEYS]
    if unknown:
        raise RuleSetError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(_TARIFF_KEYS)})")
    changes: dict[str, Any] = {}
    for k in ("base", "over", "fail_per"):
        if k in obj:
            changes[k] = _amount(f"{where}.{k}", obj[k])
    for k in ("fail_base", "all_tricks", *_SPLIT_KEYS):
        if k in obj:
            changes[k] = None if obj[k] is None else _amount(f"{where}.{k}", obj[k])
    if "over_until" in obj:
        until = obj["over_until"]
        changes["over_until"] = None if until is None else _expect(f"{where}.over_until", until, int)
    if "fail_factor" in obj:
        factor = _expect(f"{where}.fail_factor", obj["fail_factor"], int)
        if not 1 <= factor <= 10:
            raise RuleSetError(f"{where}.fail_factor: a failure costs 1 to 10 times its amount, got {factor}")
        changes["fail_factor"] = factor
    if "fail_per_from_first" in obj:
        changes["fail_per_from_first"] = _expect(f"{where}.fail_per_from_first", obj["fail_per_from_first"], bool)
    if "levels" in obj:
        levels = _expect(f"{where}.levels", obj["levels"], dict)
        pairs: dict[int, int] = dict(base.levels)
        for lvl_text, amount in levels.items():
            try:
                lvl = int(lvl_text)
            except (TypeError, ValueError):
                raise RuleSetError(f"{where}.levels: level {lvl_text!r} is not a number") from None
            if not allowed_levels:
                raise RuleSetError(f"{where}.levels: this contract is bid at one level only")
            if lvl not in allowed_levels:
                raise RuleSetError(
                    f"{where}.levels: level {lvl} is outside {min(allowed_levels)}..{max(allowed_levels)}"
                )
            if amount is None:
                pairs.pop(lvl, None)
            else:
                pairs[lvl] = _amount(f"{where}.levels.{lvl}", amount)
        changes["levels"] = tuple(sorted(pairs.items()))
    return replace(base, **changes)


def _zwicken(value: Any, base: RuleSet | _Mappings) -> ZwickenOptions | None:
    if value is None:
        return None
    obj = _expect("zwicken", value, dict)
    start = base.zwicken if isinstance(base, RuleSet) and base.zwicken is not None else ZwickenOptions()
    known = {f.name: f for f in fields(ZwickenOptions)}
    changes: dict[str, Any] = {}
    for key, item in obj.items():
        if key not in known:
            raise RuleSetError(f"zwicken: unknown key {key!r} (known: {', '.join(known)})")
        if isinstance(getattr(start, key), bool):
            changes[key] = _expect(f"zwicken.{key}", item, bool)
        else:
            changes[key] = _amount(f"zwicken.{key}", item)
    return replace(start, **changes)


def _expect(where: str, value: Any, kind: type) -> Any:
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    if not ok:
        raise RuleSetError(f"{where}: expected {_TYPE_NAMES.get(kind, kind.__name__)}, got {value!r}")
    return value


_TYPE_NAMES = {int: "an integer", bool: "true or false", str: "a string", list: "a list", dict: "an object"}


def _amount(where: str, value: Any) -> int:
    amount: int = _expect(where, value, int)
    if amount < 0:
        raise RuleSetError(f"{where}: amounts cannot be negative, got {amount}")
    return amount


def _contract_id(where: str, cid: Any) -> str:
    if not isinstance(cid, str) or cid not in CONTRACTS or not CONTRACTS[cid].is_played:
        raise RuleSetError(f"{where}: unknown contract {cid!r} (known: {', '.join(LADDER_ORDER)})")
    return cid


def _problems_of(rules: RuleSet) -> list[str]:
    """Consistency checks that hold whatever way a rule set was built."""
    problems: list[str] = []
    if not rules.ladder and rules.game is not Game.ZWICKEN:
        problems.append("ladder: a rule set needs at least one contract")
    if len(set(rules.ladder)) != len(rules.ladder):
        problems.append(f"ladder: a contract appears twice in {list(rules.ladder)}")
    for cid in rules.ladder:
        if cid not in CONTRACTS or not CONTRACTS[cid].is_played:
            problems.append(f"ladder: unknown contract {cid!r}")
            continue
        tariff = rules.tariffs.get(cid)
        if tariff is None:
            problems.append(f"tariffs: no tariff for enabled contract {cid!r}")
        elif CONTRACTS[cid].levels and not tariff.levels:
            problems.append(f"tariffs.{cid}: needs an amount per level (levels)")
    for cid, tariff in rules.tariffs.items():
        problems.extend(_tariff_problems(rules, cid, tariff))
    if rules.trump.get("troel", TrumpRule.FOURTH_ACE) is not TrumpRule.FOURTH_ACE:
        problems.append("trump.troel: troel is always played in the suit of the fourth ace")
    for cid in rules.all_tricks_double:
        contract = CONTRACTS.get(cid)
        if contract is not None and (contract.side is Side.EACH_ALONE or contract.target == contract.max_tricks):
            problems.append(
                f"all_tricks_double: {cid!r} cannot double for taking every trick (it asks for that or none)"
            )
    problems.extend(_zwicken_problems(rules))
    if rules.multiplier_cap is not None and rules.multiplier_cap < 1:
        problems.append(f"multiplier_cap: must be at least 1, got {rules.multiplier_cap}")
    if not 8 <= rules.troel_target <= 12:
        problems.append(f"troel_target: troel asks for 8 to 12 tricks, got {rules.troel_target}")
    if rules.penalty < 0:
        problems.append(f"penalty: amounts cannot be negative, got {rules.penalty}")
    if sum(rules.dealing) * 4 != 52 and rules.game is not Game.ZWICKEN:
        problems.append(f"dealing: packets {list(rules.dealing)} do not deal 13 cards each")
    return problems


def _tariff_problems(rules: RuleSet, cid: str, tariff: Tariff) -> list[str]:
    """The tariff options that only some contracts can use, checked against the contract's tricks."""
    contract = CONTRACTS.get(cid)
    if contract is None or cid not in rules.ladder:
        return []
    ordinary = [] if contract.levels else [(rules.troel_target if cid == "troel" else contract.target) or 0]
    targets = ordinary + [lvl for lvl, _ in tariff.levels]
    problems = []
    can_overtrick = not contract.exact and min(targets) < contract.max_tricks
    if tariff.over_until is not None and not (
        can_overtrick and min(targets) <= tariff.over_until < contract.max_tricks
    ):
        problems.append(
            f"tariffs.{cid}.over_until: {tariff.over_until} tricks is not between the contract's "
            f"{min(targets)} and {contract.max_tricks - 1}"
            if can_overtrick
            else f"tariffs.{cid}.over_until: {cid} has no overtricks"
        )
    split = [getattr(tariff, k) for k in _SPLIT_KEYS]
    if any(a is not None for a in split) and any(a is None for a in split):
        problems.append(f"tariffs.{cid}: give all four of {', '.join(_SPLIT_KEYS)}, or none")
    if tariff.split is not None and (tariff.levels or tariff.all_tricks is not None or cid in rules.all_tricks_double):
        problems.append(f"tariffs.{cid}: amounts set seat by seat replace levels and all-tricks amounts")
    if tariff.all_tricks is not None:
        if not can_overtrick:
            problems.append(f"tariffs.{cid}.all_tricks: {cid} asks for every trick or none: no bonus for all")
        elif cid in rules.all_tricks_double:
            problems.append(f"tariffs.{cid}.all_tricks: a fixed amount or all_tricks_double, not both")
    return problems


def _zwicken_problems(rules: RuleSet) -> list[str]:
    options = rules.zwicken
    if rules.game is not Game.ZWICKEN:
        return ["zwicken: options only for a zwicken rule set"] if options is not None else []
    if options is None:
        return ["zwicken: a zwicken rule set needs its options"]
    problems = [] if not rules.ladder else ["ladder: Zwicken has no contract ladder"]
    if options.deck not in (32, 36):
        problems.append(f"zwicken.deck: 32 or 36 cards, not {options.deck}")
    if options.hand not in (3, 4):
        problems.append(f"zwicken.hand: 3 or 4 cards, not {options.hand}")
    if not 2 <= options.min_players <= options.max_players <= 5:
        problems.append(f"zwicken: players {options.min_players}..{options.max_players} must lie within 2..5")
    if options.max_players * options.hand + 1 > options.deck:
        problems.append(
            f"zwicken: {options.max_players} hands of {options.hand} and a trump card"
            f" need more than {options.deck} cards"
        )
    if options.exchange > options.hand:
        problems.append(f"zwicken.exchange: at most the {options.hand} cards of a hand, not {options.exchange}")
    if options.sechser_belli and options.deck != 36:
        problems.append("zwicken.sechser_belli: needs the 36-card deck")
    return problems
