"""Turn service errors into API responses with every problem listed; document the error responses."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiParameter
from rest_framework import status
from rest_framework.response import Response

from games.errors import FieldError


def errors_response(
    errors: Iterable[tuple[int | None, FieldError]], code: int = status.HTTP_400_BAD_REQUEST, *, omitted: int = 0
) -> Response:
    """``{"errors": [...]}``: the first ``ERROR_LIST_LIMIT`` problems; ``more_errors``: how many more there were.

    ``omitted``: problems the caller already left out (``ImportRejected.omitted``), counted in ``more_errors``.
    """
    listed: list[dict[str, Any]] = []
    more = omitted
    for line, e in errors:
        if len(listed) < settings.ERROR_LIST_LIMIT:
            listed.append({"line": line, "code": e.code, "field": e.field, "message": e.message})
        else:
            more += 1
    body: dict[str, Any] = {"errors": listed}
    if more:
        body["more_errors"] = more
    return Response(body, status=code)


FMT = OpenApiParameter("fmt", str, enum=["json", "csv"], description="json (default) or csv")
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    location=OpenApiParameter.HEADER,
    required=False,
    description="A retry with the same key gets the first response back (409 while it is still being processed, "
    "422 when the key was used for another request).",
)


def csv_response(text: str, name: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    return response


@csrf_exempt  # it changes nothing; a write to an unknown address gets the 404 too
def not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Unknown addresses under the API answer in JSON, like the API's own 404s."""
    return JsonResponse({"detail": "Not found."}, status=status.HTTP_404_NOT_FOUND)


_UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


class ApiSchema(AutoSchema):
    """Documents the error responses every operation can give, besides its own.

    401: bad credentials (on any operation); 403: not allowed to write (or to
    read, for a view's ``organiser_reads`` actions); 404:
    no such object; 400: invalid input (writes, list filters); 409/422: an
    ``Idempotency-Key`` still being processed or used for another request; 413: a body over its size limit
    (``REQUEST_BODY_MAX_BYTES``).
    Bodies: ``{"detail": ...}``, ``{"errors": [...]}`` (engine and import
    errors, per line), or DRF's field errors.
    """

    def get_override_parameters(self) -> list[Any]:
        parameters = list(super().get_override_parameters())
        if self.method == "POST" and _idempotent(self.view):
            parameters.append(IDEMPOTENCY_KEY)
        return parameters

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        for code in self._error_codes():
            if code not in responses:
                schema = self._invalid_input() if code == "400" else self._detail()
                responses[code] = self._get_response_for_code(schema, code, direction=direction)
        return responses

    def _error_codes(self) -> list[str]:
        codes = ["401"]
        if self.method in _UNSAFE or getattr(self.view, "action", None) in getattr(self.view, "organiser_reads", ()):
            codes += ["400", "403"] if self.method in _UNSAFE else ["403"]
        elif getattr(self.view, "action", None) == "list" and getattr(self.view, "filterset_fields", None):
            codes.append("400")  # a filter value of the wrong type
        if "{" in self.path:
            codes.append("404")
        if self.method == "POST" and _idempotent(self.view):
            codes += ["409", "422"]
        if self.method in _UNSAFE:
            codes.append("413")  # a body over its size limit (config/body_limit.py)
        if getattr(self.view, "throttle_scope", None):
            codes.append("429")  # too many requests from this address
        return codes

    def _detail(self) -> dict[str, Any]:
        from tournaments.api.serializers import DetailSerializer

        return self.resolve_serializer(DetailSerializer, "response").ref  # type: ignore[no-any-return]

    def _invalid_input(self) -> dict[str, Any]:
        from tournaments.api.serializers import ErrorsSerializer

        field_errors = {
            "type": "object",
            "description": "field errors: the messages per field (an object for nested data)",
            "additionalProperties": {
                "anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "string"}, {"type": "object"}]
            },
        }
        messages = {"type": "array", "items": {"type": "string"}, "description": "messages about the request"}
        return {
            "anyOf": [
                self.resolve_serializer(ErrorsSerializer, "response").ref,
                self._detail(),
                field_errors,
                messages,
            ]
        }


def _idempotent(view: Any) -> bool:
    from tournaments.api.idempotency import IdempotentMixin

    return isinstance(view, IdempotentMixin) and getattr(view, "action", None) not in view.idempotency_exempt
