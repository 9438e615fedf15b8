"""How long ``Idempotency-Key`` claims are kept, and what of a response they keep (README "Security").

A key is remembered for ``IDEMPOTENCY_TTL_HOURS``: a retry within that time gets the first response back, a
request after it is a new request. A response is kept whole up to ``IDEMPOTENCY_MAX_RESPONSE_BYTES`` of JSON;
a larger one keeps its status and a note, so a retry still learns that the first request was done. The beat job
``tournaments.tasks.purge_idempotency_keys`` deletes expired claims; a claim finds an expired one in its way and
takes its place, so the job's schedule never decides whether a key can be used again.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext

from tournaments.models import IdempotentRequest


def lifetime() -> timedelta:
    return timedelta(hours=settings.IDEMPOTENCY_TTL_HOURS)


def expired_before(now: datetime | None = None) -> datetime:
    """Claims created before this moment are expired."""
    return (now or timezone.now()) - lifetime()


def purge_expired(now: datetime | None = None) -> int:
    """Delete the expired claims; how many were deleted."""
    deleted, _ = IdempotentRequest.objects.filter(created_at__lt=expired_before(now)).delete()
    return deleted


def bounded_body(body: Any) -> Any:
    """``body`` if its JSON fits ``IDEMPOTENCY_MAX_RESPONSE_BYTES``, else a note that it was not kept."""
    size = len(json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode())
    if size <= settings.IDEMPOTENCY_MAX_RESPONSE_BYTES:
        return body
    return {
        "detail": gettext(
            "This request was already processed; its response was too large to keep for a retry. "
            "Read the resource to see its current state."
        )
    }
