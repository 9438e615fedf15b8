"""The plain entry form: turns fields into an engine line; the engine judges the line."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.contracts import CONTRACTS
from tournaments.models import DealEntry, Seat

# The page's hidden key is stored with the deal (DealEntry.idempotency_key): no longer than that column.
KEY_LENGTH = DealEntry._meta.get_field("idempotency_key").max_length
TRUMP_CHOICES = [("", "—"), ("C", _("Clubs ♣")), ("D", _("Diamonds ♦")), ("H", _("Hearts ♥")), ("S", _("Spades ♠"))]


class DealLineForm(forms.Form):
    """One line of a score sheet. Field names are the engine's line keys, so its errors land beside them."""

    deal = forms.IntegerField(label=_("Deal"), min_value=1)
    dealer = forms.TypedChoiceField(label=_("Dealer"), coerce=int)
    contract = forms.ChoiceField(label=_("Contract"))
    declarers = forms.TypedMultipleChoiceField(
        label=_("Declarers (asker first)"), coerce=int, required=False, widget=forms.CheckboxSelectMultiple
    )
    tricks = forms.CharField(
        label=_("Tricks"),
        required=False,
        help_text=_("The side's total; for miserie one number per declarer, e.g. 0,1"),
    )
    level = forms.TypedChoiceField(
        label=_("Abondance level"),
        coerce=int,
        required=False,
        empty_value=None,
        choices=[("", "—"), *[(n, str(n)) for n in (9, 10, 11, 12)]],
    )
    trump = forms.ChoiceField(label=_("Trump"), choices=TRUMP_CHOICES, required=False)
    offender = forms.TypedChoiceField(label=_("Offender (penalty)"), coerce=int, required=False, empty_value=None)
    idempotency_key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=KEY_LENGTH)
    # The version of the deal the form was opened on (0: a new deal): a save over someone else's is refused.
    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0, max_value=2**31 - 1)

    def __init__(self, *args: Any, seats: list[Seat], ladder: tuple[str, ...], **kwargs: Any):
        super().__init__(*args, **kwargs)
        seat_choices = [(s.position, f"{s.position}: {s.player.name}") for s in seats]
        self.fields["dealer"].choices = seat_choices
        self.fields["declarers"].choices = seat_choices
        self.fields["offender"].choices = [("", "—"), *seat_choices]
        contracts = [c for c in ladder if c in CONTRACTS] + ["pass", "penalty"]
        self.fields["contract"].choices = [(c, c.replace("_", " ")) for c in contracts]

    def engine_field(self, field: str) -> str | None:
        """Where to show an engine error about ``field``: field names are the line's keys."""
        return field if field in self.fields else None

    def clean_tricks(self) -> int | list[int] | None:
        raw = self.cleaned_data.get("tricks", "").strip()
        if not raw:
            return None
        try:
            counts = [int(part) for part in raw.replace(";", ",").split(",") if part.strip()]
        except ValueError:
            raise forms.ValidationError(_("Give whole numbers, separated by commas.")) from None
        return counts[0] if len(counts) == 1 and "," not in raw else counts

    def to_line(self) -> dict[str, Any]:
        """The engine's line: only the fields that were filled in."""
        data = self.cleaned_data
        line: dict[str, Any] = {"deal": data["deal"], "dealer": data["dealer"], "contract": data["contract"]}
        if data.get("declarers"):
            line["declarers"] = list(data["declarers"])
        for key in ("tricks", "level", "offender"):
            if data.get(key) is not None:
                line[key] = data[key]
        if data.get("trump"):
            line["trump"] = data["trump"]
        return line

    @classmethod
    def initial_from_line(cls, line: dict[str, Any]) -> dict[str, Any]:
        initial = {k: v for k, v in line.items() if k in cls.base_fields}
        tricks = line.get("tricks")
        if isinstance(tricks, list):
            initial["tricks"] = ",".join(str(t) for t in tricks)
        return initial


class ZwickenLineForm(forms.Form):
    """One Zwicken deal: who played, tricks per seat, failed duties, or a cut that voided or moved the deal."""

    deal = forms.IntegerField(label=_("Deal"), min_value=1)
    dealer = forms.TypedChoiceField(label=_("Dealer"), coerce=int)
    cut = forms.ChoiceField(
        label=_("Cut"),
        required=False,
        choices=[("", _("played normally")), ("void", _("void: ace or seven exposed")), ("belli", _("Belli exposed"))],
    )
    played = forms.TypedMultipleChoiceField(
        label=_("Played"), coerce=int, required=False, widget=forms.CheckboxSelectMultiple
    )
    duties_failed = forms.TypedMultipleChoiceField(
        label=_("Failed a duty (trump ace, Belli)"), coerce=int, required=False, widget=forms.CheckboxSelectMultiple
    )
    idempotency_key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=KEY_LENGTH)
    # The version of the deal the form was opened on (0: a new deal): a save over someone else's is refused.
    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0, max_value=2**31 - 1)

    def __init__(self, *args: Any, seats: list[Seat], ladder: tuple[str, ...] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        seat_choices = [(s.position, f"{s.position}: {s.player.name}") for s in seats]
        for name in ("dealer", "played", "duties_failed"):
            self.fields[name].choices = seat_choices
        self.seat_count = len(seats)
        for s in seats:
            self.fields[f"tricks_{s.position}"] = forms.IntegerField(
                label=_("Tricks of %(name)s") % {"name": s.player.name}, min_value=0, required=False
            )

    def engine_field(self, field: str) -> str | None:
        """Where to show an engine error about ``field``."""
        if field == "tricks":
            return "tricks_0"
        return field if field in self.fields else None

    def to_line(self) -> dict[str, Any]:
        data = self.cleaned_data
        line: dict[str, Any] = {"deal": data["deal"], "dealer": data["dealer"]}
        if data.get("cut"):
            line["cut"] = data["cut"]
            return line
        line["played"] = list(data.get("played") or [])
        line["tricks"] = [data.get(f"tricks_{seat}") or 0 for seat in range(self.seat_count)]
        if data.get("duties_failed"):
            line["duties_failed"] = list(data["duties_failed"])
        return line

    @classmethod
    def initial_from_line(cls, line: dict[str, Any]) -> dict[str, Any]:
        initial = {k: v for k, v in line.items() if k in ("deal", "dealer", "cut", "played", "duties_failed")}
        for seat, count in enumerate(line.get("tricks") or []):
            initial[f"tricks_{seat}"] = count
        return initial


def line_form_class(game: str) -> type[DealLineForm] | type[ZwickenLineForm]:
    """The entry form for a game: everything game-specific is the engine's, only the fields differ."""
    return ZwickenLineForm if game == "zwicken" else DealLineForm
