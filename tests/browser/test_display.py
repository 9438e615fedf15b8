"""The projector display in a browser (issue 16): the organiser starts the round clock from the round page; two
displays (a 1920×1080 screen and a 1280×720 beamer, one with its clock five minutes wrong) show the same remaining
time; a pause freezes both; a reload shows the same time; between rounds the seating is listed by name; nothing
overflows sideways; publishing or starting a round switches the screen by itself."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from scoring.services import recompute_standings
from tests.browser.conftest import (
    assert_accessible,
    assert_no_csp_violations,
    login,
    new_page,
    script_errors,
    shoot,
)
from tests.factories import MembershipFactory, PlayerFactory, UserFactory, seated_competition
from tournaments.models import Competition, Round, RoundClock

pytestmark = pytest.mark.django_db(transaction=True)

SCREEN: dict[str, Any] = {"viewport": {"width": 1920, "height": 1080}}
BEAMER: dict[str, Any] = {"viewport": {"width": 1280, "height": 720}}
SKEW_MS = 5 * 60 * 1000  # the beamer's computer runs five minutes fast
NAMES = ["zoë", "Anna", "mieke", "Bart", "Émile", "Cas", "dirk", "Yves"]
BY_NAME = ["Anna", "Bart", "Cas", "dirk", "Émile", "mieke", "Yves", "zoë"]  # case and accents aside
RUNNING = '[data-clock-state="running"][data-left-ms]'
PAUSED = '[data-clock-state="paused"][data-left-ms]'


@pytest.fixture
def competition() -> Competition:
    competition = seated_competition(players=8, name="Open van Hemiksem", slug="open-hemiksem")
    for player, name in zip(competition.players.order_by("pk"), NAMES, strict=True):
        player.display_name = name
        player.save()
    return competition


def organiser_of(competition: Competition) -> Any:
    user = UserFactory(username="director")
    MembershipFactory(club=competition.club, player=PlayerFactory(user=user), is_admin=True)
    return user


def display(browser: Browser, live_server: LiveServer, competition: Competition, device: dict[str, Any]) -> Page:
    page = new_page(browser, live_server, device)
    page.goto(reverse("display", args=[competition.slug]))
    return page


def skewed(page: Page, milliseconds: int) -> Page:
    """This context's clock runs ``milliseconds`` ahead of the server's (set before its next page loads)."""
    page.add_init_script(f"{{ const real = Date.now; Date.now = () => real() + {milliseconds}; }}")
    return page


def left_ms(page: Page, state: str = RUNNING) -> int:
    return int(page.locator(state).first.get_attribute("data-left-ms") or "-1")


def shown(page: Page) -> str:
    return page.locator(".clock-box [data-clock-time]").inner_text()


def no_sideways_overflow(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{width} px wide in a {page.viewport_size['width']} px window"  # type: ignore[index]


def press(page: Page, name: str) -> None:
    with page.expect_navigation():
        page.get_by_role("button", name=name, exact=True).click()


def test_the_round_clock_agrees_across_displays_pauses_and_survives_a_reload(
    browser: Browser, desktop: Page, live_server: LiveServer, competition: Competition
) -> None:
    organiser = desktop
    login(organiser, live_server, organiser_of(competition))
    organiser.goto(reverse("manage-round", args=[competition.slug, 1]))
    minutes = organiser.get_by_label("Minutes")
    minutes.click()
    organiser.keyboard.press("ControlOrMeta+a")
    minutes.press_sequentially("30")
    press(organiser, "Start the clock")
    expect(organiser.locator("#clock-title")).to_be_visible()
    expect(organiser.get_by_text("The clock of round 1 runs: 30 minutes.")).to_be_visible()

    screen = display(browser, live_server, competition, SCREEN)
    beamer = skewed(new_page(browser, live_server, BEAMER), SKEW_MS)
    beamer.goto(reverse("display", args=[competition.slug]))
    for page in (screen, beamer):
        expect(page.locator(RUNNING)).to_have_count(1)
    # the same time on both, though the beamer's own clock is five minutes off, and what the server says
    a, b = left_ms(screen), left_ms(beamer)
    assert abs(a - b) < 1000, (a, b)
    ends_at = RoundClock.objects.get(round__competition=competition).ends_at
    assert ends_at is not None
    assert abs(a - (ends_at - timezone.now()).total_seconds() * 1000) < 1500
    assert 29 * 60_000 < a <= 30 * 60_000
    assert shown(screen)[:2] in ("29", "30")
    screen.wait_for_timeout(1200)
    assert left_ms(screen) < a  # it ticks
    shoot(screen, "display-clock-1920")
    shoot(beamer, "display-clock-1280")

    press(organiser, "Pause")
    for page in (screen, beamer):
        expect(page.locator(PAUSED)).to_have_count(1, timeout=10_000)
    frozen = shown(screen)
    screen.wait_for_timeout(1500)
    assert shown(screen) == shown(beamer) == frozen
    assert left_ms(screen, PAUSED) == left_ms(beamer, PAUSED)

    screen.reload()
    expect(screen.locator(PAUSED)).to_have_count(1)
    assert shown(screen) == frozen

    press(organiser, "Add 5 minutes")
    press(organiser, "Resume")
    for page in (screen, beamer):
        expect(page.locator(RUNNING)).to_have_count(1, timeout=10_000)
    beamer.reload()
    expect(beamer.locator(RUNNING)).to_have_count(1)
    a, b = left_ms(screen), left_ms(beamer)
    assert abs(a - b) < 1000, (a, b)
    assert 34 * 60_000 < a <= 35 * 60_000

    for page in (screen, beamer):
        assert_no_csp_violations(page)
        assert not script_errors(page), script_errors(page)
        page.context.close()


def test_between_rounds_the_seating_is_listed_by_name_and_fits_the_screen(
    browser: Browser, live_server: LiveServer, competition: Competition
) -> None:
    from tournaments.display.services import announce

    announce(competition, "Welcome to the Open van Hemiksem: round 1 starts at 20:00")
    for device, name in ((SCREEN, "1920"), (BEAMER, "1280")):
        page = display(browser, live_server, competition, device)
        names = page.locator("#seating tbody td.name").all_inner_texts()
        assert names == BY_NAME
        seats = page.locator("#seating tbody tr").first.locator("td").all_inner_texts()
        assert seats[0] == "Anna" and 1 <= int(seats[1]) <= 2 and 1 <= int(seats[2]) <= 4
        expect(page.get_by_text("Welcome to the Open van Hemiksem")).to_be_visible()
        no_sideways_overflow(page)
        assert_accessible(page, context=f"display, seating, {name}")
        shoot(page, f"display-seating-{name}")
        assert_no_csp_violations(page)
        page.context.close()


def test_the_display_switches_to_the_standings_once_the_round_is_in_play_and_pages_a_long_field(
    browser: Browser, live_server: LiveServer
) -> None:
    competition = seated_competition(players=40, name="Groot toernooi", slug="groot")
    recompute_standings(competition.pk, claim=False)
    page = display(browser, live_server, competition, BEAMER)
    expect(page.locator("#seating")).to_be_visible()
    Round.objects.filter(competition=competition).update(status=Round.Status.IN_PLAY)
    expect(page.locator("#display-standings #standings")).to_be_visible(timeout=15_000)  # reloaded by itself
    rows = page.locator("#display-standings #standings tbody tr")
    expect(rows).to_have_count(40)
    box = page.locator("#display-standings")
    pages = int(box.get_attribute("data-pages") or "0")
    visible = page.locator("#display-standings #standings tbody tr:not([hidden])").count()
    assert pages >= 2 and 0 < visible < 40  # a page at a time: a long field does not run off the screen
    assert page.locator('[data-pager-label="display-standings"]').inner_text() == f"1 / {pages}"
    no_sideways_overflow(page)
    assert_accessible(page, context="display, standings, 1280")
    shoot(page, "display-standings-1280")
    assert_no_csp_violations(page)
    assert not script_errors(page), script_errors(page)
    page.context.close()
