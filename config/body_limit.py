"""Refuse a request body over its size limit before anything reads it (413), whatever its content type.

Django caps only what ``request.body`` and ``request.POST`` read (``DATA_UPLOAD_MAX_MEMORY_SIZE``); the API's
parsers read the stream themselves, so a CSV or a JSON body of any size was parsed, and answered with errors as
large. This middleware comes first: a declared ``Content-Length`` over the limit is refused without reading a
byte; a body whose length is not declared or not bounded by it (chunked, or under ASGI, where Django hands the
whole body over whatever the header says) is counted as it is read, up to one byte past the limit, and then
handed on from memory.

Limits (README "Security"): ``REQUEST_BODY_MAX_BYTES`` for every route, ``REQUEST_BODY_LIMITS_BY_ROUTE`` for the
few routes that take more (a competition archive), by URL name.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from django.conf import settings
from django.core.handlers.wsgi import LimitedStream
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import Resolver404, resolve
from django.utils.translation import gettext

CHUNK = 64 * 1024


def limit_for(path_info: str) -> int:
    """The largest body the route at ``path_info`` accepts, in bytes."""
    default: int = settings.REQUEST_BODY_MAX_BYTES
    by_route: dict[str, int] = settings.REQUEST_BODY_LIMITS_BY_ROUTE
    if not by_route:
        return default
    try:
        match = resolve(path_info)
    except Resolver404:
        return default
    return by_route.get(match.view_name, default)


class BodySizeLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        declared = _declared_length(request)
        if declared is None:
            return _too_large(request, settings.REQUEST_BODY_MAX_BYTES, bad_length=True)
        bounded = isinstance(getattr(request, "_stream", None), LimitedStream)
        if declared > settings.REQUEST_BODY_MAX_BYTES or not bounded:
            limit = limit_for(request.path_info)
            if declared > limit:
                return _too_large(request, limit)
            if not bounded and not _read_within(request, limit):
                return _too_large(request, limit)
        return self.get_response(request)


def _declared_length(request: HttpRequest) -> int | None:
    """The ``Content-Length`` (0 when absent), or None when it is not a number."""
    raw = request.META.get("CONTENT_LENGTH") or "0"
    try:
        value = int(raw)
    except ValueError:
        return None
    return value if value >= 0 else None


def _read_within(request: HttpRequest, limit: int) -> bool:
    """Read the body up to one byte past ``limit``; if it fits, hand it on from memory as if never read."""
    stream = request._stream  # type: ignore[attr-defined]
    buffer = io.BytesIO()
    size = 0
    while size <= limit:
        chunk = stream.read(min(CHUNK, limit + 1 - size))
        if not chunk:
            break
        buffer.write(chunk)
        size += len(chunk)
    if size > limit:
        return False
    buffer.seek(0)
    request._stream = buffer  # type: ignore[attr-defined]
    if not request.META.get("CONTENT_LENGTH") and size:
        request.META["CONTENT_LENGTH"] = str(size)  # parsers that look at it (DRF) see the body
    return True


def _too_large(request: HttpRequest, limit: int, *, bad_length: bool = False) -> HttpResponse:
    if bad_length:
        message = gettext("The request's Content-Length is not a valid size.")
        status = 400
    else:
        message = gettext("The request body is too large: at most %(size)s bytes are accepted here.") % {"size": limit}
        status = 413
    if request.path_info.startswith("/api/"):
        response: HttpResponse = JsonResponse({"detail": message}, status=status)
    else:
        response = HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
    return response
