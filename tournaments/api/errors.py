"""Turn service errors into API responses with every problem listed."""

from __future__ import annotations

from collections.abc import Iterable

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter
from rest_framework import status
from rest_framework.response import Response

from games.errors import FieldError


def errors_response(
    errors: Iterable[tuple[int | None, FieldError]], code: int = status.HTTP_400_BAD_REQUEST
) -> Response:
    return Response(
        {"errors": [{"line": line, "code": e.code, "field": e.field, "message": e.message} for line, e in errors]},
        status=code,
    )


FMT = OpenApiParameter("fmt", str, enum=["json", "csv"], description="json (default) or csv")


def csv_response(text: str, name: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    return response
