"""What a rule set stores: its preset and only what differs from it; and the JSON clubs share.

The shared file is the engine's own JSON, ``{"preset": ..., <overrides>}`` with the rule set's name, so it also
runs in the engine's command line (``python -m games examples --rules file.json``) and goes into the API as
``preset`` and ``overrides``.
"""

from __future__ import annotations

import json
from typing import Any

import games
from config.untrusted import read_json, storable_json
from games.errors import GameError
from games.registry import find
from games.rulesets import RuleSet

NOT_RULES = ("name", "description")  # the engine's fields that are labels, not rules
MAX_IMPORT = 200_000  # bytes: a rule set is a few kilobytes


def overrides_for(rules: RuleSet, preset: str) -> dict[str, Any]:
    """The overrides that make ``preset`` into ``rules``: each field that differs, tariffs per contract."""
    base = find(preset).to_json()
    wanted = rules.to_json()
    out: dict[str, Any] = {}
    for key, value in wanted.items():
        if key in NOT_RULES or base.get(key) == value:
            continue
        if key == "tariffs":
            changed = {cid: tariff for cid, tariff in value.items() if base["tariffs"].get(cid) != tariff}
            out[key] = {cid: _whole(tariff, base["tariffs"].get(cid, {})) for cid, tariff in changed.items()}
        else:
            out[key] = value
    return out


def _whole(tariff: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
    """A tariff with every key, so that merging it onto the preset's (``apply_overrides``) leaves none of the old:
    the seat-by-seat amounts as null when unset, and each level of the preset's that is gone as null."""
    out = dict(tariff)
    for key in ("declarer_made", "others_made", "declarer_failed", "others_failed"):
        out.setdefault(key, None)
    levels = dict(out.get("levels", {}))
    for level in base.get("levels", {}):
        levels.setdefault(level, None)
    if levels:
        out["levels"] = levels
    return out


def export_json(name: str, preset: str, overrides: dict[str, Any]) -> str:
    """The shared file of a rule set."""
    return json.dumps({"preset": preset, **overrides, "name": name}, indent=2, ensure_ascii=False) + "\n"


class ImportRefused(ValueError):
    """A file the editor cannot read as a rule set; the message says why, in words."""


def read_import(text: str) -> tuple[str | None, str, dict[str, Any], games.RuleSet]:
    """The name, preset and overrides of a shared file, and the rule set they make; ``ImportRefused`` if not one.

    Raises ``ImportRefused`` with a code the page words: ``not_json``, ``unstorable`` (text the database cannot
    hold), ``not_object``, ``no_preset``, or ``rules`` (the engine's message follows a colon).
    """
    try:
        data = read_json(text)
    except ValueError:  # TooDeep too: nested deeper than a rule set's JSON goes
        raise ImportRefused("not_json") from None
    if not storable_json(data):
        raise ImportRefused("unstorable")
    if not isinstance(data, dict):
        raise ImportRefused("not_object")
    preset = data.get("preset")
    if not isinstance(preset, str):
        raise ImportRefused("no_preset")
    name = data.get("name") if isinstance(data.get("name"), str) else None
    overrides = {k: v for k, v in data.items() if k not in ("preset", *NOT_RULES)}
    try:
        rules = RuleSet.from_json({"preset": preset, **overrides})
    except GameError as exc:
        raise ImportRefused(f"rules:{exc}") from None
    return name, preset, overrides, rules
