"""The URL configuration as tests walk it: every route a test must cover, so a new route is covered by default."""

from __future__ import annotations

from typing import Any

from django.urls import URLPattern, URLResolver


def routes(patterns: list[Any], prefix: str = "", namespace: str = "") -> list[tuple[str, str]]:
    """Every (path, name) the URL configuration serves, with namespaced names ("admin:index")."""
    found: list[tuple[str, str]] = []
    for pattern in patterns:
        path = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            found.extend(routes(pattern.url_patterns, path, inner))
        elif isinstance(pattern, URLPattern):
            found.append((path, f"{namespace}{pattern.name}" if pattern.name else ""))
    return found
