"""The public pages in Dutch and French: numbers the browser reads stay numbers, and every word is translated.

Issue 15, items 4 and 14: the player's chart drawn with decimal commas in nl and fr (attribute errors, the top
label cut off, the zero line at the top), "1 donnes sur 24", "Classement Elo" for an OpenSkill rating, the
standings' tooltip in English on every page, no favicon, and no table codes on the organiser's progress table.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.urls import reverse
from playwright.sync_api import ConsoleMessage, Page
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import assert_accessible, assert_no_csp_violations, script_errors
from tests.browser.sites import Site, build_site

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

    svg = desktop.locator("figure.chart svg")
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
    clean(desktop, f"player page ({language})")


def element_points(attributes: list[dict[str, Any]]) -> list[tuple[float, float]]:
    polyline = next(e for e in attributes if e["tag"] == "polyline")
    return [(float(x), float(y)) for x, y in (pair.split(",") for pair in polyline["points"].split())]
