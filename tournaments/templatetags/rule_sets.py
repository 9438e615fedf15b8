"""``{{ rule_set.preset|preset_name }}``: a stored preset as readers say it (tournaments.preset_names);
``{{ rule_set|rule_set_name }}``: a rule set's own name with the preset it starts from."""

from __future__ import annotations

from django import template

from tournaments.models import RuleSet
from tournaments.preset_names import preset_name as _preset_name

register = template.Library()


@register.filter
def preset_name(preset: str) -> str:
    return _preset_name(preset)


@register.filter
def rule_set_name(rule_set: RuleSet) -> str:
    """ "Spring rules (IWWA)"; a name that already says its preset ("IWWA (duplicate demo)") is not followed by it
    a second time."""
    preset = _preset_name(rule_set.preset)
    return rule_set.name if preset.casefold() in rule_set.name.casefold() else f"{rule_set.name} ({preset})"
