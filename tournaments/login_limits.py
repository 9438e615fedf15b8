"""Login throttling per username and per address (django-axes handler; README "Security").

django-axes counts the failures of one username from one address (``AXES_LOCKOUT_PARAMETERS``) against one
limit. Alone, that lets one address try a few passwords on every account in turn: after one account locks, the
next username still logs in. This handler adds a second, higher budget: ``LOGIN_ADDRESS_FAILURE_LIMIT`` failures
from one address, whatever the usernames, within the same cool-off, lock that address out of every login path
(the login page, the admin's, the API token endpoint: all go through ``authenticate``). The address limit is
well above the per-username one because a whole venue may share one address behind its router.

A successful login forgets only that username's failures from that address (``AXES_RESET_ON_SUCCESS``), so an
attacker cannot clear the address's count by logging into an account of his own.
"""

from __future__ import annotations

from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest

USERNAME_COLUMN = AccessAttempt._meta.get_field("username").max_length or 255


def client_username(request: Any, credentials: dict[str, Any] | None = None) -> str | None:
    """The username axes records (``AXES_USERNAME_CALLABLE``): as typed, cut to its failure log's column.

    The login form does not check the username's length before ``authenticate`` (Django sets the limit after
    the field's validators are made), so a 300-character username reached axes' 255-character column: a server
    error on PostgreSQL. No account has a username that long, so the cut merges nobody.
    """
    if credentials:
        username = credentials.get(settings.AXES_USERNAME_FORM_FIELD)
    else:
        username = getattr(request, "data", request.POST).get(settings.AXES_USERNAME_FORM_FIELD)
    if username is None:
        return None
    return str(username)[:USERNAME_COLUMN]


def address_failures(request: HttpRequest) -> int:
    """Failed logins from the request's address within the cool-off, over every username."""
    address = getattr(request, "axes_ip_address", None)
    if not address:
        return 0
    attempts = AccessAttempt.objects.filter(ip_address=address, attempt_time__gte=get_cool_off_threshold(request))
    return int(attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0)


class UsernameAndAddressHandler(AxesDatabaseHandler):
    """Locked when a username failed ``AXES_FAILURE_LIMIT`` times from an address, or the address failed
    ``LOGIN_ADDRESS_FAILURE_LIMIT`` times over all usernames.

    axes compares ``get_failures`` with ``AXES_FAILURE_LIMIT``: an address over its own budget reports that
    limit, so axes locks it out (and says so on the lock-out page, ``request.axes_address_locked``).
    """

    def get_failures(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        per_username = int(super().get_failures(request, credentials))
        limit: int = settings.AXES_FAILURE_LIMIT
        if per_username >= limit:
            return per_username
        if address_failures(request) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT:
            request.axes_address_locked = True
            return limit
        return per_username
