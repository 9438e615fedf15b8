"""Settings come from the environment: no configuration gives the embedded default, bad values stop the process.

Each case starts a fresh interpreter (settings are read once per process) with a
controlled environment and ``WIEZEN_VAR_DIR`` in a temporary directory, so no
file of the repository changes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent

# Everything the settings read that could leak in from the developer's or CI's shell.
CONTROLLED = (
    "DATABASE_URL",
    "REDIS_URL",
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CELERY_BROKER_URL",
    "CELERY_FILESYSTEM_BROKER_DIR",
    "CELERY_TASK_ALWAYS_EAGER",
    "WIEZEN_SOLVER_BUDGET",
    "WIEZEN_SOLVER_DEEP_BUDGET",
    "STANDINGS_COALESCE_SECONDS",
    "STANDINGS_STALE_QUEUE_SECONDS",
    "STANDINGS_RECONCILE_SECONDS",
    "SECURE_PROXY_SSL_HEADER",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SECURE_COOKIES",
    "CSRF_TRUSTED_ORIGINS",
    "SECURE_REFERRER_POLICY",
    "SECURE_CROSS_ORIGIN_OPENER_POLICY",
    "CSP_REPORT_URI",
    "LOGIN_FAILURE_LIMIT",
    "LOGIN_COOLOFF_MINUTES",
    "LOGIN_ADDRESS_FAILURE_LIMIT",
    "REQUEST_BODY_MAX_BYTES",
    "ARCHIVE_BODY_MAX_BYTES",
    "IDEMPOTENCY_TTL_HOURS",
    "IDEMPOTENCY_MAX_RESPONSE_BYTES",
    "ERROR_LIST_LIMIT",
    "API_TOKEN_RATE",
)

REPORT = """
import json
import django
django.setup()
from django.conf import settings
db = settings.DATABASES["default"]
print(json.dumps({
    "engine": db["ENGINE"],
    "name": str(db["NAME"]),
    "eager": settings.CELERY_TASK_ALWAYS_EAGER,
    "broker": settings.CELERY_BROKER_URL,
    "cache": settings.CACHES["default"]["BACKEND"],
    "debug": settings.DEBUG,
    "allowed_hosts": settings.ALLOWED_HOSTS,
    "coalesce": settings.STANDINGS_COALESCE_SECONDS,
    "ssl_redirect": settings.SECURE_SSL_REDIRECT,
    "proxy_ssl_header": settings.SECURE_PROXY_SSL_HEADER,
    "hsts": [settings.SECURE_HSTS_SECONDS, settings.SECURE_HSTS_INCLUDE_SUBDOMAINS, settings.SECURE_HSTS_PRELOAD],
    "secure_cookies": [settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE],
    "http_only_cookies": [settings.SESSION_COOKIE_HTTPONLY, settings.CSRF_COOKIE_HTTPONLY],
    "referrer_policy": settings.SECURE_REFERRER_POLICY,
    "login": [settings.AXES_FAILURE_LIMIT, settings.AXES_COOLOFF_TIME.total_seconds()],
    "csp_report_uri": settings.CONTENT_SECURITY_POLICY["DIRECTIVES"].get("report-uri"),
    "solver_budget": settings.WIEZEN_SOLVER_BUDGET,
    "solver_deep_budget": settings.WIEZEN_SOLVER_DEEP_BUDGET,
}))
"""

LONG_SECRET = "k3y-0f-fifty-characters-or-more-with-variety-" + "x" * 10


def run_settings(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in CONTROLLED}
    environ.update(DJANGO_SETTINGS_MODULE="config.settings", WIEZEN_VAR_DIR=str(tmp_path / "var"), **env)
    return subprocess.run(
        [sys.executable, "-c", REPORT], cwd=REPO, env=environ, capture_output=True, text=True, timeout=120
    )


def loaded(tmp_path: Path, **env: str) -> dict[str, Any]:
    result = run_settings(tmp_path, **env)
    assert result.returncode == 0, result.stderr
    report: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return report


def test_no_configuration_gives_sqlite_under_the_var_dir_eager_tasks_and_a_local_cache(tmp_path: Path) -> None:
    report = loaded(tmp_path)
    assert report["engine"] == "django.db.backends.sqlite3"
    assert Path(report["name"]).parent == tmp_path / "var"
    assert report["eager"] is True
    assert report["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    assert report["debug"] is True


def test_a_postgres_database_url_selects_postgresql_and_its_database_name(tmp_path: Path) -> None:
    report = loaded(tmp_path, DATABASE_URL="postgres://u@h:5432/db")
    assert report["engine"] == "django.db.backends.postgresql"
    assert report["name"] == "db"


def test_a_redis_url_is_the_broker_and_the_cache_and_tasks_are_no_longer_eager(tmp_path: Path) -> None:
    url = "redis://127.0.0.1:6379/3"
    report = loaded(tmp_path, REDIS_URL=url)
    assert report["broker"] == url
    assert report["eager"] is False
    assert report["cache"] == "config.cache.SharedClientRedisCache"


def test_the_solver_s_budget_is_smaller_where_the_analysis_runs_in_the_request(tmp_path: Path) -> None:
    # no worker (eager tasks): the request that seats a round analyses its boards, so a smaller budget a question
    assert loaded(tmp_path)["solver_budget"] == 500_000
    assert loaded(tmp_path, REDIS_URL="redis://127.0.0.1:6379/3")["solver_budget"] == 20_000_000
    assert loaded(tmp_path, REDIS_URL="redis://127.0.0.1:6379/3", WIEZEN_SOLVER_BUDGET="0")["solver_budget"] == 0
    # the second pass (a failed miserie's count: minutes on some boards) runs only with a worker
    assert loaded(tmp_path)["solver_deep_budget"] == 0
    assert loaded(tmp_path, REDIS_URL="redis://127.0.0.1:6379/3")["solver_deep_budget"] == 1_000_000_000
    worker = {"REDIS_URL": "redis://127.0.0.1:6379/3", "WIEZEN_SOLVER_DEEP_BUDGET": "0"}
    assert loaded(tmp_path, **worker)["solver_deep_budget"] == 0


def test_the_shared_client_cache_is_django_s_redis_cache_with_one_client_per_pool() -> None:
    from django.core.cache.backends.redis import RedisCache

    from config.cache import SharedClientRedisCache

    assert issubclass(SharedClientRedisCache, RedisCache)


def test_production_settings_load_when_secret_key_and_allowed_hosts_are_given(tmp_path: Path) -> None:
    # The counterpart of the DEBUG=false failures below: they fail for the missing value, not for DEBUG=false.
    report = loaded(tmp_path, DEBUG="false", SECRET_KEY=LONG_SECRET, ALLOWED_HOSTS="wiezen.example.org, localhost")
    assert report["debug"] is False
    assert report["allowed_hosts"] == ["wiezen.example.org", "localhost"]


def test_development_is_plain_http_without_hsts_and_production_is_strict(tmp_path: Path) -> None:
    development = loaded(tmp_path)
    assert development["ssl_redirect"] is False and development["hsts"][0] == 0
    assert development["secure_cookies"] == [False, False]
    production = loaded(tmp_path, DEBUG="false", SECRET_KEY=LONG_SECRET, ALLOWED_HOSTS="wiezen.example.org")
    assert production["ssl_redirect"] is True
    assert production["hsts"] == [31_536_000, True, True]
    assert production["secure_cookies"] == [True, True]
    for report in (development, production):
        assert report["http_only_cookies"] == [True, True]
        assert report["referrer_policy"] == "same-origin"
        assert report["login"] == [5, 900]
        assert report["proxy_ssl_header"] is None  # trusted only when a proxy is configured


def test_the_security_settings_follow_the_environment(tmp_path: Path) -> None:
    report = loaded(
        tmp_path,
        DEBUG="false",
        SECRET_KEY=LONG_SECRET,
        ALLOWED_HOSTS="wiezen.example.org",
        SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto: https",
        SECURE_HSTS_SECONDS="63072000",
        SECURE_REFERRER_POLICY="strict-origin-when-cross-origin",
        LOGIN_FAILURE_LIMIT="3",
        LOGIN_COOLOFF_MINUTES="60",
        CSP_REPORT_URI="https://reports.example.org/csp",
    )
    assert report["proxy_ssl_header"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert report["hsts"][0] == 63_072_000
    assert report["referrer_policy"] == "strict-origin-when-cross-origin"
    assert report["login"] == [3, 3600]
    assert report["csp_report_uri"] == "https://reports.example.org/csp"


def test_a_zero_coalesce_delay_is_accepted(tmp_path: Path) -> None:
    assert loaded(tmp_path, STANDINGS_COALESCE_SECONDS="0")["coalesce"] == 0


@pytest.mark.parametrize(
    ("env", "named"),
    [
        pytest.param({"DEBUG": "maybe"}, "DEBUG", id="debug-maybe"),
        pytest.param({"DATABASE_URL": "mysql://x/y"}, "DATABASE_URL", id="database-mysql"),
        pytest.param({"DATABASE_URL": "postgres://host:5432/"}, "DATABASE_URL", id="database-without-name"),
        pytest.param({"REDIS_URL": "http://x"}, "REDIS_URL", id="redis-http"),
        pytest.param({"REDIS_URL": "redis://h:notaport/0"}, "REDIS_URL", id="redis-bad-port"),
        pytest.param({"DEBUG": "false", "ALLOWED_HOSTS": "example.org"}, "SECRET_KEY", id="production-no-secret"),
        pytest.param(
            {"DEBUG": "false", "SECRET_KEY": "short-secret", "ALLOWED_HOSTS": "example.org"},
            "SECRET_KEY",
            id="production-short-secret",
        ),
        pytest.param({"DEBUG": "false", "SECRET_KEY": LONG_SECRET}, "ALLOWED_HOSTS", id="production-no-hosts"),
        pytest.param({"STANDINGS_COALESCE_SECONDS": "-1"}, "STANDINGS_COALESCE_SECONDS", id="coalesce-negative"),
        pytest.param({"STANDINGS_COALESCE_SECONDS": "abc"}, "STANDINGS_COALESCE_SECONDS", id="coalesce-not-a-number"),
        pytest.param(
            {"DEBUG": "false", "SECRET_KEY": "k" * 60, "ALLOWED_HOSTS": "example.org"},
            "SECRET_KEY",
            id="production-secret-of-one-character",
        ),
        pytest.param(
            {"DEBUG": "false", "SECRET_KEY": "django-insecure-" + LONG_SECRET, "ALLOWED_HOSTS": "example.org"},
            "SECRET_KEY",
            id="production-django-insecure-secret",
        ),
        pytest.param({"SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto"}, "SECURE_PROXY_SSL_HEADER", id="proxy-no-value"),
        pytest.param({"SECURE_PROXY_SSL_HEADER": "X Proto: https"}, "SECURE_PROXY_SSL_HEADER", id="proxy-bad-name"),
        pytest.param({"SECURE_SSL_REDIRECT": "sometimes"}, "SECURE_SSL_REDIRECT", id="ssl-redirect-not-a-boolean"),
        pytest.param({"SECURE_HSTS_SECONDS": "3600"}, "SECURE_HSTS_SECONDS", id="hsts-preload-under-a-year"),
        pytest.param({"SECURE_HSTS_SECONDS": "-1"}, "SECURE_HSTS_SECONDS", id="hsts-negative"),
        pytest.param({"SECURE_REFERRER_POLICY": "everyone"}, "SECURE_REFERRER_POLICY", id="referrer-policy-unknown"),
        pytest.param(
            {"SECURE_CROSS_ORIGIN_OPENER_POLICY": "open"}, "SECURE_CROSS_ORIGIN_OPENER_POLICY", id="coop-unknown"
        ),
        pytest.param({"CSRF_TRUSTED_ORIGINS": "example.org"}, "CSRF_TRUSTED_ORIGINS", id="csrf-origin-no-scheme"),
        pytest.param({"LOGIN_FAILURE_LIMIT": "0"}, "LOGIN_FAILURE_LIMIT", id="login-limit-zero"),
        pytest.param({"LOGIN_COOLOFF_MINUTES": "soon"}, "LOGIN_COOLOFF_MINUTES", id="cooloff-not-a-number"),
        pytest.param({"API_TOKEN_RATE": "lots"}, "API_TOKEN_RATE", id="token-rate-malformed"),
        pytest.param({"TRUSTED_PROXIES": "10.0.0.1,10.0.0.0/33"}, "TRUSTED_PROXIES", id="trusted-proxy-bad-network"),
    ],
)
def test_a_bad_value_stops_the_process_with_improperly_configured(
    tmp_path: Path, env: dict[str, str], named: str
) -> None:
    result = run_settings(tmp_path, **env)
    assert result.returncode != 0
    error = result.stderr.strip().splitlines()[-1]
    assert error.startswith("django.core.exceptions.ImproperlyConfigured"), result.stderr
    assert named in error  # the message names the variable to fix
