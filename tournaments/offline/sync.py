"""A line the entry page kept while offline, sent when the connection returns (``static/offline/entry.js``).

The same form and the same service as the page's own save, so the line is judged and stored exactly as if it had
been saved at the table; the answer is JSON for the page's queue instead of a page. The queue sends its lines one
at a time, in the order they were typed, each with the idempotency key it was given when typed: a line whose
answer was lost is sent again and stored once. A deal someone else saved meanwhile (409) or a line refused (422)
stops the queue at that line, with what the table needs to decide: the server's line beside theirs.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import devices
from tournaments.line_errors import person_message
from tournaments.offline.spec import as_fields
from tournaments.services.errors import EntryRejected, StaleVersion
from tournaments.views.entry import (
    EntryAccess,
    entry_access,
    entry_form,
    line_words,
    points_text,
    save_line,
    stale_message,
    with_device,
)


@require_POST
@with_device
def queued_line(request: HttpRequest, slug: str, round_number: int, table_number: int) -> HttpResponse:
    access = entry_access(request, slug, round_number, table_number)
    if isinstance(access, HttpResponse):  # signed out meanwhile: the page says so, and keeps the line
        return JsonResponse({"state": "signed_out", "message": _("Log in again to save these deals.")}, status=401)
    form = entry_form(access, request.POST)
    if not form.is_valid():
        return _refused(form, [(name, str(error)) for name, errors in form.errors.items() for error in errors])
    try:
        result = save_line(request, access, form)
    except StaleVersion as exc:
        theirs = None
        if exc.current is not None:
            theirs = _stored(access, exc.current)
            theirs["fields"] = as_fields(type(form).initial_from_line(exc.current.line))
        message = stale_message(exc, access, devices.device_of(request).mark)
        return JsonResponse({"state": "conflict", "message": message, "theirs": theirs}, status=409)
    except EntryRejected as exc:
        errors = [(form.engine_field(e) or "", person_message(e, access.names)) for e in exc.errors]
        return _refused(form, errors)
    return JsonResponse({"state": "saved", "replayed": not result.created, **_stored(access, result.entry)})


def _stored(access: EntryAccess, entry: Any) -> dict[str, Any]:
    return {
        "deal": entry.deal_number,
        "version": entry.version,
        "points": list(entry.points),
        "words": line_words(access, entry.line),
        "points_text": points_text(entry.points, access.names),
    }


def _refused(form: Any, errors: list[tuple[str, str]]) -> JsonResponse:
    """Each error with the label of the field it is about, as the page's own save would show it."""
    shown = []
    for name, message in errors:
        field = form.fields.get(name) if name and name != "__all__" else None
        shown.append({"field": name if field else "", "label": str(field.label) if field else "", "message": message})
    return JsonResponse({"state": "refused", "errors": shown}, status=422)
