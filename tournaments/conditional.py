"""Conditional answers for the live pages: an ``ETag`` derived from what a page shows, and ``304 Not Modified``
(an empty body, the same ``ETag``) to a request whose ``If-None-Match`` matches it, so a phone polling an unchanged
page revalidates instead of downloading it again.

A validator always includes the language and whether the viewer sees full names, so two readers who see different
pages never share one. The standings fragment's validator comes from small queries before rendering
(``standings_parts``: the stored standings' version and which rows are provisional); pages known only once rendered
take their body's digest (``conditional_body``): that still saves the download.

Only GET and HEAD are answered conditionally; a 404 (a hidden competition) is decided before, so a 304 never tells
more than the page would.
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import re
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.timesince import timesince
from django.utils.translation import get_language

from scoring.models import StandingsState
from tournaments.models import Competition, Player

logger = logging.getLogger(__name__)

RENDERED_SECONDS = 120  # how long a rendered fragment is kept; a new standings version changes its key before that
# the renderings this process served last, by validator: what a validator names never changes, and a poll then
# costs no transfer of the whole rendering from the shared cache (130 KB for a 400-player season)
RECENT_RENDERINGS = 32
# Names are not part of the standings' version: a rename, or a player hiding their name, bumps this shared counter
# (in Redis when configured, so every web server sees it), which every standings validator includes.
NAMES_VERSION = "wiezen:names-version"

# one address, several answers: a poll (htmx) gets more than a visit; the viewer's session decides the names shown,
# and the language the words
VARY = ("HX-Request", "Cookie", "Accept-Language")
# a form's CSRF token is masked anew for each answer; any of them is good for the viewer's cookie, which Vary keeps
CSRF_VALUE = re.compile(rb'(name="csrfmiddlewaretoken" value=")[^"]*"')
ACCEPTS_GZIP = re.compile(r"\bgzip\b")


def etag(request: HttpRequest, *parts: object) -> str:
    """A strong validator for what ``parts`` describe, as seen in this request's language and by this viewer."""
    key = "\x1f".join(str(part) for part in (get_language(), bool(getattr(request, "htmx", False)), *parts))
    return '"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'


def conditional(request: HttpRequest) -> bool:
    return request.method in ("GET", "HEAD")


def labelled(request: HttpRequest, response: HttpResponse, tag: str | None) -> HttpResponse:
    """``response`` with its validator, and told to caches: revalidate each time, tell viewers apart."""
    if tag is not None:
        # a gzipped body is another representation of the same page: its validator is weak (RFC 9110 8.8.1)
        response.headers["ETag"] = "W/" + tag if response.get("Content-Encoding") == "gzip" else tag
        patch_cache_control(response, no_cache=True)
        if request.user.is_authenticated:
            patch_cache_control(response, private=True)
    patch_vary_headers(response, VARY)
    return response


def not_modified(request: HttpRequest, tag: str) -> HttpResponse | None:
    """A 304 with ``tag`` when the request's ``If-None-Match`` matches it (weak comparison, lists, ``*``)."""
    if not conditional(request):
        return None
    response = get_conditional_response(request, etag=tag)
    if response is None:
        return None
    # no Content-Security-Policy on a 304: the browser keeps the one stored with the page, whose nonce its body has
    response._csp_exempt = True  # type: ignore[attr-defined]
    return labelled(request, response, tag)


def conditional_body(request: HttpRequest, response: HttpResponse, *parts: object) -> HttpResponse:
    """A page known only once rendered: its validator is its body's digest; a 304 when the viewer has it already."""
    if not conditional(request) or response.status_code != 200 or response.streaming:
        return labelled(request, response, None)
    # the page's CSP nonce is new with each answer: it is not what the page shows
    nonce = getattr(request, "csp_nonce", None)
    body = response.content.replace(str(nonce).encode(), b"") if nonce else response.content
    body = CSRF_VALUE.sub(rb"\1", body)
    tag = etag(request, hashlib.sha256(body).hexdigest(), *parts)
    return not_modified(request, tag) or labelled(request, response, tag)


def names_version() -> str:
    """The shared counter of player-name changes; when the cache cannot say, a value never seen again (no 304, no
    cached rendering: a name someone hid is never shown from an old copy)."""
    try:
        return str(cache.get(NAMES_VERSION, 0))
    except Exception:
        logger.warning("cache unavailable for %s", NAMES_VERSION, exc_info=True)
        return uuid.uuid4().hex


def names_version_for(competition: Competition) -> str:
    """The names counter as read with the polled competition (``live.polled_competition``: one round trip for
    both), so the validator and the table it names agree on it; read now for a competition read otherwise."""
    return getattr(competition, "names_version", None) or names_version()


def names_changed(**kwargs: Any) -> None:
    """A player was saved or deleted (a rename, a privacy choice, an anonymisation): standings validators change."""
    try:
        cache.set(NAMES_VERSION, time.time_ns(), None)
    except Exception:
        logger.warning("cache unavailable for %s", NAMES_VERSION, exc_info=True)


def connect() -> None:
    from django.db.models.signals import post_delete, post_save

    post_save.connect(names_changed, sender=Player, dispatch_uid="conditional-names-saved")
    post_delete.connect(names_changed, sender=Player, dispatch_uid="conditional-names-deleted")


def standings_key(
    competition: Competition, state: StandingsState | None, provisional: Iterable[int]
) -> tuple[object, ...]:
    """What the standings fragment shows, in few words. Its age as the page words it: "less than a minute ago",
    then "3 minutes ago", "1 hour, 5 minutes ago"; polls while those words stand may be told nothing changed."""
    computed_at = state.computed_at if state else None
    return (
        "standings",
        competition.pk,
        competition.standings_method,
        # what the page shows of the entries: whether newer ones are being counted, not their number (an evening's
        # hundreds of entries would each make a new validator, and a new rendering, for the same words)
        (state.computed_version if state else 0) < competition.entries_version,
        competition.closed_at,
        state.computed_version if state else None,
        computed_at.isoformat() if computed_at else None,
        bool(state and state.queued),
        ",".join(str(pk) for pk in sorted(provisional)),
        standings_age(computed_at),
        names_version_for(competition),
    )


def standings_age(computed_at: datetime | None) -> str | None:
    """The standings' age in the words the page uses: ``None`` (not computed), "" (under a minute), or timesince.

    The words change once a minute after ``computed_at``, so they are worked out once per minute and language in
    each process (``timesince`` was a twentieth of a revalidating poll)."""
    if computed_at is None:
        return None
    now = timezone.now()
    seconds = (now - computed_at).total_seconds()
    if seconds < 60:
        return ""
    key = (computed_at, int(seconds // 60), get_language())
    words = _ages.get(key)
    if words is None:
        words = timesince(computed_at, now)
        with _ages_lock:
            _ages[key] = words
            while len(_ages) > 64:
                _ages.popitem(last=False)
    return words


_ages: OrderedDict[tuple[datetime, int, str], str] = OrderedDict()
_ages_lock = threading.Lock()


def rendered(request: HttpRequest, tag: str | None, render: Callable[[], HttpResponse]) -> HttpResponse:
    """``render()``'s answer, kept in the shared cache under the validator ``tag`` (which says all the answer shows),
    so a burst of identical requests renders once; new standings make a new tag, so nothing is invalidated by hand.
    Without a tag, or when the cache fails, it simply renders."""
    if tag is None:
        return render()
    key = "wiezen:rendered:" + tag.strip('"')
    kept = _recent.get(key)
    if kept is None:
        try:
            kept = cache.get(key)
        except Exception:  # a cache outage costs speed, not the page
            logger.warning("cache unavailable for %s", key, exc_info=True)
            kept = None
        if not (isinstance(kept, tuple) and len(kept) == 4):  # none yet (or kept by an older release)
            response = render()
            kept = (response.status_code, response["Content-Type"], response.content, compressed(response.content))
            try:
                cache.set(key, kept, RENDERED_SECONDS)
            except Exception:
                logger.warning("cache unavailable for %s", key, exc_info=True)
        _recent.put(key, kept)
    status, content_type, content, packed = kept
    patch_vary_headers(response := HttpResponse(status=status, content_type=content_type), ("Accept-Encoding",))
    if packed is not None and ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
        response.content = packed
        response.headers["Content-Encoding"] = "gzip"
    else:
        response.content = content
    return response


class _Recent:
    """A small, thread-safe, least-recently-used map of this process's last renderings by validator."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[str, Any] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> Any:
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key]
            return None

    def put(self, key: str, value: Any) -> None:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()


_recent = _Recent(RECENT_RENDERINGS)


def compressed(body: bytes) -> bytes | None:
    """The body gzipped once for everyone who polls it, or None where compressing is not safe or not worth it.

    Compression leaks the length of what is compressed (BREACH): a body with a secret in it (a CSRF token) is never
    compressed; what the fragment shows is the same for every reader of it, so its length tells nothing."""
    if len(body) < 1024 or CSRF_VALUE.search(body):
        return None
    return gzip.compress(body, compresslevel=6, mtime=0)
