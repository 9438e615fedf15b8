"""The rules engine's source as one zip for the browser (``static/offline/engine.js`` unpacks it into Pyodide)."""

from __future__ import annotations

import hashlib
import io
import zipfile
from functools import cache
from pathlib import Path

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.views.decorators.http import require_GET

import games

ENGINE_ROOT = Path(games.__file__).resolve().parent


@cache
def engine_archive() -> tuple[bytes, str]:
    """``games/`` (its Python files, the package marker) zipped once per process, and the zip's validator."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(ENGINE_ROOT.rglob("*")):
            if path.suffix in (".py", ".typed") and "__pycache__" not in path.parts:
                info = zipfile.ZipInfo(str(Path("games") / path.relative_to(ENGINE_ROOT)), (2026, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, path.read_bytes())
    body = buffer.getvalue()
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


@require_GET
def engine(request: HttpRequest) -> HttpResponse:
    body, etag = engine_archive()
    if request.headers.get("If-None-Match") == etag:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(body, content_type="application/zip")
    response["ETag"] = etag
    response["Cache-Control"] = "public, max-age=300"  # revalidated after five minutes: a new release shows soon
    return response
