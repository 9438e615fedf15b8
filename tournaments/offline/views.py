"""The rules engine's source as one zip for the browser (``static/offline/engine.js`` unpacks it into Pyodide)."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_GET

import games
from tournaments.offline.spec import worker_scope

ENGINE_ROOT = Path(games.__file__).resolve().parent
# the solver (games/solver) is compiled C for the server's board analysis: of no use in the browser
SERVER_ONLY = frozenset({"solver"})


@cache
def engine_archive() -> tuple[bytes, str]:
    """``games/`` (its Python files but the solver's, the package marker) zipped once per process, and the zip's
    validator."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(ENGINE_ROOT.rglob("*")):
            if path.suffix in (".py", ".typed") and not {"__pycache__", *SERVER_ONLY} & set(path.parts):
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


# What the engine needs of Pyodide's package (loadPyodide fetches these; the rest of the package is for developers).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
OFFLINE_STATIC = Path(__file__).resolve().parent.parent / "static" / "offline"
WORKER = OFFLINE_STATIC / "worker.js"


@cache
def worker_version() -> str:
    """Changes with the engine, Pyodide's release and the offline scripts: a new version is a new worker, which
    replaces the files it keeps (unversioned static addresses stay right)."""
    digest = hashlib.sha256(engine_archive()[1].encode())
    digest.update(str(settings.PYODIDE_VERSION).encode())
    for path in sorted(OFFLINE_STATIC.glob("*.js")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@require_GET
def worker(request: HttpRequest) -> HttpResponse:
    """The entry page's service worker (``static/offline/worker.js``), allowed to control the competitions' pages."""
    settings_js = json.dumps(
        {
            "version": worker_version(),
            "static": settings.STATIC_URL if settings.STATIC_URL.startswith("/") else f"/{settings.STATIC_URL}",
            "queue": static("offline/queue.js"),
            "keep": [static(f"pyodide/{name}") for name in PYODIDE_FILES]
            + [reverse("offline-engine"), static("offline/engine.js"), static("offline/entry.js")],
        }
    )
    body = f"const WORKER = {settings_js};\n{WORKER.read_text()}"
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = worker_scope()
    response["Cache-Control"] = "no-cache"  # the browser checks for a new worker on every visit
    return response
