"""The live pages carry an ETag derived from what they show and answer 304 to a matching If-None-Match."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from scoring.models import StandingsState
from tests.tournaments.test_public_pages import ALLEEN_4, World, client_of, computed, quietly, world  # noqa: F401
from tournaments import conditional
from tournaments.models import Competition
from tournaments.services.entry import record_deal
from tournaments.views import public as views

pytestmark = pytest.mark.django_db


def urls(world: World) -> dict[str, str]:  # noqa: F811
    slug = world.competition.slug
    return {
        "standings": reverse("competition-standings", args=[slug]),
        "competition": reverse("competition", args=[slug]),
        "round": reverse("round", args=[slug, 1]),
        "sheet": reverse("sheet", args=[slug, 1, world.sheet.table.number]),
    }


PAGES = ("standings", "competition", "round", "sheet")


@pytest.fixture(autouse=True)
def settled(world: World) -> None:  # noqa: F811
    """Standings computed days ago: the pages say "3 days ago" for a while, rather than a new second each time."""
    StandingsState.objects.filter(competition=world.competition).update(
        computed_at=timezone.now() - timedelta(days=3, minutes=1)
    )


@pytest.mark.parametrize("page", PAGES)
def test_an_unchanged_page_answers_304_with_the_etag_it_gave(world: World, page: str) -> None:  # noqa: F811
    client = Client()
    first = client.get(urls(world)[page])
    assert first.status_code == 200
    tag = first.headers["ETag"]
    assert "Cookie" in first.headers["Vary"] and "Accept-Language" in first.headers["Vary"]
    again = client.get(urls(world)[page], HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["ETag"] == tag
    # weak comparison, lists and "*"
    assert client.get(urls(world)[page], HTTP_IF_NONE_MATCH=f'"other", W/{tag}').status_code == 304
    assert client.get(urls(world)[page], HTTP_IF_NONE_MATCH="*").status_code == 304
    assert client.get(urls(world)[page], HTTP_IF_NONE_MATCH='"other"').status_code == 200


def test_an_htmx_poll_of_unchanged_standings_answers_304(world: World) -> None:  # noqa: F811
    client = Client()
    url = urls(world)["standings"]
    first = client.get(url, HTTP_HX_REQUEST="true")
    assert first.status_code == 200
    again = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first.headers["ETag"])
    assert again.status_code == 304
    # a plain visit is another answer: another validator
    assert client.get(url).headers["ETag"] != first.headers["ETag"]


@pytest.mark.parametrize("page", PAGES)
def test_a_new_entry_and_recomputed_standings_give_a_fresh_body_and_a_new_etag(world: World, page: str) -> None:  # noqa: F811
    client = Client()
    first = client.get(urls(world)[page])
    with quietly():
        record_deal(world.sheet, ALLEEN_4)
    computed(world.competition)
    fresh = client.get(urls(world)[page], HTTP_IF_NONE_MATCH=first.headers["ETag"])
    assert fresh.status_code == 200
    assert fresh.content and fresh.content != first.content
    assert fresh.headers["ETag"] != first.headers["ETag"]


@pytest.mark.parametrize("page", PAGES)
def test_the_etag_differs_by_language_and_for_those_who_see_full_names(world: World, page: str) -> None:  # noqa: F811
    url = urls(world)[page]
    dutch, french = Client(), Client()
    dutch.cookies["django_language"] = "nl"
    french.cookies["django_language"] = "fr"
    nl, fr = dutch.get(url), french.get(url)
    assert nl.status_code == fr.status_code == 200
    assert nl.headers["ETag"] != fr.headers["ETag"]
    assert french.get(url, HTTP_IF_NONE_MATCH=nl.headers["ETag"]).status_code == 200
    anonymous = Client().get(url)
    admin = client_of(world, "club_admin").get(url)
    assert admin.headers["ETag"] != anonymous.headers["ETag"]
    assert client_of(world, "club_admin").get(url, HTTP_IF_NONE_MATCH=anonymous.headers["ETag"]).status_code == 200


@pytest.mark.parametrize("page", PAGES)
def test_a_hidden_competition_is_a_404_whatever_the_etag(world: World, page: str) -> None:  # noqa: F811
    client = Client()
    url = urls(world)[page]
    tag = client.get(url).headers["ETag"]
    competition = Competition.objects.get(pk=world.competition.pk)
    competition.is_public = False
    competition.save()  # as every form, the admin and the API hide it (a bare update: see test_live_parts)
    for if_none_match in (tag, "*"):
        hidden = client.get(url, HTTP_IF_NONE_MATCH=if_none_match)
        assert hidden.status_code == 404
        assert "ETag" not in hidden.headers


def test_post_is_not_answered_conditionally(world: World) -> None:  # noqa: F811
    client = Client()
    url = urls(world)["round"]
    tag = client.get(url).headers["ETag"]
    posted = client.post(url, HTTP_IF_NONE_MATCH=tag)
    assert posted.status_code not in (304, 412)
    assert client.post(urls(world)["standings"], HTTP_IF_NONE_MATCH="*").status_code == 405


def counted(client: Client, url: str, **headers: str) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **headers)
    return response.status_code, len(captured.captured_queries)


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("htmx", [False, True])
def test_a_304_costs_no_more_queries_than_a_200(world: World, page: str, htmx: bool) -> None:  # noqa: F811
    client = Client()
    url = urls(world)[page]
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    cache.clear()  # the names counter too: from here on it reads 0, as after an eviction
    tag = client.get(url, **headers).headers["ETag"]
    cache.clear()  # the 200 below renders anew
    status, full = counted(client, url, **headers)
    status_304, revalidated = counted(client, url, HTTP_IF_NONE_MATCH=tag, **headers)
    assert (status, status_304) == (200, 304)
    assert revalidated <= full
    if page == "standings":
        assert revalidated < full  # the rows are not read


def test_a_burst_of_identical_requests_renders_the_standings_once_and_new_standings_anew(world: World) -> None:  # noqa: F811
    url = urls(world)["standings"]
    with mock.patch("tournaments.views.public.render", wraps=views.render) as rendering:
        bodies = [Client().get(url, HTTP_HX_REQUEST="true").content for _ in range(5)]
        assert rendering.call_count == 1
        assert len(set(bodies)) == 1
        with quietly():
            record_deal(world.sheet, ALLEEN_4)
        computed(world.competition)
        fresh = Client().get(url, HTTP_HX_REQUEST="true").content
        assert rendering.call_count == 2
    assert fresh != bodies[0]
    stored = StandingsState.objects.get(competition=world.competition).computed_at
    assert timezone.localtime(stored).isoformat().encode() in fresh  # the new standings, not the kept ones


def test_polls_that_have_not_seen_the_rounds_render_them_once_between_them(world: World) -> None:  # noqa: F811
    """An entry moves every round's progress: the thousand phones whose page still holds the old progress must not
    each render the rounds list (and read it) again."""
    url = urls(world)["standings"] + "?rounds_seen=old&statistics_seen=old"
    with (
        mock.patch("tournaments.views.public._rounds_context", wraps=views._rounds_context) as rounds,
        mock.patch("tournaments.views.public._statistics_context", wraps=views._statistics_context) as statistics,
    ):
        bodies = {Client().get(url, HTTP_HX_REQUEST="true").content for _ in range(5)}
    assert (rounds.call_count, statistics.call_count) == (1, 1)
    (body,) = bodies
    assert b'id="rounds"' in body and b"hx-swap-oob" in body


def test_a_process_serves_its_last_renderings_without_the_shared_cache_and_keeps_only_a_few(
    world: World,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = urls(world)["standings"]
    first = Client().get(url, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    kept = "wiezen:rendered:" + first.headers["ETag"].strip('"')
    assert cache.get(kept) is not None
    cache.delete(kept)  # dropped from the shared cache (its memory was full, say)
    with mock.patch("tournaments.views.public.render", wraps=views.render) as rendering:
        again = Client().get(url, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
        assert rendering.call_count == 0 and again.content == first.content
        monkeypatch.setattr(conditional._recent, "size", 2)
        for language in ("fr", "nl"):  # two other validators push the first one out
            Client().get(url, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE=language)
        assert len(conditional._recent.items) == 2
        cache.delete(kept)
        assert Client().get(url, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en").content == first.content
        assert rendering.call_count == 3  # two languages, then the first one again


def test_a_full_names_viewer_never_gets_the_public_rendering_from_the_cache(world: World) -> None:  # noqa: F811
    url = urls(world)["standings"]
    public = Client().get(url).content
    admin = client_of(world, "club_admin").get(url).content
    assert public != admin
    assert world.player.last_name.encode() in admin and world.player.last_name.encode() not in public


def test_a_renamed_player_is_shown_at_once_neither_from_a_revalidation_nor_from_the_cache(world: World) -> None:  # noqa: F811
    """Names are not in the standings' version: a rename (or a player hiding their name) must still change the
    validator, on every web server (the shared cache's counter), so no old copy shows the old name."""
    url = urls(world)["standings"]
    client = Client()
    first = client.get(url, HTTP_HX_REQUEST="true")
    assert client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first.headers["ETag"]).status_code == 304
    world.player.display_name = "Zorro Onbekend"
    world.player.save()

    again = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first.headers["ETag"])
    assert again.status_code == 200 and again.headers["ETag"] != first.headers["ETag"]
    assert b"Zorro Onbekend" in again.content
    assert b"Zorro Onbekend" in Client().get(url, HTTP_HX_REQUEST="true").content  # not the kept rendering


def test_the_polled_fragment_is_gzipped_for_those_who_accept_it_and_says_so(world: World) -> None:  # noqa: F811
    import gzip

    url = urls(world)["standings"]
    plain = Client().get(url, HTTP_HX_REQUEST="true")
    packed = Client().get(url, HTTP_HX_REQUEST="true", HTTP_ACCEPT_ENCODING="gzip, deflate, br")

    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content) / 3
    assert "Accept-Encoding" in packed.headers["Vary"] and "Accept-Encoding" in plain.headers["Vary"]
    # another representation of the same page: a weak validator, which still revalidates either
    assert packed.headers["ETag"] == "W/" + plain.headers["ETag"]
    again = Client().get(
        url, HTTP_HX_REQUEST="true", HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=packed.headers["ETag"]
    )
    assert again.status_code == 304


def test_a_body_with_a_secret_in_it_is_never_compressed() -> None:
    """BREACH: the length of a compressed body that holds a CSRF token beside what a reader sends tells the token."""
    form = b'<form><input type="hidden" name="csrfmiddlewaretoken" value="s3cr3t">' + b"<p>row</p>" * 500 + b"</form>"
    assert conditional.compressed(form) is None
    assert conditional.compressed(b"<p>row</p>" * 500) is not None
    assert conditional.compressed(b"<p>short</p>") is None  # not worth it


def test_the_polled_competition_reads_what_the_orm_reads(world: World) -> None:  # noqa: F811
    """The poll's hand-written query (tournaments/live.py) and the ORM agree, on SQLite and on PostgreSQL."""
    from tournaments import live
    from tournaments.selectors.public import standings_state

    polled = live.read_polled_competition(world.competition.slug)
    orm = live.with_live_columns(Competition.objects.all()).get(pk=world.competition.pk)
    assert polled is not None
    assert [getattr(polled, f.attname) for f in Competition._meta.concrete_fields] == [
        getattr(orm, f.attname) for f in Competition._meta.concrete_fields
    ]
    for field in ("computed_at", "computed_version", "queued", "queued_at", "computations"):
        assert getattr(standings_state(polled), field) == getattr(standings_state(orm), field)
    assert polled.statistics_at == orm.statistics_at and polled.statistics_at is not None  # type: ignore[attr-defined]
    assert live.read_polled_competition("no-such-competition") is None
    StandingsState.objects.filter(competition=world.competition).delete()
    assert standings_state(live.read_polled_competition(world.competition.slug)) is None  # type: ignore[arg-type]


def test_the_standings_age_is_worded_per_minute_and_language_and_moves_on_with_the_clock() -> None:
    computed = timezone.now() - timedelta(minutes=5, seconds=10)
    later = computed + timedelta(hours=2, minutes=1, seconds=10)
    conditional._ages.clear()
    with translation.override("en"):
        assert conditional.standings_age(computed) == "5\xa0minutes"
        assert conditional.standings_age(computed) == "5\xa0minutes"  # the same minute: kept
    with translation.override("nl"):
        assert conditional.standings_age(computed) == "5\xa0minuten"  # another language: its own words
    with translation.override("en"), mock.patch.object(conditional.timezone, "now", return_value=later):
        assert conditional.standings_age(computed) == "2\xa0hours, 1\xa0minute"  # a later minute: new words
    assert conditional.standings_age(timezone.now()) == ""  # under a minute
    assert conditional.standings_age(None) is None
    assert len(conditional._ages) == 3


def test_a_304_carries_no_policy_and_none_is_built_for_it(world: World) -> None:  # noqa: F811
    client = Client()
    url = urls(world)["standings"]
    first = client.get(url, HTTP_HX_REQUEST="true")
    assert "Content-Security-Policy" in first.headers
    with mock.patch("csp.middleware.build_policy") as built:
        again = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first.headers["ETag"])
    assert again.status_code == 304 and "Content-Security-Policy" not in again.headers
    built.assert_not_called()
    assert "Content-Security-Policy" in client.get(url, HTTP_HX_REQUEST="true").headers  # a 200 still has it
