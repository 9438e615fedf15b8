"""``{{ rule_set.preset|preset_name }}``: a stored preset as readers say it (tournaments.preset_names);
``{{ rule_set|rule_set_name }}``: a rule set's own name with the preset it starts from
(both in tournaments.preset_names)."""

from __future__ import annotations

from django import template

from tournaments.models import RuleSet
from tournaments.preset_names import preset_name as _preset_name
from tournaments.preset_names import rule_set_name as _rule_set_name

register = template.Library()


@register.filter
def preset_name(preset: str) -> str:
    return _preset_name(preset)


@register.filter
def rule_set_name(rule_set: RuleSet) -> str:
    return _rule_set_name(rule_set.name, rule_set.preset)
