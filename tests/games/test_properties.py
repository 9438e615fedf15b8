"""Invariants of settlement and of the score sheet, checked on generated sessions (hypothesis).

Sessions and lines come from ``games.generate`` with seeds drawn by hypothesis,
across every preset, some variants and some overridden rule sets, at tables of
four and five.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games import CONTRACTS, InvalidLine, RuleSet, Settled, Sheet, Side, Tariff, TrumpRule, apply_overrides, find, names
from games.generate import random_line, random_session
from games.lines import KNOWN_FIELDS

# Every preset, plus variants and overrides that change rotation, ladder, trump, doubling and counting.
RULE_SETS: dict[str, RuleSet] = {
    name: find(name) for name in names() if find(name).zwicken is None
}  # trick-taking sheets
for _name in (
    "flemish+kleurenwiezen",
    "iwwa+1v3",
    "belgian+counter_clockwise",
    "iwwa+kleurenwiezen+1v3",
    "flemish+1v3+counter_clockwise",
):
    RULE_SETS[_name] = find(_name)
RULE_SETS["belgian{passes_count:false}"] = apply_overrides(find("belgian"), {"passes_count": False})
RULE_SETS["flemish{per_pass,cap:4}"] = apply_overrides(find("flemish"), {"doubling": "per_pass", "multiplier_cap": 4})
RULE_SETS["iwwa{one miserie}"] = apply_overrides(find("iwwa"), {"multiple_miserie": False})
RULE_SETS["solo_whist{ccw}"] = apply_overrides(find("solo_whist"), {"rotation": "counter_clockwise"})
# house rules (issue 17): every property above holds for them too
RULE_SETS["iwwa{pooled miserie,troel 9}"] = apply_overrides(
    find("iwwa"), {"miserie_settlement": "pooled", "troel_target": 9}
)
RULE_SETS["iwwa{capped, fail x2, all tricks fixed}"] = apply_overrides(
    find("iwwa"),
    {
        "all_tricks_double": ["troel"],
        "tariffs": {
            "alleen": {"over_until": 8, "fail_factor": 2},
            "vraag": {"all_tricks": 30, "fail_per_from_first": True},
            "abondance": {"over": 1, "fail_per": 1, "fail_per_from_first": True},
        },
    },
)
RULE_SETS["flemish{vraag 9-13, alleen 6-8}"] = apply_overrides(
    find("flemish"),
    {
        "tariffs": {
            "vraag": {"levels": {"9": 3, "10": 4, "11": 6, "12": 8, "13": 12}},
            "alleen": {"levels": {"6": 3, "7": 4, "8": 5}},
        }
    },
)
RULE_SETS["belgian{pooled miserie,early end}"] = apply_overrides(
    find("belgian"), {"miserie_settlement": "pooled", "early_end": True}
)

LABELS = st.sampled_from(sorted(RULE_SETS))
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
TABLES = st.sampled_from([4, 5])
LENGTHS = st.sampled_from([16, 24])
PASS_RATES = st.sampled_from([0.0, 0.06, 0.3])

QUICK = settings(max_examples=150, deadline=None)
THOROUGH = settings(max_examples=300, deadline=None)


def _played_line(rules: RuleSet, rng: random.Random, deal: int, dealer: int, players: int = 4) -> dict[str, Any]:
    """A random line on which a contract is played (no all-pass, no penalty)."""
    while True:
        line = random_line(rules, rng, deal, dealer, players, pass_rate=0.0)
        if line["contract"] not in ("pass", "penalty"):
            return line


def _pass(deal: int, dealer: int) -> dict[str, Any]:
    return {"deal": deal, "dealer": dealer, "contract": "pass"}


def _alone(rules: RuleSet, line: dict[str, Any], players: int = 4) -> Settled:
    """Settle ``line`` as the first deal of a fresh sheet."""
    return Sheet(rules, players, deals=None).add({**line, "deal": 1})


def _is_fixed(tariff: Tariff) -> bool:
    return tariff.over == 0 and tariff.fail_per == 0 and tariff.fail_base is None


# zero sum, the fifth seat, whole sessions -----------------------------------------------------------------------------


@QUICK
@given(label=LABELS, players=TABLES, seed=SEEDS, deals=LENGTHS, pass_rate=PASS_RATES)
def test_every_settled_deal_and_the_sheet_totals_sum_to_zero(
    label: str, players: int, seed: int, deals: int, pass_rate: float
) -> None:
    rules = RULE_SETS[label]
    sheet = Sheet(rules, players, deals)
    for line in random_session(rules, random.Random(seed), players, deals, pass_rate=pass_rate):
        settled = sheet.add(line)
        assert len(settled.points) == players
        assert sum(settled.points) == 0, (line, settled)
    assert sum(sheet.totals) == 0
    assert sheet.totals == [sum(r.points[seat] for r in sheet.results) for seat in range(players)]


@QUICK
@given(label=LABELS, seed=SEEDS, deals=LENGTHS, pass_rate=PASS_RATES)
def test_the_dealer_sitting_out_at_a_table_of_five_gets_nothing(
    label: str, seed: int, deals: int, pass_rate: float
) -> None:
    rules = RULE_SETS[label]
    sheet = Sheet(rules, 5, deals)
    for line in random_session(rules, random.Random(seed), 5, deals, pass_rate=pass_rate):
        settled = sheet.add(line)
        assert settled.points[line["dealer"]] == 0, (line, settled)


@QUICK
@given(label=LABELS, players=TABLES, seed=SEEDS, deals=LENGTHS, pass_rate=PASS_RATES)
def test_generated_sessions_are_accepted_and_rebuild_to_the_same_totals(
    label: str, players: int, seed: int, deals: int, pass_rate: float
) -> None:
    rules = RULE_SETS[label]
    lines = random_session(rules, random.Random(seed), players, deals, pass_rate=pass_rate)
    sheet = Sheet(rules, players, deals)
    for line in lines:
        sheet.add(line)  # raises InvalidLine if the generator and the validator disagree
    assert sheet.complete

    rebuilt = Sheet.from_lines(rules, lines, players, deals)

    assert rebuilt.totals == sheet.totals
    assert rebuilt.results == sheet.results
    assert rebuilt.state == sheet.state


# seat symmetry --------------------------------------------------------------------------------------------------------


def _relabel(line: dict[str, Any], perm: list[int]) -> dict[str, Any]:
    moved = dict(line, dealer=perm[line["dealer"]])
    if "declarers" in line:
        moved["declarers"] = [perm[s] for s in line["declarers"]]
    if "offender" in line:
        moved["offender"] = perm[line["offender"]]
    return moved


@THOROUGH
@given(label=LABELS, players=TABLES, seed=SEEDS, data=st.data())
def test_relabelling_the_seats_relabels_the_points(label: str, players: int, seed: int, data: st.DataObject) -> None:
    rules = RULE_SETS[label]
    rng = random.Random(seed)
    # A single line on a fresh sheet: any dealer may deal first, so rotation does not constrain the relabelling.
    line = random_line(rules, rng, 1, rng.randrange(players), players, pass_rate=0.1)
    perm = data.draw(st.permutations(range(players)), label="perm")

    original = _alone(rules, line, players)
    relabelled = _alone(rules, _relabel(line, perm), players)

    for seat in range(players):
        assert relabelled.points[perm[seat]] == original.points[seat]
    assert relabelled.multiplier == original.multiplier
    assert relabelled.made == original.made


# fixed tariffs --------------------------------------------------------------------------------------------------------

FIXED_CONTRACTS = sorted(
    (label, cid) for label, rules in RULE_SETS.items() for cid in rules.ladder if _is_fixed(rules.tariffs[cid])
)


def test_the_presets_have_fixed_tariff_contracts_to_check() -> None:
    fixed = {(label, cid) for label, cid in FIXED_CONTRACTS}
    assert {("belgian", "alleen"), ("flemish", "miserie"), ("iwwa", "solo_slim"), ("solo_whist", "vraag")} <= fixed


@THOROUGH
@given(case=st.sampled_from(FIXED_CONTRACTS), players=TABLES, data=st.data())
def test_a_failed_fixed_tariff_contract_settles_to_the_negation_of_a_made_one(
    case: tuple[str, str], players: int, data: st.DataObject
) -> None:
    label, cid = case
    rules = RULE_SETS[label]
    contract = CONTRACTS[cid]
    dealer = data.draw(st.integers(0, players - 1), label="dealer")
    active = [s for s in range(players) if not (players == 5 and s == dealer)]
    size = 2 if contract.side is Side.PAIR else 1
    declarers = data.draw(st.permutations(active), label="seats")[:size]
    line: dict[str, Any] = {"deal": 1, "dealer": dealer, "contract": cid, "declarers": declarers}
    target = contract.target
    if contract.levels:
        line["level"] = target = data.draw(st.sampled_from([lvl for lvl, _ in rules.tariffs[cid].levels]))
    assert target is not None
    if rules.trump_rule(cid) is TrumpRule.CHOSEN:
        line["trump"] = data.draw(st.sampled_from("CDHS"), label="trump")

    top = contract.max_tricks
    if contract.exact:
        made_tricks = target
        # under early_end a miserie stops at its declarer's first trick
        most = 1 if rules.early_end and target == 0 else top
        failed_tricks = data.draw(st.integers(0, most).filter(lambda t: t != target), label="failed")
    else:
        # all tricks may double (onder tafel): keep the made count below the maximum where it would
        highest = top - 1 if cid in rules.all_tricks_double and target < top else top
        made_tricks = data.draw(st.integers(target, highest), label="made")
        failed_tricks = data.draw(st.integers(0, target - 1), label="failed")
    count = (lambda t: [t]) if contract.side is Side.EACH_ALONE else (lambda t: t)

    made = _alone(rules, {**line, "tricks": count(made_tricks)}, players)
    failed = _alone(rules, {**line, "tricks": count(failed_tricks)}, players)

    assert made.made == (True,) and failed.made == (False,)
    assert failed.points == tuple(-p for p in made.points)
    assert any(made.points)


# doubling -------------------------------------------------------------------------------------------------------------


@THOROUGH
@given(players=TABLES, seed=SEEDS, passes=st.integers(1, 3))
def test_flemish_doubles_the_deal_after_an_all_pass_round_exactly(players: int, seed: int, passes: int) -> None:
    rules = find("flemish")
    rng = random.Random(seed)
    sheet = Sheet(rules, players, deals=None)
    dealer = rng.randrange(players)
    for deal in range(1, passes + 1):
        sheet.add(_pass(deal, dealer))
        assert sheet.expected_dealer is not None
        dealer = sheet.expected_dealer
    line = _played_line(rules, rng, passes + 1, dealer, players)

    doubled = sheet.add(line)
    plain = _alone(rules, line, players)

    # next_deal doubling: x2 after an all-pass round, however many rounds passed in a row
    assert doubled.points == tuple(2 * p for p in plain.points)
    assert doubled.multiplier == 2 * plain.multiplier


@THOROUGH
@given(label=LABELS, players=TABLES, seed=SEEDS, passes=st.integers(0, 4))
def test_per_pass_doubling_multiplies_by_two_for_each_consecutive_all_pass_round(
    label: str, players: int, seed: int, passes: int
) -> None:
    rules = apply_overrides(RULE_SETS[label], {"doubling": "per_pass", "multiplier_cap": None})
    rng = random.Random(seed)
    sheet = Sheet(rules, players, deals=None)
    dealer = rng.randrange(players)
    for deal in range(1, passes + 1):
        sheet.add(_pass(deal, dealer))
        assert sheet.expected_dealer is not None
        dealer = sheet.expected_dealer
    line = _played_line(rules, rng, passes + 1, dealer, players)

    doubled = sheet.add(line)
    plain = _alone(rules, line, players)

    assert doubled.points == tuple(2**passes * p for p in plain.points)
    assert doubled.multiplier == 2**passes * plain.multiplier


@THOROUGH
@given(label=LABELS, players=TABLES, seed=SEEDS, passes=st.integers(0, 4))
def test_a_multiplier_cap_of_two_never_lets_a_deal_count_more_than_double(
    label: str, players: int, seed: int, passes: int
) -> None:
    uncapped = apply_overrides(RULE_SETS[label], {"doubling": "per_pass", "multiplier_cap": None})
    capped = apply_overrides(RULE_SETS[label], {"doubling": "per_pass", "multiplier_cap": 2})
    rng = random.Random(seed)
    sheet = Sheet(capped, players, deals=None)
    dealer = rng.randrange(players)
    for deal in range(1, passes + 1):
        sheet.add(_pass(deal, dealer))
        assert sheet.expected_dealer is not None
        dealer = sheet.expected_dealer
    line = _played_line(capped, rng, passes + 1, dealer, players)

    settled = sheet.add(line)
    plain = _alone(uncapped, line, players)  # the deal's own multiplier (troel, onder tafel), uncapped

    expected = min(2, 2**passes * plain.multiplier)
    assert settled.multiplier == expected <= 2
    assert settled.points == tuple(p // plain.multiplier * expected for p in plain.points)


# bad input ------------------------------------------------------------------------------------------------------------

_CONTRACT_NAMES = sorted(CONTRACTS)
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-3, 15)
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=6)
    | st.sampled_from([*_CONTRACT_NAMES, "C", "D", "H", "S", "T", "", "9", "vraag ", "VRAAG"])
)
JSON_VALUES = st.recursive(
    _SCALARS,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=5), children, max_size=3),
    max_leaves=10,
)
# values a score sheet could plausibly hold in the wrong place: seats, trick counts, lists of them, suits, contracts
PLAUSIBLE = (
    st.integers(-1, 14)
    | st.lists(st.integers(-1, 6), max_size=5)
    | st.sampled_from([*_CONTRACT_NAMES, "C", "D", "H", "S"])
    | st.lists(st.integers(-30, 30), min_size=4, max_size=5)
)
FIELD_NAMES = st.sampled_from(sorted(KNOWN_FIELDS)) | st.text(max_size=8)
JUNK_DICTS = st.dictionaries(FIELD_NAMES, JSON_VALUES, max_size=10)


NEAR_MISSES = st.sampled_from([-1, 0, 1, 4, 5, 12, 13, 14, 2**31, True, False, 1.0, "1", "H", None, [], [1], [True]])


@st.composite
def junk(draw: st.DrawFn, sheet: Sheet) -> object:
    """Arbitrary JSON-like input: a dict of known and junk keys, a generated line with fields replaced, or no dict."""
    kind = draw(st.sampled_from(["junk", "mutated", "mutated", "not_an_object"]))
    if kind == "junk":
        return draw(JUNK_DICTS)
    if kind == "not_an_object":
        return draw(JSON_VALUES.filter(lambda v: not isinstance(v, dict)))
    line = _next_line(sheet, draw(SEEDS))
    # mostly change the values of known fields; now and then drop one or add an unknown one
    values = PLAUSIBLE | JSON_VALUES
    line.update(draw(st.dictionaries(st.sampled_from(sorted(KNOWN_FIELDS)), values, min_size=1, max_size=2)))
    if draw(st.integers(0, 7)) == 0:
        del line[draw(st.sampled_from(sorted(line)))]
    if draw(st.integers(0, 7)) == 0:
        line[draw(st.text(max_size=8))] = draw(JSON_VALUES)
    return line


@st.composite
def near_misses(draw: st.DrawFn, sheet: Sheet) -> dict[str, Any]:
    """A valid next line with one field, or one seat or count inside a list, just off."""
    line = _next_line(sheet, draw(SEEDS))
    key = draw(st.sampled_from(sorted(line)))
    value = line[key]
    if isinstance(value, list) and value and draw(st.booleans()):
        value = list(value)
        value[draw(st.integers(0, len(value) - 1))] = draw(NEAR_MISSES)
        line[key] = value
    else:
        line[key] = draw(NEAR_MISSES)
    return line


def _next_line(sheet: Sheet, seed: int) -> dict[str, Any]:
    dealer = sheet.expected_dealer if sheet.expected_dealer is not None else 0
    return random_line(sheet.rules, random.Random(seed), sheet.next_deal, dealer, sheet.players, pass_rate=0.1)


def _seat(value: object, players: int) -> bool:
    return type(value) is int and 0 <= value < players


def _looks_valid(line: object, players: int) -> bool:
    """What any accepted line must look like, whatever the rule set: real whole numbers in range, known names."""
    if not isinstance(line, dict) or not set(line) <= KNOWN_FIELDS:
        return False
    counts = line.get("tricks", [])
    counts = counts if isinstance(counts, list) else [counts]
    return (
        type(line["deal"]) is int
        and _seat(line["dealer"], players)
        and line["contract"] in CONTRACTS
        and all(_seat(s, players) for s in line.get("declarers", []))
        and all(type(t) is int and 0 <= t <= 13 for t in counts)
        and ("level" not in line or (type(line["level"]) is int and 9 <= line["level"] <= 12))
        and line.get("trump") in (None, "C", "D", "H", "S")
        and ("offender" not in line or _seat(line["offender"], players))
    )


def _sheet_with_some_lines(label: str, players: int, seed: int, before: int) -> Sheet:
    rules = RULE_SETS[label]
    sheet = Sheet(rules, players, deals=16)
    for line in random_session(rules, random.Random(seed), players, 16)[:before]:
        sheet.add(line)
    return sheet


def _add_is_all_or_nothing(sheet: Sheet, line: object) -> None:
    """``Sheet.add`` returns a Settled for a well-formed line, or raises InvalidLine and changes nothing."""
    snapshot = (copy.deepcopy(sheet.lines), list(sheet.results), list(sheet.totals), sheet.state)
    shown = repr(line)
    try:
        settled = sheet.add(line)  # anything but InvalidLine escapes and fails the test
    except InvalidLine as exc:
        assert exc.errors, "a rejection names at least one problem"
        assert (sheet.lines, sheet.results, sheet.totals, sheet.state) == snapshot
    else:
        assert isinstance(settled, Settled)
        assert sum(settled.points) == 0
        assert len(sheet.lines) == len(snapshot[0]) + 1
        assert _looks_valid(line, sheet.players), f"accepted a malformed line {line!r}"
    assert repr(line) == shown, "the input line is not modified"


@THOROUGH
@given(label=LABELS, players=TABLES, seed=SEEDS, before=st.integers(0, 6), data=st.data())
def test_arbitrary_json_is_rejected_with_invalid_line_and_leaves_the_sheet_unchanged(
    label: str, players: int, seed: int, before: int, data: st.DataObject
) -> None:
    sheet = _sheet_with_some_lines(label, players, seed, before)
    _add_is_all_or_nothing(sheet, data.draw(junk(sheet), label="line"))


@settings(max_examples=800, deadline=None)
@given(label=LABELS, players=TABLES, seed=SEEDS, before=st.integers(0, 6), data=st.data())
def test_a_line_with_one_field_just_off_is_rejected_unless_it_is_still_well_formed(
    label: str, players: int, seed: int, before: int, data: st.DataObject
) -> None:
    sheet = _sheet_with_some_lines(label, players, seed, before)
    _add_is_all_or_nothing(sheet, data.draw(near_misses(sheet), label="line"))
