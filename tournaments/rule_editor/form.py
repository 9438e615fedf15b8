"""A rule set as a form in the players' words, and back: ``RulesForm(rules).rules()`` is the engine's rule set.

One group of fields per contract the game knows (``<contract>-<option>``: played or not, its place in the bidding,
what it pays made and failed, the house options of issue 17), the options of the whole rule set, and for Zwicken
its own options. The form checks each figure's range in words; what only holds between figures (a cap above the
contract's tricks, the four seat-by-seat amounts given together) the engine judges, and ``problems`` puts its
answer beside the field it names.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

import games
from config.punctuation import colon
from games.contracts import CONTRACTS, LADDER_ORDER, Contract, Side
from games.rulesets import (
    AfterPass,
    Doubling,
    Game,
    MiserieSettlement,
    RuleSet,
    Tariff,
    UnacceptedVraag,
    ZwickenOptions,
)
from tournaments import limits
from tournaments.contract_names import contract_name
from tournaments.forms.edited import CarriesWhatItShowed

AMOUNT = {"min_value": limits.RULE_NUMBER.low, "max_value": limits.RULE_NUMBER.high}
SPLIT_KEYS = ("declarer_made", "others_made", "declarer_failed", "others_failed")

GENERAL_LABELS: dict[str, Promise] = {
    "doubling": _("After an all-pass round"),
    "after_pass": _("Who deals after an all-pass round"),
    "passes_count": _("An all-pass round counts as one of the session's deals"),
    "multiplier_cap": _("A deal never counts more than × (empty: no limit)"),
    "troel_doubles": _("Troel counts double"),
    "troel_target": _("Tricks troel's pair needs"),
    "four_aces_troel": _("Four aces in one hand is also troel"),
    "multiple_miserie": _("Several players may play miserie on the same deal"),
    "miserie_settlement": _("Several miserie players are settled"),
    "unaccepted_vraag": _("Nobody goes with a vraag"),
    "early_end": _("Play stops as soon as the result is decided"),
    "penalty": _("Penalty for a fault: each other player gets"),
}
CHOICES: dict[str, list[tuple[str, Promise]]] = {
    "doubling": [
        (Doubling.NONE.value, _("the next deal does not count double")),
        (Doubling.NEXT_DEAL.value, _("the next deal counts double (two in a row: still double)")),
        (Doubling.PER_PASS.value, _("the next deal counts double, again for each all-pass round in a row")),
    ],
    "after_pass": [
        (AfterPass.NEXT_DEALER.value, _("the next dealer")),
        (AfterPass.SAME_DEALER.value, _("the same dealer deals again")),
    ],
    "miserie_settlement": [
        (MiserieSettlement.INDEPENDENT.value, _("each alone against the three others; the results add up")),
        (MiserieSettlement.POOLED.value, _("together: those who made it collect from those who failed")),
    ],
    "unaccepted_vraag": [
        (UnacceptedVraag.ALONE.value, _("the asker may play alone or pass")),
        (UnacceptedVraag.VOID.value, _("the deal is passed")),
    ],
}
CONTRACT_LABELS: dict[str, Promise] = {
    "on": _("Played under these rules"),
    "position": _("Place in the bidding (1: the lowest)"),
    "base": _("Made"),
    "over": _("Each trick more"),
    "over_until": _("Count tricks more up to (empty: all)"),
    "fail_base": _("Failed (empty: as made)"),
    "fail_per": _("Each further trick off"),
    "fail_per_from_first": _("Count every trick off, the first one too"),
    "fail_factor": _("A failure costs × the amount"),
    "all_tricks": _("All tricks: a fixed amount (empty: none)"),
    "all_tricks_double": _("All tricks counts double"),
    "declarer_made": _("Made: the declarer gets"),
    "others_made": _("Made: each other player pays"),
    "declarer_failed": _("Failed: the declarer pays"),
    "others_failed": _("Failed: each other player gets"),
}
ZWICKEN_LABELS: dict[str, Promise] = {
    "deck": _("Cards in the deck (32, or 36 with the sixes)"),
    "hand": _("Cards in a hand (3, or 4)"),
    "ante": _("The dealer's stake into the pot"),
    "bete": _("The bete of a player who takes no trick"),
    "min_players": _("Fewest players"),
    "max_players": _("Most players"),
    "may_pass": _("A player may pass"),
    "exchange": _("Cards a player may exchange"),
    "sechser_belli": _("The 6♦ is the third trump (Styrian)"),
    "hop_and_jump": _("The cut card may void the deal or make the dealer pay"),
}


def offered_contracts(rules: RuleSet) -> list[str]:
    """The contracts the form shows: those played under ``rules`` in their order, then the others."""
    if rules.game is Game.ZWICKEN:
        return []
    return [*rules.ladder, *(cid for cid in LADDER_ORDER if cid not in rules.ladder)]


def has_overtricks(contract: Contract) -> bool:
    return not contract.exact and (contract.target is None or contract.target < contract.max_tricks)


def may_double_all_tricks(contract: Contract) -> bool:
    return contract.side is not Side.EACH_ALONE and has_overtricks(contract)


def _amount(label: Promise | str, *, required: bool = True) -> forms.IntegerField:
    return forms.IntegerField(label=label, required=required, **AMOUNT)


# A contract's figures are needed only when it is played (``RulesForm.clean``); the others may stay empty.
NEEDED_WHEN_PLAYED = ("base", "over", "fail_per", "fail_factor")


class RulesForm(CarriesWhatItShowed):
    """``rules``' figures as fields; ``rules()`` gives the rule set the submitted figures make."""

    name = forms.CharField(label=_("Name of the rule set"), max_length=80)

    def __init__(self, start: RuleSet, *args: Any, **kwargs: Any) -> None:
        self.start = start
        kwargs.setdefault("initial", {})
        kwargs["initial"] = {**initial_values(start), **kwargs["initial"]}
        super().__init__(*args, **kwargs)
        self.contracts = offered_contracts(start)
        if start.game is Game.ZWICKEN:
            self._zwicken_fields()
        else:
            self._general_fields()
            for cid in self.contracts:
                self._contract_fields(cid)

    # -- the fields ------------------------------------------------------------------------------------------------

    def _general_fields(self) -> None:
        f = self.fields
        for key, choices in CHOICES.items():
            f[key] = forms.ChoiceField(label=GENERAL_LABELS[key], choices=choices)
        for key in ("passes_count", "troel_doubles", "four_aces_troel", "multiple_miserie", "early_end"):
            f[key] = forms.BooleanField(label=GENERAL_LABELS[key], required=False)
        f["multiplier_cap"] = forms.IntegerField(
            label=GENERAL_LABELS["multiplier_cap"], required=False, min_value=1, max_value=limits.RULE_NUMBER.high
        )
        f["troel_target"] = forms.IntegerField(label=GENERAL_LABELS["troel_target"], min_value=8, max_value=12)
        f["penalty"] = _amount(GENERAL_LABELS["penalty"])

    def _contract_fields(self, cid: str) -> None:
        contract = CONTRACTS[cid]
        f = self.fields
        labels = CONTRACT_LABELS
        f[f"{cid}-on"] = forms.BooleanField(label=labels["on"], required=False)
        f[f"{cid}-position"] = forms.IntegerField(
            label=labels["position"], min_value=1, max_value=len(LADDER_ORDER), required=False
        )
        # the four figures every sheet has first (made, each trick more, failed, each further trick off), in the
        # order a person reads a tariff; a contract bid per level (abondance) starts with its levels
        levels = {
            f"{cid}-level_{lvl}": _amount(level_label(contract, lvl), required=False) for lvl in contract.bid_levels
        }
        if contract.levels:
            f.update(levels)
        else:
            f[f"{cid}-base"] = _amount(labels["base"], required=False)
        if has_overtricks(contract):
            f[f"{cid}-over"] = _amount(labels["over"], required=False)
        if not contract.levels:
            f[f"{cid}-fail_base"] = _amount(labels["fail_base"], required=False)
        f[f"{cid}-fail_per"] = _amount(labels["fail_per"], required=False)
        if has_overtricks(contract):
            f[f"{cid}-over_until"] = forms.IntegerField(
                label=labels["over_until"], required=False, min_value=1, max_value=contract.max_tricks - 1
            )
        f[f"{cid}-fail_per_from_first"] = forms.BooleanField(label=labels["fail_per_from_first"], required=False)
        f[f"{cid}-fail_factor"] = forms.IntegerField(
            label=labels["fail_factor"], min_value=1, max_value=10, required=False
        )
        if has_overtricks(contract):
            f[f"{cid}-all_tricks"] = _amount(labels["all_tricks"], required=False)
        if may_double_all_tricks(contract):
            f[f"{cid}-all_tricks_double"] = forms.BooleanField(label=labels["all_tricks_double"], required=False)
        if not contract.levels:
            f.update(levels)  # the higher bids of vraag and alleen, where the rule set allows them
        for key in SPLIT_KEYS:
            f[f"{cid}-{key}"] = _amount(labels[key], required=False)

    def _zwicken_fields(self) -> None:
        for key, label in ZWICKEN_LABELS.items():
            if key in ("may_pass", "sechser_belli", "hop_and_jump"):
                self.fields[f"zw-{key}"] = forms.BooleanField(label=label, required=False)
            else:
                self.fields[f"zw-{key}"] = forms.IntegerField(label=label, min_value=0, max_value=36)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for cid in self.contracts:
            if not data.get(f"{cid}-on"):
                continue
            contract = CONTRACTS[cid]
            needed = [f"{cid}-{key}" for key in NEEDED_WHEN_PLAYED]
            bids = [f"{cid}-level_{level}" for level in contract.levels]
            if bids and all(data.get(name) is None for name in bids) and bids[0] not in self.errors:
                self.add_error(
                    bids[0],
                    _("%(contract)s is played: give an amount for at least one bid.")
                    % {"contract": contract_name(cid)},
                )
            for name in needed:
                if name in self.fields and data.get(name) is None and name not in self.errors:
                    self.add_error(
                        name, _("%(contract)s is played: give this figure.") % {"contract": contract_name(cid)}
                    )
        return data

    # -- groups, for the template ------------------------------------------------------------------------------------

    def contract_groups(self) -> list[dict[str, Any]]:
        """Per contract: its name and its bound fields (played, place, the amounts, the seat-by-seat amounts)."""
        groups = []
        for cid in self.contracts:
            own = [name for name in self.fields if name.startswith(f"{cid}-")]
            split = [self[n] for n in own if n.split("-", 1)[1] in SPLIT_KEYS]
            head = [self[n] for n in own if n.split("-", 1)[1] in ("on", "position")]
            amounts = [self[n] for n in own if self[n] not in split and self[n] not in head]
            groups.append(
                {
                    "id": cid,
                    "name": contract_name(cid),
                    "head": head,
                    "amounts": amounts,
                    "split": split,
                    "on": bool(self._value(f"{cid}-on")),
                    "has_split_values": any(self._value(b.name) not in (None, "") for b in split),
                }
            )
        return groups

    def labelled_errors(self) -> list[tuple[str, str]]:
        """Each error with the field's label, the contract's name before it: for the preview's list."""
        out: list[tuple[str, str]] = [("", str(e)) for e in self.non_field_errors()]
        for name, errors in self.errors.items():
            if name == "__all__":
                continue
            label = str(self.fields[name].label)
            if "-" in name and not name.startswith("zw-"):
                label = f"{contract_name(name.split('-', 1)[0])}{colon()} {label}"
            out.extend((label, str(e)) for e in errors)
        return out

    def general_fields(self) -> list[forms.BoundField]:
        return [self[n] for n in self.fields if n != "name" and "-" not in n and not self[n].is_hidden]

    def zwicken_fields(self) -> list[forms.BoundField]:
        return [self[n] for n in self.fields if n.startswith("zw-")]

    def field_of(self, setting: str) -> str | None:
        """The field beside which a setting (``services.settings_of``) is said; None: above the form."""
        head, _dot, part = setting.partition(".")
        candidates = {"tariffs": [f"{part}-base", f"{part}-on"], "zwicken": [f"zw-{part}"]}.get(head, [setting])
        return next((name for name in candidates if name in self.fields), None)

    def _value(self, name: str) -> Any:
        bound = self[name]
        return bound.value() if self.is_bound else self.initial.get(name)

    # -- back to the engine ------------------------------------------------------------------------------------------

    def rules(self) -> RuleSet:
        """The rule set the valid form describes: ``start`` with every field of the form put in."""
        data = self.cleaned_data
        if self.start.game is Game.ZWICKEN:
            assert self.start.zwicken is not None
            options = {key: data[f"zw-{key}"] for key in ZWICKEN_LABELS}
            return self.start.with_(zwicken=replace(self.start.zwicken, **options))
        order = {cid: i for i, cid in enumerate(self.contracts)}
        played = [cid for cid in self.contracts if data.get(f"{cid}-on")]
        ladder = sorted(played, key=lambda cid: (data.get(f"{cid}-position") or len(order) + 1, order[cid]))
        tariffs = dict(self.start.tariffs)
        for cid in self.contracts:
            if cid in played or cid in tariffs:
                tariffs[cid] = self._tariff(cid, tariffs.get(cid, Tariff()))
        ticked = [cid for cid in ladder if data.get(f"{cid}-all_tricks_double")]
        # a contract not played keeps its doubling for when it is played again; the start's order first
        kept = [cid for cid in self.start.all_tricks_double if cid in ticked or cid not in ladder]
        doubled = tuple(kept + [cid for cid in ticked if cid not in kept])
        general: dict[str, Any] = {key: data[key] for key in GENERAL_LABELS}
        for key, enum in (
            ("doubling", Doubling),
            ("after_pass", AfterPass),
            ("miserie_settlement", MiserieSettlement),
            ("unaccepted_vraag", UnacceptedVraag),
        ):
            general[key] = enum(general[key])
        return self.start.with_(ladder=tuple(ladder), tariffs=tariffs, all_tricks_double=doubled, **general)

    def _tariff(self, cid: str, start: Tariff) -> Tariff:
        data = self.cleaned_data
        contract = CONTRACTS[cid]

        def given(key: str) -> Any:
            """The figure typed for ``key``; for an option the form does not offer this contract, the start's."""
            name = f"{cid}-{key}"
            if name in self.fields:
                return data.get(name)
            return getattr(start, key) if hasattr(start, key) else None

        levels = tuple(
            (level, amount) for level in contract.bid_levels if (amount := given(f"level_{level}")) is not None
        )
        return replace(
            start,
            base=given("base") or 0,
            over=given("over") or 0,
            over_until=given("over_until"),
            fail_base=given("fail_base"),
            fail_per=given("fail_per") or 0,
            fail_per_from_first=bool(given("fail_per_from_first")),
            fail_factor=given("fail_factor") or 1,
            all_tricks=given("all_tricks"),
            levels=levels,
            **{key: given(key) for key in SPLIT_KEYS},
        )


def level_label(contract: Contract, level: int) -> str:
    if contract.levels:
        return _("Bid for %(n)s tricks: made or failed") % {"n": level}
    return _("Bid for %(n)s tricks (empty: not bid)") % {"n": level}


def initial_values(rules: RuleSet) -> dict[str, Any]:
    """The form's fields filled from ``rules``."""
    if rules.game is Game.ZWICKEN:
        options = rules.zwicken or ZwickenOptions()
        return {f"zw-{key}": getattr(options, key) for key in ZWICKEN_LABELS}
    values: dict[str, Any] = {
        key: (value.value if hasattr(value, "value") else value)
        for key in GENERAL_LABELS
        for value in [getattr(rules, key)]
    }
    for position, cid in enumerate(offered_contracts(rules), start=1):
        values[f"{cid}-on"] = cid in rules.ladder
        values[f"{cid}-position"] = position
        tariff = rules.tariffs.get(cid)
        if tariff is None:  # a contract the rule set has no figures for: the organiser types them
            values[f"{cid}-fail_factor"] = 1
            continue
        for key in ("base", "over", "over_until", "fail_base", "fail_per", "fail_per_from_first", "fail_factor"):
            values[f"{cid}-{key}"] = getattr(tariff, key)
        values[f"{cid}-all_tricks"] = tariff.all_tricks
        values[f"{cid}-all_tricks_double"] = cid in rules.all_tricks_double
        for level, amount in tariff.levels:
            values[f"{cid}-level_{level}"] = amount
        for key in SPLIT_KEYS:
            values[f"{cid}-{key}"] = getattr(tariff, key)
    return values


def describe_default(rules: games.RuleSet) -> str:
    """A short line for the list of rule sets: the game and the contracts played, in order."""
    if rules.game is Game.ZWICKEN:
        return str(_("Zwicken"))
    return ", ".join(contract_name(cid) for cid in rules.ladder)
