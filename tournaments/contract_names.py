"""Contract names as players say them: the Flemish terms by default, the French ones on French pages.

The engine's contract ids are the Dutch terms; these are their display names, translated per language
(English pages keep the Flemish terms, as English-speaking players in Belgian clubs do).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from games.contracts import CONTRACTS, Contract, Side, TrumpRule
from games.rulesets import RuleSet

NAMES: dict[str, Promise] = {
    "vraag": pgettext_lazy("wiezen contract", "Vraag en meegaan"),
    "alleen": pgettext_lazy("wiezen contract", "Alleen"),
    "piccolo": pgettext_lazy("wiezen contract", "Piccolo"),
    "abondance": pgettext_lazy("wiezen contract", "Abondance"),
    "abondance_troef": pgettext_lazy("wiezen contract", "Abondance in troef"),
    "miserie": pgettext_lazy("wiezen contract", "Miserie"),
    "kleine_miserie": pgettext_lazy("wiezen contract", "Kleine miserie"),
    "troel": pgettext_lazy("wiezen contract", "Troel"),
    "open_miserie": pgettext_lazy("wiezen contract", "Open miserie"),
    "solo": pgettext_lazy("wiezen contract", "Solo"),
    "solo_slim": pgettext_lazy("wiezen contract", "Solo slim"),
    "abondance_declaree": pgettext_lazy("wiezen contract", "Abondance déclarée"),
    "pass": pgettext_lazy("wiezen contract", "Pas (iedereen past)"),
    "penalty": pgettext_lazy("wiezen contract", "Strafpunten (fout)"),
    # Zwicken's lines, as the statistics count them: a dealt deal, or a cut that ended it before the deal
    "zwicken": pgettext_lazy("wiezen contract", "Zwicken"),
    "void": pgettext_lazy("wiezen contract", "Void cut"),
    "belli": pgettext_lazy("wiezen contract", "Belli cut"),
}


def contract_name(contract_id: str) -> str:
    """The display name of a contract id; an id this module does not know is shown as it is."""
    name = NAMES.get(contract_id)
    return str(name) if name is not None else contract_id.replace("_", " ")


# The entry form's fields that only some contracts use (deal, dealer and contract every line has).
OPTIONAL_FIELDS = ("seats", "tricks", "level", "trump", "offender")


def _tariff_levels(rules: RuleSet) -> Iterator[tuple[str, Contract, tuple[int, ...]]]:
    """Each contract of the rule set's ladder whose tariff pays by level, with those levels."""
    for cid in rules.ladder:
        contract, tariff = CONTRACTS.get(cid), rules.tariffs.get(cid)
        if contract is not None and tariff is not None and tariff.levels:
            yield cid, contract, tuple(level for level, _ in tariff.levels)


def raised_levels(rules: RuleSet) -> dict[str, tuple[int, ...]]:
    """The higher bids of vraag and alleen a rule set plays (its tariff's levels), by contract (issue 17)."""
    return {cid: levels for cid, contract, levels in _tariff_levels(rules) if contract.higher and not contract.levels}


def bid_levels(rules: RuleSet) -> tuple[int, ...]:
    """The levels a rule set plays its contracts bid by level at (abondance 9 to 12; Solo whist's 9 only), and the
    higher bids of vraag and alleen (``raised_levels``): the entry form offers these and no other."""
    played = {
        level for _, contract, levels in _tariff_levels(rules) if contract.levels or contract.higher for level in levels
    }
    return tuple(sorted(played))


def needed_fields(contract_id: str, raised: Collection[str] = ()) -> list[str]:
    """The entry form's fields a contract uses: the page shows and sends only those, and the form reads only those.
    ``raised``: the contracts the rule set also bids higher (``raised_levels``), which then take a level.
    A contract the engine does not know keeps them all (the engine then names what is wrong)."""
    contract: Contract | None = CONTRACTS.get(contract_id)
    if contract is None:
        return list(OPTIONAL_FIELDS)
    if contract.side is Side.PENALTY:
        return ["offender"]
    if contract.side is Side.NONE:
        return []
    fields = ["seats", "tricks"]
    if contract.levels or contract_id in raised:
        fields.append("level")
    if contract.trump is TrumpRule.CHOSEN:
        fields.append("trump")
    return fields
