"""The live parts (tournaments/live.py): read once for many polls, dropped when a sheet or round changes state."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import seated_competition
from tests.tournaments.test_public_pages import (  # noqa: F401
    ALLEEN_4,
    ALLEEN_6,
    World,
    computed,
    fill,
    page,
    quietly,
    rows,
    sheet_of,
    world,
)
from tournaments import live
from tournaments.models import Round, ScoreSheet
from tournaments.services.entry import record_deal
from tournaments.services.sheets import confirm_sheet

pytestmark = pytest.mark.django_db


def poll(world: World, tag: str | None = None, **params: str) -> Any:  # noqa: F811
    url = reverse("competition-standings", args=[world.competition.slug])
    headers = {"HTTP_IF_NONE_MATCH": tag} if tag else {}
    return Client().get(url, params, HTTP_HX_REQUEST="true", **headers)


def rounds_seen(world: World) -> str:  # noqa: F811
    competition_page = page(Client().get(reverse("competition", args=[world.competition.slug])))
    return str(competition_page.find("input", id="rounds-seen").attrs["value"])


def test_polls_read_the_parts_once_between_them(world: World) -> None:  # noqa: F811
    cache.clear()
    with CaptureQueriesContext(connection) as first:
        assert poll(world).status_code == 200
    with CaptureQueriesContext(connection) as second:
        assert poll(world).status_code == 200
    joins = [q["sql"] for q in first.captured_queries if "tournaments_seatresult" in q["sql"]]
    assert joins, "the first poll reads which rows are provisional"
    assert not [q["sql"] for q in second.captured_queries if "tournaments_seatresult" in q["sql"]]
    assert len(second.captured_queries) <= len(first.captured_queries) - 2


def test_a_revalidating_poll_asks_the_shared_cache_once_and_the_database_nothing(world: World) -> None:  # noqa: F811
    """A thousand phones make this the hottest path: the polled competition and the names counter in one round
    trip with the live parts; nothing rendered, nothing read from the database."""
    first = poll(world, statistics_seen="", rounds_seen="")
    seen = {"rounds_seen": rounds_seen(world), "statistics_seen": ""}
    tag = poll(world, **seen).headers["ETag"]
    calls: list[str] = []  # the round trips: locmem's get_many asks get for each key, Redis sends one MGET
    inside = []

    def get(key: str, *args: Any, **kwargs: Any) -> Any:
        if not inside:
            calls.append(f"get {key.split(':')[1]}")
        return original_get(key, *args, **kwargs)

    def get_many(keys: list[str], *args: Any, **kwargs: Any) -> Any:
        calls.append("get_many " + " ".join(sorted(key.split(":")[1] for key in keys)))
        inside.append(True)
        try:
            return original_get_many(keys, *args, **kwargs)
        finally:
            inside.pop()

    original_get, original_get_many = cache.get, cache.get_many
    with (
        mock.patch.object(cache, "get", side_effect=get),
        mock.patch.object(cache, "get_many", side_effect=get_many),
        CaptureQueriesContext(connection) as queries,
    ):
        again = poll(world, tag, **seen)
    assert first.status_code == 200 and again.status_code == 304
    assert calls == ["get_many live names-version polled"]
    assert len(queries) == 0


def test_a_confirmed_sheet_shows_in_the_next_poll_at_once(world: World) -> None:  # noqa: F811
    """A service's change forgets the parts: no second of delay for what people just did."""
    competition = seated_competition(players=4, kind="league")
    sheet = sheet_of(competition)
    fill(sheet)
    world = World(competition, sheet, world.player, world.roles)
    seen = rounds_seen(world)
    assert poll(world, rounds_seen=seen).content.count(b'id="rounds"') == 0  # nothing new yet: parts now cached
    confirm_sheet(ScoreSheet.objects.get(pk=sheet.pk), by=world.roles.club_admin)

    changed = page(poll(world, rounds_seen=seen))
    assert "1 of 1 table confirmed" in changed.find("ul", id="rounds").text()


def test_a_first_line_marks_the_rows_provisional_in_the_next_poll() -> None:
    competition = seated_competition(players=8, kind="league")
    with quietly():
        record_deal(sheet_of(competition, table_number=1), ALLEEN_6)
    computed(competition)
    url = reverse("competition-standings", args=[competition.slug])

    def provisional_rows() -> int:
        table = page(Client().get(url, HTTP_HX_REQUEST="true")).find("table", id="standings")
        return sum(row[1].endswith(" provisional") for row in rows(table))

    assert provisional_rows() == 4  # table 1's players; the parts are now kept for a second
    with quietly():
        record_deal(sheet_of(competition, table_number=2), ALLEEN_6)
    computed(competition)

    assert provisional_rows() == 8


def test_a_bare_update_shows_once_the_parts_expire(world: World) -> None:  # noqa: F811
    """What no service does (an update in a shell, a script) is seen within ``LIVE_PARTS_SECONDS``, not at once."""
    seen = rounds_seen(world)
    assert not page(poll(world, rounds_seen=seen)).find_all("ul", id="rounds")
    Round.objects.filter(competition=world.competition).update(status=Round.Status.COMPLETE)
    assert not page(poll(world, rounds_seen=seen)).find_all("ul", id="rounds")  # within the second: as it was

    live.forget(world.competition.pk)  # as the second's expiry does
    assert "Complete" in page(poll(world, rounds_seen=seen)).find("ul", id="rounds").text()


def test_the_parts_expire_after_their_seconds(world: World, settings: Any) -> None:  # noqa: F811
    settings.LIVE_PARTS_SECONDS = 1
    with mock.patch.object(cache, "set", wraps=cache.set) as kept:
        live.live_parts(world.competition)
    assert kept.call_args.args[2] == 1


def test_without_the_cache_the_poll_still_answers_from_the_database(world: World) -> None:  # noqa: F811
    with (
        mock.patch.object(cache, "get", side_effect=ConnectionError("cache down")),
        mock.patch.object(cache, "set", side_effect=ConnectionError("cache down")),
    ):
        parts = live.live_parts(world.competition)
    assert parts.rounds and parts.rounds[0].tables == 1


def test_drafts_count_only_for_those_who_see_them(world: World) -> None:  # noqa: F811
    parts = live.read_parts(world.competition)
    with_draft = live.LiveParts(parts.provisional, (*parts.rounds, live.RoundProgress(9, Round.Status.DRAFT, 3, 0)))
    assert with_draft.rounds_fingerprint("nl", drafts=False) == parts.rounds_fingerprint("nl", drafts=False)
    assert with_draft.rounds_fingerprint("nl", drafts=True) != parts.rounds_fingerprint("nl", drafts=True)
    assert parts.rounds_fingerprint("nl", drafts=False) != parts.rounds_fingerprint("fr", drafts=False)


def test_the_polled_competition_is_read_once_between_polls_and_hiding_it_is_seen_at_once(world: World) -> None:  # noqa: F811
    from tournaments.models import Competition

    assert poll(world).status_code == 200
    with CaptureQueriesContext(connection) as again:
        assert poll(world).status_code == 200
    assert not [q["sql"] for q in again.captured_queries if "tournaments_competition" in q["sql"]]

    competition = Competition.objects.get(pk=world.competition.pk)
    competition.is_public = False
    competition.save()  # as the organiser's form and the admin save it

    assert poll(world).status_code == 404


def test_stored_standings_are_seen_by_the_next_poll_at_once(world: World) -> None:  # noqa: F811
    first = poll(world)
    with quietly():
        record_deal(world.sheet, ALLEEN_4)  # a second line: nothing changes state
    computed(world.competition)

    assert poll(world, first.headers["ETag"]).status_code == 200


def test_a_competition_hidden_by_a_bare_update_is_a_404_once_its_second_is_over(world: World) -> None:  # noqa: F811
    """No path of the product hides a competition without saving it; one that does (a shell) waits the second out."""
    from tournaments.models import Competition

    assert poll(world).status_code == 200
    Competition.objects.filter(pk=world.competition.pk).update(is_public=False)
    assert poll(world).status_code == 200  # within LIVE_PARTS_SECONDS
    live.forget(world.competition.pk)  # as the second's expiry does
    assert poll(world).status_code == 404


def test_entries_that_leave_the_page_as_it_was_keep_its_validator(world: World, settings: Any) -> None:  # noqa: F811
    """An evening's entries each bump ``entries_version``; the page says only whether newer entries are being counted,
    so the next entries before the standings catch up make no new validator (and no new rendering)."""
    settings.LIVE_PARTS_SECONDS = 0  # read everything afresh: the validator alone decides
    with quietly():
        record_deal(world.sheet, ALLEEN_4)
    counting = poll(world)
    assert "newer entries are being counted" in counting.content.decode()
    with quietly():
        record_deal(world.sheet, {**ALLEEN_4, "deal": 3, "dealer": 2})
    assert poll(world, counting.headers["ETag"]).status_code == 304
    computed(world.competition)
    assert poll(world, counting.headers["ETag"]).status_code == 200
