"""Find rule sets by name: ``find("flemish")``, ``find("iwwa+kleurenwiezen")``.

Presets are registered at import; clubs' own rule sets can be added with
``register``. A name may carry variants after ``+``; they are applied in order.
"""

from __future__ import annotations

from games.errors import UnknownRuleSet
from games.presets import PRESETS, VARIANTS, apply_variant
from games.rulesets import RuleSet

_REGISTRY: dict[str, RuleSet] = {rules.name: rules for rules in PRESETS}


def register(rules: RuleSet) -> RuleSet:
    """Add a rule set under its name, refusing to replace a preset silently."""
    if rules.name in _REGISTRY and _REGISTRY[rules.name] != rules:
        raise UnknownRuleSet(f"a different rule set named {rules.name!r} is already registered")
    _REGISTRY[rules.name] = rules
    return rules


def find(name: str) -> RuleSet:
    if not isinstance(name, str) or not name:
        raise UnknownRuleSet(f"rule set name must be a non-empty string, got {name!r}")
    if name in _REGISTRY:
        return _REGISTRY[name]
    base, *variants = name.split("+")
    if base not in _REGISTRY:
        raise UnknownRuleSet(f"unknown rule set {base!r} (known: {', '.join(names())})")
    rules = _REGISTRY[base]
    for variant in variants:
        if variant not in VARIANTS:
            raise UnknownRuleSet(f"unknown variant {variant!r} in {name!r} (known: {', '.join(VARIANTS)})")
        rules = apply_variant(rules, variant)
    return rules


def names() -> list[str]:
    return list(_REGISTRY)


def listing() -> list[RuleSet]:
    return list(_REGISTRY.values())
