from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments import limits
from tournaments.integrity import problems
from tournaments.locks import lock_reason
from tournaments.models.guarded import Guarded
from tournaments.models.rules import RuleSet

Game = RuleSet.GameChoice


class Competition(models.Model):
    """A tournament or a league season, played under one rule set."""

    class Movement(models.TextChoices):  # ``games.duplicate.movement``
        ALL_AT_ONCE = "all_at_once", _("All tables at once: a set of boards for every table")
        RELAY = "relay", _("Relay: tables hand the boards on in groups of four (one set for up to four tables)")

    class Kind(models.TextChoices):
        TOURNAMENT = "tournament", _("Tournament")
        LEAGUE = "league", _("League season")

    club = models.ForeignKey("tournaments.Club", on_delete=models.PROTECT, related_name="competitions")
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(unique=True)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices, default=Kind.TOURNAMENT)
    game = models.CharField(_("game"), max_length=16, choices=Game.choices, default=Game.WIEZEN)
    rule_set = models.ForeignKey(RuleSet, on_delete=models.PROTECT, related_name="competitions")
    deals_per_session = models.PositiveSmallIntegerField(
        _("deals per session"),
        null=True,
        blank=True,
        validators=limits.DEALS_PER_SESSION.validators(),
        help_text=_("16 or 24; empty for open-ended Zwicken sessions"),
    )
    # Duplicate: every table of a round plays the same deals (boards), dealt in advance (``tournaments.duplicate``).
    duplicate = models.BooleanField(
        _("duplicate"),
        default=False,
        help_text=_(
            "Every table plays the same deals (boards), dealt in advance: printed hand records or a dealing "
            "machine's file. Wiezen only; chosen before the first round is seated."
        ),
    )
    movement = models.CharField(
        _("movement"),
        max_length=16,
        choices=Movement.choices,
        default=Movement.ALL_AT_ONCE,
        help_text=_("How a duplicate round's boards reach the tables; chosen before the first round is seated."),
    )
    # Visibility: hidden (not public), standings only (public, results not), or everything (both public).
    is_public = models.BooleanField(_("public"), default=True)
    public_results = models.BooleanField(
        _("results public"),
        default=True,
        help_text=_("Round results, table sheets and players' sessions are public too, not only the standings."),
    )
    starts_on = models.DateField(_("starts on"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # How the standings rank (scoring.methods and scoring.tiebreaks registries; checked by the standings service).
    standings_method = models.CharField(_("standings method"), max_length=32, default="total_points")
    tie_breaks = models.JSONField(_("tie-breaks, in order"), default=list, blank=True)
    placement_points = models.JSONField(_("placement points (1st, 2nd...)"), default=list, blank=True)
    min_evenings = models.PositiveSmallIntegerField(
        _("minimum evenings to be ranked"), default=0, validators=limits.EVENINGS.validators()
    )
    best_evenings = models.PositiveSmallIntegerField(
        _("best N evenings count"), null=True, blank=True, validators=limits.BEST_EVENINGS.validators()
    )
    evening_decay = models.FloatField(
        _("weight of an evening per evening of age"), default=1.0, validators=limits.EVENING_DECAY.validators()
    )
    # How the next round is seated (tournaments.seating generators) and whether club-mates are kept apart.
    seating_method = models.CharField(_("seating method"), max_length=16, default="mixer")
    keep_clubmates_apart = models.BooleanField(_("keep club-mates apart"), default=False)
    # A closed season takes no more results, rounds or penalties (services and a database trigger refuse).
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    # Bumped in the same transaction as every entry: standings older than this are stale.
    entries_version = models.PositiveBigIntegerField(default=0, editable=False)
    players = models.ManyToManyField(
        "tournaments.Player", through="tournaments.Registration", related_name="competitions"
    )
    # People who run this competition without administering the club (a federation's tournament director).
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="organised_competitions", verbose_name=_("organisers")
    )

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(game=Game.ZWICKEN, deals_per_session__isnull=True)
                    # NULL IN (16, 24) is unknown, which a check lets pass: exclude NULL explicitly
                    | (
                        ~models.Q(game=Game.ZWICKEN)
                        & models.Q(deals_per_session__isnull=False)
                        & models.Q(deals_per_session__in=[16, 24])
                    )
                ),
                name="competition_session_length",
                violation_error_message=_("A session has 16 or 24 deals, or is open-ended for Zwicken."),
            ),
            models.CheckConstraint(
                condition=models.Q(duplicate=False) | models.Q(game=Game.WIEZEN),
                name="competition_duplicate_wiezen_only",
                violation_error_message=_("Duplicate play is for Wiezen only."),
            ),
            models.CheckConstraint(
                condition=models.Q(movement="all_at_once") | models.Q(movement="relay", duplicate=True),
                name="competition_movement_known_relay_duplicate_only",
                violation_error_message=_("Boards move between tables only in a duplicate competition."),
            ),
            limits.EVENINGS.check("min_evenings", "competition_min_evenings_range"),
            models.CheckConstraint(
                condition=models.Q(best_evenings__isnull=True)
                | models.Q(best_evenings__gte=limits.BEST_EVENINGS.low, best_evenings__lte=limits.BEST_EVENINGS.high),
                name="competition_best_evenings_range",
            ),
            models.CheckConstraint(
                condition=models.Q(evening_decay__gt=0, evening_decay__lte=limits.EVENING_DECAY.high),
                name="competition_evening_decay_range",
            ),
        ]

    RANKING = (
        "kind",
        "duplicate",
        "standings_method",
        "tie_breaks",
        "placement_points",
        "min_evenings",
        "best_evenings",
        "evening_decay",
    )
    """The settings the standings, the league table and the progression are computed with: a change recomputes the
    stored standings (``services.competitions``) and keys the kept progression anew."""

    def ranking(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.RANKING)

    class Visibility(models.TextChoices):
        HIDDEN = "hidden", _("Hidden")
        STANDINGS = "standings", _("Standings only")
        EVERYTHING = "everything", _("Everything")

    @property
    def visibility(self) -> str:
        """The two switches as the one choice organisers make."""
        if not self.is_public:
            return self.Visibility.HIDDEN
        return self.Visibility.EVERYTHING if self.public_results else self.Visibility.STANDINGS

    @visibility.setter
    def visibility(self, value: str) -> None:
        self.is_public = value != self.Visibility.HIDDEN
        self.public_results = value == self.Visibility.EVERYTHING

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """The standings method, tie-breaks and placement points must be ones the calculators know."""
        from scoring.methods import MethodOptions, find_method
        from scoring.records import ScoringError
        from scoring.tiebreaks import find_tiebreak

        errors: dict[str, str] = {}
        try:
            find_method(self.standings_method)
        except ScoringError as exc:
            errors["standings_method"] = str(exc)
        if not isinstance(self.tie_breaks, list) or not all(isinstance(k, str) for k in self.tie_breaks):
            errors["tie_breaks"] = "a list of tie-break keys, in order"
        elif len(set(self.tie_breaks)) != len(self.tie_breaks):  # a known key once each: the list stays short
            errors["tie_breaks"] = "each tie-break at most once"
        else:
            for key in self.tie_breaks:
                try:
                    find_tiebreak(key)
                except ScoringError as exc:
                    errors["tie_breaks"] = str(exc)
        from tournaments.seating import GENERATORS

        if self.seating_method not in GENERATORS:
            errors["seating_method"] = f"choose one of {', '.join(sorted(GENERATORS))}"
        if isinstance(self.placement_points, list) and (
            len(self.placement_points) > limits.PLACEMENT_PLACES_MAX
            or limits.numbers_outside(self.placement_points, limits.PLACEMENT_POINTS)
        ):
            errors["placement_points"] = str(limits.PLACEMENT_POINTS.message)
        elif self.placement_points:
            try:
                MethodOptions(tuple(self.placement_points))
            except (ScoringError, TypeError) as exc:
                errors["placement_points"] = str(exc)
        errors.update(self._league_option_errors())
        from tournaments.former_addresses import held_elsewhere

        if self.slug and held_elsewhere(self.slug, self.pk):
            errors["slug"] = _(
                "Another competition had this address before it was renamed, and its links and printed table "
                "cards still lead there. Choose another address name."
            )
        from tournaments.duplicate.rules import setting_problems

        errors.update(setting_problems(self))  # Wiezen only, and fixed once rounds are seated
        from tournaments.duplicate.comparison import method_problems

        errors.update(method_problems(self))  # matchpoints and cross-IMPs compare boards: duplicate competitions only
        if (locked := lock_reason(self)) is not None:
            errors["__all__"] = locked  # a closed competition keeps its club, rules and scoring settings
        errors.update(problems(self))  # its rule set is its club's (or shared), for its game, kept once played
        if errors:
            raise ValidationError(errors)

    def _league_option_errors(self) -> dict[str, str]:
        """League options the standings refuse, which the fields' own ranges let through (a decay of 16)."""
        from scoring.ranking import LeagueOptions
        from scoring.records import ScoringError

        errors = {}
        options = {"min_evenings": "min_evenings", "best_evenings": "best_n", "evening_decay": "decay"}
        for field, option in options.items():
            try:
                LeagueOptions(**{option: getattr(self, field)})
            except (ScoringError, TypeError) as exc:
                errors[field] = str(exc)
        return errors


class Registration(Guarded, models.Model):
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey("tournaments.Player", on_delete=models.PROTECT, related_name="registrations")
    registered_at = models.DateTimeField(auto_now_add=True)
    # A withdrawn player keeps their results but is no longer seated in new rounds.
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["competition", "player"], name="registration_once")]


class Round(Guarded, models.Model):
    """A tournament round or a league evening."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft seating")
        PUBLISHED = "published", _("Published")
        IN_PLAY = "in_play", _("In play")
        COMPLETE = "complete", _("Complete")
        FINALISED = "finalised", _("Finalised")

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("number"), validators=limits.ROUND_NUMBER.validators())
    seed = models.BigIntegerField(_("seating seed"), default=0, validators=limits.SEED.validators())
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.DRAFT)
    method = models.CharField(_("seating method"), max_length=16, default="random")
    # Players present but not seated (6, 7 or 11 present): byes rotate, so they are remembered.
    byes = models.JSONField(_("byes"), default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["competition", "number"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "number"], name="round_number_once"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="round_number_positive"),
            limits.ROUND_NUMBER.check("number", "round_number_range"),
            limits.SEED.check("seed", "round_seed_range"),
            models.CheckConstraint(
                condition=models.Q(status__in=["draft", "published", "in_play", "complete", "finalised"]),
                name="round_status_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.competition} – round {self.number}"
