"""The engine's rule sets and variants as people read them, in their language.

The engine (``games.presets``) names its rule sets by ids ("iwwa", "zwicken_styrian") and describes them in
English for developers; a page shows these names and descriptions instead. A rule set's preset is stored as
the base id and its variants joined by "+" ("iwwa+kleurenwiezen").
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

PRESET_NAMES: dict[str, tuple[Promise, Promise]] = {
    "iwwa": (
        pgettext_lazy("rule set", "IWWA"),
        _("The uniform rules of the International World Whist Association: the tournament default."),
    ),
    "flemish": (
        pgettext_lazy("rule set", "Flemish house rules"),
        _("House rules of Hemiksem and the Rupel region: abondance in trump, the deal after a pass counts double."),
    ),
    "belgian": (
        pgettext_lazy("rule set", "Belgian standard tariff"),
        _("With piccolo and kleine miserie, settled per pair."),
    ),
    "solo_whist": (
        pgettext_lazy("rule set", "Solo whist"),
        _("Fixed tariff, one misère a deal, lost at its first trick, abondance declarée without trump."),
    ),
    "zwicken": (
        pgettext_lazy("rule set", "Zwicken"),
        _("32 cards, 2 to 5 players, the 7 of diamonds as Belli."),
    ),
    "dreierzwicken": (
        pgettext_lazy("rule set", "Dreierzwicken"),
        _("Three players, nobody may pass."),
    ),
    "zwicken_styrian": (
        pgettext_lazy("rule set", "Styrian Zwicken"),
        _("36 cards, the 6 of diamonds as third trump."),
    ),
    "zwicken_4cards": (
        pgettext_lazy("rule set", "Four-card Zwicken"),
        _("Four cards, four tricks, as in Carinthia."),
    ),
}

VARIANT_NAMES: dict[str, Promise] = {
    "kleurenwiezen": _("Kleurenwiezen"),
    "1v3": _("One against three only"),
    "counter_clockwise": _("Counter-clockwise"),
}


def preset_name(preset: str) -> str:
    """A stored preset ("iwwa+kleurenwiezen") as a reader says it: "IWWA, Kleurenwiezen". An id this module does
    not know (a preset added to the engine without a name here) is shown as it is; a test keeps them all named."""
    base, *variants = preset.split("+")
    known = PRESET_NAMES.get(base)
    parts = [str(known[0]) if known else base]
    parts += [str(VARIANT_NAMES.get(variant, variant)) for variant in variants]
    return ", ".join(parts)


def rule_set_name(name: str, preset: str) -> str:
    """A rule set's own name with the preset it starts from: "Spring rules (IWWA)". A name that already says its
    preset ("IWWA (duplicate demo)") is not followed by it a second time."""
    said = preset_name(preset)
    return name if said.casefold() in name.casefold() else f"{name} ({said})"


def preset_choice(preset: str) -> str:
    """A rule set to choose in a form: its name and what sets it apart."""
    known = PRESET_NAMES.get(preset)
    return f"{known[0]} — {known[1]}" if known else preset
