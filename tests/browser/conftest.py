"""Browser tests: Playwright's sync API drives Debian's Chromium (``/usr/bin/chromium``) against the live server.

Fixtures and helpers (import the helpers from ``tests.browser.conftest``)::

    @pytest.mark.django_db(transaction=True)
    def test_the_home_page_reads_well_on_a_phone(phone: Page, live_server: LiveServer) -> None:
        login(phone, live_server, UserFactory())      # optional: a session for this user
        phone.goto("/")                               # relative to the live server (the context's base URL)
        assert_accessible(phone, context="home")      # axe: fails on serious and critical violations
        assert_no_csp_violations(phone)               # the page's Content-Security-Policy held
        shoot(phone, "home-phone")                    # var/screenshots/home-phone.png, the whole page

- ``browser``: one headless Chromium for all of tests/browser (never downloaded: ``playwright install`` is not used;
  a missing ``/usr/bin/chromium`` fails every browser test with the command that installs it).
- ``desktop`` (1280×900) and ``phone`` (390×844, touch, mobile, 2× pixels): a fresh context (no cookies) and page
  each, in English, its base URL the live server. Each records the page's Content-Security-Policy violations
  (``csp_violations(page)``) and its uncaught script errors (``script_errors(page)``). ``new_page(browser,
  live_server, PHONE)`` opens another such page, e.g. for a second user (close it with ``page.context.close()``).
- Every test in this directory is marked ``browser`` (``pytest -m browser`` runs only them, ``-m "not browser"``
  skips them; ``make test`` runs them). They read committed data through the live server, so they need
  ``transactional_db``: mark them ``pytest.mark.django_db(transaction=True)`` (pytest-django adds it to any test
  using ``live_server`` anyway).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Playwright, sync_playwright
from pytest_django.live_server_helper import LiveServer

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
INSTALL_CHROMIUM = "sudo apt-get install -y chromium"
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 900}}
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
TIMEOUT_MS = 15_000  # a loaded machine is slow, but a missing element should not hang a test for long
FAILING_IMPACTS = ("serious", "critical")

_csp: WeakKeyDictionary[Page, list[str]] = WeakKeyDictionary()
_errors: WeakKeyDictionary[Page, list[str]] = WeakKeyDictionary()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.browser)


def require_chromium() -> None:
    """Fail (never skip) without Debian's Chromium: the browser tests are part of the suite."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"The browser tests need Debian's Chromium at {CHROMIUM}, which is missing: install it with"
            f" `{INSTALL_CHROMIUM}` (never `playwright install`).",
            pytrace=False,
        )


# Playwright's sync API runs an asyncio event loop in this (the test's) thread from its start to its stop, so
# Django's ORM, seeing a running loop, refuses every query of the test with SynchronousOnlyOperation. The queries
# are synchronous all the same: DJANGO_ALLOW_ASYNC_UNSAFE allows them, for exactly as long as Playwright runs.
# Hence one Playwright and one browser per package (all of tests/browser, which pytest runs in one go), not per
# session: a session-long loop would need the variable for every later test too, and it would leak into their
# subprocesses (``manage.py check --deploy`` refuses it, the Celery workers of tests/e2e would run with it).
@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    require_chromium()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as driver:
            yield driver


@pytest.fixture(scope="package")
def browser(playwright: Playwright) -> Iterator[Browser]:
    chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


def new_page(browser: Browser, live_server: LiveServer, device: dict[str, Any] = DESKTOP) -> Page:
    """A page in a fresh context (its own cookies) on the live server, recording CSP violations and script errors;
    ``device`` is ``DESKTOP`` or ``PHONE``. Close it with ``page.context.close()`` (the fixtures do that)."""
    context: BrowserContext = browser.new_context(base_url=live_server.url, locale="en-US", **device)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    csp: list[str] = []
    errors: list[str] = []
    _csp[page], _errors[page] = csp, errors

    def on_console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            csp.append(f"{page.url}: {message.text}")

    page.on("console", on_console)
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    # Both the console (Chromium's wording) and the standard DOM event: Chromium logs a blocked inline script but
    # not a blocked style attribute, which only fires the event. So a violation may be recorded twice.
    page.expose_function("__recordCspViolation", lambda text: csp.append(f"{page.url}: {text}"))
    page.add_init_script(
        """document.addEventListener("securitypolicyviolation", (e) => window.__recordCspViolation(
             `securitypolicyviolation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"}`
             + ` at ${e.sourceFile || e.documentURI}:${e.lineNumber}`));"""
    )
    return page


@pytest.fixture
def desktop(browser: Browser, live_server: LiveServer) -> Iterator[Page]:
    """A fresh 1280×900 desktop page on the live server."""
    page = new_page(browser, live_server, DESKTOP)
    yield page
    page.context.close()


@pytest.fixture
def phone(browser: Browser, live_server: LiveServer) -> Iterator[Page]:
    """A fresh 390×844 phone page (touch, mobile viewport, 2× pixels) on the live server."""
    page = new_page(browser, live_server, PHONE)
    yield page
    page.context.close()


def login(page: Page, live_server: LiveServer, user: Any) -> None:
    """Log ``user`` in for this page's context: a session made on the server (``force_login``), as a cookie.

    Not through the login form: django-axes counts form logins, and a session cookie does not depend on the
    form's markup. Open a page after this; the current one does not reload.
    """
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": live_server.url, "httpOnly": True}]
    )


def sideways_overflow(page: Page) -> int:
    """How many pixels the page is wider than the screen (0 when it fits). Measured against the document's
    clientWidth: a mobile browser widens its layout viewport (``window.innerWidth``) to a page that overflows, so
    a comparison with innerWidth on a phone never fails."""
    return int(page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth"))


def shoot(page: Page, name: str) -> Path:
    """A full-page PNG of ``page`` at ``var/screenshots/<name>.png`` (var/ is not in git); returns its path."""
    directory = Path(settings.VAR_DIR) / "screenshots"
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def _nodes(violation: dict[str, Any]) -> str:
    """Each element: axe's selector and the start of its markup (a selector alone can be as vague as ``div``)."""
    return "".join(
        f"\n    {' '.join(map(str, node['target']))}: {' '.join(node.get('html', '').split())[:160]}"
        for node in violation["nodes"]
    )


def assert_accessible(page: Page, context: str = "", *, selector: str | None = None) -> None:
    """Run axe on ``page`` (or only on the elements ``selector`` matches) and fail on every serious or critical
    violation, listing each rule, its help and the elements it found. Minor and moderate ones are printed.

    ``context`` names what is checked in the messages, e.g. ``"entry page, phone, after a bad line"``.
    """
    results = Axe().run(page, context=selector)
    violations: list[dict[str, Any]] = results.response["violations"]
    where = f"{context or page.url} ({page.url})"
    for violation in violations:
        if violation["impact"] not in FAILING_IMPACTS:
            print(f"axe {where}: {violation['impact']} {violation['id']}: {violation['help']}{_nodes(violation)}")
    failing = [v for v in violations if v["impact"] in FAILING_IMPACTS]
    if failing:
        report = "\n".join(f"- {v['id']} ({v['impact']}): {v['help']} [{v['helpUrl']}]{_nodes(v)}" for v in failing)
        pytest.fail(f"accessibility: {len(failing)} serious or critical axe violation(s) on {where}:\n{report}")


def csp_violations(page: Page) -> list[str]:
    """The Content-Security-Policy violations this page has reported so far (console and DOM events)."""
    return list(_csp.get(page, []))


def script_errors(page: Page) -> list[str]:
    """The uncaught script errors on this page so far."""
    return list(_errors.get(page, []))


def assert_no_csp_violations(page: Page) -> None:
    violations = csp_violations(page)
    assert not violations, "Content-Security-Policy violations:\n" + "\n".join(violations)
