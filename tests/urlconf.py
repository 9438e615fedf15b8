"""The URL configuration as tests walk it: every route a test must cover, so a new route is covered by default."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.urls import URLPattern, URLResolver


def walk(patterns: list[Any], prefix: str = "", namespace: str = "") -> Iterator[tuple[str, str, URLPattern]]:
    """Every route as (path, namespaced name, its ``URLPattern``), in URL-conf order: the one walk all tests share,
    so they enumerate the same routes; the pattern gives its callback, own name and route string."""
    for pattern in patterns:
        path = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from walk(pattern.url_patterns, path, inner)
        elif isinstance(pattern, URLPattern):
            yield path, f"{namespace}{pattern.name}" if pattern.name else "", pattern


def routes(patterns: list[Any], prefix: str = "", namespace: str = "") -> list[tuple[str, str]]:
    """Every (path, name) the URL configuration serves, with namespaced names ("admin:index")."""
    return [(path, name) for path, name, _ in walk(patterns, prefix, namespace)]
