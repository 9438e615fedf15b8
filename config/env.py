"""Read settings from the environment and reject bad values loudly.

A typo in ``DEBUG`` or a ``DATABASE_URL`` for an engine we do not support
must stop the process at start-up, not surface later as odd behaviour.
"""

from __future__ import annotations

import os
from urllib.parse import urlparse

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean: use one of {sorted(_TRUE | _FALSE)}")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    items = [item.strip() for item in raw.split(",")]
    if any(not item for item in items):
        raise ImproperlyConfigured(f"{name}={raw!r} has an empty entry: give a comma-separated list")
    return items


def env_int(name: str, default: int, minimum: int = 0) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number") from None
    if value < minimum:
        raise ImproperlyConfigured(f"{name}={value} must be at least {minimum}")
    return value


def database_url(name: str = "DATABASE_URL") -> str | None:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return None
    parsed = urlparse(raw)
    if parsed.scheme not in ("postgres", "postgresql", "sqlite"):
        raise ImproperlyConfigured(
            f"{name} must be a postgres://user@host:port/name or sqlite:///path URL, got scheme {parsed.scheme!r}"
        )
    if parsed.scheme != "sqlite" and not parsed.path.strip("/"):
        raise ImproperlyConfigured(f"{name}={raw!r} names no database")
    return raw


def redis_url(name: str = "REDIS_URL") -> str | None:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return None
    parsed = urlparse(raw)
    if parsed.scheme not in ("redis", "rediss") or not parsed.hostname:
        raise ImproperlyConfigured(f"{name} must be a redis://host:port/db URL, got {raw!r}")
    try:
        parsed.port  # noqa: B018 - urlparse validates the port lazily
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} has an invalid port") from None
    return raw
