"""The projector display (issue 16): the round clock's state machine and arithmetic, the organiser's controls and who
may use them, the display page's visibility and seating, and its polled fragment's ETag and 304."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any
from unittest import mock

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory, seated_competition
from tournaments.display import selectors, services
from tournaments.display.selectors import clock_text
from tournaments.models import Announcement, AuditEvent, Competition, Round, RoundClock
from tournaments.models.display import ANNOUNCEMENT_MAX_LENGTH, CLOCK_MAX
from tournaments.services.errors import ServiceError
from tournaments.services.rounds import create_round, finalise_round, publish_round

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


@contextmanager
def at(moment: datetime) -> Iterator[None]:
    """Time stands at ``moment`` for the services (and everything else reading ``timezone.now``)."""
    with mock.patch("django.utils.timezone.now", return_value=moment):
        yield


def minutes(n: float) -> timedelta:
    return timedelta(minutes=n)


@pytest.fixture
def competition() -> Competition:
    return seated_competition(players=8)


@pytest.fixture
def round_(competition: Competition) -> Round:
    return Round.objects.get(competition=competition, number=1)


def clock_of(round_: Round) -> RoundClock:
    return RoundClock.objects.get(round=round_)


# -- the state machine and its arithmetic -----------------------------------------------------------------------


def test_a_started_clock_ends_its_duration_from_now_and_counts_down_from_the_server_time(round_: Round) -> None:
    with at(T0):
        services.start_clock(round_, 80)
    clock = clock_of(round_)
    assert clock.state == RoundClock.State.RUNNING
    assert clock.ends_at == T0 + minutes(80) and clock.remaining is None and clock.duration == minutes(80)
    assert services.remaining_at(clock, T0 + minutes(30)) == minutes(50)
    assert services.remaining_at(clock, T0 + minutes(95)) == timedelta(0)  # never negative


def test_pause_keeps_the_time_left_and_resume_runs_on_from_it(round_: Round) -> None:
    with at(T0):
        services.start_clock(round_, 60)
    with at(T0 + minutes(10) + timedelta(seconds=30)):
        services.pause_clock(round_)
    paused = clock_of(round_)
    assert paused.state == RoundClock.State.PAUSED and paused.ends_at is None
    assert paused.remaining == minutes(49) + timedelta(seconds=30)
    # while paused, time passes but the clock does not
    assert services.remaining_at(paused, T0 + minutes(40)) == minutes(49) + timedelta(seconds=30)
    with at(T0 + minutes(40)):
        services.resume_clock(round_)
    running = clock_of(round_)
    assert running.state == RoundClock.State.RUNNING
    assert running.ends_at == T0 + minutes(40) + minutes(49) + timedelta(seconds=30)
    assert services.remaining_at(running, T0 + minutes(50)) == minutes(39) + timedelta(seconds=30)


@pytest.mark.parametrize(("change", "expected"), [(5, 35), (1, 31), (-1, 29), (-5, 25), (-45, 0)])
def test_adjusting_a_running_clock_moves_its_end_never_below_zero(round_: Round, change: int, expected: int) -> None:
    with at(T0):
        services.start_clock(round_, 40)
    with at(T0 + minutes(10)):
        services.adjust_clock(round_, change)
        assert services.remaining_at(clock_of(round_), timezone.now()) == minutes(expected)


@pytest.mark.parametrize(("change", "expected"), [(5, 35), (-1, 29), (-45, 0)])
def test_adjusting_a_paused_clock_changes_the_time_left(round_: Round, change: int, expected: int) -> None:
    with at(T0):
        services.start_clock(round_, 40)
    with at(T0 + minutes(10)):
        services.pause_clock(round_)
    with at(T0 + minutes(20)):
        services.adjust_clock(round_, change)
    clock = clock_of(round_)
    assert clock.state == RoundClock.State.PAUSED and clock.remaining == minutes(expected)


def test_adjusting_never_passes_the_longest_a_clock_runs(round_: Round) -> None:
    with at(T0):
        services.start_clock(round_, services.MINUTES_MAX - 2)
        services.adjust_clock(round_, 5)
        assert clock_of(round_).ends_at == T0 + CLOCK_MAX


def test_stop_clears_the_clock_and_it_can_start_again(round_: Round) -> None:
    with at(T0):
        services.start_clock(round_, 30)
        services.stop_clock(round_)
    clock = clock_of(round_)
    assert clock.state == RoundClock.State.STOPPED and clock.ends_at is None and clock.remaining is None
    assert selectors.round_clock(round_) is None
    with at(T0 + minutes(1)):
        services.start_clock(round_, 20)
    assert clock_of(round_).ends_at == T0 + minutes(21)


@pytest.mark.parametrize(
    ("steps", "refused", "message"),
    [
        ([], services.pause_clock, "not running"),
        ([], services.resume_clock, "not paused"),
        ([], lambda r: services.adjust_clock(r, 1), "stopped"),
        ([], services.stop_clock, "already stopped"),
        ([lambda r: services.start_clock(r, 10)], lambda r: services.start_clock(r, 10), "running already"),
        ([lambda r: services.start_clock(r, 10)], services.resume_clock, "not paused"),
        (
            [lambda r: services.start_clock(r, 10), services.pause_clock],
            lambda r: services.start_clock(r, 10),
            "paused: stop it first",
        ),
        (
            [lambda r: services.start_clock(r, 10), services.pause_clock],
            services.pause_clock,
            "not running",
        ),
    ],
)
def test_a_step_the_clock_state_does_not_allow_is_refused_with_a_reason(
    round_: Round, steps: list[Any], refused: Any, message: str
) -> None:
    for step in steps:
        step(round_)
    before = RoundClock.objects.filter(round=round_).values().first()
    with pytest.raises(ServiceError, match=message):
        refused(round_)
    assert RoundClock.objects.filter(round=round_).values().first() == before


@pytest.mark.parametrize("count", [0, -1, services.MINUTES_MAX + 1])
def test_a_start_outside_its_range_is_refused(round_: Round, count: int) -> None:
    with pytest.raises(ServiceError, match="minutes from 1 to"):
        services.start_clock(round_, count)
    assert not RoundClock.objects.filter(round=round_, state=RoundClock.State.RUNNING).exists()


def test_a_draft_or_finalised_round_has_no_clock_to_start(competition: Competition, round_: Round) -> None:
    draft = create_round(competition)
    with pytest.raises(ServiceError, match="seating is published"):
        services.start_clock(draft, 10)
    round_.status = Round.Status.COMPLETE
    round_.save(update_fields=["status"])
    finalise_round(round_)
    with pytest.raises(ServiceError, match="seating is published"):
        services.start_clock(round_, 10)


def test_every_clock_step_is_audited(round_: Round) -> None:
    organiser = UserFactory()
    services.start_clock(round_, 10, by=organiser)
    services.pause_clock(round_, by=organiser)
    events = AuditEvent.objects.filter(model="roundclock").order_by("pk")
    assert [e.note for e in events] == ["round clock started", "round clock paused"]
    assert events[1].before["state"] == "running" and events[1].after["state"] == "paused"
    assert {e.username for e in events} == {organiser.username}


def test_the_database_refuses_a_clock_whose_fields_disagree_with_its_state(round_: Round) -> None:
    services.start_clock(round_, 10)
    for change in (
        {"ends_at": None},
        {"remaining": minutes(3)},
        {"state": "paused"},
        {"state": "ticking"},
        {"duration": -minutes(1)},
        {"duration": CLOCK_MAX + minutes(1)},
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            RoundClock.objects.filter(round=round_).update(**change)


@pytest.mark.parametrize(("ms", "text"), [(0, "00:00"), (1, "00:01"), (59_001, "01:00"), (3_600_000, "1:00:00")])
def test_the_time_left_reads_as_the_browser_shows_it(ms: int, text: str) -> None:
    assert clock_text(ms) == text


# -- announcements ----------------------------------------------------------------------------------------------


def test_an_announcement_is_shown_until_hidden(competition: Competition) -> None:
    shown = services.announce(competition, "  Break of   ten minutes  ")
    assert shown.text == "Break of ten minutes"
    assert list(selectors.active_announcements(competition)) == [shown]
    services.hide_announcement(shown)
    assert list(selectors.active_announcements(competition)) == []
    with pytest.raises(ServiceError, match="hidden already"):
        services.hide_announcement(shown)


@pytest.mark.parametrize("text", ["", "   ", "x" * (ANNOUNCEMENT_MAX_LENGTH + 1)])
def test_an_empty_or_too_long_announcement_is_refused(competition: Competition, text: str) -> None:
    with pytest.raises(ServiceError):
        services.announce(competition, text)
    assert not Announcement.objects.exists()


def test_a_screen_holds_a_few_announcements_at_once(competition: Competition) -> None:
    for n in range(services.ACTIVE_ANNOUNCEMENTS_MAX):
        services.announce(competition, f"note {n}")
    with pytest.raises(ServiceError, match="hide one first"):
        services.announce(competition, "one too many")


# -- the organiser's controls -----------------------------------------------------------------------------------


def organiser_of(competition: Competition) -> Any:
    user = UserFactory()
    MembershipFactory(club=competition.club, player=PlayerFactory(user=user), is_admin=True)
    return user


def other_club_admin() -> Any:
    user = UserFactory()
    MembershipFactory(club=ClubFactory(), player=PlayerFactory(user=user), is_admin=True)
    return user


def controls(competition: Competition, round_number: int = 1) -> dict[str, tuple[str, dict[str, Any]]]:
    slug = competition.slug
    announcement = Announcement.objects.create(competition=competition, text="Welcome")
    return {
        "start": (reverse("manage-clock-start", args=[slug, round_number]), {"minutes": 10}),
        "pause": (reverse("manage-clock-pause", args=[slug, round_number]), {}),
        "resume": (reverse("manage-clock-resume", args=[slug, round_number]), {}),
        "adjust": (reverse("manage-clock-adjust", args=[slug, round_number]), {"minutes": 5}),
        "stop": (reverse("manage-clock-stop", args=[slug, round_number]), {}),
        "announce": (reverse("manage-announcement-add", args=[slug]), {"text": "Dinner"}),
        "hide": (reverse("manage-announcement-hide", args=[slug, announcement.pk]), {}),
    }


def test_the_organiser_runs_the_clock_from_the_round_page(competition: Competition, round_: Round) -> None:
    client = Client()
    client.force_login(organiser_of(competition))
    page = reverse("manage-round", args=[competition.slug, 1])
    shown = client.get(page).content.decode()
    assert reverse("manage-clock-start", args=[competition.slug, 1]) in shown
    assert 'value="80"' in shown  # 16 deals: 80 minutes by default

    started = client.post(reverse("manage-clock-start", args=[competition.slug, 1]), {"minutes": 45}, follow=True)
    assert "45 minutes" in started.content.decode()
    assert clock_of(round_).state == RoundClock.State.RUNNING
    client.post(reverse("manage-clock-adjust", args=[competition.slug, 1]), {"minutes": -5})
    assert clock_of(round_).duration == minutes(45)
    remaining = services.remaining_at(clock_of(round_), timezone.now())
    assert remaining is not None and minutes(39) < remaining <= minutes(40)
    client.post(reverse("manage-clock-pause", args=[competition.slug, 1]))
    assert clock_of(round_).state == RoundClock.State.PAUSED
    refused = client.post(reverse("manage-clock-pause", args=[competition.slug, 1]), follow=True)
    assert "not running" in refused.content.decode()
    client.post(reverse("manage-clock-resume", args=[competition.slug, 1]))
    client.post(reverse("manage-clock-stop", args=[competition.slug, 1]))
    assert clock_of(round_).state == RoundClock.State.STOPPED


def test_a_bad_number_of_minutes_is_a_message_not_a_change(competition: Competition, round_: Round) -> None:
    client = Client()
    client.force_login(organiser_of(competition))
    answer = client.post(reverse("manage-clock-start", args=[competition.slug, 1]), {"minutes": "9999"}, follow=True)
    assert "Give a number from 1 to 720." in answer.content.decode()
    assert not RoundClock.objects.filter(round=round_).exclude(state="stopped").exists()


def test_the_organiser_adds_and_hides_announcements_from_the_competition_page(competition: Competition) -> None:
    client = Client()
    client.force_login(organiser_of(competition))
    page = reverse("manage-competition", args=[competition.slug])
    client.post(
        reverse("manage-announcement-add", args=[competition.slug]), {"text": "Bar closes at 23:00", "next": page}
    )
    announcement = Announcement.objects.get()
    assert announcement.text == "Bar closes at 23:00" and announcement.active
    assert "Bar closes at 23:00" in client.get(page).content.decode()
    back = client.post(
        reverse("manage-announcement-hide", args=[competition.slug, announcement.pk]), {"next": "https://evil.example/"}
    )
    assert back["Location"] == page  # never somewhere else
    announcement.refresh_from_db()
    assert not announcement.active


@pytest.mark.parametrize("control", ["start", "pause", "resume", "adjust", "stop", "announce", "hide"])
def test_another_clubs_organiser_is_refused_every_control(competition: Competition, control: str) -> None:
    url, data = controls(competition)[control]
    client = Client()
    client.force_login(other_club_admin())
    assert client.post(url, data).status_code == 403
    hidden = seated_competition(players=4, is_public=False)
    hidden_url, hidden_data = controls(hidden)[control]
    assert client.post(hidden_url, hidden_data).status_code == 404  # a hidden competition does not exist for them
    assert not RoundClock.objects.exclude(state="stopped").exists()
    assert Announcement.objects.filter(hidden_at__isnull=False).count() == 0
    assert set(Announcement.objects.values_list("text", flat=True)) == {"Welcome"}


@pytest.mark.parametrize("control", ["start", "pause", "resume", "adjust", "stop", "announce", "hide"])
def test_anonymous_visitors_are_sent_to_log_in_and_gets_are_refused(competition: Competition, control: str) -> None:
    url, data = controls(competition)[control]
    answer = Client().post(url, data)
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("login"))
    client = Client()
    client.force_login(organiser_of(competition))
    assert client.get(url).status_code == 405  # POST only


def test_controls_need_the_csrf_token(competition: Competition) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser_of(competition))
    url, data = controls(competition)["start"]
    assert client.post(url, data).status_code == 403
    assert not RoundClock.objects.exists()


# -- the display page and its fragments ------------------------------------------------------------------------


def test_a_hidden_competition_has_no_display_for_the_public(competition: Competition) -> None:
    hidden = seated_competition(players=4, is_public=False)
    for name, args in (
        ("display", [hidden.slug]),
        ("display-live", [hidden.slug]),
        ("round-clock", [hidden.slug, 1]),
        ("display", ["no-such-competition"]),
    ):
        assert Client().get(reverse(name, args=args)).status_code == 404, name
    client = Client()
    client.force_login(organiser_of(hidden))
    assert client.get(reverse("display", args=[hidden.slug])).status_code == 200  # its organisers see it


def test_a_draft_rounds_clock_is_not_public(competition: Competition) -> None:
    create_round(competition)
    assert Client().get(reverse("round-clock", args=[competition.slug, 2])).status_code == 404
    assert Client().get(reverse("round-clock", args=[competition.slug, 1])).status_code == 200


def test_between_rounds_the_display_shows_the_seating_by_name(competition: Competition) -> None:
    names = ["zoë", "Anna", "mieke", "Bart", "Émile", "Cas", "dirk", "Yves"]
    by_name = ["Anna", "Bart", "Cas", "dirk", "Émile", "mieke", "Yves", "zoë"]  # case and accents aside
    for player, name in zip(competition.players.order_by("pk"), names, strict=True):
        player.display_name = name
        player.save()
    page = Client().get(reverse("display", args=[competition.slug])).content.decode()
    seating = page[page.index('id="seating"') :]
    shown = [n for n in by_name if n in seating]
    positions = [seating.index(f'<td class="name">{n}</td>') for n in shown]
    assert positions == sorted(positions) and len(shown) == 8
    rows = selectors.seating_by_name(Round.objects.get(competition=competition, number=1))
    assert [r.name for r in rows] == by_name
    assert {r.seat for r in rows} == {1, 2, 3, 4} and {r.table for r in rows} == {1, 2}
    assert 'id="display-standings"' not in page


def test_once_the_round_is_in_play_the_display_shows_the_standings(competition: Competition) -> None:
    Round.objects.filter(competition=competition).update(status=Round.Status.IN_PLAY)
    page = Client().get(reverse("display", args=[competition.slug])).content.decode()
    assert 'id="seating"' not in page
    assert f'hx-get="{reverse("competition-standings", args=[competition.slug])}"' in page
    assert selectors.display_view(competition) == "standings"


def test_the_display_shows_the_clock_and_the_announcements(competition: Competition, round_: Round) -> None:
    services.start_clock(round_, 30)
    services.announce(competition, "Round 2 starts at 21:00")
    page = Client().get(reverse("display", args=[competition.slug]))
    body = page.content.decode()
    ends = clock_of(round_).ends_at
    assert ends is not None
    assert f'data-ends-ms="{round(ends.timestamp() * 1000)}"' in body
    assert "Round 2 starts at 21:00" in body
    assert page["X-Server-Time"].isdigit()
    assert "<script>" not in body  # scripts come from static files (CSP)


def test_the_live_fragment_answers_304_until_the_clock_or_an_announcement_changes(
    competition: Competition, round_: Round
) -> None:
    url = reverse("display-live", args=[competition.slug])
    client = Client()
    with at(T0):
        services.start_clock(round_, 30)
    first = client.get(url)
    tag = first["ETag"]
    assert first.status_code == 200 and 'data-clock-state="running"' in first.content.decode()
    again = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b""
    assert abs(int(again["X-Server-Time"]) - timezone.now().timestamp() * 1000) < 5000  # the server's time, on a 304
    services.pause_clock(round_)
    paused = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert paused.status_code == 200 and paused["ETag"] != tag
    assert 'data-clock-state="paused"' in paused.content.decode()
    services.announce(competition, "Coffee")
    assert client.get(url, HTTP_IF_NONE_MATCH=paused["ETag"]).status_code == 200


def test_the_round_clock_fragment_has_its_own_validator(competition: Competition, round_: Round) -> None:
    url = reverse("round-clock", args=[competition.slug, 1])
    client = Client()
    empty = client.get(url)
    assert empty.status_code == 200 and b"data-clock-state" not in empty.content
    assert client.get(url, HTTP_IF_NONE_MATCH=empty["ETag"]).status_code == 304
    services.start_clock(round_, 30)
    assert client.get(url, HTTP_IF_NONE_MATCH=empty["ETag"]).status_code == 200


def test_the_entry_and_round_pages_show_the_round_clock(competition: Competition, round_: Round) -> None:
    services.start_clock(round_, 30)
    client = Client()
    client.force_login(organiser_of(competition))
    clock_url = reverse("round-clock", args=[competition.slug, 1])
    for page in (reverse("sheet-entry", args=[competition.slug, 1, 1]), reverse("round", args=[competition.slug, 1])):
        body = client.get(page).content.decode()
        assert f'data-clock-src="{clock_url}"' in body and 'data-clock-state="running"' in body, page


def test_publishing_the_next_round_changes_the_display_view(competition: Competition) -> None:
    Round.objects.filter(competition=competition).update(status=Round.Status.COMPLETE)
    url = reverse("display-live", args=[competition.slug])
    client = Client()
    first = client.get(url)
    assert 'data-display-view="standings"' in first.content.decode()
    publish_round(create_round(competition))
    second = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200 and 'data-display-view="seating:2:' in second.content.decode()
