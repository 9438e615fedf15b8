"""The plain entry form: turns fields into an engine line; the engine judges the line."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.contracts import CONTRACTS
from games.errors import FieldError
from tournaments import limits
from tournaments.contract_names import OPTIONAL_FIELDS, contract_name, needed_fields
from tournaments.models import DealEntry, Seat
from tournaments.text_limits import PENALTY_REASON_MAX_LENGTH

# The page's hidden key is stored with the deal (DealEntry.idempotency_key): no longer than that column.
KEY_LENGTH = DealEntry._meta.get_field("idempotency_key").max_length
TRUMP_CHOICES = [("", "—"), ("C", _("Clubs ♣")), ("D", _("Diamonds ♦")), ("H", _("Hearts ♥")), ("S", _("Spades ♠"))]


class DealLineForm(forms.Form):
    """One line of a score sheet. Field names are the engine's line keys, so its errors land beside them."""

    deal = forms.IntegerField(label=_("Deal"), **limits.DEAL_NUMBER.kwargs())
    dealer = forms.TypedChoiceField(label=_("Dealer"), coerce=int)
    contract = forms.ChoiceField(label=_("Contract"))
    # What the page shows: the declarers' seat numbers as on the table card (1-4, asker first), typed as "13".
    seats = forms.CharField(
        label=_("Declarers"),
        required=False,
        max_length=5,
        help_text=_("Seat numbers as on the table card, the asker first: e.g. 13"),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off", "size": 5}),
    )
    # The engine's positions (0-based); posted directly by scripts and older pages, or derived from ``seats``.
    declarers = forms.TypedMultipleChoiceField(
        label=_("Declarers (asker first)"), coerce=int, required=False, widget=forms.MultipleHiddenInput
    )
    tricks = forms.CharField(
        label=_("Tricks"),
        required=False,
        max_length=20,  # a number per declarer, at most four: "13,13,13,13"
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
    version = forms.IntegerField(widget=forms.HiddenInput, required=False, **limits.EXPECTED_VERSION.kwargs())

    def __init__(
        self,
        *args: Any,
        seats: list[Seat],
        ladder: tuple[str, ...],
        raised: Mapping[str, tuple[int, ...]] | None = None,
        levels: Sequence[int] | None = None,
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        level = self.fields["level"]
        assert isinstance(level, forms.TypedChoiceField)
        if levels is not None:  # the levels the rule set plays (``contract_names.bid_levels``), no other
            level.choices = [("", "—"), *[(n, str(n)) for n in levels]]
        # the higher bids of vraag and alleen the rule set plays (issue 17): the level field then says the tricks bid
        self.raised = dict(raised or {})
        if self.raised:
            if levels is None:
                offered = sorted({9, 10, 11, 12, *(lvl for lvls in self.raised.values() for lvl in lvls)})
                level.choices = [("", "—"), *[(n, str(n)) for n in offered]]
            level.label = _("Tricks bid (level)")
            level.help_text = _(
                "Abondance: its level. Vraag or alleen bid higher: the tricks bid; empty: the usual bid."
            )
        seat_choices = [(s.position, f"{s.position + 1} · {s.player.name}") for s in seats]
        self.seat_count = len(seats)
        self.fields["dealer"].choices = seat_choices
        self.fields["declarers"].choices = seat_choices
        self.fields["offender"].choices = [("", "—"), *seat_choices]
        contracts = [c for c in ladder if c in CONTRACTS] + ["pass", "penalty"]
        self.fields["contract"].choices = [(c, contract_name(c)) for c in contracts]

    def engine_field(self, error: FieldError) -> str | None:
        """Where to show an engine ``error``: field names are the line's keys (declarers: seats)."""
        if error.field == "declarers":
            return "seats"
        return error.field if error.field in self.fields else None

    def clean(self) -> dict[str, Any]:
        """Only the fields the chosen contract uses count: what was typed in the others (a level left from an
        abondance before the contract became a miserie) is neither judged nor sent to the engine."""
        data = super().clean()
        contract = data.get("contract")
        if contract:
            needs = needed_fields(contract, self.raised)
            for name in OPTIONAL_FIELDS:
                if name not in needs:
                    self.errors.pop(name, None)
                    data.pop(name, None)
            if "seats" not in needs:
                self.errors.pop("declarers", None)
                data.pop("declarers", None)
        return data

    def clean_seats(self) -> list[int] | None:
        """ "13" → positions [0, 2]: each digit a seat of this table, once, in the order typed."""
        raw = "".join(self.cleaned_data.get("seats", "").split()).replace(",", "")
        if not raw:
            return None
        if not (raw.isascii() and raw.isdigit()):
            raise forms.ValidationError(_("Type the declarers' seat numbers, e.g. 13."))
        positions = [int(digit) - 1 for digit in raw]
        if any(not 0 <= p < self.seat_count for p in positions):
            raise forms.ValidationError(_("Seats are numbered 1 to %(n)s.") % {"n": self.seat_count})
        if len(set(positions)) != len(positions):
            raise forms.ValidationError(_("Each seat once."))
        return positions

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
        declarers = data.get("seats") or data.get("declarers")
        if declarers:
            line["declarers"] = list(declarers)
        for key in ("tricks", "level", "offender"):
            if data.get(key) is not None:
                line[key] = data[key]
        if data.get("trump"):
            line["trump"] = data["trump"]
        return line

    @classmethod
    def initial_from_line(cls, line: dict[str, Any]) -> dict[str, Any]:
        initial = {k: v for k, v in line.items() if k in cls.base_fields and k != "declarers"}
        declarers = line.get("declarers")
        if isinstance(declarers, list) and all(isinstance(p, int) for p in declarers):
            initial["seats"] = "".join(str(p + 1) for p in declarers)
        tricks = line.get("tricks")
        if isinstance(tricks, list):
            initial["tricks"] = ",".join(str(t) for t in tricks)
        return initial


class ZwickenLineForm(forms.Form):
    """One Zwicken deal: who played, tricks per seat, failed duties, or a cut that voided or moved the deal."""

    deal = forms.IntegerField(label=_("Deal"), **limits.DEAL_NUMBER.kwargs())
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
    version = forms.IntegerField(widget=forms.HiddenInput, required=False, **limits.EXPECTED_VERSION.kwargs())

    def __init__(self, *args: Any, seats: list[Seat], ladder: tuple[str, ...] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        seat_choices = [(s.position, f"{s.position + 1} · {s.player.name}") for s in seats]  # as on the card
        for name in ("dealer", "played", "duties_failed"):
            self.fields[name].choices = seat_choices
        self.seat_count = len(seats)
        for s in seats:
            self.fields[f"tricks_{s.position}"] = forms.IntegerField(
                label=_("Tricks of %(name)s") % {"name": s.player.name}, required=False, **limits.TRICKS.kwargs()
            )

    def engine_field(self, error: FieldError) -> str | None:
        """Where to show an engine ``error``: one about tricks beside the first seat it names (the person typed
        that seat's count), above the form when it is about the counts together (they add up to too many)."""
        if error.field == "tricks":
            return f"tricks_{error.seats[0]}" if error.seats else None
        return error.field if error.field in self.fields else None

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


class PenaltyForm(forms.Form):
    """A penalty given at a table: one of its players, the points deducted and why (shown in the standings)."""

    position = forms.TypedChoiceField(label=_("Player"), coerce=int)
    points = forms.IntegerField(label=_("Points deducted"), **limits.PENALTY_POINTS.kwargs())
    reason = forms.CharField(label=_("Reason"), max_length=PENALTY_REASON_MAX_LENGTH)

    def __init__(self, *args: Any, seats: list[Any], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["position"].choices = [(s.position, f"{s.position + 1} · {s.player.name}") for s in seats]
