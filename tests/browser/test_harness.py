"""The browser-test harness itself: a missing Chromium fails loudly, axe's verdicts, the CSP watch, the login."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, Route
from pytest_django.live_server_helper import LiveServer

from tests.browser import conftest
from tests.browser.conftest import assert_accessible, csp_violations, login, shoot
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_missing_chromium_fails_with_the_command_that_installs_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conftest, "CHROMIUM", Path("/nonexistent/chromium"))
    with pytest.raises(pytest.fail.Exception, match=r"apt-get install -y chromium"):
        conftest.require_chromium()


def test_axe_fails_on_serious_and_critical_violations_and_only_prints_the_others(
    desktop: Page, capsys: pytest.CaptureFixture[str]
) -> None:
    desktop.goto(reverse("login"))
    desktop.evaluate(
        """() => {
            const main = document.querySelector("main");
            main.insertAdjacentHTML("beforeend", '<img id="no-alt" src="/none.png"><h4 id="skipped">Deep</h4>');
            const pale = document.createElement("p");
            pale.id = "pale"; pale.textContent = "hard to read";
            pale.style.color = "#ccc";  // through the CSSOM: a policy blocks style attributes, not this
            main.append(pale);
        }"""
    )

    with pytest.raises(pytest.fail.Exception) as failed:
        assert_accessible(desktop, context="a spoiled login page")

    message = str(failed.value)
    assert "a spoiled login page" in message
    assert "image-alt (critical)" in message and "#no-alt" in message
    assert "color-contrast (serious)" in message and "#pale" in message
    assert "heading-order" not in message  # moderate: printed, not failed
    assert "moderate heading-order" in capsys.readouterr().out


def test_the_csp_watch_reports_what_the_sites_policy_blocks(desktop: Page) -> None:
    """The home page as served (its own policy header), with an inline script and a style attribute slipped in."""

    def spoil(route: Route) -> None:
        response = route.fetch()
        spoiled = response.text().replace(
            "</main>", '<script>document.title = "ran";</script><p style="color: red">styled</p></main>'
        )
        route.fulfill(response=response, body=spoiled)

    desktop.route("**/", spoil)
    desktop.goto(reverse("home"))
    desktop.wait_for_load_state("networkidle")

    found = "\n".join(csp_violations(desktop))
    assert "script-src" in found and "style-src" in found, found
    assert desktop.title() != "ran"


def test_login_gives_the_browser_the_users_session_and_shoot_saves_the_page(
    desktop: Page, live_server: LiveServer
) -> None:
    user = UserFactory(username="captain-anna")

    login(desktop, live_server, user)
    desktop.goto(reverse("home"))

    assert desktop.locator("header").get_by_text("captain-anna").is_visible()
    path = shoot(desktop, "harness-logged-in")
    assert path == Path(conftest.settings.VAR_DIR) / "screenshots" / "harness-logged-in.png"
    assert path.read_bytes().startswith(b"\x89PNG")
