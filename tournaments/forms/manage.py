"""The organiser's forms. They read and tidy input; the services and the engine judge it.

Errors the services raise per field (``ValidationError.message_dict``) are put back on the same-named field by
``show_errors``, so the engine's complaint about an override appears beside the overrides.
"""

from __future__ import annotations

import codecs
import json
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import games
from config.untrusted import MAX_JSON_DEPTH, UNSTORABLE_MESSAGE, TooDeep, read_json, storable_json
from games.errors import GameError
from games.presets import VARIANTS
from scoring.explanations import lazy_method_name, lazy_tiebreak_name, listed
from scoring.methods import METHODS
from scoring.tiebreaks import TIEBREAKS
from tournaments import limits
from tournaments.forms.edited import CarriesWhatItShowed
from tournaments.models import Club, Competition, RuleSet
from tournaments.preset_names import VARIANT_NAMES, preset_choice, preset_name
from tournaments.seating import GENERATORS
from tournaments.services import edits
from tournaments.services.competitions import competition_settings
from tournaments.text_limits import REASON_MAX_LENGTH

# The registries' names, translatable. The organiser's own tables ("manual") are given through the API.
SEATING_NAMES = {
    "random": _("Random draw"),
    "greedy": _("Greedy (quick, fewer repeated meetings)"),
    "mixer": _("Mixer (fewest repeated meetings, seating wishes)"),
    "swiss": _("Swiss (players of similar standing)"),
    "schedule": _("Schedule (all rounds planned at once)"),
}
SEATING_CHOICES = [(key, SEATING_NAMES.get(key, gen.name)) for key, gen in GENERATORS.items() if key != "manual"]
BIGINT = limits.ID.high  # the largest id (tournaments.limits)
MAX_UPLOAD = 1_000_000  # bytes: a list of a few thousand players


def show_errors(form: forms.Form, error: ValidationError) -> None:
    """Put a service's field errors on the form's fields of the same name, the rest above the form."""
    for field, messages in error.message_dict.items():
        for message in messages:
            form.add_error(field if field in form.fields else None, message)


def _comma_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


class TieBreaksWidget(forms.MultiWidget):
    """One list per place in the order, each named for a screen reader ("Tie-break 2")."""

    template_name = "organiser/widgets/ordered_selects.html"

    def __init__(self, choices: list[tuple[str, Any]]) -> None:
        super().__init__([forms.Select(choices=choices) for _ in TIEBREAKS])

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        for place, subwidget in enumerate(context["widget"]["subwidgets"], start=1):
            subwidget["attrs"]["aria-label"] = gettext("Tie-break %(place)s") % {"place": place}
        return context

    def decompress(self, value: Any) -> list[str]:
        chosen = list(value or [])
        return chosen + [""] * (len(TIEBREAKS) - len(chosen))


class TieBreaksField(forms.MultiValueField):
    """The tie-breaks in order, chosen by name from lists; the first empty place ends them."""

    def __init__(self, **kwargs: Any) -> None:
        choices = [("", "—"), *((key, lazy_tiebreak_name(key)) for key in TIEBREAKS)]
        places = [forms.ChoiceField(choices=choices, required=False) for _ in TIEBREAKS]
        widget = TieBreaksWidget(choices)
        super().__init__(places, require_all_fields=False, required=False, widget=widget, **kwargs)

    def compress(self, data_list: list[str]) -> list[str]:
        chosen = [key for key in data_list if key]
        if len(set(chosen)) != len(chosen):
            raise ValidationError(_("Choose each tie-break once."))
        return chosen


class PresetSelect(forms.Select):
    """The rule set list: each option says its game (``data-game``), and each game's default rule set is marked
    (``data-default``), so the page offers only the chosen game's rule sets (templates/organiser/competition_form)."""

    games: dict[str, str]
    defaults: set[str]

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.games, self.defaults = {}, set()

    def create_option(self, name: str, value: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(name, value, *args, **kwargs)
        if str(value) in self.games:
            option["attrs"]["data-game"] = self.games[str(value)]
        if str(value) in self.defaults:
            option["attrs"]["data-default"] = ""
        return option


class StandingsMethodSelect(forms.Select):
    """The standings methods: those that compare boards (``data-duplicate``) are offered only while the
    competition is duplicate (templates/organiser/competition_form); the server refuses them otherwise."""

    def create_option(self, name: str, value: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(name, value, *args, **kwargs)
        method = METHODS.get(str(value))
        if method is not None and method.compares_boards:
            option["attrs"]["data-duplicate"] = ""
        return option


def preset_games() -> dict[str, str]:
    """Each engine rule set's game, in the registry's order."""
    return {r.name: r.game.value for r in games.listing()}


def default_presets() -> dict[str, str]:
    """Each game's default rule set: its first in the registry (iwwa for Wiezen)."""
    defaults: dict[str, str] = {}
    for preset, game in preset_games().items():
        defaults.setdefault(game, preset)
    return defaults


class CompetitionForm(CarriesWhatItShowed):
    """A competition's settings and its rule set (an engine preset, variants and JSON overrides)."""

    club = forms.ModelChoiceField(label=_("Organising club"), queryset=Club.objects.none())
    name = forms.CharField(label=_("Name"), max_length=120)
    slug = forms.SlugField(
        label=_("Address name"), max_length=50, help_text=_("Letters, digits and hyphens, e.g. bk-2026.")
    )
    kind = forms.ChoiceField(label=_("Kind"), choices=Competition.Kind.choices)
    game = forms.ChoiceField(label=_("Game"), choices=RuleSet.GameChoice.choices)
    preset = forms.ChoiceField(label=_("Rule set"), widget=PresetSelect)
    variants = forms.MultipleChoiceField(
        label=_("Variants (Wiezen only)"),
        required=False,
        choices=[(v, VARIANT_NAMES.get(v, v)) for v in VARIANTS],
        widget=forms.CheckboxSelectMultiple,
    )
    overrides = forms.CharField(
        label=_("Rule changes (JSON)"),
        required=False,
        max_length=10_000,  # every field of a rule set changed fits in a few kB
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}),
        help_text=_('A JSON object of the rule set\'s fields to change, e.g. {"tariffs": {"miserie": {"base": 8}}}.'),
    )
    deals_per_session = forms.TypedChoiceField(
        label=_("Deals per session"),
        choices=[(16, "16"), (24, "24")],
        coerce=int,
        required=False,
        empty_value=None,
        widget=forms.RadioSelect,
        help_text=_("Zwicken sessions are open-ended."),
    )
    duplicate = forms.BooleanField(
        label=_("Duplicate: every table plays the same boards"),
        required=False,
        help_text=_(
            "The deals are dealt in advance (printed hand records, or a dealing machine's PBN file) and every table "
            "plays them. Wiezen only; chosen before the first round is seated."
        ),
    )
    movement = forms.TypedChoiceField(
        label=_("Movement of the boards"),
        choices=Competition.Movement.choices,
        required=False,  # not duplicate (or a client that never sends it): all tables at once
        empty_value=Competition.Movement.ALL_AT_ONCE,
        widget=forms.RadioSelect,
        help_text=_(
            "Duplicate only. At once: every table has its own set of the boards. Relay: after every four deals each "
            "table hands its boards to the table before it (table 2 to table 1), as the table cards say, so one set "
            "serves up to four tables (16 boards) or six (24)."
        ),
    )
    visibility = forms.ChoiceField(
        label=_("Visible to the public"), choices=Competition.Visibility.choices, widget=forms.RadioSelect
    )
    starts_on = forms.DateField(label=_("Starts on"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    seating_method = forms.ChoiceField(label=_("Seating method"), choices=SEATING_CHOICES)
    keep_clubmates_apart = forms.BooleanField(label=_("Keep club-mates apart"), required=False)
    standings_method = forms.ChoiceField(
        label=_("Standings method"),
        choices=[(key, lazy_method_name(key)) for key in METHODS],
        widget=StandingsMethodSelect,
    )
    tie_breaks = TieBreaksField(label=_("Tie-breaks, in order"))
    placement_points = forms.CharField(
        label=_("Placement points"),
        required=False,
        max_length=300,
        help_text=_("For placement standings: points for 1st, 2nd…, comma-separated, e.g. 10, 8, 6, 4."),
    )
    min_evenings = forms.IntegerField(label=_("Minimum evenings to be ranked"), **limits.EVENINGS.kwargs())
    best_evenings = forms.IntegerField(
        label=_("Best evenings that count"), required=False, **limits.BEST_EVENINGS.kwargs()
    )
    evening_decay = forms.FloatField(
        label=_("Weight of an evening per evening of age"), **limits.EVENING_DECAY.kwargs()
    )

    def __init__(
        self,
        *args: Any,
        clubs: QuerySet[Club] | None = None,
        house_rules: QuerySet[RuleSet] | None = None,
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        if clubs is None:  # an existing competition keeps its club
            del self.fields["club"]
        else:
            self.fields["club"].queryset = clubs
            only = list(clubs[:2])
            if len(only) == 1:  # the one club they administer: chosen, and nothing else to choose
                self.fields["club"].empty_label = None
                self.initial.setdefault("club", only[0].pk)
        presets = [(r.name, preset_choice(r.name)) for r in games.listing()]
        widget = self.fields["preset"].widget
        widget.games, widget.defaults = preset_games(), set(default_presets().values())
        current = self.initial.get("preset")
        if current and current not in dict(presets):  # a club's own rule set name: keep it choosable
            presets.append((current, current))
            widget.games = {**widget.games, current: str(self.initial.get("game") or "")}
        # The house rules of the clubs this organiser administers, made in the rule set editor: a competition takes
        # a copy (its preset and changes), so editing it later changes no competition played by it
        self.house_rules = {f"{HOUSE}{r.pk}": r for r in (house_rules if house_rules is not None else [])}
        for value, rule_set in self.house_rules.items():
            club = rule_set.club.name if rule_set.club else gettext("shared")
            presets.append(
                (value, gettext("%(name)s (house rules of %(club)s)") % {"name": rule_set.name, "club": club})
            )
            widget.games = {**widget.games, value: rule_set.game}
        self.fields["preset"].choices = presets

    @classmethod
    def initial_for(cls, competition: Competition | None) -> dict[str, Any]:
        if competition is None:
            return {
                "kind": Competition.Kind.TOURNAMENT,
                "game": RuleSet.GameChoice.WIEZEN,
                "preset": "iwwa",
                "overrides": "{}",
                "deals_per_session": 16,
                "duplicate": False,
                "movement": Competition.Movement.ALL_AT_ONCE,
                "visibility": Competition.Visibility.EVERYTHING,
                "seating_method": "mixer",
                "standings_method": "total_points",
                "min_evenings": 0,
                "evening_decay": 1.0,
            }
        rule_set = competition.rule_set
        base, *variants = rule_set.preset.split("+")
        fields = ("name", "slug", "kind", "game", "deals_per_session", "duplicate", "movement", "starts_on")
        fields = (*fields, "seating_method")
        more = ("keep_clubmates_apart", "standings_method", "min_evenings", "best_evenings", "evening_decay")
        return {
            **{name: getattr(competition, name) for name in (*fields, *more)},
            "preset": base,
            "variants": variants,
            "overrides": json.dumps(rule_set.overrides or {}, indent=1, ensure_ascii=False),
            "visibility": competition.visibility,
            "tie_breaks": list(competition.tie_breaks or []),
            "placement_points": ", ".join(str(p) for p in competition.placement_points or []),
            "shown": edits.carried(edits.digests_of(competition_settings(competition))),
        }

    def clean_overrides(self) -> dict[str, Any]:
        text = self.cleaned_data.get("overrides", "").strip() or "{}"
        try:
            value = read_json(text)
        except TooDeep:
            raise ValidationError(
                _("The JSON is nested too deeply: at most %(levels)s levels.") % {"levels": MAX_JSON_DEPTH}
            ) from None
        except ValueError as exc:  # where it broke, not the parser's English ("Expecting ',' delimiter")
            line, column = getattr(exc, "lineno", None), getattr(exc, "colno", None)
            if line is None or column is None:
                raise ValidationError(_("Not valid JSON.")) from exc
            where = {"line": line, "column": column}
            raise ValidationError(_("Not valid JSON: look at line %(line)s, column %(column)s.") % where) from exc
        if not isinstance(value, dict):
            raise ValidationError(_("Overrides must be a JSON object."))
        if not storable_json(value):
            raise ValidationError(UNSTORABLE_MESSAGE)
        return value

    def clean_placement_points(self) -> list[int]:
        parts = _comma_list(self.cleaned_data.get("placement_points", ""))
        if not all(p.isascii() and p.isdigit() and len(p) <= 6 for p in parts):
            raise ValidationError(_("Whole numbers, comma-separated."))
        points = [int(p) for p in parts]
        if len(points) > limits.PLACEMENT_PLACES_MAX or any(p not in limits.PLACEMENT_POINTS for p in points):
            raise ValidationError(limits.PLACEMENT_POINTS.message)
        return points

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        house = self.house_rules.get(data.get("preset") or "")
        if house is not None:  # its preset, and its changes with those typed here on top
            data["preset"], data["overrides"] = house.preset, self._on_top_of(house.overrides or {}, data)
        game, preset, variants = data.get("game"), data.get("preset"), data.get("variants") or []
        if game and game != RuleSet.GameChoice.ZWICKEN and data.get("deals_per_session") is None:
            self.add_error("deals_per_session", _("Choose 16 or 24 deals."))
        its_game = house.game if house is not None else preset_games().get(preset or "")
        if game and its_game and its_game != game:
            games_named = dict(RuleSet.GameChoice.choices)
            fitting = [name for name, of in preset_games().items() if of == game]
            self.add_error(
                "preset",
                gettext("The rule set %(preset)s is for %(its_game)s, not %(game)s: choose one of %(choices)s.")
                % {
                    "preset": preset_name(preset or ""),
                    "its_game": games_named.get(its_game, its_game),
                    "game": games_named.get(game, game),
                    "choices": listed([preset_name(name) for name in fitting]),
                },
            )
            return data
        if house is not None and sorted(variants) == sorted(self.initial.get("variants") or []):
            variants = []  # as the page showed them, the competition's own: the house rules come as they are
        variants = [v for v in variants if v not in (preset or "").split("+")[1:]]  # house rules may have them
        if preset and variants:
            data["preset"] = "+".join([preset, *variants])
            try:
                games.find(data["preset"])
            except GameError as exc:
                self.add_error("variants", str(exc))
        return data

    def _on_top_of(self, house: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
        """The house rules' changes, and the JSON field's where someone typed in it: as the page showed it (the
        competition's current changes, or none), it is not a change to make."""
        typed = data.get("overrides")
        try:
            shown = read_json(str(self.initial.get("overrides") or "{}"))
        except ValueError:
            shown = None
        if not typed or typed == shown:
            return dict(house)
        return _merged(house, typed)

    def service_arguments(self) -> dict[str, Any]:
        """The cleaned data as ``save_competition`` takes it."""
        data = dict(self.cleaned_data)
        data.pop("variants", None)
        data.pop("club", None)
        data["shown"] = self.shown_digests()  # a save keeps what another organiser changed meanwhile
        return data


HOUSE = "house:"  # the value of a club's rule set among the presets: "house:<id>"


def _merged(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    """``top`` on ``base``, object by object, as the engine reads rule changes on a preset."""
    out = dict(base)
    for key, value in top.items():
        below = out.get(key)
        out[key] = _merged(below, value) if isinstance(below, dict) and isinstance(value, dict) else value
    return out


class SearchForm(forms.Form):
    q = forms.CharField(label=_("Find a player"), max_length=80, required=False, strip=True)


class RegisterForm(forms.Form):
    player = forms.IntegerField(widget=forms.HiddenInput, **limits.ID.kwargs())


class WalkInForm(forms.Form):
    first_name = forms.CharField(label=_("First name"), max_length=80)
    last_name = forms.CharField(label=_("Last name"), max_length=80)
    federation_id = forms.CharField(label=_("Federation id"), max_length=32, required=False)
    club = forms.ModelChoiceField(
        label=_("Club"), queryset=Club.objects.none(), required=False, empty_label=_("no club")
    )

    def __init__(self, *args: Any, clubs: QuerySet[Club], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs


class PlayerImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file of players"),
        help_text=_("A header line with name (or first_name and last_name) and federation_id, then one player a line."),
    )
    club = forms.ModelChoiceField(
        label=_("Club of new players"), queryset=Club.objects.none(), required=False, empty_label=_("no club")
    )

    def __init__(self, *args: Any, clubs: QuerySet[Club], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs

    def clean_file(self) -> str:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD:
            raise ValidationError(_("The file is too large (at most 1 MB)."))
        content = upload.read()
        if content.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):  # Excel's "Unicode text"
            content = content.decode("utf-16", errors="replace").encode()
        try:
            return str(content.decode("utf-8"))
        except UnicodeDecodeError:
            pass
        try:  # Excel's "CSV (semicolon separated)" on a Belgian Windows writes its code page, Windows-1252
            return str(content.decode("cp1252"))
        except UnicodeDecodeError as exc:
            raise ValidationError(_("The file is not UTF-8 text: save it as “CSV UTF-8”.")) from exc


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=REASON_MAX_LENGTH)


class WithdrawForm(forms.Form):
    reason = forms.CharField(label=_("Reason (optional)"), max_length=REASON_MAX_LENGTH, required=False)


class NewRoundForm(forms.Form):
    method = forms.ChoiceField(label=_("Seating method"), choices=SEATING_CHOICES)


class RedrawForm(forms.Form):
    method = forms.ChoiceField(label=_("Seating method"), choices=SEATING_CHOICES)
    seed = forms.IntegerField(
        label=_("Seed (optional)"),
        required=False,
        help_text=_("Empty: the next seed."),
        **limits.SEED.kwargs(),
    )


class SwapForm(forms.Form):
    first = forms.TypedChoiceField(label=_("Player"), coerce=int)
    second = forms.TypedChoiceField(label=_("Swap with"), coerce=int)

    def __init__(self, *args: Any, players: list[tuple[int, str, int | None]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        choices = [
            (
                pid,
                gettext("%(name)s (table %(table)s)") % {"name": name, "table": table}
                if table
                else gettext("%(name)s (bye)") % {"name": name},
            )
            for pid, name, table in players
        ]
        self.fields["first"].choices = self.fields["second"].choices = choices
        if len(choices) > 1:
            self.fields["second"].initial = choices[1][0]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("first") is not None and data.get("first") == data.get("second"):
            self.add_error("second", _("Choose two different players."))
        return data
