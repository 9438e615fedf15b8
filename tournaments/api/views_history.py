"""A sheet's history through the API: restore an earlier version of a deal as a new, audited version."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.generics import get_object_or_404
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import devices, limits, visibility
from tournaments import permissions as rules
from tournaments.api.errors import ApiSchema, errors_response
from tournaments.api.serializers import DealEntrySerializer
from tournaments.models import ScoreSheet
from tournaments.services.errors import EntryRejected, ServiceError, StaleVersion
from tournaments.services.history import restore_version


class RestoreSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(help_text="the version to make current", **limits.VERSION.kwargs())
    expected_version = serializers.IntegerField(
        required=False, help_text="the current version you saw (409 if stale)", **limits.EXPECTED_VERSION.kwargs()
    )


class RestoreVersionView(APIView):
    """POST ``{"version": n}``: deal ``deal`` of the sheet takes version ``n``'s line again, as a new version."""

    schema = ApiSchema()

    @extend_schema(request=RestoreSerializer, responses={201: DealEntrySerializer, 409: DealEntrySerializer})
    def post(self, request: Request, pk: int, deal: int) -> Response:
        visible = visibility.rounds_visible_to(request.user)  # the sheet page's rule
        sheet = get_object_or_404(
            ScoreSheet.objects.select_related("table__round__competition").filter(table__round__in=visible), pk=pk
        )
        if not rules.can_manage_competition(request.user, sheet.table.round.competition):
            raise PermissionDenied("Only the competition's organisers restore versions.")
        body = RestoreSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            result = restore_version(
                sheet,
                deal,
                body.validated_data["version"],
                by=request.user,
                expected_version=body.validated_data.get("expected_version"),
                entered_in=devices.device_of(request).mark,
            )
        except StaleVersion as exc:
            current = DealEntrySerializer(exc.current).data if exc.current is not None else None
            return Response({"detail": str(exc), "current": current}, status=status.HTTP_409_CONFLICT)
        except EntryRejected as exc:
            return errors_response((None, e) for e in exc.errors)
        except ServiceError as exc:
            raise ValidationError({"detail": str(exc)}) from exc
        return Response(DealEntrySerializer(result.entry).data, status=status.HTTP_201_CREATED)
