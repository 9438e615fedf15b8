"""``{{ rule_set.preset|preset_name }}``: a stored preset as readers say it (tournaments.preset_names)."""

from __future__ import annotations

from django import template

from tournaments.preset_names import preset_name as _preset_name

register = template.Library()


@register.filter
def preset_name(preset: str) -> str:
    return _preset_name(preset)
