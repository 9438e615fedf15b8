"""The organiser's round page says who sits out how many deals at a table of five (issue 15, item 12).

Five players, 24 deals: at a table of five the dealer sits each deal out and the deal goes round from seat 1, so
seats 1-4 sit out 5 deals and seat 5 four. Round 2 is seated after round 1: the page lists, per player, the deals
sat out before (round 1) and in round 2, and the seat that sits out least went to one who sat out 5 before.
Expected numbers are counted here from the seats in the database.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import (
    assert_accessible,
    assert_no_csp_violations,
    login,
    script_errors,
    shoot,
    sideways_overflow,
)
from tests.factories import CompetitionFactory, PlayerFactory, RuleSetFactory, register_players
from tests.roles import make_roles
from tournaments.models import Competition, Seat
from tournaments.services.rounds import create_round, publish_round

SEATS_24 = (5, 5, 5, 5, 4)


def two_rounds() -> tuple[Competition, Any]:
    competition = CompetitionFactory(rule_set=RuleSetFactory(preset="iwwa"), deals_per_session=24)
    register_players(competition, PlayerFactory.create_batch(5))
    publish_round(create_round(competition))
    create_round(competition)
    return competition, make_roles(competition).organiser


def expected_rows(competition: Competition) -> list[list[str]]:
    """Seat, player, sat out before round 2, sits out in round 2: from the seats, one row per seat of round 2."""
    before = {
        s.player_id: SEATS_24[s.position] for s in Seat.objects.filter(round__competition=competition, round__number=1)
    }
    rows = []
    for seat in Seat.objects.filter(round__competition=competition, round__number=2).select_related("player"):
        rows.append(
            [
                "1",
                str(seat.position + 1),
                seat.player.name,
                str(before[seat.player_id]),
                str(before[seat.player_id] - 4),
                str(SEATS_24[seat.position]),
            ]
        )
    return sorted(rows, key=lambda row: int(row[1]))


def read_rows(page: Page) -> list[list[str]]:
    table = page.locator("#sit-outs-table")
    expect(table).to_be_visible()
    return [
        [cell.strip() for cell in row.locator("td, th").all_inner_texts()] for row in table.locator("tbody tr").all()
    ]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_round_page_shows_each_players_sit_outs_so_far_and_this_round(
    device: str, request: pytest.FixtureRequest, live_server: LiveServer
) -> None:
    page: Page = request.getfixturevalue(device)
    competition, organiser = two_rounds()
    login(page, live_server, organiser)
    page.goto(reverse("manage-round", args=[competition.slug, 2]))
    expect(page.get_by_role("heading", name="Sitting out at tables of five")).to_be_visible()
    rows = read_rows(page)
    assert rows == expected_rows(competition)
    # the seat sitting out least (seat 5, 4 deals) goes to one who sat out 5 deals in round 1
    assert rows[4][1:] == [rows[4][1], rows[4][2], "5", "1", "4"]
    assert_accessible(page, context=f"organiser's round page with sit-outs, {device}")
    assert_no_csp_violations(page)
    assert script_errors(page) == []
    if device == "phone":  # the table scrolls inside its box; the page itself does not scroll sideways
        assert sideways_overflow(page) <= 1
    shoot(page, f"round-sit-outs-{device}")
