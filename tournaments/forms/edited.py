"""A settings form that carries what its page showed (``tournaments.services.edits``)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _

from tournaments.services import edits


class CarriesWhatItShowed(forms.Form):
    """The hidden ``shown`` field: the digests of the settings as the page showed them."""

    # a digest of 16 hex digits a setting: a rule set of every preset carries about 1,000 characters
    shown = forms.CharField(widget=forms.HiddenInput, required=False, max_length=10_000)

    def shown_digests(self) -> edits.Digests | None:
        """What the page showed, once the form is valid; None when it did not say (a script, an older page)."""
        return edits.read_carried(self.cleaned_data.get("shown"))

    def carry(self, shown: edits.Digests) -> None:
        """Show the page again carrying these digests (``edits.ChangedMeanwhile.shown``), so saving again keeps it."""
        self.data = self.data.copy()
        self.data[self.add_prefix("shown")] = edits.carried(shown)

    def changed_meanwhile(self, refused: edits.ChangedMeanwhile) -> None:
        """Carry the newer digests, and say above the form why nothing was saved (each view places the sentence
        beside its own fields)."""
        self.carry(refused.shown)
        self.add_error(None, _("Nothing was saved: another organiser changed the same settings meanwhile."))
