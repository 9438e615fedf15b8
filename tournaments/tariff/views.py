"""The tariff card page: shown exactly when the competition page is (``tournaments.views.public._access``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.contracts import CONTRACTS, Side
from games.rulesets import Game, RuleSet
from tournaments.contract_names import contract_name
from tournaments.tariff.card import Pair, Row, wiezen_card, zwicken_card
from tournaments.views.public import _access


def signed(n: int) -> str:
    """A figure as players write it on a sheet: +6, −2 (a true minus sign), 0."""
    return f"+{n}" if n > 0 else (f"\u2212{-n}" if n < 0 else "0")


def _pair(points: Pair | None) -> dict[str, str] | None:
    if points is None or points.zero:
        return None
    return {"declarer": signed(points.declarer), "opponent": signed(points.opponent)}


def _shown(row: Row) -> dict[str, object]:
    name = contract_name(row.contract)
    return {
        "row": row,
        "name": f"{name} {row.level}" if row.level is not None else name,
        "made": _pair(row.made),
        "over": _pair(row.over),
        "failed": _pair(row.failed),
        "under": _pair(row.under),
        "all_tricks": _pair(row.all_tricks),
    }


def card_context(rules: RuleSet) -> dict[str, object]:
    """What ``tariff/_card.html`` shows of ``rules``: the card page's and the rule set editor's preview."""
    context: dict[str, object] = {"rules": rules}
    if rules.game is Game.ZWICKEN:
        context["zwicken"] = zwicken_card(rules)
    else:
        card = wiezen_card(rules)
        context["card"] = card
        context["rows"] = [_shown(row) for row in card.rows]
        context["all_tricks_names"] = [contract_name(cid) for cid in card.doublings.all_tricks]
        context["penalty"] = _pair(card.penalty)
        context["troel_name"] = contract_name("troel")
        alone = [cid for cid in rules.ladder if CONTRACTS[cid].side is Side.EACH_ALONE]
        context["miserie_names"] = [contract_name(cid) for cid in alone]
    return context


@require_GET
def tariff(request: HttpRequest, slug: str) -> HttpResponse:
    seen = _access(request, slug)  # the competition page's own rule: hidden is a 404
    competition = seen.competition
    context = {"competition": competition, **card_context(competition.rule_set.engine_rules())}
    return render(request, "tariff/card.html", context)
