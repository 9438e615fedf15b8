"""The presets of RULES.md §4 and the variants any Wiezen preset can take.

Where a source is silent the preset picks a value (marked *picked*), and the
option stays configurable through overrides.
"""

from __future__ import annotations

from collections.abc import Callable

from games.contracts import CONTRACTS, TrumpRule
from games.errors import RuleSetError
from games.rulesets import (
    AfterPass,
    Doubling,
    Game,
    Rotation,
    RuleSet,
    Settlement,
    Tariff,
    TieBreak,
    UnacceptedVraag,
    ZwickenOptions,
    by_level,
    fixed,
)

IWWA = RuleSet(
    name="iwwa",
    game=Game.WIEZEN,
    description="International World Whist Association uniform rules: the tournament default.",
    ladder=("vraag", "alleen", "abondance", "miserie", "troel", "open_miserie", "solo", "solo_slim"),
    tariffs={
        "vraag": Tariff(base=2, over=1, fail_base=6, fail_per=2),
        "alleen": Tariff(base=2, over=1, fail_base=4, fail_per=2),
        "troel": Tariff(base=4, over=2, fail_base=6, fail_per=2),
        "abondance": by_level({9: 5, 10: 6, 11: 8, 12: 9}),
        "miserie": fixed(7),
        "open_miserie": fixed(14),
        "solo": fixed(25),
        "solo_slim": fixed(30),
    },
    settlement=Settlement.PER_PLAYER,
    doubling=Doubling.NONE,
    all_tricks_double=("vraag", "alleen", "troel"),
    penalty=5,  # picked: the one amount the sources give (002)
)

FLEMISH = RuleSet(
    name="flemish",
    game=Game.WIEZEN,
    description="House rules of Hemiksem/Rupelstreek (002).",
    ladder=("vraag", "alleen", "abondance", "abondance_troef", "miserie", "troel", "open_miserie", "solo_slim"),
    tariffs={
        "vraag": Tariff(base=2, over=1, fail_base=3, fail_per=1),
        "alleen": Tariff(base=2, over=1, fail_base=3, fail_per=1),
        "troel": Tariff(base=2, over=1, fail_base=3, fail_per=1),  # "as vraag, doubled": troel_doubles
        "abondance": by_level({9: 3, 10: 3, 11: 3, 12: 3}),
        "abondance_troef": fixed(3),
        "miserie": fixed(5),
        "open_miserie": fixed(10),
        "solo_slim": fixed(15),
    },
    settlement=Settlement.PER_PLAYER,
    doubling=Doubling.NEXT_DEAL,
    troel_doubles=True,
    all_tricks_double=("vraag", "alleen", "abondance", "abondance_troef"),
    after_pass=AfterPass.NEXT_DEALER,
    penalty=5,  # 002: the offender gets 15 penalty points, the three others 5 each
    unaccepted_vraag=UnacceptedVraag.ALONE,
)

BELGIAN = RuleSet(
    name="belgian",
    game=Game.WIEZEN,
    description='Belgian "standard tariff" (000).',
    ladder=(
        "vraag",
        "alleen",
        "piccolo",
        "abondance",
        "miserie",
        "kleine_miserie",
        "troel",
        "open_miserie",
        "solo_slim",
    ),
    tariffs={
        "vraag": Tariff(base=1, over=1, fail_base=2, fail_per=1),
        "alleen": fixed(3),
        "piccolo": fixed(4),  # picked: 000 ranks it above vraag and below miserie, with no amount
        "troel": Tariff(base=2, over=1, fail_base=2, fail_per=2),
        "abondance": by_level({9: 4, 10: 5, 11: 6, 12: 8}),
        "miserie": fixed(5),
        "kleine_miserie": fixed(10),
        "open_miserie": fixed(20),
        "solo_slim": fixed(24),
    },
    settlement=Settlement.PER_PAIR,
    doubling=Doubling.NONE,
    after_pass=AfterPass.SAME_DEALER,
    penalty=5,  # picked
    tie_break=TieBreak.EXTRA_DEAL,
)

SOLO_WHIST = RuleSet(
    name="solo_whist",
    game=Game.SOLO_WHIST,
    description=(
        "Solo whist (003): fixed tariff, one misère a deal, lost at its first trick, abondance declaree without trump."
    ),
    ladder=("vraag", "alleen", "miserie", "abondance", "open_miserie", "abondance_declaree"),
    tariffs={
        "vraag": fixed(2),
        "alleen": fixed(2),
        "miserie": fixed(3),
        "abondance": by_level({9: 4}),
        "open_miserie": fixed(6),
        "abondance_declaree": fixed(8),
    },
    settlement=Settlement.PER_PAIR,
    doubling=Doubling.NONE,
    penalty=2,  # picked: the proposal's tariff
    unaccepted_vraag=UnacceptedVraag.VOID,
    multiple_miserie=False,  # « Chaque annonce doit dépasser la précédente »: a second misère does not
    early_end=True,  # « une misère est perdue dès que son déclarant fait un pli »
    dealing=(3, 3, 3, 3, 1),
)


def _zwicken(name: str, description: str, options: ZwickenOptions) -> RuleSet:
    return RuleSet(
        name=name,
        game=Game.ZWICKEN,
        description=description,
        ladder=(),
        tariffs={},
        settlement=Settlement.PER_PLAYER,
        dealing=(2, 1),  # two each, the trump card turned and set aside, one more each
        zwicken=options,
    )


ZWICKEN = _zwicken("zwicken", "Zwicken (001): 32 cards, 2 to 5 players, the 7 of diamonds as Belli.", ZwickenOptions())
DREIERZWICKEN = _zwicken(
    "dreierzwicken",
    "Dreierzwicken (001): three players, nobody may pass.",
    ZwickenOptions(min_players=3, max_players=3, may_pass=False),
)
ZWICKEN_STYRIAN = _zwicken(
    "zwicken_styrian",
    "Styrian Zwicken (001): 36 cards, the 6 of diamonds as third trump.",
    ZwickenOptions(deck=36, sechser_belli=True),
)
ZWICKEN_4CARDS = _zwicken(
    "zwicken_4cards", "Four-card Zwicken of Carinthia (001): four cards, four tricks.", ZwickenOptions(hand=4)
)

PRESETS: tuple[RuleSet, ...] = (
    IWWA,
    FLEMISH,
    BELGIAN,
    SOLO_WHIST,
    ZWICKEN,
    DREIERZWICKEN,
    ZWICKEN_STYRIAN,
    ZWICKEN_4CARDS,
)


def kleurenwiezen(rules: RuleSet) -> RuleSet:
    """Trump is always chosen by the declarer, so abondance in the turned trump disappears."""
    chosen = {
        cid: TrumpRule.CHOSEN for cid in rules.ladder if rules.trump.get(cid, CONTRACTS[cid].trump) is TrumpRule.TURNED
    }
    ladder = tuple(c for c in rules.ladder if c != "abondance_troef")
    return rules.with_(name=f"{rules.name}+kleurenwiezen", ladder=ladder, trump={**rules.trump, **chosen})


def one_vs_three(rules: RuleSet) -> RuleSet:
    """Only one-against-three contracts: no vraag, no troel."""
    ladder = tuple(c for c in rules.ladder if c not in ("vraag", "troel"))
    return rules.with_(name=f"{rules.name}+1v3", ladder=ladder)


def counter_clockwise(rules: RuleSet) -> RuleSet:
    return rules.with_(name=f"{rules.name}+counter_clockwise", rotation=Rotation.COUNTER_CLOCKWISE)


VARIANTS: dict[str, Callable[[RuleSet], RuleSet]] = {
    "kleurenwiezen": kleurenwiezen,
    "1v3": one_vs_three,
    "counter_clockwise": counter_clockwise,
}


def apply_variant(rules: RuleSet, variant: str) -> RuleSet:
    if rules.game not in (Game.WIEZEN,):
        raise RuleSetError(f"variant {variant!r} applies to Wiezen rule sets only, not {rules.name!r}")
    try:
        return VARIANTS[variant](rules)
    except KeyError:
        raise RuleSetError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})") from None
