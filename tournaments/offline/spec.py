"""What the entry page tells its scripts (``static/offline/``): where the engine and the service worker are, the
sheet's rules and stored lines, and where a line kept while offline is sent."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.templatetags.static import static
from django.urls import get_script_prefix, reverse

# Pyodide compiles WebAssembly: the entry page's policy allows that, and nothing else more (no 'unsafe-eval'). The
# service worker is a script of the page's own origin ('self'), which the policy already allows.
ENGINE_CSP = {"script-src": ["'wasm-unsafe-eval'"]}


def engine_available() -> bool:
    """Whether Pyodide's files are served (``make install`` puts them in node_modules/)."""
    return bool(settings.STATICFILES_DIRS)


def worker_scope() -> str:
    """The pages the service worker controls: the competitions' (it acts on their entry pages only)."""
    return f"{get_script_prefix()}c/"


def engine_spec(access: Any, entries: list[Any], initial_from_line: Any, boards: list[int]) -> dict[str, Any] | None:
    """The offline scripts' data; None when Pyodide is not installed (the page then works online only).

    ``entries`` are the sheet's current lines in deal order: the engine settles what is typed offline after them,
    and ``stored`` lets the page open a correction of one offline (its form fields and the version it replaces).
    ``boards``: a duplicate table's boards, deal by deal, so a deal kept offline is named with its board as the
    preview names it online (a relay table's deal 1 may be board 5).
    """
    if not engine_available():
        return None
    sheet = access.sheet
    place = {"slug": access.competition.slug, "round_number": sheet.table.round.number}
    place["table_number"] = sheet.table.number
    return {
        "pyodide": static("pyodide/"),
        "archive": reverse("offline-engine"),
        "worker": reverse("offline-worker"),
        "scope": worker_scope(),
        "sheet": reverse("sheet-entry", kwargs=place),
        "sync": reverse("sheet-entry-queued", kwargs=place),
        # the page's paths before the competition was renamed: lines kept under them join this page's queue
        "former": [
            reverse("sheet-entry", kwargs={**place, "slug": slug})
            for slug in access.competition.former_addresses.values_list("slug", flat=True)
        ],
        "rules": access.rules.to_json(),
        "game": access.competition.game,
        "names": access.names,
        "players": len(access.seats),
        "deals": access.competition.deals_per_session,
        "lines": [entry.line for entry in entries],
        "boards": boards,
        "stored": {
            str(entry.deal_number): {"version": entry.version, "fields": as_fields(initial_from_line(entry.line))}
            for entry in entries
        },
    }


def as_fields(initial: dict[str, Any]) -> dict[str, Any]:
    """The form's initial values as the page's fields hold them: text, or a list of texts for check boxes."""
    return {
        name: [str(v) for v in value] if isinstance(value, list) else "" if value is None else str(value)
        for name, value in initial.items()
    }
