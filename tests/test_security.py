"""Security: login throttling, CSRF, response headers and cookies, and the production settings' deploy check.

Throttling is django-axes: ``LOGIN_FAILURE_LIMIT`` (5) wrong passwords for one username from one address lock
that pair out for ``LOGIN_COOLOFF_MINUTES``, on the login page, the admin's and the API token endpoint alike.
"""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import UserFactory, seated_competition
from tests.roles import Roles, make_roles
from tests.test_settings import CONTROLLED
from tournaments.models import DealEntry, ScoreSheet

REPO = Path(__file__).resolve().parent.parent
PASSWORD = "secret-pass-123"  # UserFactory's
WRONG = "not-the-password"
LIMIT = 5

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna() -> Any:
    return UserFactory(username="anna")


def log_in(client: Client, username: str, password: str) -> Any:
    return client.post(reverse("login"), {"username": username, "password": password})


def logged_in(response: Any) -> bool:
    return "_auth_user_id" in response.wsgi_request.session


def token(client: APIClient, username: str, password: str) -> Any:
    return client.post("/api/v1/token/", {"username": username, "password": password}, format="json")


# -- login throttling -----------------------------------------------------------------------------------------------


def test_the_limit_and_cool_off_come_from_the_environment_defaults() -> None:
    assert settings.AXES_FAILURE_LIMIT == LIMIT
    assert timedelta(minutes=15) == settings.AXES_COOLOFF_TIME
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert settings.AUTHENTICATION_BACKENDS[0] == "axes.backends.AxesStandaloneBackend"


def test_after_five_wrong_passwords_the_right_one_is_refused_too(client: Client, anna: Any) -> None:
    for _ in range(LIMIT - 1):
        response = log_in(client, "anna", WRONG)
        assert response.status_code == 200 and not logged_in(response)  # the form again, with its error
    fifth = log_in(client, "anna", WRONG)
    assert fifth.status_code == 429  # that failure reached the limit: locked out

    sixth = log_in(client, "anna", PASSWORD)

    assert sixth.status_code == 429
    assert not logged_in(sixth)
    assert sixth.context["failure_limit"] == LIMIT
    assert "wait 15 min." in sixth.content.decode()


def test_a_lockout_does_not_touch_other_users_or_the_same_user_elsewhere(client: Client, anna: Any) -> None:
    UserFactory(username="bert")
    for _ in range(LIMIT):
        log_in(client, "anna", WRONG)
    assert log_in(client, "anna", PASSWORD).status_code == 429

    bert = log_in(Client(), "bert", PASSWORD)
    assert bert.status_code == 302 and logged_in(bert)  # another user from the same address
    elsewhere = log_in(Client(REMOTE_ADDR="192.0.2.44"), "anna", PASSWORD)
    assert elsewhere.status_code == 302 and logged_in(elsewhere)  # Anna from another address


def test_the_lockout_ends_after_the_cool_off(client: Client, anna: Any) -> None:
    for _ in range(LIMIT):
        log_in(client, "anna", WRONG)
    assert log_in(client, "anna", PASSWORD).status_code == 429

    AccessAttempt.objects.update(attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=1))

    response = log_in(client, "anna", PASSWORD)
    assert response.status_code == 302 and logged_in(response)


def test_a_successful_login_forgets_the_earlier_failures(client: Client, anna: Any) -> None:
    for _ in range(LIMIT - 1):
        log_in(client, "anna", WRONG)
    assert log_in(client, "anna", PASSWORD).status_code == 302
    for _ in range(LIMIT - 1):
        assert log_in(Client(), "anna", WRONG).status_code == 200  # counting starts again


def test_the_admin_login_is_throttled_too(client: Client) -> None:
    UserFactory(username="boss", is_staff=True, is_superuser=True)
    for _ in range(LIMIT):
        client.post(reverse("admin:login"), {"username": "boss", "password": WRONG})
    response = client.post(reverse("admin:login"), {"username": "boss", "password": PASSWORD})
    assert response.status_code == 429
    assert not logged_in(response)


def test_the_api_token_endpoint_is_throttled_with_the_same_count(anna: Any) -> None:
    api = APIClient()
    for _ in range(LIMIT):
        refused = token(api, "anna", WRONG)
        assert refused.status_code == 400 and "token" not in refused.data

    locked = token(api, "anna", PASSWORD)

    assert locked.status_code in (400, 429)  # 429 once the token view has a throttle of its own
    assert "token" not in locked.data
    # the page and the API share one count per username and address
    assert log_in(Client(), "anna", PASSWORD).status_code == 429
    assert token(APIClient(REMOTE_ADDR="192.0.2.44"), "anna", PASSWORD).status_code == 200


def test_failures_on_the_page_lock_the_api_token_endpoint(client: Client, anna: Any) -> None:
    for _ in range(LIMIT):
        log_in(client, "anna", WRONG)
    assert "token" not in token(APIClient(), "anna", PASSWORD).data


def test_the_lockout_page_speaks_dutch(client: Client, anna: Any) -> None:
    for _ in range(LIMIT):
        log_in(client, "anna", WRONG)
    response = client.post(reverse("login"), {"username": "anna", "password": PASSWORD}, HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 429
    assert "Te veel pogingen" in response.content.decode()


# -- CSRF -----------------------------------------------------------------------------------------------------------


def csrf_token_of(client: Client, url: str) -> str:
    html = client.get(url).content.decode()
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert found, f"no CSRF token in {url}"
    return found.group(1)


def test_the_login_form_refuses_a_post_without_its_csrf_token(anna: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    refused = log_in(client, "anna", PASSWORD)
    assert refused.status_code == 403 and not logged_in(refused)

    token_value = csrf_token_of(client, reverse("login"))
    accepted = client.post(
        reverse("login"), {"username": "anna", "password": PASSWORD, "csrfmiddlewaretoken": token_value}
    )
    assert accepted.status_code == 302 and logged_in(accepted)


@pytest.fixture
def sheet() -> ScoreSheet:
    return ScoreSheet.objects.get(table__round__competition=seated_competition(players=4))


@pytest.fixture
def roles(sheet: ScoreSheet) -> Roles:
    return make_roles(sheet.table.round.competition)


def entry_url(sheet: ScoreSheet) -> str:
    table = sheet.table
    return reverse("sheet-entry", args=[table.round.competition.slug, table.round.number, table.number])


DEAL_1 = {"deal": 1, "dealer": 0, "contract": "pass", "idempotency_key": "csrf"}


def test_the_entry_form_refuses_a_post_without_its_csrf_token(sheet: ScoreSheet, roles: Roles) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(roles.club_admin)
    assert client.post(entry_url(sheet), DEAL_1).status_code == 403
    assert not DealEntry.objects.exists()

    data = {**DEAL_1, "csrfmiddlewaretoken": csrf_token_of(client, entry_url(sheet))}
    assert client.post(entry_url(sheet), data).status_code == 302
    assert DealEntry.objects.filter(sheet=sheet).count() == 1


def test_the_captains_entry_form_needs_the_csrf_token_too(sheet: ScoreSheet) -> None:
    client = Client(enforce_csrf_checks=True)
    client.get(entry_url(sheet), {"code": sheet.captain_code})
    assert client.post(entry_url(sheet), DEAL_1).status_code == 403
    data = {**DEAL_1, "csrfmiddlewaretoken": csrf_token_of(client, entry_url(sheet))}
    assert client.post(entry_url(sheet), data).status_code == 302


@pytest.mark.parametrize(("url", "data"), [("/accounts/logout/", {}), ("/i18n/setlang/", {"language": "nl"})])
def test_logging_out_and_switching_language_need_the_csrf_token(roles: Roles, url: str, data: dict[str, str]) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(roles.player)
    assert client.post(url, data).status_code == 403


API_LINE = {"deal": 1, "dealer": 0, "contract": "pass"}


def test_the_api_with_a_session_needs_the_csrf_token(sheet: ScoreSheet, roles: Roles) -> None:
    api = APIClient(enforce_csrf_checks=True)
    api.force_login(roles.club_admin)
    url = f"/api/v1/sheets/{sheet.pk}/lines/"

    refused = api.post(url, API_LINE, format="json")
    assert refused.status_code == 403 and "CSRF" in str(refused.data)

    token_value = csrf_token_of(api, reverse("login"))
    assert api.post(url, API_LINE, format="json", HTTP_X_CSRFTOKEN=token_value).status_code == 201


def test_the_api_with_a_token_or_a_table_code_needs_no_csrf_token(sheet: ScoreSheet, roles: Roles) -> None:
    by_token = APIClient(enforce_csrf_checks=True)
    issued = by_token.post("/api/v1/token/", {"username": "clubadmin", "password": PASSWORD}, format="json")
    by_token.credentials(HTTP_AUTHORIZATION=f"Token {issued.data['token']}")
    assert by_token.post(f"/api/v1/sheets/{sheet.pk}/lines/", API_LINE, format="json").status_code == 201

    by_code = APIClient(enforce_csrf_checks=True)
    by_code.credentials(HTTP_X_TABLE_CODE=sheet.captain_code)
    second = {"deal": 2, "dealer": 1, "contract": "pass"}
    assert by_code.post(f"/api/v1/sheets/{sheet.pk}/lines/", second, format="json").status_code == 201


# -- headers and cookies --------------------------------------------------------------------------------------------


def csp(response: Any) -> dict[str, list[str]]:
    policy = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}


def test_a_page_carries_the_security_headers(client: Client) -> None:
    response = client.get(reverse("home"))

    policy = csp(response)
    assert policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
    assert policy["form-action"] == ["'self'"] and policy["base-uri"] == ["'none'"]
    assert "'unsafe-inline'" not in policy["script-src"] and "'unsafe-inline'" not in policy["style-src"]
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"
    assert "Strict-Transport-Security" not in response  # development (DEBUG): no HSTS, no HTTPS redirect


def test_hsts_is_sent_over_https_when_configured(client: Client, settings: Any) -> None:
    settings.SECURE_HSTS_SECONDS = 31_536_000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    settings.SECURE_HSTS_PRELOAD = True
    assert "Strict-Transport-Security" not in client.get(reverse("home"))  # never over plain HTTP
    hsts = client.get(reverse("home"), secure=True)["Strict-Transport-Security"]
    assert hsts == "max-age=31536000; includeSubDomains; preload"


def nonces_of(html: str) -> list[tuple[str, str | None]]:
    """(tag, nonce) of every inline <script> and <style> in the page."""
    found = []
    for tag, attrs in re.findall(r"<(script|style)\b([^>]*)>", html):
        if tag == "script" and ("src=" in attrs or 'type="application/json"' in attrs):
            continue  # a file of this site, or data (json_script) that no browser runs
        nonce = re.search(r'nonce="([^"]*)"', attrs)
        found.append((tag, nonce.group(1) if nonce else None))
    return found


def test_every_inline_script_and_style_carries_the_nonce_of_the_policy(
    client: Client, sheet: ScoreSheet, roles: Roles
) -> None:
    competition = sheet.table.round.competition
    client.force_login(roles.club_admin)
    table = sheet.table
    urls = [
        reverse("home"),
        reverse("competition", args=[competition.slug]),
        reverse("season", args=[competition.slug]),
        reverse("sheet", args=[competition.slug, 1, table.number]),
        entry_url(sheet),
        reverse("round-print", args=[competition.slug, 1]),
        reverse("player", args=[table.seats.first().player_id]),
        reverse("login"),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        inline = nonces_of(html)
        assert inline, url
        policy = csp(response)
        for tag, nonce in inline:
            assert nonce and f"'nonce-{nonce}'" in policy[f"{tag}-src"], (url, tag)
        assert not re.search(r"\son[a-z]+=", html), f"an inline event handler in {url}"
        assert not re.search(r'\sstyle="', html), f"an inline style attribute in {url}"


def test_the_api_docs_may_load_swagger_from_its_cdn_and_nothing_else_widens(client: Client) -> None:
    docs = csp(client.get(reverse("api-docs")))
    assert "https://cdn.jsdelivr.net" in docs["script-src"]
    home = csp(client.get(reverse("home")))
    assert "https://cdn.jsdelivr.net" not in " ".join(home["script-src"] + home["style-src"])


def test_the_session_and_csrf_cookies_are_http_only(client: Client, anna: Any) -> None:
    client.get(reverse("login"))
    assert client.cookies[settings.CSRF_COOKIE_NAME]["httponly"]
    log_in(client, "anna", PASSWORD)
    assert client.cookies[settings.SESSION_COOKIE_NAME]["httponly"]
    assert client.cookies[settings.SESSION_COOKIE_NAME]["samesite"] == "Lax"


# -- production settings, in a fresh process -------------------------------------------------------------------------


def production_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    environ = {k: v for k, v in os.environ.items() if k not in CONTROLLED}
    environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        WIEZEN_VAR_DIR=str(tmp_path / "var"),
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="wiezen.example.org",
        **extra,
    )
    return environ


def test_the_production_settings_pass_the_deploy_check_without_a_warning(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO,
        env=production_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_development_settings_would_not_pass_it(tmp_path: Path) -> None:
    environ = production_env(tmp_path)
    environ["DEBUG"] = "true"
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO,
        env=environ,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode != 0
    assert "security.W008" in result.stderr + result.stdout  # no HTTPS redirect while debugging


PRODUCTION_REQUESTS = """
from django.test import Client
import django, json
django.setup()
client = Client(HTTP_HOST="wiezen.example.org")
plain = client.get("/accounts/login/")
secure = client.get("/accounts/login/", secure=True)
proxied = client.get("/accounts/login/", HTTP_X_FORWARDED_PROTO="https")
cookie = secure.cookies["csrftoken"]
print(json.dumps({
    "plain": [plain.status_code, plain.get("Location", "")],
    "secure": secure.status_code,
    "proxied": proxied.status_code,
    "hsts": secure.get("Strict-Transport-Security"),
    "csp": secure.get("Content-Security-Policy"),
    "cookie": {"secure": bool(cookie["secure"]), "httponly": bool(cookie["httponly"])},
}))
"""


def production_responses(tmp_path: Path, **env: str) -> dict[str, Any]:
    import json

    result = subprocess.run(
        [sys.executable, "-c", PRODUCTION_REQUESTS],
        cwd=REPO,
        env=production_env(tmp_path, **env),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    report: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return report


def test_in_production_http_redirects_to_https_which_sends_hsts_and_secure_cookies(tmp_path: Path) -> None:
    report = production_responses(tmp_path)
    assert report["plain"] == [301, "https://wiezen.example.org/accounts/login/"]
    assert report["secure"] == 200
    assert report["hsts"] == "max-age=31536000; includeSubDomains; preload"
    assert "default-src 'self'" in report["csp"]
    assert report["cookie"] == {"secure": True, "httponly": True}
    assert report["proxied"] == 301  # X-Forwarded-Proto is not trusted unless configured


def test_behind_a_proxy_its_https_header_is_trusted_once_configured(tmp_path: Path) -> None:
    report = production_responses(tmp_path, SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto: https")
    assert report["proxied"] == 200
    assert report["plain"][0] == 301
