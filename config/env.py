"""Read settings from the environment and reject bad values loudly.

A typo in ``DEBUG`` or a ``DATABASE_URL`` for an engine we do not support
must stop the process at start-up, not surface later as odd behaviour.
"""

from __future__ import annotations

import ipaddress
import os
from urllib.parse import urlparse

from django.core.exceptions import ImproperlyConfigured

from config.untrusted import whole_number

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


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip()
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={raw!r} is not one of {list(choices)}")
    return value


def secret_key(name: str, *, debug: bool, development_key: str) -> str:
    """The key that signs sessions and tokens: a development key when debugging, otherwise a real one.

    A real key is what ``manage.py check --deploy`` accepts: at least 50 characters, at least 5 different
    ones, not Django's ``django-insecure-`` placeholder.
    """
    raw = os.environ.get(name, "")
    if not raw:
        if not debug:
            raise ImproperlyConfigured(f"{name} must be set when DEBUG is off")
        return development_key
    if not debug and (len(raw) < 50 or len(set(raw)) < 5 or raw.startswith("django-insecure-")):
        raise ImproperlyConfigured(
            f"{name} must be at least 50 characters long with at least 5 different characters"
            " (python -c 'import secrets; print(secrets.token_urlsafe(50))')"
        )
    return raw


def proxy_ssl_header(name: str = "SECURE_PROXY_SSL_HEADER") -> tuple[str, str] | None:
    """``X-Forwarded-Proto: https`` (the header a trusted proxy sets, and its value for HTTPS) as Django wants it.

    Only set it behind a proxy that always sets or strips that header: anyone can send it otherwise.
    """
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return None
    header, sep, value = raw.partition(":")
    header, value = header.strip(), value.strip()
    if not sep or not header or not value or not all(c.isalnum() or c == "-" for c in header):
        raise ImproperlyConfigured(f"{name}={raw!r} must look like 'X-Forwarded-Proto: https'")
    return "HTTP_" + header.upper().replace("-", "_"), value


_RATE_PERIODS = ("s", "sec", "second", "m", "min", "minute", "h", "hour", "d", "day")


def env_rate(name: str, default: str) -> str:
    """A Django REST framework throttle rate: ``30/minute``."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    count, sep, period = raw.strip().partition("/")
    if not sep or not whole_number(count) or period not in _RATE_PERIODS:
        raise ImproperlyConfigured(f"{name}={raw!r} must look like 30/minute (per second, minute, hour or day)")
    return raw.strip()


def env_networks(name: str) -> list[str]:
    """A comma-separated list of IP addresses or networks (``10.0.0.0/8``); a typo fails at start-up, not later."""
    networks = env_list(name, default=[])
    for network in networks:
        try:
            ipaddress.ip_network(network, strict=False)
        except ValueError as exc:
            raise ImproperlyConfigured(f"{name}: {network!r} is not an IP address or network") from exc
    return networks
