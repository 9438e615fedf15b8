"""Rounds through their life: seat (generate), redraw, swap, check, publish, re-seat, finalise, reopen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import mixins, serializers
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import permissions as rules
from tournaments import visibility
from tournaments.api.parsers import StrictJSONParser
from tournaments.api.serializers import (
    ReasonSerializer,
    RedrawSerializer,
    ReseatSerializer,
    RoundEventSerializer,
    RoundSerializer,
    SwapSerializer,
)
from tournaments.api.views_setup import Base
from tournaments.models import Round
from tournaments.services import rounds as lifecycle
from tournaments.services.errors import ServiceError

ProblemsSerializer = inline_serializer(
    "SeatingProblems", {"problems": serializers.ListField(child=serializers.CharField())}
)


class RoundViewSet(Base, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin):
    """Rounds and their seatings. POST seats the next round as a draft; the actions move it through its life.

    Every write needs the competition's organisers; a request the round's state does not allow is a 400 that
    says why (for example: swapping players in a published round).
    """

    serializer_class = RoundSerializer
    filterset_fields = ["competition", "status", "number"]
    parser_classes = [StrictJSONParser]  # seatings are nested lists: JSON only
    organiser_reads = ("problems", "events")

    def get_queryset(self) -> QuerySet[Round]:
        return (
            visibility.rounds_visible_to(self.request.user)  # the round page's rule: no draft for the public
            .select_related("competition")
            .prefetch_related("tables__seats__player", "tables__sheet")
            .order_by("competition_id", "number")
        )

    def filter_queryset(self, queryset: QuerySet[Round]) -> QuerySet[Round]:
        """List filters apply to the list only: a round's own actions ignore them."""
        return super().filter_queryset(queryset) if self.action == "list" else queryset

    def perform_create(self, serializer: Any) -> None:
        data = serializer.validated_data
        competition = data["competition"]
        if not rules.can_manage_competition(self.request.user, competition):
            raise PermissionDenied("Only the competition's organisers seat rounds.")
        serializer.instance = self._service(
            lambda: lifecycle.create_round(
                competition,
                seed=data.get("seed"),
                method=data.get("method"),
                players=data.get("players"),
                tables=data.get("seating", ()),
                by=self.request.user,
            )
        )

    @staticmethod
    def _service(call: Callable[[], Round]) -> Round:
        try:
            return call()
        except ServiceError as exc:
            raise ValidationError({"detail": str(exc)}) from exc

    def _respond(self, call: Callable[[], Round]) -> Response:
        round_ = self._service(call)
        return Response(RoundSerializer(self.get_queryset().get(pk=round_.pk)).data)

    @extend_schema(request=None, responses=RoundSerializer)
    @action(detail=True, methods=["post"])
    def publish(self, request: Request, pk: str | None = None) -> Response:
        """Show the draft seating to the players (publishing a published round changes nothing)."""
        round_ = self.get_object()
        if round_.status == Round.Status.PUBLISHED:
            return Response(RoundSerializer(round_).data)
        return self._respond(lambda: lifecycle.publish_round(round_, by=request.user))

    @extend_schema(request=RedrawSerializer, responses=RoundSerializer)
    @action(detail=True, methods=["post"])
    def redraw(self, request: Request, pk: str | None = None) -> Response:
        """Draw a draft's seating again: another seed, another method, or the organiser's own tables."""
        round_ = self.get_object()
        body = RedrawSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        return self._respond(
            lambda: lifecycle.regenerate_round(
                round_,
                seed=data.get("seed"),
                method=data.get("method"),
                tables=data.get("seating", ()),
                by=request.user,
            )
        )

    @extend_schema(request=SwapSerializer, responses=RoundSerializer)
    @action(detail=True, methods=["post"])
    def swap(self, request: Request, pk: str | None = None) -> Response:
        """Exchange the seats of two players (by player id) in a draft."""
        round_ = self.get_object()
        body = SwapSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        first, second = body.validated_data["players"]
        return self._respond(lambda: lifecycle.swap_players(round_, first, second, by=request.user))

    @extend_schema(request=None, responses=ProblemsSerializer)
    @action(detail=True, methods=["get"])
    def problems(self, request: Request, pk: str | None = None) -> Response:
        """What is wrong with the seating (empty when it can be published); organisers only."""
        round_ = self.get_object()
        if not rules.can_manage_competition(request.user, round_.competition):
            raise PermissionDenied("Only the competition's organisers check seatings.")
        return Response({"problems": lifecycle.round_problems(round_)})

    @extend_schema(request=ReseatSerializer, responses=RoundSerializer)
    @action(detail=True, methods=["post"])
    def reseat(self, request: Request, pk: str | None = None) -> Response:
        """Seat the round again for the players present now, keeping the tables that can stay."""
        round_ = self.get_object()
        body = ReseatSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        return self._respond(
            lambda: lifecycle.reseat_round(
                round_, players=data["players"], by=request.user, reason=data.get("reason", "")
            )
        )

    @extend_schema(request=None, responses=RoundSerializer)
    @action(detail=True, methods=["post"])
    def finalise(self, request: Request, pk: str | None = None) -> Response:
        """Lock a complete round: its sheets take no more lines."""
        round_ = self.get_object()
        return self._respond(lambda: lifecycle.finalise_round(round_, by=request.user))

    @extend_schema(request=ReasonSerializer, responses=RoundSerializer)
    @action(detail=True, methods=["post"])
    def reopen(self, request: Request, pk: str | None = None) -> Response:
        """Unlock a finalised round for a correction; the reason is logged."""
        round_ = self.get_object()
        body = ReasonSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return self._respond(
            lambda: lifecycle.reopen_round(round_, reason=body.validated_data["reason"], by=request.user)
        )

    @extend_schema(request=None, responses=RoundEventSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def events(self, request: Request, pk: str | None = None) -> Response:
        """The round's log: every seating, swap and change of state, with who and why; organisers only."""
        round_ = self.get_object()
        if not rules.can_manage_competition(request.user, round_.competition):
            raise PermissionDenied("Only the competition's organisers read a round's log.")
        events = round_.events.select_related("by").order_by("at", "id")
        return Response(RoundEventSerializer(events, many=True).data)
