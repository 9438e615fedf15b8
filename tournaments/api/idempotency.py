"""``Idempotency-Key`` on POST: a retry gets the first response back; nothing is stored twice.

The key is claimed before the view runs (a unique row per key and user), so
two concurrent retries cannot both write: the second sees the claim and is
told to retry later (409), or gets the stored response once it is there.
A server error releases the key so the client can try again.

What is kept is bounded (``tournaments.services.idempotency``, README "Security"): the fingerprint is a digest
of the method, path and body, never the body; a response is kept up to ``IDEMPOTENCY_MAX_RESPONSE_BYTES``; a
key lives ``IDEMPOTENCY_TTL_HOURS``. A request refused for who sent it (401, 403: a wrong table code), for an
object it may not see (404) or for its rate (429) keeps nothing: a stranger's requests leave no rows.

A view lists in ``idempotent_atomic`` the actions whose claim, work and stored
response are one transaction: one commit instead of three on a hot path (a
table's lines). A concurrent retry then waits for the first request's commit
and gets its response; a server error or a crash rolls the claim back with the
work. Only for actions whose work may run inside a transaction (the entry
service's own ``atomic`` becomes a savepoint; its ``on_commit`` waits for ours).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from typing import Any

from django.db import DatabaseError, connection, transaction
from django.utils import timezone
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.models import IdempotentRequest
from tournaments.services.idempotency import bounded_body, expired_before

HEADER = "Idempotency-Key"
#: answers that keep no claim: refused for who sent the request, for what it may see, or for its rate
NOT_KEPT = frozenset({401, 403, 404, 429})


class Replay(Exception):
    def __init__(self, claim: IdempotentRequest):
        self.claim = claim


class KeyConflict(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "idempotency_conflict"


class KeyReused(APIException):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_code = "idempotency_key_reused"


def _fingerprint(request: Request) -> str:
    digest = hashlib.sha256()
    digest.update(request.method.encode() + b" " + request.path.encode() + b"\n")
    digest.update(request._request.body)
    return digest.hexdigest()


def scoped_key(request: Request, key: str) -> str:
    """A key as the entry service stores it: keys belong to their sender (a user, or a table code)."""
    if request.user.is_authenticated:
        return f"user-{request.user.pk}:{key}"
    return f"table-{request.headers.get('X-Table-Code', '')[:20]}:{key}"


def claim(request: Request) -> IdempotentRequest | None:
    """Claim the request's key, or raise ``Replay``/``KeyConflict``/``KeyReused``. ``None`` without a key."""
    key = request.headers.get(HEADER)
    if request.method != "POST" or not key:
        return None
    if len(key) > 200:
        raise KeyReused(f"{HEADER} is at most 200 characters")
    user = request.user if request.user.is_authenticated else None
    scope = "" if user is not None else request.headers.get("X-Table-Code", "")[:40]
    fingerprint = _fingerprint(request)
    claimed = _insert_claim(IdempotentRequest(key=key, user=user, scope=scope, fingerprint=fingerprint))
    if claimed is not None:
        return claimed
    taken = IdempotentRequest.objects.filter(key=key, user=user, scope=scope)
    if taken.filter(created_at__lt=expired_before()).delete()[0]:  # an expired key is a new request
        claimed = _insert_claim(IdempotentRequest(key=key, user=user, scope=scope, fingerprint=fingerprint))
        if claimed is not None:
            return claimed
    existing = taken.get()
    if existing.fingerprint != fingerprint:
        raise KeyReused(f"{HEADER} {key!r} was used for another request")
    if existing.state != IdempotentRequest.State.DONE:
        raise KeyConflict(f"a request with {HEADER} {key!r} is still being processed: retry shortly")
    raise Replay(existing)


def _insert_claim(claim: IdempotentRequest) -> IdempotentRequest | None:
    """``claim`` stored, or ``None`` if its key is taken (by a request still running, it waits for that one).

    ``INSERT … ON CONFLICT DO NOTHING``: a taken key is an answer, not an error, so the claim needs no
    savepoint of its own inside the caller's transaction (every line of an evening makes one).
    """
    claim.created_at = timezone.now()
    columns = ("key", "scope", "user_id", "fingerprint", "state", "created_at")
    values = [claim.key, claim.scope, claim.user_id, claim.fingerprint, claim.state]
    values.append(connection.ops.adapt_datetimefield_value(claim.created_at))
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(IdempotentRequest._meta.db_table)} ({', '.join(map(quote, columns))}) "
            f"VALUES ({', '.join(['%s'] * len(columns))}) ON CONFLICT DO NOTHING RETURNING id",
            values,
        )
        row = cursor.fetchone()
    if row is None:
        return None
    claim.pk = row[0]
    claim._state.adding, claim._state.db = False, connection.alias
    return claim


def store(claimed: IdempotentRequest, response: Response) -> None:
    if response.status_code >= 500 or response.status_code in NOT_KEPT:
        release(claimed)  # let the client retry; a refused stranger leaves nothing
        return
    body = json.loads(JSONRenderer().render(response.data)) if response.data is not None else None
    body = bounded_body(body)
    IdempotentRequest.objects.filter(pk=claimed.pk).update(
        state=IdempotentRequest.State.DONE, status_code=response.status_code, response=body
    )


def release(claimed: IdempotentRequest) -> None:
    IdempotentRequest.objects.filter(pk=claimed.pk).delete()


def replayed(claimed: IdempotentRequest) -> Response:
    return Response(claimed.response, status=claimed.status_code or 200, headers={"Idempotent-Replayed": "true"})


class IdempotentMixin:
    """For viewsets: every POST honours ``Idempotency-Key``."""

    _claimed: IdempotentRequest | None = None
    #: actions whose claim, work and stored response share one transaction (see the module's notes)
    idempotent_atomic: frozenset[str] = frozenset()
    #: POST actions that change nothing (a calculator): a retry computes again, so no claim is kept for anyone
    idempotency_exempt: frozenset[str] = frozenset()

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        action = getattr(self, "action_map", {}).get(request.method.lower())
        if request.method == "POST" and request.headers.get(HEADER) and action in self.idempotent_atomic:
            with transaction.atomic():
                response = super().dispatch(request, *args, **kwargs)  # type: ignore[misc]
                if response.status_code >= 500:
                    transaction.set_rollback(True)  # the claim goes with the work: the client may retry
                return response
        try:
            return super().dispatch(request, *args, **kwargs)  # type: ignore[misc]
        except BaseException:
            if self._claimed is not None:  # a crash: release the key, or every retry would get 409
                with contextlib.suppress(DatabaseError):  # the database is the crash: the original error tells
                    release(self._claimed)
                self._claimed = None
            raise

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        if getattr(self, "action", None) not in self.idempotency_exempt:
            self._claimed = claim(request)

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, Replay):
            return replayed(exc.claim)
        return super().handle_exception(exc)  # type: ignore[misc, no-any-return]

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        response = super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]
        if self._claimed is not None:
            store(self._claimed, response)
            self._claimed = None
        return response
