"""Rule sets: the presets of RULES.md §4, the variants, the registry, JSON and overrides.

Every expected figure below is a literal read from RULES.md (or, where RULES.md
defers to it, the source text it cites), never taken from the engine.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from games import (
    RuleSet,
    RuleSetError,
    Sheet,
    Tariff,
    TrumpRule,
    UnknownRuleSet,
    apply_overrides,
    find,
    listing,
    names,
    settle,
)
from games import registry as registry_module
from games.rulesets import AfterPass, Doubling, Game, Rotation, Settlement, TieBreak, UnacceptedVraag
from games.settlement import Play, contract_amount

PRESET_NAMES = ("iwwa", "flemish", "belgian", "solo_whist")
WIEZEN_PRESETS = ("iwwa", "flemish", "belgian")
VARIANT_NAMES = ("kleurenwiezen", "1v3", "counter_clockwise")


def amount(rules: str, contract: str, tricks: int, level: int | None = None) -> tuple[bool, int]:
    """(made, amount per opponent) of one declarer side, before any multiplier."""
    return contract_amount(find(rules).compiled[contract], tricks, level)


def points(
    rules: str | RuleSet, contract: str, declarers: tuple[int, ...], tricks: int, **extra: Any
) -> tuple[int, ...]:
    """Points of a single deal 1 dealt by seat 0, nothing pending."""
    rule_set = find(rules) if isinstance(rules, str) else rules
    play = Play(1, 0, contract, declarers, (tricks,), extra.get("level"), extra.get("trump"))
    return settle(rule_set, play, 4).points


# --- iwwa ------------------------------------------------------------------------------------------------------


def test_iwwa_enables_exactly_the_contracts_of_rules_md() -> None:
    # "Contracts: vraag/alleen, abondance 9-12, miserie, troel, open_miserie, solo, solo_slim."
    assert find("iwwa").ladder == (
        "vraag",
        "alleen",
        "abondance",
        "miserie",
        "troel",
        "open_miserie",
        "solo",
        "solo_slim",
    )


def test_iwwa_settles_per_player_without_doubling() -> None:
    rules = find("iwwa")
    assert rules.game is Game.WIEZEN
    assert rules.settlement is Settlement.PER_PLAYER
    # "All-pass: 0, no doubling."
    assert rules.doubling is Doubling.NONE


@pytest.mark.parametrize(
    ("contract", "tricks", "expected"),
    [
        # vraag: base 2, +1 per overtrick; failure 6, +2 per further undertrick
        ("vraag", 8, (True, 2)),
        ("vraag", 10, (True, 4)),
        ("vraag", 7, (False, 6)),
        ("vraag", 5, (False, 10)),  # 3 under: 6 + 2 + 2
        # alleen: 2 per opponent, +1 per overtrick; failure 4 per opponent, +2 per further undertrick
        ("alleen", 5, (True, 2)),
        ("alleen", 7, (True, 4)),
        ("alleen", 4, (False, 4)),
        ("alleen", 3, (False, 6)),
        # troel: base 4, +2 per overtrick; failure as vraag
        ("troel", 8, (True, 4)),
        ("troel", 9, (True, 6)),
        ("troel", 7, (False, 6)),
        ("troel", 6, (False, 8)),
        # miserie 7, open_miserie 14 (made = 0 tricks)
        ("miserie", 0, (True, 7)),
        ("miserie", 1, (False, 7)),
        ("open_miserie", 0, (True, 14)),
        ("open_miserie", 2, (False, 14)),
        # solo 25, solo_slim 30
        ("solo", 13, (True, 25)),
        ("solo", 12, (False, 25)),
        ("solo_slim", 13, (True, 30)),
        ("solo_slim", 11, (False, 30)),
    ],
)
def test_iwwa_tariff_matches_rules_md(contract: str, tricks: int, expected: tuple[bool, int]) -> None:
    assert amount("iwwa", contract, tricks) == expected


@pytest.mark.parametrize(
    ("level", "tricks", "expected"),
    [
        # abondance 9/10/11/12: 5/6/8/9 per opponent, made or failed, no overtricks
        (9, 9, (True, 5)),
        (9, 12, (True, 5)),
        (9, 8, (False, 5)),
        (10, 10, (True, 6)),
        (10, 7, (False, 6)),
        (11, 11, (True, 8)),
        (11, 9, (False, 8)),
        (12, 12, (True, 9)),
        (12, 10, (False, 9)),
    ],
)
def test_iwwa_abondance_pays_by_level(level: int, tricks: int, expected: tuple[bool, int]) -> None:
    assert amount("iwwa", "abondance", tricks, level) == expected


def test_iwwa_doubles_vraag_alleen_and_troel_with_all_thirteen_tricks() -> None:
    # "twice the amount that the linear formula gives at 13"
    # vraag: 2 + 5 overtricks = 7, x2 = 14 each
    assert points("iwwa", "vraag", (1, 3), 13) == (-14, 14, -14, 14)
    # alleen: 2 + 8 overtricks = 10 per opponent, x2 = 20; declarer 3 x 20 = 60
    assert points("iwwa", "alleen", (2,), 13) == (-20, -20, 60, -20)
    # troel: 4 + 2 x 5 = 14, x2 = 28 each
    assert points("iwwa", "troel", (0, 1), 13) == (28, 28, -28, -28)


def test_iwwa_does_not_double_abondance_or_solo_with_all_thirteen_tricks() -> None:
    # abondance 9 is 5 per opponent made or failed -> +15 / -5
    assert points("iwwa", "abondance", (1,), 13, level=9, trump="S") == (-5, 15, -5, -5)
    # solo 25 per opponent
    assert points("iwwa", "solo", (1,), 13, trump="S") == (-25, 75, -25, -25)


# --- flemish ---------------------------------------------------------------------------------------------------


def test_flemish_enables_exactly_the_contracts_of_rules_md() -> None:
    # "Ladder: vraag/alleen, abondance 9-12, abondance_troef, miserie, troel, open_miserie, solo_slim."
    assert find("flemish").ladder == (
        "vraag",
        "alleen",
        "abondance",
        "abondance_troef",
        "miserie",
        "troel",
        "open_miserie",
        "solo_slim",
    )


def test_flemish_options_match_rules_md() -> None:
    rules = find("flemish")
    assert rules.settlement is Settlement.PER_PLAYER
    # "Doubling after all-pass (next deal x2), troel x2, onder tafel x2." / "All-pass: next dealer deals."
    assert rules.doubling is Doubling.NEXT_DEAL
    assert rules.troel_doubles is True
    assert rules.after_pass is AfterPass.NEXT_DEALER


@pytest.mark.parametrize(
    ("contract", "tricks", "expected"),
    [
        # vraag and alleen: base 2, +1 per overtrick; failure fail_base 3, fail_per 1
        ("vraag", 8, (True, 2)),
        ("vraag", 10, (True, 4)),
        ("vraag", 7, (False, 3)),
        ("vraag", 6, (False, 4)),
        ("alleen", 5, (True, 2)),
        ("alleen", 6, (True, 3)),
        ("alleen", 4, (False, 3)),
        ("alleen", 2, (False, 5)),
        # abondance_troef: 3; miserie: 5; open_miserie: 10; solo_slim: 15
        ("abondance_troef", 9, (True, 3)),
        ("abondance_troef", 8, (False, 3)),
        ("miserie", 0, (True, 5)),
        ("miserie", 3, (False, 5)),
        ("open_miserie", 0, (True, 10)),
        ("open_miserie", 1, (False, 10)),
        ("solo_slim", 13, (True, 15)),
        ("solo_slim", 12, (False, 15)),
    ],
)
def test_flemish_tariff_matches_rules_md(contract: str, tricks: int, expected: tuple[bool, int]) -> None:
    assert amount("flemish", contract, tricks) == expected


@pytest.mark.parametrize("level", [9, 10, 11, 12])
def test_flemish_abondance_pays_three_at_any_level(level: int) -> None:
    assert amount("flemish", "abondance", level, level) == (True, 3)
    assert amount("flemish", "abondance", level - 1, level) == (False, 3)


def test_flemish_reproduces_the_examples_of_the_source() -> None:
    # RULES §4 flemish: "10 tricks -> 4 each; 7 tricks -> 3 each; alone 6 tricks -> +9/-3 each;
    # alone 4 tricks -> -9/+3 each"
    assert points("flemish", "vraag", (1, 3), 10) == (-4, 4, -4, 4)
    assert points("flemish", "vraag", (1, 3), 7) == (3, -3, 3, -3)
    assert points("flemish", "alleen", (2,), 6) == (-3, -3, 9, -3)
    assert points("flemish", "alleen", (2,), 4) == (3, 3, -9, 3)


def test_flemish_troel_is_vraag_doubled() -> None:
    # "troel: as vraag x2": vraag 8 = 2, troel 8 = 4 each; vraag 10 = 4, troel 10 = 8; vraag 7 fails 3, troel 6
    assert points("flemish", "troel", (0, 2), 8) == (4, -4, 4, -4)
    assert points("flemish", "troel", (0, 2), 10) == (8, -8, 8, -8)
    assert points("flemish", "troel", (0, 2), 7) == (-6, 6, -6, 6)


def test_flemish_doubles_onder_tafel_but_not_solo_slim() -> None:
    # vraag 13: 2 + 5 = 7, x2 = 14 each
    assert points("flemish", "vraag", (1, 3), 13) == (-14, 14, -14, 14)
    # alleen 13: 2 + 8 = 10 per opponent, x2 = 20, declarer +60
    assert points("flemish", "alleen", (1,), 13) == (-20, 60, -20, -20)
    # abondance (any level) 3, x2 = 6 per opponent, declarer +18
    assert points("flemish", "abondance", (1,), 13, level=10, trump="C") == (-6, 18, -6, -6)
    # solo_slim 15 per opponent: never doubled for all tricks (RULES §3)
    assert points("flemish", "solo_slim", (1,), 13, trump="C") == (-15, 45, -15, -15)


def test_flemish_penalty_costs_the_offender_fifteen_and_pays_the_others_five() -> None:
    sheet = Sheet(find("flemish"))
    assert sheet.add({"deal": 1, "dealer": 0, "contract": "penalty", "offender": 2}).points == (5, 5, -15, 5)


# --- belgian ---------------------------------------------------------------------------------------------------


def test_belgian_enables_piccolo_and_kleine_miserie_besides_the_contracts_it_prices() -> None:
    # "Ladder adds piccolo and kleine_miserie"; tariffs are given for vraag, alleen, troel, miserie,
    # kleine_miserie, open_miserie, abondance and solo_slim
    assert set(find("belgian").ladder) == {
        "vraag",
        "alleen",
        "piccolo",
        "abondance",
        "miserie",
        "kleine_miserie",
        "troel",
        "open_miserie",
        "solo_slim",
    }


def test_belgian_options_match_rules_md() -> None:
    rules = find("belgian")
    assert rules.settlement is Settlement.PER_PAIR
    # "All-pass: same dealer redeals, no doubling." / "ties are broken by one extra deal"
    assert rules.after_pass is AfterPass.SAME_DEALER
    assert rules.doubling is Doubling.NONE
    assert rules.tie_break is TieBreak.EXTRA_DEAL


@pytest.mark.parametrize(
    ("contract", "tricks", "expected"),
    [
        # vraag: base 1, +1 per overtrick; failure 2, +1 per extra undertrick
        ("vraag", 8, (True, 1)),
        ("vraag", 9, (True, 2)),
        ("vraag", 7, (False, 2)),
        ("vraag", 6, (False, 3)),
        # alleen: 3, no overtricks (000: "coute 3 unites chacun en cas d'echec")
        ("alleen", 5, (True, 3)),
        ("alleen", 8, (True, 3)),
        ("alleen", 4, (False, 3)),
        # troel: base 2, +1 per overtrick, +2 per undertrick (000: "2 unites par pli manquant")
        ("troel", 8, (True, 2)),
        ("troel", 10, (True, 4)),
        ("troel", 7, (False, 2)),
        ("troel", 6, (False, 4)),
        # miserie 5, kleine_miserie 10, open_miserie 20; solo_slim 24
        ("miserie", 0, (True, 5)),
        ("miserie", 1, (False, 5)),
        ("kleine_miserie", 0, (True, 10)),
        ("kleine_miserie", 2, (False, 10)),
        ("open_miserie", 0, (True, 20)),
        ("open_miserie", 4, (False, 20)),
        ("solo_slim", 13, (True, 24)),
        ("solo_slim", 12, (False, 24)),
    ],
)
def test_belgian_tariff_matches_rules_md(contract: str, tricks: int, expected: tuple[bool, int]) -> None:
    assert amount("belgian", contract, tricks) == expected


@pytest.mark.parametrize(("level", "expected"), [(9, 4), (10, 5), (11, 6), (12, 8)])
def test_belgian_abondance_pays_by_level(level: int, expected: int) -> None:
    # "abondance 9->4, 10->5, 11->6, 12->8"
    assert amount("belgian", "abondance", level, level) == (True, expected)
    assert amount("belgian", "abondance", level - 2, level) == (False, expected)


def test_belgian_settles_a_pair_contract_per_pair() -> None:
    # per_pair: every loser pays every winner X; vraag 9 tricks X = 2 -> 2 v 2: +-4 each
    assert points("belgian", "vraag", (1, 3), 9) == (-4, 4, -4, 4)
    # a lone player against three: alleen 3 -> +9 / -3
    assert points("belgian", "alleen", (0,), 5) == (9, -3, -3, -3)


# --- solo_whist ------------------------------------------------------------------------------------------------


def test_solo_whist_ladder_matches_rules_md() -> None:
    # "proposition+acceptance (vraag), solo (alleen), misere (miserie), abondance, misere ouverte
    # (open_miserie), abondance declaree (abondance_declaree)"
    rules = find("solo_whist")
    assert rules.game is Game.SOLO_WHIST
    assert rules.ladder == ("vraag", "alleen", "miserie", "abondance", "open_miserie", "abondance_declaree")


@pytest.mark.parametrize(
    ("contract", "made_tricks", "failed_tricks", "fixed_amount"),
    [
        # "Fixed tariff, no over/undertricks: 2, 2, 3, 4, 6, 8."
        ("vraag", 11, 4, 2),
        ("alleen", 9, 2, 2),
        ("miserie", 0, 5, 3),
        ("open_miserie", 0, 3, 6),
        ("abondance_declaree", 13, 10, 8),
    ],
)
def test_solo_whist_pays_a_fixed_tariff(contract: str, made_tricks: int, failed_tricks: int, fixed_amount: int) -> None:
    assert amount("solo_whist", contract, made_tricks) == (True, fixed_amount)
    assert amount("solo_whist", contract, failed_tricks) == (False, fixed_amount)


def test_solo_whist_abondance_is_nine_tricks_for_four() -> None:
    assert amount("solo_whist", "abondance", 11, 9) == (True, 4)
    assert amount("solo_whist", "abondance", 8, 9) == (False, 4)


def test_solo_whist_options_match_rules_md() -> None:
    rules = find("solo_whist")
    assert rules.settlement is Settlement.PER_PAIR
    assert rules.unaccepted_vraag is UnacceptedVraag.VOID  # "An unaccepted, un-overcalled proposal voids the deal."
    assert rules.dealing == (3, 3, 3, 3, 1)  # "Dealing 3-3-3-3-1."
    assert rules.trump_rule("abondance_declaree") is TrumpRule.NONE  # "13, **no trump**"
    assert rules.trump_rule("abondance") is TrumpRule.CHOSEN  # "trump named after bidding closes"


def test_solo_whist_pays_a_proposal_per_pair() -> None:
    # "the four payments of a proposal are equal": every loser pays every winner 2 -> +-4 each
    assert points("solo_whist", "vraag", (0, 1), 8) == (4, 4, -4, -4)


def test_the_wiezen_presets_deal_four_four_five() -> None:
    for name in WIEZEN_PRESETS:
        assert find(name).dealing == (4, 4, 5), name


# --- variants --------------------------------------------------------------------------------------------------


def test_kleurenwiezen_makes_every_turned_trump_a_chosen_one() -> None:
    rules = find("flemish+kleurenwiezen")
    assert rules.name == "flemish+kleurenwiezen"
    assert rules.trump_rule("vraag") is TrumpRule.CHOSEN
    assert rules.trump_rule("alleen") is TrumpRule.CHOSEN
    assert rules.trump_rule("miserie") is TrumpRule.NONE
    assert find("flemish").trump_rule("vraag") is TrumpRule.TURNED


def test_kleurenwiezen_drops_abondance_in_the_turned_trump() -> None:
    assert "abondance_troef" in find("flemish").ladder
    assert "abondance_troef" not in find("flemish+kleurenwiezen").ladder
    assert not find("flemish+kleurenwiezen").enables("abondance_troef")


def test_kleurenwiezen_keeps_the_rest_of_the_ladder() -> None:
    base = [c for c in find("flemish").ladder if c != "abondance_troef"]
    assert list(find("flemish+kleurenwiezen").ladder) == base
    assert find("iwwa+kleurenwiezen").ladder == find("iwwa").ladder


def test_one_against_three_removes_vraag_and_troel() -> None:
    for name in WIEZEN_PRESETS:
        rules = find(f"{name}+1v3")
        assert "vraag" not in rules.ladder and "troel" not in rules.ladder
        assert list(rules.ladder) == [c for c in find(name).ladder if c not in ("vraag", "troel")]
        assert not rules.enables("vraag") and not rules.enables("troel")


def test_counter_clockwise_reverses_the_rotation_only() -> None:
    rules = find("belgian+counter_clockwise")
    assert rules.rotation is Rotation.COUNTER_CLOCKWISE
    assert find("belgian").rotation is Rotation.CLOCKWISE
    assert rules.to_json() | {"name": "belgian", "rotation": "clockwise"} == find("belgian").to_json()


def test_variants_combine_in_order() -> None:
    rules = find("flemish+kleurenwiezen+1v3+counter_clockwise")
    assert rules.ladder == ("alleen", "abondance", "miserie", "open_miserie", "solo_slim")
    assert rules.trump_rule("alleen") is TrumpRule.CHOSEN
    assert rules.rotation is Rotation.COUNTER_CLOCKWISE


def test_variants_apply_to_wiezen_presets_only() -> None:
    with pytest.raises(RuleSetError, match="solo_whist"):
        find("solo_whist+kleurenwiezen")


# --- registry --------------------------------------------------------------------------------------------------


def test_find_returns_a_preset_by_name() -> None:
    for name in PRESET_NAMES:
        rules = find(name)
        assert isinstance(rules, RuleSet)
        assert rules.name == name


def test_names_and_listing_hold_the_four_presets() -> None:
    assert set(PRESET_NAMES) <= set(names())
    assert [r.name for r in listing()] == names()


@pytest.mark.parametrize("name", ["skat", "Flemish", "flemish ", "+kleurenwiezen"])
def test_find_rejects_an_unknown_rule_set_naming_it(name: str) -> None:
    with pytest.raises(UnknownRuleSet) as exc:
        find(name)
    assert isinstance(exc.value, ValueError)
    assert isinstance(exc.value, RuleSetError)
    assert repr(name.split("+")[0]) in str(exc.value)


def test_find_rejects_an_unknown_variant_naming_it() -> None:
    with pytest.raises(UnknownRuleSet, match="'zwart'"):
        find("flemish+zwart")
    with pytest.raises(ValueError):
        find("iwwa+kleurenwiezen+zwart")


@pytest.mark.parametrize("name", ["", None, 3])
def test_find_rejects_a_name_that_is_not_a_non_empty_string(name: Any) -> None:
    with pytest.raises(UnknownRuleSet):
        find(name)


def test_register_adds_a_club_rule_set_and_refuses_to_shadow_a_preset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry_module, "_REGISTRY", dict(registry_module._REGISTRY))
    club = apply_overrides(find("flemish"), {"name": "de-kaart", "penalty": 4})
    registry_module.register(club)
    assert find("de-kaart") == club
    assert find("de-kaart+1v3").ladder == find("flemish+1v3").ladder
    with pytest.raises(RuleSetError):
        registry_module.register(apply_overrides(find("flemish"), {"name": "flemish", "penalty": 4}))
    assert find("flemish").penalty == 5


# --- JSON ------------------------------------------------------------------------------------------------------

ALL_RULE_SETS = [
    *PRESET_NAMES,
    *(f"{p}+{v}" for p in WIEZEN_PRESETS for v in VARIANT_NAMES),
    "flemish+kleurenwiezen+1v3+counter_clockwise",
]


@pytest.mark.parametrize("name", ALL_RULE_SETS)
def test_every_preset_and_variant_round_trips_through_json(name: str) -> None:
    rules = find(name)
    text = json.dumps(rules.to_json())
    again = RuleSet.from_json(json.loads(text))
    assert again == rules
    assert again.to_json() == rules.to_json()
    assert again.compiled.keys() == rules.compiled.keys()


def test_a_custom_rule_set_without_alleen_round_trips_through_json() -> None:
    # every rule set serialises to JSON and back (games.rulesets): a club that only plays miserie
    rules = RuleSet(
        name="misere-club",
        game=Game.WIEZEN,
        ladder=("miserie",),
        tariffs={"miserie": Tariff(base=6)},
        settlement=Settlement.PER_PLAYER,
    )
    assert RuleSet.from_json(json.loads(json.dumps(rules.to_json()))) == rules


def test_a_round_tripped_rule_set_settles_like_the_original() -> None:
    rules = RuleSet.from_json(json.loads(json.dumps(find("iwwa").to_json())))
    # iwwa abondance 11 = 8 per opponent
    assert points(rules, "abondance", (3,), 11, level=11, trump="D") == (-8, -8, -8, 24)


# --- overrides -------------------------------------------------------------------------------------------------


def test_an_override_changes_one_tariff_amount_only() -> None:
    base = find("flemish")
    rules = RuleSet.from_json({"preset": "flemish", "tariffs": {"miserie": {"base": 8}}})
    assert amount_of(rules, "miserie", 0) == (True, 8)
    assert {c: t for c, t in rules.tariffs.items() if c != "miserie"} == {
        c: t for c, t in base.tariffs.items() if c != "miserie"
    }
    unchanged = {k: v for k, v in rules.to_json().items() if k not in ("name", "tariffs")}
    assert unchanged == {k: v for k, v in base.to_json().items() if k not in ("name", "tariffs")}
    assert find("flemish").tariffs["miserie"] == base.tariffs["miserie"]  # the preset itself is untouched


def amount_of(rules: RuleSet, contract: str, tricks: int, level: int | None = None) -> tuple[bool, int]:
    return contract_amount(rules.compiled[contract], tricks, level)


def test_an_override_of_one_tariff_key_keeps_the_others() -> None:
    rules = apply_overrides(find("flemish"), {"tariffs": {"vraag": {"over": 2}}})
    # base 2 stays, +2 per overtrick: 10 tricks -> 6; failure stays 3
    assert amount_of(rules, "vraag", 10) == (True, 6)
    assert amount_of(rules, "vraag", 7) == (False, 3)


def test_an_override_of_one_abondance_level_keeps_the_others() -> None:
    rules = apply_overrides(find("iwwa"), {"tariffs": {"abondance": {"levels": {"12": 12}}}})
    assert amount_of(rules, "abondance", 12, 12) == (True, 12)
    assert amount_of(rules, "abondance", 9, 9) == (True, 5)


def test_a_plain_number_as_tariff_is_a_fixed_amount() -> None:
    rules = apply_overrides(find("belgian"), {"tariffs": {"miserie": 7}})
    assert amount_of(rules, "miserie", 0) == (True, 7)
    assert amount_of(rules, "miserie", 2) == (False, 7)


def test_overrides_can_apply_variants_and_options() -> None:
    rules = RuleSet.from_json(
        {"preset": "iwwa", "variants": ["kleurenwiezen"], "passes_count": False, "doubling": "per_pass"}
    )
    assert rules.trump_rule("vraag") is TrumpRule.CHOSEN
    assert rules.passes_count is False
    assert rules.doubling is Doubling.PER_PASS


def test_an_overridden_rule_set_gets_a_name_of_its_own() -> None:
    assert apply_overrides(find("flemish"), {"penalty": 3}).name != "flemish"
    assert apply_overrides(find("flemish"), {"penalty": 3, "name": "club"}).name == "club"


def test_an_overridden_rule_set_round_trips_through_json() -> None:
    rules = RuleSet.from_json({"preset": "belgian", "tariffs": {"open_miserie": 25}, "multiplier_cap": 2})
    assert RuleSet.from_json(json.loads(json.dumps(rules.to_json()))) == rules


@pytest.mark.parametrize(
    ("overrides", "named"),
    [
        ({"colour": "red"}, "'colour'"),
        ({"tariffs": {"miserie": {"base": "8"}}}, "tariffs.miserie.base"),
        ({"tariffs": {"miserie": {"base": "8"}}}, "'8'"),
        ({"tariffs": {"miserie": {"bonus": 1}}}, "'bonus'"),
        ({"penalty": True}, "penalty"),
        ({"tariffs": {"vraag": {"over": False}}}, "tariffs.vraag.over"),
        ({"passes_count": 1}, "passes_count"),
        ({"penalty": -5}, "-5"),
        ({"tariffs": {"miserie": -1}}, "tariffs.miserie"),
        ({"tariffs": {"alleen": {"fail_per": -2}}}, "-2"),
        ({"ladder": ["vraag", "grand"]}, "'grand'"),
        ({"tariffs": {"grand": 5}}, "'grand'"),
        ({"all_tricks_double": ["grand"]}, "'grand'"),
        ({"ladder": ["vraag", "pass"]}, "'pass'"),
        ({"settlement": "per_team"}, "'per_team'"),
        ({"doubling": "always"}, "'always'"),
        ({"rotation": "widdershins"}, "'widdershins'"),
        ({"trump": {"vraag": "random"}}, "'random'"),
        ({"ladder": ["vraag", "alleen", "solo"]}, "'solo'"),  # flemish has no tariff for solo
        ({"tariffs": {"abondance": {"levels": {"8": 2}}}}, "8"),
        ({"tariffs": {"abondance": {"levels": {"13": 2}}}}, "13"),
        ({"tariffs": {"abondance": {"levels": {"nine": 2}}}}, "'nine'"),
        ({"multiplier_cap": 0}, "multiplier_cap"),
        ({"variants": ["zwart"]}, "'zwart'"),
        ({"variants": "kleurenwiezen"}, "variants"),
        ({"name": 5}, "name"),
    ],
)
def test_a_bad_override_raises_a_rule_set_error_naming_it(overrides: dict[str, Any], named: str) -> None:
    with pytest.raises(RuleSetError) as exc:
        RuleSet.from_json({"preset": "flemish", **overrides})
    assert isinstance(exc.value, ValueError)
    assert named in str(exc.value)
    with pytest.raises(RuleSetError):
        apply_overrides(find("flemish"), overrides)


def test_every_bad_override_is_reported_at_once() -> None:
    with pytest.raises(RuleSetError) as exc:
        apply_overrides(find("flemish"), {"colour": 1, "penalty": -1, "settlement": "per_team"})
    text = str(exc.value)
    assert "'colour'" in text and "-1" in text and "'per_team'" in text


def test_overrides_must_be_an_object() -> None:
    with pytest.raises(RuleSetError):
        apply_overrides(find("flemish"), ["penalty", 3])
    with pytest.raises(RuleSetError):
        RuleSet.from_json([])
    with pytest.raises(RuleSetError, match="preset"):
        RuleSet.from_json({"preset": 3})


def test_overriding_an_unknown_preset_raises_unknown_rule_set() -> None:
    with pytest.raises(UnknownRuleSet, match="'skat'"):
        RuleSet.from_json({"preset": "skat"})


def test_a_full_rule_set_without_a_preset_must_give_every_field() -> None:
    with pytest.raises(RuleSetError) as exc:
        RuleSet.from_json({"name": "club", "ladder": ["alleen"], "tariffs": {"alleen": 3}})
    text = str(exc.value)
    assert "game" in text and "settlement" in text
    assert "ladder" not in text.split("missing", 1)[1].split(":", 1)[0]


def test_a_full_rule_set_with_a_missing_field_names_only_that_field() -> None:
    obj = find("flemish").to_json()
    del obj["doubling"]
    with pytest.raises(RuleSetError, match="doubling"):
        RuleSet.from_json(obj)


def test_a_rule_set_needs_a_contract() -> None:
    with pytest.raises(RuleSetError, match="ladder"):
        apply_overrides(find("flemish"), {"ladder": []})


def test_a_ladder_contract_without_a_tariff_is_refused_at_construction() -> None:
    with pytest.raises(RuleSetError, match="'solo'"):
        RuleSet(
            name="broken",
            game=Game.WIEZEN,
            ladder=("alleen", "solo"),
            tariffs={"alleen": Tariff(base=2)},
            settlement=Settlement.PER_PLAYER,
        )
