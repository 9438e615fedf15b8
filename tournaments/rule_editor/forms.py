"""The two small forms of the editor's list page: a new rule set from a preset, and one read from a shared file."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

import games
from tournaments.models import Club, RuleSet
from tournaments.preset_names import preset_name
from tournaments.rule_editor.overrides import MAX_IMPORT


def preset_choices() -> list[tuple[str, str]]:
    games_names = dict(RuleSet.GameChoice.choices)
    return [(r.name, f"{preset_name(r.name)} ({games_names.get(r.game.value, r.game.value)})") for r in games.listing()]


class _ClubForm(forms.Form):
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.none(), empty_label=None)

    def __init__(self, clubs: QuerySet[Club], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["club"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = clubs


class NewRuleSetForm(_ClubForm):
    preset = forms.ChoiceField(label=_("Start from"), choices=preset_choices)
    name = forms.CharField(label=_("Name of the rule set"), max_length=80)


class ImportForm(_ClubForm):
    file = forms.FileField(label=_("Rule set file (JSON)"))
    name = forms.CharField(label=_("Name (empty: the name in the file)"), max_length=80, required=False)

    def clean_file(self) -> str:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_IMPORT:
            raise forms.ValidationError(_("This file is too large for a rule set."))
        try:
            text: str = upload.read().decode("utf-8")
        except UnicodeDecodeError:
            raise forms.ValidationError(_("This file is not text (UTF-8).")) from None
        return text
