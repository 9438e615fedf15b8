"""Who holds a table code: one identity per device, so whoever entered a sheet's lines cannot also confirm it.

A code holder has no account. The first time a device uses a code (the entry page, or the API with
``X-Table-Code``) it is given a token, signed by the server: the page keeps it in a cookie, an API client gets it
in the ``X-Device`` header (and the cookie) and sends it back. Every line records a mark of the device that sent it
(``DealEntry.entered_in``, a hash: the stored mark is not the token):

- ``dev:…`` the request carried a device token: the device is known;
- ``one:…`` it carried none: the token was issued with this answer. A one-off until the device sends that token
  back, which turns its ``one:`` lines of the sheet into ``dev:`` ones (``record_deal``).

A line entered with the code whose device is not known (``one:``, or no mark at all, as before device tokens)
may have come from any device, the confirming one included: then only an administrator can confirm the sheet
(``services.sheets.confirm_refusal``).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core import signing

COOKIE = "wz_device"
HEADER = "X-Device"
KNOWN = "dev:"
ONE_OFF = "one:"
MAX_AGE = 400 * 24 * 3600  # a season and then some: the longest a browser keeps a cookie
_SALT = "tournaments.devices"
_ATTRIBUTE = "_table_device"


@dataclass(frozen=True)
class Device:
    token: str  # as handed out (signed)
    presented: bool  # the request carried it; else it was issued now

    @property
    def mark(self) -> str:
        """What a line stores of this device (``DealEntry.entered_in``, 32 characters)."""
        return (KNOWN if self.presented else ONE_OFF) + digest(self.token)


def digest(token: str) -> str:
    return hashlib.sha256(f"device:{token}".encode()).hexdigest()[:28]


def marks_of(mark: str) -> set[str]:
    """Both forms a device's lines may carry: known, and one-off (before it sent its token back)."""
    if not mark.startswith((KNOWN, ONE_OFF)):
        return {mark} if mark else set()
    tail = mark.removeprefix(KNOWN).removeprefix(ONE_OFF)
    return {KNOWN + tail, ONE_OFF + tail}


def is_known(mark: str) -> bool:
    """A line's mark tells a device apart from any other (a token the device sent, or a page session's mark)."""
    return bool(mark) and not mark.startswith(ONE_OFF)


def _valid(value: str | None) -> bool:
    if not value or len(value) > 200:
        return False
    try:
        signing.Signer(salt=_SALT).unsign(value)
    except signing.BadSignature:
        return False
    return True


def device_of(request: Any) -> Device:
    """This request's device: the token it sent (header first, then cookie), else a new one. Once a request."""
    raw = getattr(request, "_request", request)  # a DRF request wraps Django's
    device: Device | None = getattr(raw, _ATTRIBUTE, None)
    if device is None:
        sent = [request.headers.get(HEADER), request.COOKIES.get(COOKIE)]
        token = next((value for value in sent if _valid(value)), None)
        if token is None:
            device = Device(signing.Signer(salt=_SALT).sign(secrets.token_urlsafe(24)), presented=False)
        else:
            device = Device(token, presented=True)
        setattr(raw, _ATTRIBUTE, device)
    return device


def remember(request: Any, response: Any) -> Any:
    """Hand the device its token with the answer, if this request used one: a cookie, and the header."""
    device: Device | None = getattr(getattr(request, "_request", request), _ATTRIBUTE, None)
    if device is not None:
        response[HEADER] = device.token
        if request.COOKIES.get(COOKIE) != device.token:
            response.set_cookie(
                COOKIE,
                device.token,
                max_age=MAX_AGE,
                httponly=True,
                samesite="Lax",
                secure=settings.SESSION_COOKIE_SECURE,
            )
    return response
