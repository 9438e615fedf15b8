"""Settings, all from the environment (see README "Configuration").

No configuration at all gives the embedded default: SQLite under ``var/``,
Celery tasks run eagerly in-process, a local-memory cache.
"""

from __future__ import annotations

import json
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from config.env import (
    database_url,
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_networks,
    env_rate,
    proxy_ssl_header,
    redis_url,
    secret_key,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("WIEZEN_VAR_DIR", BASE_DIR / "var"))

DEBUG = env_bool("DEBUG", default=True)
SECRET_KEY = secret_key(
    "SECRET_KEY", debug=DEBUG, development_key="insecure-development-key-set-SECRET_KEY-in-production"
)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "axes",
    "csp",
    "django_htmx",
    "tournaments",
    "scoring",
]

MIDDLEWARE = [
    # first: a body over its size limit is refused (413) before any middleware or view reads it
    "config.body_limit.BodySizeLimitMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.csp.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "tournaments.services.audit.AuditMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # a competition's page asked for at a name it had before a rename goes on to its current one
    "tournaments.former_addresses.FormerAddressMiddleware",
    # last: turns a login refused for too many failures into the lockout page (429)
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
            # {% load privacy %}: {{ player|player_name:full_names }}, the name a page may show
            "libraries": {"privacy": "tournaments.services.privacy"},
        },
    },
]

_DATABASE_URL = database_url()
if _DATABASE_URL is None:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "wiezen.sqlite3",
            # A file, not memory, so a worker process can see what the tests wrote.
            "TEST": {"NAME": VAR_DIR / "test-wiezen.sqlite3"},
            # IMMEDIATE: a writer takes the lock at BEGIN, so a worker process and the tests do not deadlock
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    }
else:
    # health checks: a connection that a PostgreSQL restart closed is replaced, not reused and failed
    DATABASES = {"default": dj_database_url.parse(_DATABASE_URL, conn_max_age=60, conn_health_checks=True)}
    # Parameters bound by the server, so psycopg prepares the statements a connection repeats (every line
    # of an evening runs the same dozen): PostgreSQL then skips parsing and planning them. Turn it off
    # behind a pooler in transaction mode.
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
        "DATABASE_PREPARED_STATEMENTS", default=True
    ):
        DATABASES["default"].setdefault("OPTIONS", {}).update(server_side_binding=True, prepare_threshold=2)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = redis_url()
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "config.cache.SharedClientRedisCache", "LOCATION": REDIS_URL}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Celery: Redis when configured, otherwise tasks run eagerly in the web process.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or REDIS_URL or "memory://localhost/"
# A broker without a server, for a worker on a machine without Redis (the integration tests use it then).
_FILESYSTEM_BROKER = os.environ.get("CELERY_FILESYSTEM_BROKER_DIR")
if _FILESYSTEM_BROKER:
    CELERY_BROKER_URL = "filesystem://"
    Path(_FILESYSTEM_BROKER).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": _FILESYSTEM_BROKER,
        "data_folder_out": _FILESYSTEM_BROKER,
        "control_folder": str(Path(_FILESYSTEM_BROKER) / "control"),
        "store_processed": False,
    }
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", default=REDIS_URL is None and not _FILESYSTEM_BROKER)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_TIMEOUT = 3
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Seconds a standings recomputation waits so a burst of entries is computed once.
STANDINGS_COALESCE_SECONDS = env_int("STANDINGS_COALESCE_SECONDS", default=1)
# Seconds the live pages keep which rows are provisional and each round's progress (tournaments/live.py): the
# polls of a whole evening read them about once a second; 0 reads them on every request.
LIVE_PARTS_SECONDS = env_int("LIVE_PARTS_SECONDS", default=1, minimum=0)
# Ratings and statistics are not live: during an evening they are recomputed at most this often.
ANALYTICS_COALESCE_SECONDS = env_int("ANALYTICS_COALESCE_SECONDS", default=30)
# A queued recomputation older than this is presumed lost (worker died) and requeued.
STANDINGS_STALE_QUEUE_SECONDS = env_int("STANDINGS_STALE_QUEUE_SECONDS", default=120, minimum=1)
# Slow jobs (ratings, statistics) have their own queue so standings never wait behind them.
CELERY_TASK_ROUTES = {
    "scoring.tasks.recompute_ratings": {"queue": "analytics"},
    "scoring.tasks.full_ratings_check": {"queue": "analytics"},
    "scoring.tasks.recompute_statistics": {"queue": "analytics"},
    "tournaments.duplicate.tasks.analyse_board": {"queue": "analytics"},
    "tournaments.duplicate.tasks.deepen_board": {"queue": "deep"},
}
# The double-dummy solver's node budget per question for a board's analysis (tournaments.duplicate.analysis); a
# count it cannot settle keeps the bounds it proved. bench/solver.py, 100 boards, one core: with a worker,
# 20,000,000 (median 1.0 s a board, worst 5 s; all but 16 of 4,612 contracts say what their tariff reads); without
# one the analysis runs in the request that seats the round, so 500,000 (0.4 s a board). 0: no budget (the same
# median, but a board's worst runs to half a minute or more).
WIEZEN_SOLVER_BUDGET = env_int(
    "WIEZEN_SOLVER_BUDGET", default=500_000 if CELERY_TASK_ALWAYS_EAGER else 20_000_000, minimum=0
)
if WIEZEN_SOLVER_BUDGET > 10**12:  # tournaments.BoardAnalysis.budget's range
    raise ImproperlyConfigured(f"WIEZEN_SOLVER_BUDGET={WIEZEN_SOLVER_BUDGET} is past 10**12 nodes: use 0 for no budget")
# The second pass over a board whose analysis is done (tournaments.duplicate.analysis.deepen, on the `deep` queue):
# every count the first left as a range (a failed miserie's tricks, an abondance's below 9, what its budget left
# open) is searched further with this many nodes a search (one a row; up to three for a failed miserie's count,
# which can take a few hundred million nodes, a minute or more on one core): bench/solver.py --only-deep, 3 boards,
# 2.4 minutes a board, 137 of 138 counts exact after it (11 of 12 failed miseries). 0: no second pass (the default
# without a worker: it would run in the request that seats the round).
WIEZEN_SOLVER_DEEP_BUDGET = env_int(
    "WIEZEN_SOLVER_DEEP_BUDGET", default=0 if CELERY_TASK_ALWAYS_EAGER else 1_000_000_000, minimum=0
)
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE = {
    "reconcile-standings": {
        "task": "scoring.tasks.reconcile_standings",
        "schedule": float(env_int("STANDINGS_RECONCILE_SECONDS", default=60, minimum=1)),
    },
    # Duplicate boards with no analysis, or whose analysis failed or was lost, are queued again
    "reconcile-board-analyses": {
        "task": "tournaments.duplicate.tasks.reconcile_board_analyses",
        "schedule": float(env_int("BOARD_ANALYSIS_RECONCILE_SECONDS", default=300, minimum=10)),
    },
    # Idempotency keys older than IDEMPOTENCY_TTL_HOURS are deleted (below, "resource limits")
    "purge-idempotency-keys": {"task": "tournaments.tasks.purge_idempotency_keys", "schedule": 3600.0},
    # Ratings are kept incrementally; this recomputes them from scratch (daily by default), logs any difference.
    "full-ratings-check": {
        "task": "scoring.tasks.full_ratings_check",
        "schedule": float(env_int("RATINGS_FULL_CHECK_SECONDS", default=24 * 3600, minimum=60)),
    },
}

# -- security: HTTPS, cookies, headers, login throttling (README "Configuration") ----------------------------------
# Defaults are strict when DEBUG is off and convenient when it is on; each can be set from the environment.

# Behind a proxy that terminates TLS: the header it sets for HTTPS requests, e.g. "X-Forwarded-Proto: https".
SECURE_PROXY_SSL_HEADER = proxy_ssl_header("SECURE_PROXY_SSL_HEADER")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not DEBUG)
HSTS_ONE_YEAR = 365 * 24 * 3600
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", default=0 if DEBUG else HSTS_ONE_YEAR)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=True)
if SECURE_HSTS_PRELOAD and 0 < SECURE_HSTS_SECONDS < HSTS_ONE_YEAR:
    raise ImproperlyConfigured(
        f"SECURE_HSTS_SECONDS={SECURE_HSTS_SECONDS} is under a year, which the HSTS preload lists refuse:"
        f" use at least {HSTS_ONE_YEAR} or set SECURE_HSTS_PRELOAD=false"
    )
_SECURE_COOKIES = env_bool("SECURE_COOKIES", default=not DEBUG)  # sent over HTTPS only
SESSION_COOKIE_SECURE = _SECURE_COOKIES
CSRF_COOKIE_SECURE = _SECURE_COOKIES
SESSION_COOKIE_HTTPONLY = True
# No script reads the CSRF cookie: the forms carry the token, the API's browsable pages and docs get it in the page.
CSRF_COOKIE_HTTPONLY = True
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
if any(not origin.startswith(("https://", "http://")) for origin in CSRF_TRUSTED_ORIGINS):
    raise ImproperlyConfigured("CSRF_TRUSTED_ORIGINS must list origins with their scheme: https://example.org")
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = env_choice(
    "SECURE_REFERRER_POLICY",
    "same-origin",
    (
        "no-referrer",
        "no-referrer-when-downgrade",
        "origin",
        "origin-when-cross-origin",
        "same-origin",
        "strict-origin",
        "strict-origin-when-cross-origin",
    ),
)
SECURE_CROSS_ORIGIN_OPENER_POLICY = env_choice(
    "SECURE_CROSS_ORIGIN_OPENER_POLICY", "same-origin", ("same-origin", "same-origin-allow-popups", "unsafe-none")
)

# Content-Security-Policy (django-csp): this site's own files only. The pages' few inline styles and scripts
# carry the request's nonce (``request.csp_nonce``); the API docs add the CDN they load from (config/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "img-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    }
}
_CSP_REPORT_URI = os.environ.get("CSP_REPORT_URI", "").strip()
if _CSP_REPORT_URI:
    CONTENT_SECURITY_POLICY["DIRECTIVES"]["report-uri"] = _CSP_REPORT_URI

# Login throttling (django-axes): after LOGIN_FAILURE_LIMIT wrong passwords for one username from one address,
# that username is refused from that address, even with the right password, for LOGIN_COOLOFF_MINUTES; after
# LOGIN_ADDRESS_FAILURE_LIMIT wrong passwords from one address, whatever the usernames, every username is
# (tournaments/login_limits.py). The address limit is higher: a venue's players may share one address.
# Covers the login page, the admin's and the API token endpoint (all go through ``authenticate``).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked-out username before a password is checked
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", default=5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", default=15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("LOGIN_ADDRESS_FAILURE_LIMIT", default=30, minimum=1)
if LOGIN_ADDRESS_FAILURE_LIMIT < AXES_FAILURE_LIMIT:
    raise ImproperlyConfigured(
        f"LOGIN_ADDRESS_FAILURE_LIMIT={LOGIN_ADDRESS_FAILURE_LIMIT} is below LOGIN_FAILURE_LIMIT={AXES_FAILURE_LIMIT}:"
        " the limit per address (all usernames) must be at least the limit per username"
    )
AXES_HANDLER = "tournaments.login_limits.UsernameAndAddressHandler"
AXES_USERNAME_CALLABLE = "tournaments.login_limits.client_username"  # cut to the column of axes' failure log
AXES_RESET_ON_SUCCESS = True  # a successful login forgets the earlier failures
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# The same address the audit trail records: REMOTE_ADDR, or behind TRUSTED_PROXIES the client's address they
# add to X-Forwarded-For (which is never believed from anyone else: any client can send it).
AXES_CLIENT_IP_CALLABLE = "tournaments.services.audit.client_ip"
# Reverse proxies (addresses or networks, comma-separated) whose X-Forwarded-For is believed; none by default.
TRUSTED_PROXIES = env_networks("TRUSTED_PROXIES")

# -- resource limits (README "Security") ---------------------------------------------------------------------------
# Request bodies, any content type: larger ones get 413 before they are read (config/body_limit.py). A sheet's
# CSV or a player list is a few kB; a whole competition archive (``competitions/import/``) may be larger.
REQUEST_BODY_MAX_BYTES = env_int("REQUEST_BODY_MAX_BYTES", default=1024 * 1024, minimum=1024)
ARCHIVE_BODY_MAX_BYTES = env_int("ARCHIVE_BODY_MAX_BYTES", default=32 * 1024 * 1024, minimum=REQUEST_BODY_MAX_BYTES)
REQUEST_BODY_LIMITS_BY_ROUTE = {"competition-import-archive": ARCHIVE_BODY_MAX_BYTES}
# Django's own cap on what ``request.body`` and ``request.POST`` read: the largest body a route accepts.
DATA_UPLOAD_MAX_MEMORY_SIZE = max(REQUEST_BODY_MAX_BYTES, *REQUEST_BODY_LIMITS_BY_ROUTE.values())
# ``Idempotency-Key``: a key is remembered this long (a retry later is a new request); responses larger than
# IDEMPOTENCY_MAX_RESPONSE_BYTES are not kept whole (a retry gets the status and a note saying so).
IDEMPOTENCY_TTL_HOURS = env_int("IDEMPOTENCY_TTL_HOURS", default=24, minimum=1)
IDEMPOTENCY_MAX_RESPONSE_BYTES = env_int("IDEMPOTENCY_MAX_RESPONSE_BYTES", default=16 * 1024, minimum=256)
# Error listings (an import's rows, a sheet's lines): the first ERROR_LIST_LIMIT problems and a count of the rest.
ERROR_LIST_LIMIT = env_int("ERROR_LIST_LIMIT", default=50, minimum=1)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("nl", "Nederlands"), ("fr", "Français"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Brussels"
FORMAT_MODULE_PATH = ["config.formats"]  # short dates as Belgians write them: 1/12/2026 13:52
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
# Pyodide (npm, package.json; `make install` runs npm ci) runs the rules engine in the browser for offline entry
# (tournaments/offline): served as /static/pyodide/. Without it the entry page works online only.
PYODIDE_DIR = BASE_DIR / "node_modules" / "pyodide"
STATICFILES_DIRS = [("pyodide", PYODIDE_DIR)] if PYODIDE_DIR.is_dir() else []
# collectstatic writes a gzipped copy beside each file, which whitenoise serves to browsers that accept it: Pyodide's
# WebAssembly (9.6 MB) travels as 3.6 MB. Names stay unhashed: Pyodide finds its files by name next to each other,
# and the entry page's service worker renews them by its own version (tournaments.offline.views.worker_version).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
PYODIDE_VERSION = json.loads((PYODIDE_DIR / "package.json").read_text())["version"] if STATICFILES_DIRS else None
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # also creates var/, where SQLite and beat keep their files
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # DRF's parsers, refusing with a 400 bodies nested past the recursion limit and text the database cannot store
    "DEFAULT_PARSER_CLASSES": [
        "tournaments.api.parsers.StrictJSONParser",
        "tournaments.api.parsers.StrictFormParser",
        "tournaments.api.parsers.StrictMultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "tournaments.api.pagination.Pagination",  # limit and offset within a range
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Throttles count by the client's address as the audit trail and the lock-out see it (TRUSTED_PROXIES):
    # the token endpoint's throttle asks ``client_ip``; DRF's own reading of X-Forwarded-For stays off.
    "NUM_PROXIES": 0,
    # The token endpoint: requests per address, whatever the usernames (the lockout above counts per username
    # and address).
    "DEFAULT_THROTTLE_RATES": {"token": env_rate("API_TOKEN_RATE", "30/minute")},
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Wiezen tournament and league manager API",
    "DESCRIPTION": "Clubs, competitions, seatings, score sheets validated by the rules engine, standings, ratings.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
