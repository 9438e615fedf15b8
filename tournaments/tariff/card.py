"""A rule set's tariff card as plain data: every figure settled by the engine itself.

``wiezen_card(rules)`` gives one row per contract (one per level for abondance) and the doubling facts;
``zwicken_card(rules)`` what a Zwicken table needs. Nothing here restates a tariff: each figure is the
difference of two deals settled by ``games.settlement.settle`` (or played through ``games.sheet.Sheet``,
``games.zwicken.settlement.settle_zwicken``), so the card cannot disagree with the scoring. ``Row.points``
rebuilds any trick count's points from the card's figures; tests/tournaments/test_tariff.py holds it to the
engine for every trick count of every preset.

Seats here are the engine's (0-based); the card shows no seats. A table of four is assumed: at a table of five
the dealer sits out with 0 and the four others score exactly as at a table of four.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.contracts import CONTRACTS, Side, TrumpRule
from games.rulesets import AfterPass, Doubling, RuleSet, Settlement, ZwickenOptions
from games.settlement import Play, settle
from games.sheet import Sheet
from games.zwicken.lines import ZwickenPlay, zwicken_options
from games.zwicken.settlement import settle_zwicken

PLAYERS = 4
DEALER = 3  # the deal the card settles is dealt by the fourth seat; at a table of four nobody sits out
OPPONENT = 3  # a seat that never declares on the card: declarers are the first one or two seats


@dataclass(frozen=True)
class Pair:
    """Points of one declarer (each of two, on a pair contract) and of each opponent."""

    declarer: int
    opponent: int

    def __add__(self, other: Pair) -> Pair:
        return Pair(self.declarer + other.declarer, self.opponent + other.opponent)

    def __sub__(self, other: Pair) -> Pair:
        return Pair(self.declarer - other.declarer, self.opponent - other.opponent)

    def times(self, n: int) -> Pair:
        return Pair(self.declarer * n, self.opponent * n)

    @property
    def zero(self) -> bool:
        return self.declarer == 0 and self.opponent == 0


@dataclass(frozen=True)
class Row:
    """One contract (at one level) of the card.

    ``made`` is settled with exactly ``target`` tricks; ``over`` is what each further trick adds (zero: no
    overtricks); ``failed`` is one trick off; ``under`` what each further trick off adds (zero: the same however
    far off). ``all_tricks`` is the deal with every trick, shown where taking them all doubles.
    """

    contract: str
    level: int | None
    side: Side
    target: int
    exact: bool  # exactly ``target`` tricks (miserie, piccolo), rather than at least
    max_tricks: int
    most_tricks: int  # the most a line may give: 1 for a miserie that stops at its declarer's first trick
    trump: TrumpRule
    made: Pair
    over: Pair
    failed: Pair
    under: Pair
    all_tricks: Pair | None
    factor: int  # the contract's own multiplier (troel x2), already in every figure
    over_until: int | None = None  # overtricks count up to this many tricks (a house rule), None: all of them

    @property
    def pair(self) -> bool:
        return self.side is Side.PAIR

    @property
    def overtricks(self) -> bool:
        return not self.exact and self.target < self.max_tricks

    def points(self, tricks: int) -> Pair:
        """The card's reading of a deal with ``tricks`` tricks for the declarer (side), before any doubling."""
        if self.all_tricks is not None and tricks == self.max_tricks:
            return self.all_tricks
        if self.exact:
            off = abs(tricks - self.target)
            return self.made if off == 0 else self.failed + self.under.times(off - 1)
        if tricks >= self.target:
            counted = tricks if self.over_until is None else min(tricks, self.over_until)
            return self.made + self.over.times(counted - self.target)
        return self.failed + self.under.times(self.target - tricks - 1)


@dataclass(frozen=True)
class Doublings:
    """How deals double, each as the engine settles it (multipliers of a deal after what is named)."""

    doubling: Doubling
    after_pass: int  # the deal after one all-pass round
    after_two_passes: int  # after two all-pass rounds in a row
    after_pass_and_penalty: int  # after an all-pass round, then a penalty line
    troel: int | None  # troel's own factor, None without troel
    troel_after_pass: int | None
    all_tricks: tuple[str, ...]  # contracts that double when their side takes every trick
    all_tricks_after_pass: int | None  # such a contract with every trick, after an all-pass round
    cap: int | None
    same_dealer: bool  # after an all-pass round the same dealer deals again
    passes_count: bool  # an all-pass round counts toward the session's deals

    @property
    def stacks(self) -> bool:
        """Whether two all-pass rounds in a row double twice."""
        return self.after_two_passes > self.after_pass


@dataclass(frozen=True)
class WiezenCard:
    rules: RuleSet
    rows: tuple[Row, ...]
    doublings: Doublings
    penalty: Pair  # the offender (declarer) and each other player
    per_pair: bool  # settlement per winner-loser pair (rather than per player)
    multiple_miserie: bool  # several players may play a miserie-type contract on one deal, each settled alone


def _settle(rules: RuleSet, contract: str, tricks: int, level: int | None) -> Pair:
    side = CONTRACTS[contract].side
    declarers = (0, 1) if side is Side.PAIR else (0,)
    play = Play(1, DEALER, contract, declarers, (tricks,), level, None, None)
    points = settle(rules, play, PLAYERS).points
    assert side is not Side.PAIR or points[0] == points[1], "each of a pair scores the same"
    return Pair(points[0], points[OPPONENT])


def _row(rules: RuleSet, contract: str, level: int | None) -> Row:
    compiled = rules.compiled[contract]
    shape = compiled.contract
    target = level if level is not None else compiled.target
    assert target is not None
    top = shape.max_tricks

    def at(tricks: int) -> Pair:
        return _settle(rules, contract, tricks, level)

    made = at(target)
    if shape.exact:
        # one trick off is one trick too many (a miserie with one trick), or one too few (a piccolo with none)
        off = target + 1
        failed, further = at(off), (at(off + 1) if off + 1 <= top else at(off))
        over = Pair(0, 0)
    else:
        failed = at(target - 1) if target >= 1 else made
        further = at(target - 2) if target >= 2 else failed
        over = at(target + 1) - made if target + 1 < top else Pair(0, 0)
    under = further - failed
    all_tricks = None
    if not shape.exact and target < top and (compiled.doubles_on_all_tricks or compiled.tariff.all_tricks is not None):
        all_tricks = at(top)  # onder tafel (doubled, or a fixed amount): not what the overtricks add up to
    elif not shape.exact and target + 1 == top:
        over = at(top) - made  # the only overtrick is the last one: nothing else to read it from
    return Row(
        contract=contract,
        level=level,
        side=shape.side,
        target=target,
        exact=shape.exact,
        max_tricks=top,
        most_tricks=1 if rules.early_end and shape.side is Side.EACH_ALONE and target == 0 else top,
        trump=compiled.trump,
        made=made,
        over=over,
        failed=failed,
        under=under,
        all_tricks=all_tricks,
        factor=compiled.factor,
        over_until=compiled.tariff.over_until,
    )


def wiezen_rows(rules: RuleSet) -> tuple[Row, ...]:
    """Every contract the rule set allows, low to high, one row per level (abondance's, and the higher bids of
    vraag and alleen where the rule set plays them, after the ordinary one)."""
    rows: list[Row] = []
    for cid in rules.ladder:
        compiled = rules.compiled[cid]
        if not compiled.contract.levels:
            rows.append(_row(rules, cid, None))
        if compiled.contract.bid_levels:
            for level, _amount in compiled.tariff.levels:
                rows.append(_row(rules, cid, level))
    return tuple(rows)


def _multiplier(rules: RuleSet, lines: list[dict[str, Any]]) -> int:
    """The multiplier the engine applies to the last of ``lines``, played in order on one sheet."""
    sheet = Sheet(rules, PLAYERS, None)
    settled = None
    for line in lines:
        dealer = sheet.expected_dealer if sheet.expected_dealer is not None else DEALER
        settled = sheet.add({"deal": sheet.next_deal, "dealer": dealer, **line})
    assert settled is not None
    return settled.multiplier


def _a_played_line(rules: RuleSet) -> dict[str, Any]:
    """The lowest contract of the ladder, made: a deal that doubles only by the all-pass rounds before it."""
    cid = rules.ladder[0]
    shape = CONTRACTS[cid]
    level = rules.compiled[cid].tariff.levels[0][0] if shape.levels else None
    line: dict[str, Any] = {
        "contract": cid,
        "declarers": [0, 1] if shape.side is Side.PAIR else [0],
        "tricks": level if level is not None else rules.compiled[cid].target,
    }
    if level is not None:
        line["level"] = level
    if rules.compiled[cid].trump is TrumpRule.CHOSEN:
        line["trump"] = "H"
    return line


def _all_tricks_line(rules: RuleSet, cid: str) -> dict[str, Any]:
    shape = CONTRACTS[cid]
    line: dict[str, Any] = {
        "contract": cid,
        "declarers": [0, 1] if shape.side is Side.PAIR else [0],
        "tricks": shape.max_tricks,
    }
    if shape.levels:
        line["level"] = rules.compiled[cid].tariff.levels[0][0]
    if rules.compiled[cid].trump is TrumpRule.CHOSEN:
        line["trump"] = "H"
    return line


def doublings(rules: RuleSet) -> Doublings:
    passed: dict[str, Any] = {"contract": "pass"}
    penalty: dict[str, Any] = {"contract": "penalty", "offender": 0}
    played = _a_played_line(rules)
    troel = None
    troel_after_pass = None
    if "troel" in rules.compiled:
        troel_line = {"contract": "troel", "declarers": [0, 1], "tricks": rules.troel_target}
        troel = _multiplier(rules, [troel_line])
        troel_after_pass = _multiplier(rules, [passed, troel_line])
    doubling_all = tuple(
        cid
        for cid in rules.ladder
        if rules.compiled[cid].doubles_on_all_tricks
        and (CONTRACTS[cid].target or 0) < CONTRACTS[cid].max_tricks
        and not CONTRACTS[cid].exact
    )
    all_after_pass = _multiplier(rules, [passed, _all_tricks_line(rules, doubling_all[0])]) if doubling_all else None
    return Doublings(
        doubling=rules.doubling,
        after_pass=_multiplier(rules, [passed, played]),
        after_two_passes=_multiplier(rules, [passed, passed, played]),
        after_pass_and_penalty=_multiplier(rules, [passed, penalty, played]),
        troel=troel,
        troel_after_pass=troel_after_pass,
        all_tricks=doubling_all,
        all_tricks_after_pass=all_after_pass,
        cap=rules.multiplier_cap,
        same_dealer=rules.after_pass is AfterPass.SAME_DEALER,
        passes_count=rules.passes_count,
    )


def penalty(rules: RuleSet) -> Pair:
    """A penalty line at a table of four: the offender's points and each other player's."""
    points = settle(rules, Play(1, DEALER, "penalty", offender=0), PLAYERS).points
    return Pair(points[0], points[OPPONENT])


def wiezen_card(rules: RuleSet) -> WiezenCard:
    return WiezenCard(
        rules=rules,
        rows=wiezen_rows(rules),
        doublings=doublings(rules),
        penalty=penalty(rules),
        per_pair=rules.settlement is Settlement.PER_PAIR,
        multiple_miserie=rules.multiple_miserie and any(CONTRACTS[cid].side is Side.EACH_ALONE for cid in rules.ladder),
    )


@dataclass(frozen=True)
class ZwickenCard:
    """What a Zwicken table needs to know, each amount settled by ``settle_zwicken``."""

    options: ZwickenOptions
    ante: int  # the dealer's stake, as a deal where nobody plays settles it
    example_pot: int  # a pot, after the dealer's ante ...
    example_share: int  # ... and what one trick takes of it
    example_rest: int  # what stays in the pot when it does not divide evenly
    bete: int  # what a player who played and took no trick pays into the next pot
    duty_bete: int  # what a failed trump-ace or Belli duty costs
    durchmarsch: int  # what the player who takes every trick wins of the example pot, before his own ante
    belli_cut: int | None  # what the dealer pays each player between cutter and dealer on a Belli cut


def zwicken_card(rules: RuleSet) -> ZwickenCard:
    options = zwicken_options(rules)
    players = 4  # the arithmetic of a deal does not depend on how many sit at the table
    hand = options.hand
    carried = 2 * hand * options.ante + 1  # a pot that does not divide evenly, to show what stays in it
    nobody = settle_zwicken(options, ZwickenPlay(1, 0, "zwicken"), players, 0)
    ante = -nobody.points[0]
    pot = carried + ante
    # seat 1 takes one trick, seat 2 the rest; seat 0 (the dealer) plays and takes none
    played = (0, 1, 2) if players >= 3 else (0, 1)
    tricks = [0] * players
    tricks[1] = 1
    tricks[played[-1]] += hand - 1
    normal = settle_zwicken(options, ZwickenPlay(1, 0, "zwicken", played, tuple(tricks)), players, carried)
    share = normal.points[1]
    rest = pot - share * hand
    bete = -(normal.points[0] + ante)
    assert normal.pot == rest + bete, "the rest and the betes make the next pot"
    all_tricks = [0] * players
    all_tricks[1] = hand
    durch = settle_zwicken(options, ZwickenPlay(1, 0, "zwicken", played, tuple(all_tricks)), players, carried)
    duty = settle_zwicken(
        options, ZwickenPlay(1, 0, "zwicken", played, tuple(tricks), duties_failed=(1,)), players, carried
    )
    belli = None
    if options.hop_and_jump and players >= 3:
        cut = settle_zwicken(options, ZwickenPlay(1, 0, "belli"), players, 0)
        # the dealer antes and pays each player but the cutter; the cutter is the seat on the dealer's right
        belli = cut.points[1]
    return ZwickenCard(
        options=options,
        ante=ante,
        example_pot=pot,
        example_share=share,
        example_rest=rest,
        bete=bete,
        duty_bete=share - duty.points[1],
        durchmarsch=durch.points[1],
        belli_cut=belli,
    )
