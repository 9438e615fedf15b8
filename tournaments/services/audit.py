"""Record who changed what, when, from where, before and after.

The request's user and address are kept for the duration of a request by ``AuditMiddleware`` (a context
variable, so threads and async tasks each see their own); services pass ``by`` where they know better.
"""

from __future__ import annotations

import contextvars
import functools
import ipaddress
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from tournaments.models import AuditEvent

_request: contextvars.ContextVar[tuple[Any, str | None] | None] = contextvars.ContextVar("audit_request", default=None)


def client_ip(request: HttpRequest) -> str | None:
    """The address the request came from, for the audit trail, the login lock-out and the table-code throttle.

    REMOTE_ADDR, unless it is one of ``TRUSTED_PROXIES``: then the nearest address in X-Forwarded-For that
    is not one of them. Only the proxies' own additions are believed; what a client wrote into the header
    itself lies further left, beyond the first address that is not a trusted proxy.
    """
    remote = request.META.get("REMOTE_ADDR") or None
    proxies = _trusted_proxies(tuple(settings.TRUSTED_PROXIES))
    if remote is None or not _among(remote, proxies):
        return remote
    for hop in reversed(request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")):
        if not _among(hop.strip(), proxies):
            try:
                return str(ipaddress.ip_address(hop.strip()))
            except ValueError:  # garbled: the trusted proxy's own address is all we know
                return remote
    return remote


@functools.cache
def _trusted_proxies(networks: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(network, strict=False) for network in networks)


def _among(address: str, networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


class AuditMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = _request.set((request, client_ip(request)))
        try:
            return self.get_response(request)
        finally:
            _request.reset(token)


def record(
    action: str,
    obj: Any,
    *,
    before: Any = None,
    after: Any = None,
    by: Any = None,
    competition_id: int | None = None,
    note: str = "",
) -> AuditEvent:
    """Add one audit row for ``obj`` (a model instance, or a ``(model name, id)`` pair)."""
    current = _request.get()
    user = by if getattr(by, "is_authenticated", False) else None
    if user is None and current is not None:
        request_user = getattr(current[0], "user", None)
        user = request_user if getattr(request_user, "is_authenticated", False) else None
    model, object_id = obj if isinstance(obj, tuple) else (obj._meta.model_name, obj.pk)
    return AuditEvent.objects.create(
        action=action,
        model=model,
        object_id=str(object_id),
        competition_id=competition_id,
        user_id=getattr(user, "pk", None),
        username=getattr(user, "username", "") or "",
        ip=current[1] if current is not None else None,
        before=before,
        after=after,
        note=note[:200],
    )
