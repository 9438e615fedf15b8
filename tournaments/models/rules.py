from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

import games
from games.errors import GameError
from tournaments import limits
from tournaments.duplicate.rules import edited_rules_problem
from tournaments.integrity import refuse_mismatch
from tournaments.preset_names import preset_name


class RuleSet(models.Model):
    """A club's rule set: an engine preset plus JSON overrides, checked by ``games``."""

    class GameChoice(models.TextChoices):
        WIEZEN = "wiezen", _("Wiezen")
        SOLO_WHIST = "solo_whist", _("Solo whist")
        ZWICKEN = "zwicken", _("Zwicken")

    # Not stored: the competition whose game changes with this rule set's in the same save (``save_competition``),
    # so that its game as stored until then is no mismatch
    game_changes_with: int | None = None

    name = models.CharField(_("name"), max_length=80)
    club = models.ForeignKey(
        "tournaments.Club", null=True, blank=True, on_delete=models.CASCADE, related_name="rule_sets"
    )
    game = models.CharField(_("game"), max_length=16, choices=GameChoice.choices)
    preset = models.CharField(
        _("preset"), max_length=80, help_text=_("An engine rule set, e.g. iwwa or flemish+kleurenwiezen")
    )
    overrides = models.JSONField(_("overrides"), default=dict, blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="rule_set_name_per_club"),
            models.UniqueConstraint(
                fields=["name"],
                condition=models.Q(club__isnull=True),
                name="rule_set_name_global",
                violation_error_code="unique",  # said on the name field, as the per-club one is
                violation_error_message=_("A rule set shared by all clubs already has this name."),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def engine_rules(self) -> games.RuleSet:
        """The engine's rule set; raises ``games.GameError`` if preset or overrides are invalid."""
        spec: dict[str, Any] = {"preset": self.preset, **(self.overrides or {})}
        return games.RuleSet.from_json(spec)

    def clean(self) -> None:
        refuse_mismatch(self)  # rules in play stay as they were played; a club's competitions keep their rules
        if not isinstance(self.overrides, dict):
            raise ValidationError({"overrides": _("Overrides must be a JSON object.")})
        if "preset" in self.overrides:
            raise ValidationError({"overrides": _("Give the preset in its own field, not in the overrides.")})
        try:
            rules = self.engine_rules()
        except GameError as exc:
            field = "preset" if isinstance(exc, games.UnknownRuleSet) else "overrides"
            raise ValidationError({field: str(exc)}) from exc
        outside = limits.numbers_outside(self.overrides, limits.RULE_NUMBER)
        if outside:  # a tariff of 10^20 settles into points no column, and no standings, can hold
            raise ValidationError({"overrides": format_lazy("{}: {}", outside[0], limits.RULE_NUMBER.message)})
        unfit = edited_rules_problem(self, rules)
        if unfit:  # a duplicate competition plays under these rules: its boards need rules that fit them
            raise ValidationError({"overrides": unfit})
        if rules.game.value != self.game:
            game_names = dict(self.GameChoice.choices)
            raise ValidationError(
                {
                    "preset": _("%(preset)s is a rule set for %(actual)s, not for %(game)s.")
                    % {
                        "preset": preset_name(self.preset),
                        "actual": game_names.get(rules.game.value, rules.game.value),
                        "game": game_names.get(self.game, self.game),
                    }
                }
            )
