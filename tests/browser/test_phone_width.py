"""A table wider than a phone scrolls inside its own region, and the page never scrolls sideways.

The progression table of a competition of four rounds is wider than a phone. Its cells carry labels for screen
readers, hidden by absolute positioning; placed against the page instead of the table's scroll region, they
stretched the page to the table's full width, so the whole page slid sideways under a thumb (the demo's
progression page was 522 px wide on a 360 px phone). Every scroll region now holds its hidden labels.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import sideways_overflow
from tests.factories import seated_competition
from tests.tournaments.test_progression import play_round
from tournaments.models import Competition

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def four_rounds() -> Competition:
    competition = seated_competition(players=4, rounds=0, slug="four-rounds")
    for seed in range(4):
        play_round(competition, seed=seed + 1)
    return competition


@pytest.mark.parametrize("language", ["nl", "fr"])
def test_the_wide_progression_table_scrolls_and_the_page_does_not(
    phone: Page, live_server: LiveServer, four_rounds: Competition, language: str
) -> None:
    phone.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    phone.goto(reverse("progression", args=[four_rounds.slug]))
    assert phone.locator("html").get_attribute("lang") == language
    region = phone.locator(".scroll:has(#progression)")
    assert region.evaluate("r => r.scrollWidth > r.clientWidth"), "the table fits: the test shows nothing"
    assert phone.locator("#progression .visually-hidden").count() > 0  # the labels that stretched the page
    overflow = sideways_overflow(phone)
    assert overflow <= 1, f"the page is {overflow}px wider than the phone"
