"""The tariff card (issue 15, item 10): its figures are the engine's, for every preset and every trick count.

``tournaments.tariff.card`` reads each figure off deals the engine settles; these tests hold the card's own
reading (``Row.points``, the doubling facts) to ``games.settlement.settle`` and ``games.sheet.Sheet`` for lines
the card does not use, so a tariff the card misreads fails here.
"""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

import games
from games.contracts import CONTRACTS, Side, TrumpRule
from games.presets import PRESETS
from games.rulesets import Doubling, Game, RuleSet
from games.sheet import Sheet
from games.zwicken.lines import ZwickenPlay, zwicken_options
from games.zwicken.settlement import settle_zwicken
from tests.factories import ClubFactory, CompetitionFactory, RuleSetFactory
from tests.roles import make_roles
from tournaments.contract_names import contract_name
from tournaments.models import Competition
from tournaments.tariff.card import Pair, wiezen_card, zwicken_card

WIEZEN = [rules for rules in PRESETS if rules.game is not Game.ZWICKEN]
# house rules (issue 17): capped overtricks, a failure costing double, every trick off counted, a fixed amount for
# all tricks, troel for nine, pooled miserie
HOUSE = games.apply_overrides(
    games.find("belgian"),
    {
        "name": "house",
        "troel_target": 9,
        "miserie_settlement": "pooled",
        "tariffs": {
            "vraag": {"over_until": 10, "fail_factor": 2, "all_tricks": 20},
            "abondance": {"over": 1, "fail_per": 1, "fail_per_from_first": True},
            "troel": {"over_until": 11},
            "alleen": {"levels": {"6": 4, "7": 5}},  # alleen bid for six and seven tricks too
            # set seat by seat, not summing to zero
            "open_miserie": {"declarer_made": 36, "others_made": 0, "declarer_failed": 36, "others_failed": 0},
            "kleine_miserie": {"declarer_made": 12, "others_made": 4, "declarer_failed": 18, "others_failed": 12},
        },
    },
)
ZWICKEN = [rules for rules in PRESETS if rules.game is Game.ZWICKEN]


def _line(rules: RuleSet, cid: str, tricks: int, level: int | None) -> dict[str, Any]:
    shape = CONTRACTS[cid]
    line: dict[str, Any] = {"contract": cid, "declarers": [1, 3] if shape.side is Side.PAIR else [2], "tricks": tricks}
    if level is not None:
        line["level"] = level
    if rules.compiled[cid].trump is TrumpRule.CHOSEN:
        line["trump"] = "S"
    return line


def _play(sheet: Sheet, line: dict[str, Any]) -> tuple[int, ...]:
    dealer = sheet.expected_dealer if sheet.expected_dealer is not None else 0
    return sheet.add({"deal": sheet.next_deal, "dealer": dealer, **line}).points


@pytest.mark.parametrize("rules", WIEZEN, ids=lambda r: r.name)
def test_every_allowed_contract_and_level_is_on_the_card(rules: RuleSet) -> None:
    card = wiezen_card(rules)
    expected = [
        (cid, level)
        for cid in rules.ladder
        for level in ([lvl for lvl, _ in rules.compiled[cid].tariff.levels] or [None])
    ]
    assert [(row.contract, row.level) for row in card.rows] == expected


@pytest.mark.parametrize("rules", [*WIEZEN, HOUSE], ids=lambda r: r.name)
def test_the_cards_figures_are_what_the_engine_settles_for_every_trick_count(rules: RuleSet) -> None:
    # other seats than the card's own (declarers 1 and 3, or 2), through a whole Sheet: the card is read back
    # for every trick count a line may give, at a table of four and of five
    for row in wiezen_card(rules).rows:
        for tricks in range(row.most_tricks + 1):
            for players in (4, 5):
                sheet = Sheet(rules, players, None)
                points = _play(sheet, _line(rules, row.contract, tricks, row.level))
                declarer = points[2] if not row.pair else points[1]
                opponent = points[0] if players == 4 else points[4]
                assert Pair(declarer, opponent) == row.points(tricks), (row.contract, row.level, tricks, players)
                if row.pair:
                    assert points[3] == declarer
                if players == 5:
                    assert points[0] == 0  # the dealer sits out


def test_a_line_gives_every_trick_count_but_where_play_stops_early() -> None:
    """Solo whist's misère stops at its declarer's first trick (003): its line gives 0 or 1; elsewhere 0 to 13."""
    most = {(rules.name, row.contract): row.most_tricks for rules in WIEZEN for row in wiezen_card(rules).rows}
    assert most["solo_whist", "miserie"] == most["solo_whist", "open_miserie"] == 1
    assert most["iwwa", "miserie"] == most["solo_whist", "abondance_declaree"] == 13
    assert most["belgian", "kleine_miserie"] == 12


def test_a_troel_for_nine_tricks_shows_its_target_and_its_figures() -> None:
    nine = games.apply_overrides(games.find("flemish"), {"troel_target": 9})
    row = next(row for row in wiezen_card(nine).rows if row.contract == "troel")
    assert row.target == 9 and row.made == Pair(4, -4) and row.points(8) == Pair(-6, 6)
    assert wiezen_card(nine).doublings.troel == 2


def test_the_flemish_card_says_what_the_source_says() -> None:
    # 002: 10 tricks -> 4 each; 7 tricks -> 3 each; alone 6 tricks -> +9/-3; alone 4 tricks -> -9/+3; troel x2
    flemish = next(rules for rules in PRESETS if rules.name == "flemish")
    rows = {(row.contract, row.level): row for row in wiezen_card(flemish).rows}
    assert rows["vraag", None].points(10) == Pair(4, -4)
    assert rows["vraag", None].points(7) == Pair(-3, 3)
    assert rows["alleen", None].points(6) == Pair(9, -3)
    assert rows["alleen", None].points(4) == Pair(-9, 3)
    assert rows["troel", None].made == Pair(4, -4) and rows["troel", None].factor == 2
    assert rows["miserie", None].made == Pair(15, -5) and rows["miserie", None].failed == Pair(-15, 5)
    assert rows["abondance", 9].all_tricks == Pair(18, -6)
    assert wiezen_card(flemish).penalty == Pair(-15, 5)


@pytest.mark.parametrize("rules", WIEZEN, ids=lambda r: r.name)
def test_the_doubling_stated_is_the_doubling_the_sheet_applies(rules: RuleSet) -> None:
    d = wiezen_card(rules).doublings
    low = rules.ladder[0]
    level = rules.compiled[low].tariff.levels[0][0] if CONTRACTS[low].levels else None
    target = level if level is not None else CONTRACTS[low].target
    assert target is not None
    played = _line(rules, low, target, level)
    passed = {"contract": "pass"}

    def multiplier(*lines: dict[str, Any]) -> int:
        sheet = Sheet(rules, 4, None)
        for line in lines:
            dealer = sheet.expected_dealer if sheet.expected_dealer is not None else 0
            settled = sheet.add({"deal": sheet.next_deal, "dealer": dealer, **line})
        return settled.multiplier

    assert d.after_pass == multiplier(passed, played)
    assert d.after_two_passes == multiplier(passed, passed, passed, played) or d.doubling is Doubling.PER_PASS
    assert d.after_two_passes == multiplier(passed, passed, played)
    assert d.after_pass_and_penalty == multiplier(passed, {"contract": "penalty", "offender": 2}, played)
    assert d.stacks == (rules.doubling is Doubling.PER_PASS)
    if "troel" in rules.ladder:
        troel = {"contract": "troel", "declarers": [0, 2], "tricks": 9}
        assert d.troel == multiplier(troel) and d.troel_after_pass == multiplier(passed, troel)
    else:
        assert d.troel is None
    for cid in d.all_tricks:
        line = _line(rules, cid, CONTRACTS[cid].max_tricks, 9 if CONTRACTS[cid].levels else None)
        assert multiplier(line) == 2
        assert multiplier(passed, line) == d.all_tricks_after_pass
    for cid in set(rules.ladder) - set(d.all_tricks):
        shape = CONTRACTS[cid]
        if shape.exact or shape.side is Side.EACH_ALONE:
            continue
        line = _line(rules, cid, shape.max_tricks, 9 if shape.levels else None)
        assert multiplier(line) == (2 if cid == "troel" and rules.troel_doubles else 1), cid


def test_the_presets_doubling_in_words() -> None:
    by_name = {rules.name: wiezen_card(rules).doublings for rules in WIEZEN}
    flemish = by_name["flemish"]
    # today two all-pass rounds in a row double the next deal once, not twice
    assert (flemish.after_pass, flemish.after_two_passes, flemish.stacks) == (2, 2, False)
    assert (flemish.troel, flemish.troel_after_pass, flemish.all_tricks_after_pass) == (2, 4, 4)
    assert by_name["iwwa"].after_pass == 1 and by_name["iwwa"].all_tricks == ("vraag", "alleen", "troel")
    assert by_name["belgian"].same_dealer and by_name["belgian"].all_tricks == ()
    per_pass = next(r for r in WIEZEN if r.name == "flemish").with_(name="x", doubling=Doubling.PER_PASS)
    assert wiezen_card(per_pass).doublings.after_two_passes == 4 and wiezen_card(per_pass).doublings.stacks
    capped = next(r for r in WIEZEN if r.name == "flemish").with_(name="y", multiplier_cap=2)
    assert wiezen_card(capped).doublings.troel_after_pass == 2


@pytest.mark.parametrize("rules", ZWICKEN, ids=lambda r: r.name)
def test_the_zwicken_card_is_what_the_engine_settles(rules: RuleSet) -> None:
    options = zwicken_options(rules)
    card = zwicken_card(rules)
    assert card.ante == options.ante and card.bete == options.bete == card.duty_bete
    # a pot of the card's example, seats 0..2 playing: every trick takes the card's share
    carried = card.example_pot - card.ante
    tricks = [0, 0, options.hand, 0]
    tricks[1], tricks[2] = 1, options.hand - 1
    played = settle_zwicken(options, ZwickenPlay(1, 3, "zwicken", (0, 1, 2), tuple(tricks)), 4, carried)
    assert played.points[1] == card.example_share
    assert played.points[2] == card.example_share * (options.hand - 1)
    assert played.points[0] == -card.bete
    assert played.pot == card.example_rest + card.bete
    everything = settle_zwicken(options, ZwickenPlay(1, 3, "zwicken", (0, 2), (0, 0, options.hand, 0)), 4, carried)
    assert everything.points[2] == card.durchmarsch == card.example_pot
    assert card.belli_cut == options.ante


def _competition(preset: str, game: str = "wiezen", **kwargs: Any) -> Competition:
    rule_set = RuleSetFactory(preset=preset, game=game)
    return CompetitionFactory(rule_set=rule_set, deals_per_session=None if game == "zwicken" else 16, **kwargs)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["nl", "fr", "en"])
def test_the_page_names_every_contract_in_the_readers_language(client: Client, language: str) -> None:
    competition = _competition("flemish")
    client.cookies["django_language"] = language
    page = client.get(reverse("tariff", args=[competition.slug]))
    assert page.status_code == 200
    html = page.content.decode()
    with translation.override(language):
        for cid in wiezen_card(competition.rule_set.engine_rules()).rows:
            assert escape(contract_name(cid.contract)) in html
    assert f'<html lang="{language}">' in html
    assert "flemish" not in html.split("<body>")[1]  # no engine ids for the reader
    assert "\u2212" in html  # failed contracts read with a minus sign


@pytest.mark.django_db
def test_a_zwicken_competition_gets_the_zwicken_card(client: Client) -> None:
    competition = _competition("zwicken", game="zwicken")
    html = client.get(reverse("tariff", args=[competition.slug])).content.decode()
    assert 'id="zwicken-notes"' in html and 'id="tariff-table"' not in html
    assert "Durchmarsch" in html


@pytest.mark.django_db
def test_the_card_is_shown_exactly_when_the_competition_page_is(client: Client) -> None:
    club = ClubFactory()
    for visibility in Competition.Visibility.values:
        competition = _competition("iwwa", club=club, visibility=visibility)
        competition_page = client.get(reverse("competition", args=[competition.slug])).status_code
        assert client.get(reverse("tariff", args=[competition.slug])).status_code == competition_page
    hidden = _competition("iwwa", visibility=Competition.Visibility.HIDDEN)
    assert client.get(reverse("tariff", args=[hidden.slug])).status_code == 404
    client.force_login(make_roles(hidden).organiser)
    assert client.get(reverse("tariff", args=[hidden.slug])).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("preset,game", [("flemish", "wiezen"), ("zwicken", "zwicken")])
def test_the_cards_inline_script_and_style_carry_the_policys_nonce(client: Client, preset: str, game: str) -> None:
    from tests.test_security import csp, nonces_of

    response = client.get(reverse("tariff", args=[_competition(preset, game=game).slug]))
    html = response.content.decode()
    inline = nonces_of(html)
    assert {tag for tag, _ in inline} == {"script", "style"}
    policy = csp(response)
    for tag, nonce in inline:
        assert nonce and f"'nonce-{nonce}'" in policy[f"{tag}-src"], tag
    assert not re.search(r"\son[a-z]+=", html) and not re.search(r'\sstyle="', html)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"), [("nl", "tot 10 slagen"), ("fr", "jusqu'à 10 plis"), ("en", "up to 10 tricks")]
)
def test_capped_overtricks_are_said_on_the_card_in_the_readers_language(
    client: Client, language: str, words: str
) -> None:
    competition = _competition("belgian")
    competition.rule_set.overrides = {"tariffs": {"vraag": {"over_until": 10}}}
    competition.rule_set.save()
    client.cookies["django_language"] = language
    html = client.get(reverse("tariff", args=[competition.slug])).content.decode()
    over = html.split('data-contract="vraag"')[1].split('class="over">')[1].split("</td>")[0]
    assert words in unescape(over)


@pytest.mark.django_db
def test_the_card_says_how_pooled_miserie_and_seat_by_seat_tariffs_settle(client: Client) -> None:
    plain = client.get(reverse("tariff", args=[_competition("belgian").slug])).content.decode()
    assert "add up to zero." in plain and "each one is settled alone" in plain
    competition = _competition("belgian")
    competition.rule_set.overrides = {
        "miserie_settlement": "pooled",
        "tariffs": {"open_miserie": {"declarer_made": 36, "others_made": 0, "declarer_failed": 36, "others_failed": 0}},
    }
    competition.rule_set.save()
    client.cookies["django_language"] = "nl"
    html = unescape(client.get(reverse("tariff", args=[competition.slug])).content.decode())
    assert "wie het haalt, ontvangt van wie het niet haalt" in html
    assert "hoeven de punten van een spel niet op nul uit te komen" in html
