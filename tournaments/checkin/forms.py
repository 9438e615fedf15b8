"""The phone page's form: a player's name as the standings show it, and the venue code from the poster."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.checkin.services import CODE_MAX_LENGTH, NAME_MAX_LENGTH


class CodeCheckInForm(forms.Form):
    name = forms.CharField(
        label=_("Your name, as the standings show it"),
        max_length=NAME_MAX_LENGTH,
        widget=forms.TextInput(attrs={"autocomplete": "name", "autocapitalize": "words", "spellcheck": "false"}),
    )
    code = forms.CharField(
        label=_("Venue code (on the poster)"),
        max_length=CODE_MAX_LENGTH,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}),
    )
