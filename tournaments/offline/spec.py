"""What the entry page tells ``static/offline/engine.js``: where the engine is, and the sheet's rules."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.templatetags.static import static
from django.urls import reverse

from games.rulesets import RuleSet

# Pyodide compiles WebAssembly: the entry page's policy allows that, and nothing else more (no 'unsafe-eval').
ENGINE_CSP = {"script-src": ["'wasm-unsafe-eval'"]}


def engine_available() -> bool:
    """Whether Pyodide's files are served (``make install`` puts them in node_modules/)."""
    return bool(settings.STATICFILES_DIRS)


def engine_spec(access: Any, rules: RuleSet) -> dict[str, Any] | None:
    """The engine's addresses and the sheet's rule set, players and deals; None when Pyodide is not installed."""
    if not engine_available():
        return None
    return {
        "pyodide": static("pyodide/"),
        "archive": reverse("offline-engine"),
        "rules": rules.to_json(),
        "players": len(access.seats),
        "deals": access.competition.deals_per_session,
    }
