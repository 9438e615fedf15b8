"""Clubs, players, rule sets, competitions, rounds (seatings), tables and penalties."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

import games
from games.errors import GameError
from scoring.explanations import readable_rows
from tournaments import permissions as rules
from tournaments import visibility
from tournaments.api.calculator import score_lines
from tournaments.api.errors import FMT, ApiSchema, csv_response, errors_response
from tournaments.api.idempotency import IdempotentMixin
from tournaments.api.permissions import ReadOrManage
from tournaments.api.serializers import (
    ClubSerializer,
    CompetitionSerializer,
    DetailSerializer,
    DisplayNameSerializer,
    PenaltySerializer,
    PlayerDetailSerializer,
    PlayerSerializer,
    ReasonSerializer,
    RuleSetSerializer,
    ScoreRequestSerializer,
    ScoreResponseSerializer,
    StandingSerializer,
    TableSerializer,
)
from tournaments.models import Club, Competition, Membership, Penalty, Player, RuleSet, Table
from tournaments.selectors.public import standing_rows
from tournaments.services.competitions import create_competition, update_competition
from tournaments.services.errors import ServiceError
from tournaments.services.penalties import give_penalty, remove_penalty
from tournaments.services.seasons import close_competition, reopen_competition
from tournaments.services.transfer import (
    ImportRejected,
    export_competition,
    import_competition,
    standings_csv,
    standings_rows,
)

PERMISSIONS = [IsAuthenticatedOrReadOnly, ReadOrManage]


class Base(IdempotentMixin, viewsets.GenericViewSet[Any]):
    permission_classes = PERMISSIONS
    schema = ApiSchema()


class ClubViewSet(
    Base, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, mixins.UpdateModelMixin
):
    """Clubs. Anyone reads; a superuser creates; the club's administrators change it."""

    queryset = Club.objects.order_by("name")
    serializer_class = ClubSerializer
    filterset_fields = ["slug", "city"]

    def perform_create(self, serializer: Any) -> None:
        if not self.request.user.is_superuser:
            raise PermissionDenied("Only a superuser creates clubs.")
        serializer.save()


class PlayerViewSet(
    Base, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, mixins.UpdateModelMixin
):
    """Players: their display name for everyone; details for the player and their clubs' administrators."""

    queryset = Player.objects.order_by("last_name", "first_name", "id")
    filterset_fields = ["memberships__club"]

    def get_serializer_class(self) -> Any:
        if self.action in ("create", "update", "partial_update", "me"):
            return PlayerDetailSerializer
        return PlayerSerializer

    def perform_create(self, serializer: Any) -> None:
        club = serializer.validated_data.pop("club", None)
        if club is None:
            raise ValidationError({"club": "Name the club the new player joins."})
        if not rules.is_club_admin(self.request.user, club.pk):
            raise PermissionDenied("Only the club's administrators add its players.")
        player = serializer.save()
        Membership.objects.create(club=club, player=player)

    @extend_schema(request=DisplayNameSerializer, responses={200: PlayerDetailSerializer, 404: DetailSerializer})
    @action(detail=False, methods=["get", "patch"], permission_classes=[IsAuthenticated])
    def me(self, request: Request) -> Response:
        """Your own player details; PATCH ``display_name`` to choose the name public pages show."""
        player = Player.objects.filter(user=request.user).first()
        if player is None:
            return Response({"detail": "Your account is not linked to a player."}, status=status.HTTP_404_NOT_FOUND)
        if request.method == "PATCH":
            body = DisplayNameSerializer(player, data=request.data, partial=True)
            body.is_valid(raise_exception=True)
            body.save()
        return Response(PlayerDetailSerializer(player).data)


class RuleSetViewSet(
    Base, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, mixins.UpdateModelMixin
):
    """Rule sets: an engine preset plus overrides, validated by the engine."""

    serializer_class = RuleSetSerializer
    filterset_fields = ["club", "game", "preset"]
    idempotency_exempt = frozenset({"score", "score_preset"})  # the calculators write nothing: nothing to keep

    def get_queryset(self) -> QuerySet[RuleSet]:
        return visibility.rule_sets_visible_to(self.request.user).order_by("name", "pk")

    def perform_create(self, serializer: Any) -> None:
        club = serializer.validated_data.get("club")
        allowed = self.request.user.is_superuser or (
            club is not None and rules.is_club_admin(self.request.user, club.pk)
        )
        if not allowed:
            raise PermissionDenied("Rule sets belong to a club you administer.")
        serializer.save()

    def perform_update(self, serializer: Any) -> None:
        if "club" in serializer.validated_data:
            self.perform_create(serializer)  # moving a rule set needs the same right as creating it there
        else:
            serializer.save()

    @extend_schema(
        request=ScoreRequestSerializer,
        responses={200: ScoreResponseSerializer},
        description="Score lines under this rule set and return the engine's points or its errors; stores nothing.",
    )
    @action(detail=True, methods=["post"], permission_classes=[AllowAny])
    def score(self, request: Request, pk: str | None = None) -> Response:
        return score_lines(self.get_object().engine_rules(), request.data)

    @extend_schema(
        request=ScoreRequestSerializer,
        responses={200: ScoreResponseSerializer, 404: DetailSerializer},
        parameters=[
            OpenApiParameter(
                "name", str, location=OpenApiParameter.PATH, pattern=r"^[a-z0-9_+]+$", description="e.g. iwwa, flemish"
            )
        ],
        description="Score lines under an engine preset (with +variants); stores nothing.",
    )
    @action(
        detail=False, methods=["post"], url_path=r"presets/(?P<name>[a-z0-9_+]+)/score", permission_classes=[AllowAny]
    )
    def score_preset(self, request: Request, name: str | None = None) -> Response:
        try:
            engine_rules = games.find(name or "")
        except GameError as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_404_NOT_FOUND)
        return score_lines(engine_rules, request.data)


class CompetitionViewSet(
    Base, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, mixins.UpdateModelMixin
):
    """Competitions you may see: public ones and those you run."""

    serializer_class = CompetitionSerializer
    filterset_fields = ["club", "kind", "game", "slug"]

    def get_queryset(self) -> QuerySet[Competition]:
        return visibility.standings_visible_to(self.request.user).select_related("club", "rule_set").order_by("pk")

    def perform_create(self, serializer: Any) -> None:
        data = serializer.validated_data
        if not rules.is_club_admin(self.request.user, data["club"].pk):
            raise PermissionDenied("Competitions are created by the organising club's administrators.")
        try:
            serializer.instance = create_competition(**data)
        except ServiceError as exc:
            raise ValidationError(str(exc)) from exc
        except Exception as exc:  # full_clean's ValidationError: field problems
            if hasattr(exc, "message_dict"):
                raise ValidationError(exc.message_dict) from exc
            raise

    def perform_update(self, serializer: Any) -> None:
        club = serializer.validated_data.get("club")
        if (
            club is not None
            and club.pk != serializer.instance.club_id
            and not rules.is_club_admin(self.request.user, club.pk)
        ):
            raise PermissionDenied("A competition moves only to a club you administer.")
        try:  # a rule set of its club (or shared), and not switched once played: tournaments.integrity
            serializer.instance = update_competition(serializer.instance, **serializer.validated_data)
        except DjangoValidationError as exc:
            raise ValidationError(exc.message_dict) from exc

    @extend_schema(
        parameters=[FMT],
        responses={(200, "application/json"): StandingSerializer(many=True), (200, "text/csv"): OpenApiTypes.STR},
    )
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def standings(self, request: Request, pk: str | None = None) -> Response | HttpResponse:
        competition = self.get_object()
        if request.query_params.get("fmt") == "csv":
            return csv_response(standings_csv(competition), f"standings-{competition.slug}")
        shown = readable_rows(standing_rows(competition))  # the method's value, explained, in the reader's language
        return Response([{**row, **shown.get(row["player"], {})} for row in standings_rows(competition)])

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 403: DetailSerializer})
    @action(detail=True, methods=["get"])
    def archive(self, request: Request, pk: str | None = None) -> Response:
        competition = self.get_object()
        if not rules.can_manage_competition(request.user, competition):
            raise PermissionDenied("Only the competition's organisers export it whole.")
        return Response(export_competition(competition))

    @extend_schema(request=None, responses=CompetitionSerializer)
    @action(detail=True, methods=["post"])
    def close(self, request: Request, pk: str | None = None) -> Response:
        """Close the competition: no more lines, rounds or penalties (the database refuses them too)."""
        competition = self.get_object()
        try:
            competition = close_competition(competition, by=request.user)
        except ServiceError as exc:
            raise ValidationError({"detail": str(exc)}) from exc
        return Response(CompetitionSerializer(competition).data)

    @extend_schema(request=ReasonSerializer, responses=CompetitionSerializer)
    @action(detail=True, methods=["post"])
    def reopen(self, request: Request, pk: str | None = None) -> Response:
        """Reopen a closed competition; the reason goes into the audit trail."""
        competition = self.get_object()
        body = ReasonSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            competition = reopen_competition(competition, reason=body.validated_data["reason"], by=request.user)
        except ServiceError as exc:
            raise ValidationError({"detail": str(exc)}) from exc
        return Response(CompetitionSerializer(competition).data)

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        parameters=[OpenApiParameter("club", int, required=True, description="the club that imports it")],
        responses={201: CompetitionSerializer, 404: DetailSerializer},
        description="Import a competition archive (from archive/) into a club; all or nothing.",
    )
    @action(detail=False, methods=["post"], url_path="import", permission_classes=[IsAuthenticated])
    def import_archive(self, request: Request) -> Response:
        club_id = request.query_params.get("club", "")
        # ASCII digits only ("²" is a digit to str.isdigit, not to int), and few enough for a bigint
        known = club_id.isascii() and club_id.isdigit() and len(club_id) <= 18
        club = get_object_or_404(Club, pk=int(club_id) if known else 0)
        if not rules.is_club_admin(request.user, club.pk):
            raise PermissionDenied("Only the club's administrators import competitions into it.")
        try:
            competition = import_competition(request.data, club=club, by=request.user)
        except ImportRejected as exc:
            return errors_response(exc.errors, omitted=exc.omitted)
        return Response(CompetitionSerializer(competition).data, status=status.HTTP_201_CREATED)


class TableViewSet(Base, mixins.ListModelMixin, mixins.RetrieveModelMixin):
    serializer_class = TableSerializer
    filterset_fields = ["round", "round__competition"]

    def get_queryset(self) -> QuerySet[Table]:
        visible = visibility.rounds_visible_to(self.request.user)  # the round page's rule: no draft for the public
        return (
            Table.objects.filter(round__in=visible)
            .select_related("round", "sheet")
            .prefetch_related("seats__player")
            .order_by("round_id", "number")
        )


class PenaltyViewSet(
    Base, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, mixins.DestroyModelMixin
):
    """Points deducted by the organisers, outside any deal; they count in the standings."""

    serializer_class = PenaltySerializer
    filterset_fields = ["competition", "player"]

    def get_queryset(self) -> QuerySet[Penalty]:
        # a penalty's round and reason are results, its round's seating the round page's: the public pages show
        # only their sum in the standings
        return visibility.penalties_visible_to(self.request.user).order_by("pk")

    def perform_create(self, serializer: Any) -> None:
        data = serializer.validated_data
        competition = data["competition"]
        if not rules.can_manage_competition(self.request.user, competition):
            raise PermissionDenied("Only the competition's organisers give penalties.")
        try:
            serializer.instance = give_penalty(
                competition,
                data["player"],
                data["points"],
                data["reason"],
                round_=data.get("round"),
                by=self.request.user,
            )
        except ServiceError as exc:
            raise ValidationError({"detail": str(exc)}) from exc
        except DjangoValidationError as exc:  # a round or player of another competition: tournaments.integrity
            raise ValidationError(exc.message_dict) from exc

    def perform_destroy(self, instance: Penalty) -> None:
        try:
            remove_penalty(instance)
        except ServiceError as exc:
            raise ValidationError({"detail": str(exc)}) from exc
