"""The organiser's clock and announcement forms: numbers with their ranges, text with its limit, as everywhere."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.display.services import MINUTES_MAX
from tournaments.limits import Range
from tournaments.models.display import ANNOUNCEMENT_MAX_LENGTH

START_MINUTES = Range(1, MINUTES_MAX)
ADJUST_MINUTES = Range(-MINUTES_MAX, MINUTES_MAX)


class StartClockForm(forms.Form):
    minutes = forms.IntegerField(label=_("Minutes"), **START_MINUTES.kwargs())


class AdjustClockForm(forms.Form):
    minutes = forms.IntegerField(label=_("Minutes"), **ADJUST_MINUTES.kwargs())


class AnnouncementForm(forms.Form):
    text = forms.CharField(label=_("Announcement"), max_length=ANNOUNCEMENT_MAX_LENGTH, strip=True)
