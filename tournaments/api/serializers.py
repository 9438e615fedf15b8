"""API representations. Validation of anything game-specific is the engine's (through services)."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from scoring.models import Rating, Standing
from tournaments import limits, public_names
from tournaments.integrity import problems
from tournaments.models import (
    Club,
    Competition,
    DealEntry,
    Penalty,
    Player,
    Round,
    RoundEvent,
    RuleSet,
    ScoreSheet,
    Seat,
    Table,
)
from tournaments.seating import GENERATORS
from tournaments.text_limits import REASON_MAX_LENGTH


class PlayerIdField(serializers.IntegerField):
    """A player named by id: a whole number; one no player can have (0, negative, 2^63 and up) is no such player,
    refused here rather than met by the database as an overflow."""

    default_error_messages = {
        "min_value": _("no such player"),
        "max_value": _("no such player"),
    }

    def __init__(self, **kwargs: Any):
        super().__init__(min_value=limits.ID.low, max_value=limits.ID.high, **kwargs)


def player_ids(**kwargs: Any) -> serializers.ListField:
    """A list of players by id, each checked like ``PlayerIdField``."""
    return serializers.ListField(child=PlayerIdField(), **kwargs)


class ClubSerializer(serializers.ModelSerializer[Club]):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "city"]


class PlayerSerializer(serializers.ModelSerializer[Player]):
    """What anyone sees of a player: the name they chose to show (``public_name``), nothing else."""

    name = serializers.CharField(source="public_name", read_only=True)

    class Meta:
        model = Player
        fields = ["id", "name"]


class PlayerDetailSerializer(serializers.ModelSerializer[Player]):
    """For the player and their club's administrators; ``club`` (write-only) makes the new player a member."""

    name = serializers.CharField(read_only=True)
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all(), write_only=True, required=False)

    class Meta:
        model = Player
        fields = ["id", "name", "first_name", "last_name", "display_name", "public_name", "federation_id", "club"]
        read_only_fields = ["public_name"]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """The model's rule on public names (``tournaments.public_names``): a display name nobody else shows; a
        default name another player shows already is made longer."""
        fields = {k: v for k, v in attrs.items() if k != "club"}
        candidate = Player(pk=getattr(self.instance, "pk", None), **{**_player_fields(self.instance), **fields})
        try:
            candidate.clean()
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.message_dict) from exc
        if candidate.display_name != (self.instance.display_name if self.instance else ""):
            attrs["display_name"] = candidate.display_name
        return attrs


def _player_fields(player: Player | None) -> dict[str, Any]:
    if player is None:
        return {}
    names = ("first_name", "last_name", "display_name", "federation_id", "anonymised_at")
    return {name: getattr(player, name) for name in names}


class DisplayNameSerializer(serializers.ModelSerializer[Player]):
    """The one thing players change about themselves: the name public pages show."""

    class Meta:
        model = Player
        fields = ["display_name"]

    def validate_display_name(self, value: str) -> str:
        value = " ".join(value.split())
        if any(not ch.isprintable() for ch in value):
            raise serializers.ValidationError(_("A name of printable characters only."))
        if not value and self.instance is not None:  # back to the default name: a longer one if it is taken
            default = copy.copy(self.instance)
            default.display_name = ""
            return public_names.unambiguous_default(default)
        if self.instance is not None and public_names.taken(value, self.instance):
            raise serializers.ValidationError(
                _("Another player is shown as %(name)s: choose another name.") % {"name": value}
            )
        return value


class RuleSetSerializer(serializers.ModelSerializer[RuleSet]):
    class Meta:
        model = RuleSet
        fields = ["id", "name", "club", "game", "preset", "overrides"]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        candidate = RuleSet(**{**({} if self.instance is None else _fields(self.instance)), **attrs})
        candidate.pk = None if self.instance is None else self.instance.pk  # rules in play stay: see clean()
        candidate._state.adding = self.instance is None  # an edit is not its own namesake (validate_constraints)
        try:
            candidate.clean()  # the engine judges preset and overrides
            candidate.validate_constraints()  # a name taken in its club, or among the shared rule sets
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.message_dict) from exc
        return attrs


def _fields(instance: RuleSet) -> dict[str, Any]:
    return {
        "name": instance.name,
        "club": instance.club,
        "game": instance.game,
        "preset": instance.preset,
        "overrides": instance.overrides,
    }


class CompetitionSerializer(serializers.ModelSerializer[Competition]):
    game = serializers.CharField(read_only=True)

    class Meta:
        model = Competition
        fields = [
            "id",
            "club",
            "name",
            "slug",
            "kind",
            "game",
            "rule_set",
            "deals_per_session",
            "duplicate",
            "movement",
            "is_public",
            "starts_on",
            "seating_method",
            "keep_clubmates_apart",
            "closed_at",
        ]
        read_only_fields = ["closed_at"]
        extra_kwargs = {"seating_method": {"required": False}}

    def validate_seating_method(self, value: str) -> str:
        if value not in GENERATORS:
            raise serializers.ValidationError(f"choose one of {', '.join(sorted(GENERATORS))}")
        return value


class SeatSerializer(serializers.ModelSerializer[Seat]):
    player_name = serializers.CharField(source="player.public_name", read_only=True)

    class Meta:
        model = Seat
        fields = ["position", "player", "player_name"]


class TableSerializer(serializers.ModelSerializer[Table]):
    seats = SeatSerializer(many=True, read_only=True)
    sheet = serializers.PrimaryKeyRelatedField(read_only=True)
    round_number = serializers.IntegerField(source="round.number", read_only=True)

    class Meta:
        model = Table
        fields = ["id", "round", "round_number", "number", "size", "seats", "sheet"]


class RoundSerializer(serializers.ModelSerializer[Round]):
    """A round and its seating. On creation: ``method`` (default: the competition's), ``players`` present
    (default: every active registration) and, for ``manual``, the organiser's ``seating``."""

    tables = TableSerializer(many=True, read_only=True)
    method = serializers.ChoiceField(choices=sorted(GENERATORS), required=False)
    players = player_ids(required=False, write_only=True, max_length=limits.PLAYERS_MAX)
    seating = serializers.ListField(
        child=player_ids(max_length=limits.TABLE_SIZE.high),
        required=False,
        write_only=True,
        max_length=limits.TABLE_NUMBER.high,
    )

    class Meta:
        model = Round
        fields = ["id", "competition", "number", "seed", "method", "status", "byes", "tables", "players", "seating"]
        read_only_fields = ["number", "status", "byes", "tables"]
        extra_kwargs = {"seed": {"required": False, **limits.SEED.kwargs()}}


class RoundEventSerializer(serializers.ModelSerializer[RoundEvent]):
    by = serializers.CharField(source="by.username", default=None, read_only=True, allow_null=True)

    class Meta:
        model = RoundEvent
        fields = ["action", "from_status", "to_status", "by", "reason", "detail", "at"]


class RedrawSerializer(serializers.Serializer[Any]):
    seed = serializers.IntegerField(required=False, **limits.SEED.kwargs())
    method = serializers.ChoiceField(choices=sorted(GENERATORS), required=False)
    seating = serializers.ListField(
        child=player_ids(max_length=limits.TABLE_SIZE.high), required=False, max_length=limits.TABLE_NUMBER.high
    )


class SwapSerializer(serializers.Serializer[Any]):
    players = player_ids(min_length=2, max_length=2)


class ReseatSerializer(serializers.Serializer[Any]):
    players = player_ids(min_length=4, max_length=limits.PLAYERS_MAX, help_text="The players present, each once.")
    reason = serializers.CharField(required=False, allow_blank=True, max_length=REASON_MAX_LENGTH)

    def validate_players(self, value: list[int]) -> list[int]:
        """Each player once: four ids of one player are not four players."""
        twice = sorted(player for player, times in Counter(value).items() if times > 1)
        if twice:
            raise serializers.ValidationError(f"each player once: {', '.join(map(str, twice))} given more than once")
        return value


class ReasonSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(max_length=REASON_MAX_LENGTH)


class DealEntrySerializer(serializers.ModelSerializer[DealEntry]):
    class Meta:
        model = DealEntry
        fields = ["deal_number", "version", "line", "contract", "points", "multiplier", "source", "created_at"]


class ScoreSheetSerializer(serializers.ModelSerializer[ScoreSheet]):
    competition = serializers.IntegerField(source="table.round.competition_id", read_only=True)
    round = serializers.IntegerField(source="table.round_id", read_only=True)
    lines = serializers.SerializerMethodField()

    class Meta:
        model = ScoreSheet
        fields = ["id", "table", "round", "competition", "state", "lines"]

    def get_lines(self, sheet: ScoreSheet) -> list[dict[str, Any]]:
        current = sorted((e for e in sheet.entries.all() if e.is_current), key=lambda e: e.deal_number)
        return DealEntrySerializer(current, many=True).data  # type: ignore[return-value]


class LineCorrectionSerializer(serializers.Serializer[Any]):
    line = serializers.DictField(help_text="The engine's score-sheet line (see the games package).")
    version = serializers.IntegerField(
        help_text="The version this correction is based on.", **limits.EXPECTED_VERSION.kwargs()
    )


class PenaltySerializer(serializers.ModelSerializer[Penalty]):
    class Meta:
        model = Penalty
        fields = ["id", "competition", "round", "player", "points", "reason", "created_at"]
        extra_kwargs = {"points": limits.PENALTY_POINTS.kwargs()}  # the model's check constraint, said as a 400

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """A round of the competition and a player registered in it (``tournaments.integrity``), by field."""
        fields = ("competition", "round", "player")
        candidate = Penalty(**{name: attrs.get(name) for name in fields if name in attrs})
        found = problems(candidate)
        if found:
            raise serializers.ValidationError(found)
        return attrs


class StandingSerializer(serializers.ModelSerializer[Standing]):
    """A standings row; ``value`` (the standings method's: "55.3%", "12 points") and ``explanation`` (how the rank
    was reached) in the reader's language (Accept-Language), players named by their public names."""

    player_name = serializers.CharField(source="player.public_name", read_only=True)
    value = serializers.CharField(read_only=True)
    explanation = serializers.CharField(read_only=True)

    class Meta:
        model = Standing
        fields = [
            "rank",
            "player",
            "player_name",
            "points",
            "deals_played",
            "sessions_played",
            "penalty_points",
            "value",
            "explanation",
        ]


class RatingSerializer(serializers.ModelSerializer[Rating]):
    player_name = serializers.CharField(source="player.public_name", read_only=True)

    class Meta:
        model = Rating
        fields = ["player", "player_name", "mu", "sigma", "ordinal", "deals_rated", "computed_at"]


class ScoreRequestSerializer(serializers.Serializer[Any]):
    players = serializers.ChoiceField(choices=[2, 3, 4, 5], default=4)
    deals = serializers.IntegerField(
        required=False, allow_null=True, help_text="16 or 24; null for Zwicken", **limits.DEAL_NUMBER.kwargs()
    )
    lines = serializers.ListField(child=serializers.DictField(), help_text="Score-sheet lines, in order.")


class LineErrorSerializer(serializers.Serializer[Any]):
    line = serializers.IntegerField(allow_null=True)
    code = serializers.CharField()
    field = serializers.CharField()
    message = serializers.CharField()


class ErrorsSerializer(serializers.Serializer[Any]):
    errors = LineErrorSerializer(many=True, help_text="the first problems (at most ERROR_LIST_LIMIT, 50 by default)")
    more_errors = serializers.IntegerField(required=False, help_text="how many more problems there were")


class DetailSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField()


class ScoreResultSerializer(serializers.Serializer[Any]):
    deal = serializers.IntegerField()
    contract = serializers.CharField()
    points = serializers.ListField(child=serializers.IntegerField())
    multiplier = serializers.IntegerField()
    totals = serializers.ListField(child=serializers.IntegerField())


class ScoreResponseSerializer(serializers.Serializer[Any]):
    results = ScoreResultSerializer(many=True)
    totals = serializers.ListField(child=serializers.IntegerField())
