"""The public pages in Dutch and French: numbers the browser reads stay numbers, and every word is translated.

Issue 15, items 4 and 14: the player's chart drawn with decimal commas in nl and fr (attribute errors, the top
label cut off, the zero line at the top), "1 donnes sur 24", "Classement Elo" for an OpenSkill rating, the
standings' tooltip in English on every page, no favicon, and no table codes on the organiser's progress table.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import ConsoleMessage, Page
from pytest_django.live_server_helper import LiveServer

from games.generate import random_session
from scoring.models import Rating, RatingStep
from scoring.services import recompute_standings
from tests.browser.conftest import assert_accessible, assert_no_csp_violations, login, script_errors, shoot
from tests.browser.sites import Site, build_site
from tests.factories import seated_competition
from tournaments.models import Competition, ScoreSheet
from tournaments.services.entry import record_deal

pytestmark = pytest.mark.django_db(transaction=True)

NUMBER = re.compile(r"-?\d+(\.\d+)?")
COORDINATES = ("x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "dy")


@pytest.fixture
def site() -> Site:
    return build_site()


def speak(page: Page, live_server: LiveServer, language: str) -> None:
    """Read the site in ``language``, as the language switcher leaves it: Django's language cookie."""
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])


def console_errors(page: Page) -> list[str]:
    """Start recording what the page logs as errors (an SVG attribute it cannot parse, a missing file)."""
    errors: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(f"{message.text} ({message.location.get('url', '')})")

    page.on("console", on_console)
    return errors


def clean(page: Page, context: str) -> None:
    assert_accessible(page, context=context)
    assert_no_csp_violations(page)
    assert script_errors(page) == []


# -- item 4: the player's chart -----------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["nl", "fr", "en"])
def test_the_player_chart_reads_its_numbers_in_every_language(
    desktop: Page, live_server: LiveServer, site: Site, language: str
) -> None:
    speak(desktop, live_server, language)
    errors = console_errors(desktop)
    desktop.goto(reverse("player", args=[site.player.pk]))
    assert desktop.locator("html").get_attribute("lang") == language

    svg = desktop.locator("figure.chart svg[aria-labelledby='cumulative-title']")  # not the progression chart
    attributes: list[dict[str, Any]] = svg.evaluate(
        """svg => [...svg.querySelectorAll("*")].map(el => Object.fromEntries(
             [...el.attributes].map(a => [a.name, a.value]).concat([["tag", el.tagName]])))"""
    )
    for element in attributes:
        for name in COORDINATES:
            if name in element:
                assert NUMBER.fullmatch(element[name]), f"{element['tag']} {name}={element[name]!r}"
        if element["tag"] == "polyline":
            for pair in element["points"].split():
                assert re.fullmatch(r"-?\d+(\.\d+)?,-?\d+(\.\d+)?", pair), element["points"]
    assert errors == []

    # the values the table beside the chart gives: the chart starts at zero, the top label is the highest value
    cumulative = [int(v) for v in desktop.locator("#sessions tbody tr td:last-child").all_inner_texts()]
    series = [0, *cumulative]
    high, low = max(series), min(series)
    box = svg.bounding_box()
    assert box is not None
    top = svg.locator("text", has_text=re.compile(rf"^{high}$"))
    label = top.bounding_box()
    assert label is not None and top.text_content() == str(high)
    assert box["y"] <= label["y"] and label["y"] + label["height"] <= box["y"] + box["height"], "top label cut off"

    line = next(e for e in attributes if e["tag"] == "line")
    plot_top, plot_height = 8, 120 - 8 - 8  # tournaments.charts: TOP, HEIGHT - TOP - BOTTOM
    expected = plot_top + (high - 0) / ((high - low) or 1) * plot_height
    assert float(line["y1"]) == pytest.approx(expected, abs=0.1) == float(line["y2"])
    first = element_points(attributes)[0]
    assert first[1] == pytest.approx(expected, abs=0.1)  # the series starts on the zero line
    shoot(desktop, f"player-chart-{language}")
    clean(desktop, f"player page ({language})")


def element_points(attributes: list[dict[str, Any]]) -> list[tuple[float, float]]:
    polyline = next(e for e in attributes if e["tag"] == "polyline")
    return [(float(x), float(y)) for x, y in (pair.split(",") for pair in polyline["points"].split())]


# -- item 14: the words -------------------------------------------------------------------------------------------

RATING = {"nl": "Speelsterkte", "fr": "Classement (OpenSkill)", "en": "Rating"}


@pytest.mark.parametrize("language", ["nl", "fr", "en"])
def test_the_rating_is_called_what_it_is(desktop: Page, live_server: LiveServer, site: Site, language: str) -> None:
    # the site's rounds are not finalised, so nobody is rated yet: a rating planted, with a history of two steps
    # whose ordinals (mu - 3 sigma) are 1.5 and 3.25
    Rating.objects.create(
        player=site.player, mu=27.5, sigma=6.25, ordinal=8.75, deals_rated=1, computed_at=timezone.now()
    )
    RatingStep.objects.bulk_create(
        RatingStep(position=k, player=site.player, mu=ordinal + 3, sigma=1, deals=1)
        for k, ordinal in enumerate((1.5, 3.25))
    )
    speak(desktop, live_server, language)
    desktop.goto(reverse("player", args=[site.player.pk]))

    rating = desktop.locator("main > p").first.inner_text()
    colon = "\u00a0:" if language == "fr" else ":"  # French sets a colon off: "Classement (OpenSkill) : 8,8"
    assert rating.startswith(f"{RATING[language]}{colon}"), rating
    assert rating.endswith({"nl": "1 spel)", "fr": "1 donne)", "en": "1 deal)"}[language]), rating
    rating_chart = desktop.locator("main > svg.chart polyline").get_attribute("points")
    assert rating_chart == "0.0,80.0 300.0,0.0"  # two ratings, no decimal commas
    assert "Elo" not in desktop.locator("main").inner_text()
    if language == "nl":
        assert "Rating" not in desktop.locator("main").inner_text()
    clean(desktop, f"player page ({language})")


def test_french_counts_one_deal_of_24_in_the_singular(desktop: Page, live_server: LiveServer) -> None:
    competition = seated_competition(players=8, deals_per_session=24, name="Beker", slug="beker")
    first = ScoreSheet.objects.get(table__round__competition=competition, table__number=1)
    rules = competition.rule_set.engine_rules()
    record_deal(first, random_session(rules, random.Random(1), 4, 24)[0])
    speak(desktop, live_server, "fr")

    desktop.goto(reverse("round", args=[competition.slug, 1]))

    states = [text.split(" · ")[-1] for text in desktop.locator("#tables section.card > p.muted").all_inner_texts()]
    assert states == ["1 donne sur 24", "0 donne sur 24"]
    clean(desktop, "round page (fr)")


# the standings' tooltips, under the points-per-deal method (a decimal value in words)
TOOLTIP = {
    "nl": r"-?\d+(,\d+)? punten? per spel",
    "fr": r"-?\d+(,\d+)? points? par donne",
    "en": r"-?\d+(\.\d+)? points? per deal",
}


@pytest.mark.parametrize("language", ["nl", "fr", "en"])
def test_the_standings_tooltips_speak_the_readers_language(
    desktop: Page, live_server: LiveServer, site: Site, language: str
) -> None:
    Competition.objects.filter(pk=site.tournament.pk).update(standings_method="points_per_deal")
    recompute_standings(site.tournament.pk, claim=False)
    speak(desktop, live_server, language)

    desktop.goto(reverse("competition", args=[site.tournament.slug]))

    tips = desktop.locator("#standings tbody tr td[title]").evaluate_all("cells => cells.map(c => c.title)")
    assert len(tips) == 9
    for tip in tips:
        assert re.match(TOOLTIP[language], tip), tip
        assert not re.search(r"#\d", tip), tip  # players by name, never by id
    values = desktop.locator("#standings tbody tr td:nth-child(3)").all_inner_texts()  # the ranking value
    assert values and all(re.fullmatch(TOOLTIP[language], value) for value in values), values
    clean(desktop, f"competition page ({language})")


# -- item 14: the favicon and the organiser's table codes ---------------------------------------------------------


def test_the_site_has_an_icon_and_no_page_asks_for_a_missing_one(
    desktop: Page, live_server: LiveServer, site: Site
) -> None:
    missing: list[str] = []
    desktop.on("response", lambda response: missing.append(response.url) if response.status == 404 else None)
    errors = console_errors(desktop)
    desktop.goto(reverse("competition", args=[site.tournament.slug]))

    icon = desktop.locator("link[rel=icon]").get_attribute("href")
    assert icon
    answer = desktop.request.get(icon)
    assert answer.status == 200 and answer.headers["content-type"].startswith("image/svg+xml")
    legacy = desktop.request.get("/favicon.ico")  # asked by browsers whatever the page links
    assert legacy.status == 200 and legacy.headers["content-type"].startswith("image/")
    desktop.wait_for_load_state("networkidle")
    assert missing == [] and errors == []
    clean(desktop, "competition page with its icon")


def test_the_organisers_progress_table_shows_each_tables_code(
    desktop: Page, live_server: LiveServer, site: Site
) -> None:
    login(desktop, live_server, site.roles.organiser)
    desktop.goto(reverse("manage-round", args=[site.tournament.slug, 1]))

    header = desktop.locator("#progress table#tables thead th").all_inner_texts()
    column = header.index("Table code")
    codes = [
        row.locator("td").nth(column).inner_text() for row in desktop.locator("#progress table#tables tbody tr").all()
    ]
    expected = [
        sheet.captain_code
        for sheet in ScoreSheet.objects.filter(
            table__round__competition=site.tournament, table__round__number=1
        ).order_by("table__number")
    ]
    assert codes == expected
    clean(desktop, "organiser's round page")

    desktop.context.clear_cookies()  # the public never sees them
    desktop.goto(reverse("round", args=[site.tournament.slug, 1]))
    assert not any(code in desktop.content() for code in expected)
