"""Score sheets and their lines, standings, ratings, the stateless calculator, import and export."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.generics import get_object_or_404
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.models import Rating
from tournaments import devices, visibility
from tournaments import permissions as rules
from tournaments.api.errors import FMT, ApiSchema, csv_response, errors_response
from tournaments.api.idempotency import HEADER, scoped_key
from tournaments.api.parsers import CSVTextParser, StrictJSONParser
from tournaments.api.serializers import (
    DealEntrySerializer,
    LineCorrectionSerializer,
    RatingSerializer,
    ScoreSheetSerializer,
)
from tournaments.api.views_setup import Base
from tournaments.models import DealEntry, Round, ScoreSheet
from tournaments.offline import contact
from tournaments.services.entry import record_deal
from tournaments.services.errors import EntryRejected, StaleVersion
from tournaments.services.transfer import (
    ImportRejected,
    import_lines,
    parse_sheet_csv,
    sheet_csv,
)

TABLE_CODE = "X-Table-Code"
# One instance, its fields built once: building a ModelSerializer's fields costs 40 times rendering a line.
_ENTRY = DealEntrySerializer()


def _device(request: Request) -> str:
    """The writing device's mark for its lines (``tournaments.devices``): who entered may not confirm."""
    return devices.device_of(request).mark


def entry_data(entry: DealEntry) -> dict[str, Any]:
    """One line as ``DealEntrySerializer`` shows it, without building the serializer per request."""
    return dict(_ENTRY.to_representation(entry))


# 409 on a correction: the deal's current line, or only ``{"version": 0}`` when the deal has no line yet
STALE_VERSION = OpenApiResponse(
    {
        "anyOf": [
            {"$ref": "#/components/schemas/DealEntry"},
            {"type": "object", "properties": {"version": {"type": "integer", "enum": [0]}}, "required": ["version"]},
        ]
    },
    description="Someone changed the deal since the version you gave: its current line (version 0: no line yet).",
)
TABLE_CODE_PARAM = OpenApiParameter(
    TABLE_CODE, str, location=OpenApiParameter.HEADER, required=False, description="the sheet's table code"
)


class ScoreSheetViewSet(Base, mixins.ListModelMixin, mixins.RetrieveModelMixin):
    """A table's score sheet. Lines are written by the competition's organisers or with the table code."""

    serializer_class = ScoreSheetSerializer
    filterset_fields = ["table__round", "table__round__competition", "state"]
    permission_classes = [AllowAny]  # writes check the organiser role or the table code themselves
    idempotent_atomic = frozenset({"add_line"})  # key, line and stored response: one commit per line

    def get_queryset(self) -> QuerySet[ScoreSheet]:
        return (
            visibility.sheets_visible_to(self.request.user)  # the sheet page's rule for its lines
            .select_related("table__round")
            .prefetch_related("entries")
            .order_by("pk")
        )

    def get_object(self) -> ScoreSheet:
        """The sheet as its page shows it; or, with its table code, a table's own sheet as the entry page shows it
        (a published round, whatever the competition's visibility): the table reads the lines it is entering."""
        try:
            return super().get_object()
        except Http404:
            code = self.request.headers.get(TABLE_CODE)
            if not code:
                raise
        sheets = ScoreSheet.objects.select_related("table__round__competition").prefetch_related("entries")
        sheet = get_object_or_404(sheets.exclude(table__round__status=Round.Status.DRAFT), pk=self.kwargs["pk"])
        if not rules.table_code_opens(sheet, code):
            raise Http404
        contact.note(sheet.pk)
        return sheet

    def _writable(self, request: Request, pk: str | None, *, slim: bool = False) -> ScoreSheet:
        """The sheet, if this request may write it; ``slim`` when the caller needs no more than its id.

        A table entering its own sheet needs only the sheet's code checked: a ``slim`` sheet is read
        without its table, round and competition (the entry service reads them itself, locked).
        """
        code = request.headers.get(TABLE_CODE)
        sheets = ScoreSheet.objects.all()
        if slim and code:
            sheets = sheets.only("pk", "captain_code")  # another code: the check loads the competition after all
        else:
            sheets = sheets.select_related("table__round__competition")
        sheet = get_object_or_404(sheets, pk=pk)
        if rules.table_code_opens(sheet, code):  # the table itself: the progress table hears from it
            contact.note(sheet.pk)
        elif not rules.can_manage_competition(request.user, sheet.table.round.competition):
            raise PermissionDenied("Only the competition's organisers, or the table with its code, enter this sheet.")
        return sheet

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        """A write hands the client its device token (``X-Device``, and a cookie): send it back with every line."""
        return devices.remember(request, super().finalize_response(request, response, *args, **kwargs))

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={201: DealEntrySerializer, 200: DealEntrySerializer, 409: DealEntrySerializer},
        parameters=[TABLE_CODE_PARAM],
        description="Add the sheet's next line (the engine's line format). A deal already on the sheet is never "
        "replaced: 409 with its current line (correct it with PUT and that line's version).",
    )
    @action(detail=True, methods=["post"], url_path="lines")
    def add_line(self, request: Request, pk: str | None = None) -> Response:
        sheet = self._writable(request, pk, slim=True)  # the entry service reads the sheet itself, locked
        key = request.headers.get(HEADER)
        scoped = scoped_key(request, key) if key else None
        try:
            result = record_deal(
                sheet, request.data, by=request.user, idempotency_key=scoped, source="api", entered_in=_device(request)
            )
        except StaleVersion as exc:  # that deal is already on the sheet: a POST only adds
            return Response(entry_data(exc.current), status=status.HTTP_409_CONFLICT)
        except EntryRejected as exc:
            return errors_response((None, e) for e in exc.errors)
        code = status.HTTP_201_CREATED if result.created else status.HTTP_200_OK
        return Response(entry_data(result.entry), status=code)

    @extend_schema(
        request=LineCorrectionSerializer,
        responses={200: DealEntrySerializer, 409: STALE_VERSION},
        parameters=[TABLE_CODE_PARAM, OpenApiParameter("deal", int, location=OpenApiParameter.PATH)],
        description="Correct deal N, based on the version you saw; a stale version gets 409 and the current line.",
    )
    @action(detail=True, methods=["put"], url_path=r"lines/(?P<deal>[0-9]{1,9})")  # more digits: a 404
    def correct_line(self, request: Request, pk: str | None = None, deal: str | None = None) -> Response:
        sheet = self._writable(request, pk, slim=True)
        body = LineCorrectionSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        line = dict(body.validated_data["line"])
        if line.get("deal") != int(deal or 0):
            raise ValidationError({"line": f"the line's deal must be {deal}, the deal in the address"})
        try:
            result = record_deal(
                sheet,
                line,
                by=request.user,
                source="api",
                expected_version=body.validated_data["version"],
                entered_in=_device(request),
            )
        except StaleVersion as exc:
            current = entry_data(exc.current) if exc.current is not None else {"version": 0}
            return Response(current, status=status.HTTP_409_CONFLICT)
        except EntryRejected as exc:
            return errors_response((None, e) for e in exc.errors)
        return Response(entry_data(result.entry))

    @extend_schema(
        parameters=[FMT],
        responses={(200, "application/json"): OpenApiTypes.OBJECT, (200, "text/csv"): OpenApiTypes.STR},
    )
    @action(detail=True, methods=["get"])
    def export(self, request: Request, pk: str | None = None) -> Response | HttpResponse:
        sheet = self.get_object()
        if request.query_params.get("fmt") == "csv":
            return csv_response(sheet_csv(sheet), f"sheet-{sheet.pk}")
        lines = list(sheet.entries.filter(is_current=True).order_by("deal_number").values_list("line", flat=True))
        return Response({"lines": lines})

    @extend_schema(
        request={"application/json": OpenApiTypes.OBJECT, "text/csv": OpenApiTypes.STR},
        responses={201: DealEntrySerializer(many=True)},
        parameters=[TABLE_CODE_PARAM],
        description='Import lines after the current ones: JSON {"lines": [...]} or CSV. All or nothing.',
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="import",
        parser_classes=[StrictJSONParser, CSVTextParser],
        filter_backends=[],
        pagination_class=None,
    )
    def import_(self, request: Request, pk: str | None = None) -> Response:
        sheet = self._writable(request, pk)
        try:
            if isinstance(request.data, str):
                lines = parse_sheet_csv(request.data)
            else:
                data = request.data
                lines = data.get("lines") if isinstance(data, dict) else data
            entries = import_lines(sheet, lines, by=request.user, entered_in=_device(request))
        except ImportRejected as exc:
            return errors_response(exc.errors, omitted=exc.omitted)
        return Response(DealEntrySerializer(entries, many=True).data, status=status.HTTP_201_CREATED)


class RatingViewSet(mixins.ListModelMixin, viewsets.GenericViewSet[Any]):
    """OpenSkill ratings, best first: over the deals of confirmed sheets in finalised rounds of competitions whose
    results are public, so every rating can be checked on the public pages."""

    queryset = Rating.objects.select_related("player").order_by("-ordinal", "player_id")
    serializer_class = RatingSerializer
    permission_classes = [AllowAny]
    schema = ApiSchema()
    filterset_fields = ["player"]
