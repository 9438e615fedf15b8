"""Password guessing across accounts (issue 14, class 11): failures count per username and per address.

``LOGIN_FAILURE_LIMIT`` (5) wrong passwords for one username from one address lock that username out from there;
``LOGIN_ADDRESS_FAILURE_LIMIT`` (30) wrong passwords from one address, whatever the usernames, lock every
username out from there, within ``LOGIN_COOLOFF_MINUTES``. The finding: after one account locked, the next
username from the same address still logged in.

The login routes are found in the URL conf (every ``LoginView``, the admin site's login, every
``ObtainAuthToken``), so a new login path is tested by default; each case posts through the route it names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.admin import AdminSite
from django.contrib.auth.views import LoginView
from django.test import Client
from django.urls import get_resolver
from django.utils import timezone
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.test_settings import run_settings
from tests.urlconf import walk
from tournaments.api.urls import ClientAddressThrottle

pytestmark = pytest.mark.django_db

PASSWORD = "secret-pass-123"  # UserFactory's
WRONG = "not-the-password"
HERE = "198.51.100.7"
ELSEWHERE = "192.0.2.44"


@dataclass(frozen=True)
class LoginRoute:
    path: str
    kind: str  # "form": a login form (page or admin); "token": the API token endpoint

    def attempt(self, username: str, password: str, address: str = HERE) -> bool:
        """Try to log in; whether it worked (a session or a token came back)."""
        if self.kind == "token":
            response = APIClient(REMOTE_ADDR=address).post(
                self.path, {"username": username, "password": password}, format="json"
            )
            return response.status_code == 200 and "token" in response.data
        response = Client(REMOTE_ADDR=address).post(self.path, {"username": username, "password": password})
        return response.status_code == 302 and "_auth_user_id" in response.wsgi_request.session


def _kind(callback: Any) -> str | None:
    view_class = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
    if isinstance(view_class, type) and issubclass(view_class, LoginView):
        return "form"
    if isinstance(view_class, type) and issubclass(view_class, ObtainAuthToken):
        return "token"
    bound_to = getattr(callback, "__self__", None)  # the admin's views are its site's bound methods
    if isinstance(bound_to, AdminSite) and getattr(callback, "__name__", "") == "login":
        return "form"
    return None


def login_routes() -> list[LoginRoute]:
    """Every route of the URL conf that takes a username and a password."""
    routes = []
    for route, _, pattern in walk(get_resolver().url_patterns):
        kind = _kind(pattern.callback)
        if kind is not None:
            routes.append(LoginRoute("/" + route.lstrip("^").rstrip("$"), kind))
    return routes


ROUTES = login_routes()
ROUTE_IDS = [route.path for route in ROUTES]
PAGE = next(route for route in ROUTES if route.path == "/accounts/login/")


def enough_usernames(extra: int) -> int:
    """Usernames to reach the address limit with failures each under the username limit, and ``extra`` more."""
    per_username = settings.AXES_FAILURE_LIMIT - 1
    return -(-settings.LOGIN_ADDRESS_FAILURE_LIMIT // per_username) + extra


@pytest.fixture(autouse=True)
def _no_token_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    # the token endpoint's own rate per address (30/minute) would answer 429 first: the lock-out is tested here
    monkeypatch.setattr(ClientAddressThrottle, "THROTTLE_RATES", {"token": "10000/minute"})


@pytest.fixture
def users() -> Callable[[int], list[str]]:
    def make(count: int) -> list[str]:
        return [UserFactory(username=f"user{i}", is_staff=True).username for i in range(count)]

    return make


def test_the_enumeration_finds_the_page_the_admin_and_the_api_token_logins() -> None:
    assert {"/accounts/login/", "/admin/login/", "/api/v1/token/"} <= set(ROUTE_IDS)


def test_the_limits_come_from_the_environment_defaults() -> None:
    assert settings.AXES_FAILURE_LIMIT == 5
    assert settings.LOGIN_ADDRESS_FAILURE_LIMIT == 30
    assert settings.AXES_HANDLER == "tournaments.login_limits.UsernameAndAddressHandler"


@pytest.mark.parametrize("route", ROUTES, ids=ROUTE_IDS)
def test_five_wrong_passwords_lock_that_username_out_even_with_the_right_one(route: LoginRoute, users: Any) -> None:
    anna, bert = users(2)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        assert not route.attempt(anna, WRONG)

    assert not route.attempt(anna, PASSWORD)
    assert route.attempt(bert, PASSWORD)  # another username from the same address, under the address limit
    assert route.attempt(anna, PASSWORD, address=ELSEWHERE)


def guess_across(route: LoginRoute, usernames: list[str], failures: int) -> None:
    """``failures`` wrong passwords from ``HERE``, spread over ``usernames``, each under its own limit."""
    per_username = settings.AXES_FAILURE_LIMIT - 1
    assert failures <= per_username * len(usernames)
    for n in range(failures):
        assert not route.attempt(usernames[n // per_username], WRONG)


@pytest.mark.parametrize("route", ROUTES, ids=ROUTE_IDS)
def test_guessing_across_usernames_locks_the_address_out_at_its_limit(route: LoginRoute, users: Any) -> None:
    limit = settings.LOGIN_ADDRESS_FAILURE_LIMIT
    names = users(enough_usernames(1))
    victim, guessed = names[-1], names[:-1]
    guess_across(route, guessed, limit - 1)
    assert route.attempt(victim, PASSWORD)  # one failure under the address limit: still open

    guess_across(route, guessed[-1:], 1)  # the address's limit-th failure

    for other in ROUTES:  # every login path refuses every username from that address, the right password too
        assert not other.attempt(victim, PASSWORD), other.path
        assert other.attempt(victim, PASSWORD, address=ELSEWHERE), other.path


def test_six_usernames_from_one_address_lock_it_out_when_the_address_limit_is_lower(users: Any, settings: Any) -> None:
    """The finding as reported, with a venue limit of 20: 4 failures on each of 5 usernames, the 6th is refused."""
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 20
    names = users(6)
    guess_across(PAGE, names[:5], 20)
    assert not PAGE.attempt(names[5], PASSWORD)
    assert PAGE.attempt(names[5], PASSWORD, address=ELSEWHERE)


def test_failures_on_all_routes_add_up_for_the_address(users: Any) -> None:
    limit = settings.LOGIN_ADDRESS_FAILURE_LIMIT
    names = users(enough_usernames(1))
    victim, guessed = names[-1], names[:-1]
    for n in range(limit):
        route = ROUTES[n % len(ROUTES)]
        assert not route.attempt(guessed[n // (settings.AXES_FAILURE_LIMIT - 1)], WRONG)
    assert not PAGE.attempt(victim, PASSWORD)


def test_logging_into_ones_own_account_does_not_clear_the_address_count(users: Any) -> None:
    limit = settings.LOGIN_ADDRESS_FAILURE_LIMIT
    names = users(enough_usernames(2))
    own, victim, guessed = names[-2], names[-1], names[:-2]
    page = PAGE
    guess_across(page, guessed, limit - 1)
    assert page.attempt(own, PASSWORD)  # the guesser's own account, from the same address
    guess_across(page, guessed[-1:], 1)
    assert not page.attempt(victim, PASSWORD)


def test_the_address_lock_out_ends_after_the_cool_off(users: Any) -> None:
    limit = settings.LOGIN_ADDRESS_FAILURE_LIMIT
    names = users(enough_usernames(1))
    victim, guessed = names[-1], names[:-1]
    page = PAGE
    guess_across(page, guessed, limit)
    assert not page.attempt(victim, PASSWORD)

    AccessAttempt.objects.update(attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=1))

    assert page.attempt(victim, PASSWORD)


def test_the_lock_out_page_says_the_address_is_locked(users: Any) -> None:
    limit = settings.LOGIN_ADDRESS_FAILURE_LIMIT
    names = users(enough_usernames(1))
    guess_across(PAGE, names[:-1], limit)
    response = Client(REMOTE_ADDR=HERE).post("/accounts/login/", {"username": names[-1], "password": PASSWORD})
    assert response.status_code == 429
    assert "from your address, for several user names" in response.content.decode()


@pytest.mark.parametrize(
    ("env", "named"),
    [
        pytest.param({"LOGIN_ADDRESS_FAILURE_LIMIT": "0"}, "LOGIN_ADDRESS_FAILURE_LIMIT", id="zero"),
        pytest.param({"LOGIN_ADDRESS_FAILURE_LIMIT": "many"}, "LOGIN_ADDRESS_FAILURE_LIMIT", id="not-a-number"),
        pytest.param(
            {"LOGIN_ADDRESS_FAILURE_LIMIT": "4", "LOGIN_FAILURE_LIMIT": "5"},
            "LOGIN_ADDRESS_FAILURE_LIMIT",
            id="below-the-username-limit",
        ),
    ],
)
def test_a_bad_address_limit_stops_the_process(tmp_path: Path, env: dict[str, str], named: str) -> None:
    result = run_settings(tmp_path, **env)
    assert result.returncode != 0
    error = result.stderr.strip().splitlines()[-1]
    assert error.startswith("django.core.exceptions.ImproperlyConfigured"), result.stderr
    assert named in error


@pytest.mark.parametrize("route", ROUTES, ids=ROUTE_IDS)
def test_a_username_too_long_for_any_account_is_refused_without_an_error(route: LoginRoute) -> None:
    """The failure counts, under the username cut to the failure log's 255-character column (it was a 500 on
    PostgreSQL: the login form checks the length only after ``authenticate``)."""
    assert not route.attempt("u" * 300, WRONG)
    assert {len(a.username or "") for a in AccessAttempt.objects.all()} <= set(range(256))
