"""Issue 15, item 15: the demo's public page shows both states, on a desktop and a phone. Rounds 1 and 2 are
confirmed; round 3 is in play with two of its four sheets confirmed, so the ten players of its confirmed tables
stand plainly and the eight of its unconfirmed ones are marked provisional, with the note that says why.
"""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import (
    DESKTOP,
    PHONE,
    assert_accessible,
    assert_no_csp_violations,
    new_page,
    script_errors,
    shoot,
)


@pytest.mark.django_db(transaction=True)
def test_the_demo_standings_show_confirmed_and_provisional_rows(browser: Browser, live_server: LiveServer) -> None:
    call_command("load_demo", stdout=StringIO())
    device: dict[str, Any]
    for name, device in (("desktop", DESKTOP), ("phone", PHONE)):
        page = new_page(browser, live_server, device)
        try:
            page.goto("/c/demo-tournament/")
            rows = page.locator("#standings tbody tr")
            expect(rows).to_have_count(18)
            expect(page.locator("#standings tbody tr.provisional")).to_have_count(8)
            expect(page.locator("#standings tbody tr:not(.provisional)")).to_have_count(10)
            expect(page.locator("#provisional-note")).to_be_visible()
            rounds = page.locator("#rounds li")
            expect(rounds.nth(0)).to_contain_text("Complete · 4 of 4 tables confirmed")
            expect(rounds.nth(1)).to_contain_text("Complete · 4 of 4 tables confirmed")
            expect(rounds.nth(2)).to_contain_text("In play · 2 of 4 tables confirmed")
            shoot(page, f"demo-standings-{name}")
            assert_accessible(page, context=f"demo standings, {name}")
            assert_no_csp_violations(page)
            assert script_errors(page) == []
        finally:
            page.context.close()
