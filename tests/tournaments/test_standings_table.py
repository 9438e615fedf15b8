"""The standings table built in Python (``tournaments.standings_table``): what a reader sees in each row, escaped,
in their language, and built once per version, language and naming for everyone."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from scoring.methods import METHODS, find_method
from scoring.models import Standing, StandingsState
from tests.factories import PlayerFactory
from tests.tournaments.test_public_pages import ALLEEN_4, World, client_of, computed, quietly, world  # noqa: F401
from tournaments.forms.manage import CompetitionForm
from tournaments.models import Club, Competition
from tournaments.services.entry import record_deal
from tournaments.services.privacy import shown_name
from tournaments.standings_table import build, standings_table

pytestmark = pytest.mark.django_db


class Cells(HTMLParser):
    """The table's header and rows as text, and each cell's title and link."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[dict[str, str]]] = []
        self.row_classes: list[str] = []
        self._cell: dict[str, str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        if tag == "tr":
            self.rows.append([])
            self.row_classes.append(found.get("class", ""))
        elif tag in ("td", "th"):
            self._cell = {"text": "", "title": found.get("title", "")}
            self.rows[-1].append(self._cell)
        elif tag == "a" and self._cell is not None:
            self._cell["href"] = found["href"]
        elif tag == "abbr" and self._cell is not None:
            self._cell["abbr"] = found.get("title", "")
        elif tag == "small" and self._cell is not None and found.get("title"):
            self._cell["small"] = found["title"]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th"):
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell["text"] += data


def cells(html: str) -> Cells:
    parser = Cells()
    parser.feed(html)
    return parser


def standing(competition: Competition, rank: int, **fields: Any) -> Standing:
    from django.utils import timezone

    player = fields.pop("player", None) or PlayerFactory()
    values: dict[str, Any] = {
        "points": 10,
        "deals_played": 16,
        "sessions_played": 1,
        "value": "10 points",
        "explanation": "10 points",
        "computed_at": timezone.now(),
        **fields,
    }
    return Standing(competition=competition, player=player, rank=rank, **values)


@pytest.mark.parametrize("language", ["nl", "fr", "en"])
def test_each_row_reads_rank_name_value_points_deals_and_sessions_in_the_reader_s_language(
    world: World,  # noqa: F811
    language: str,
) -> None:
    competition = world.competition
    competition.standings_method = "points_per_deal"
    first, second, third = PlayerFactory(), PlayerFactory(), PlayerFactory()
    rows = [
        standing(competition, 1, player=first, shared=True, points=30, value="1.875", explanation="1.875 points"),
        standing(competition, 1, player=second, shared=True, points=-4, penalty_points=5, value="1.875"),
        standing(competition, 0, player=third, deals_played=0, sessions_played=0, value="0"),
    ]
    with translation.override(language):
        table = cells(build(rows, competition.standings_method, frozenset({second.pk}), full_names=False))
        header, *body = table.rows
        assert [c["text"] for c in header] == [
            "#",
            gettext("Player"),
            gettext("Points per deal"),  # the method's name heads its values
            gettext("Points"),
            gettext("Deals"),
            gettext("Sessions"),
        ]
        decimal = "," if language in ("nl", "fr") else "."
        one, two, unranked = body
        assert [c["text"] for c in one] == ["1=", first.public_name, f"1{decimal}875", "30", "16", "1"]
        assert one[0]["abbr"] == gettext("shared rank")
        assert one[1]["href"] == reverse("player", args=[first.pk])
        assert f"1{decimal}875" in one[1]["title"]  # the explanation, as the reader writes numbers
        assert two[1]["text"] == f"{second.public_name} {gettext('provisional')}"
        assert two[3]["text"] == "-4 (−5)" and two[3]["small"] == gettext("penalty points deducted")
        assert table.row_classes == ["", "", "provisional", ""]
        assert unranked[0]["text"] == "–" and unranked[0]["abbr"] == gettext("not ranked")
        assert [c["text"] for c in unranked[2:]] == ["0", "10", "0", "0"]


@pytest.mark.parametrize("language", ["en", "nl", "fr"])
@pytest.mark.parametrize("method", sorted(set(METHODS) - {"total_points"}))
def test_the_value_column_is_headed_by_the_methods_name_in_the_readers_language(
    world: World,  # noqa: F811
    method: str,
    language: str,
) -> None:
    with translation.override(language):
        header, _row = cells(build([standing(world.competition, 1)], method, frozenset(), full_names=False)).rows
        heading = header[2]["text"]
        assert heading == gettext(find_method(method).name) != gettext("Ranking value")
        if language != "en":
            assert heading != find_method(method).name  # translated, as every name a reader sees


@pytest.mark.parametrize("language", ["en", "nl", "fr"])
def test_the_settings_form_offers_every_method_by_the_same_name_as_its_column(language: str) -> None:
    """One table of names serves the form and the heading, so a method added to the registry is named once."""
    with translation.override(language):
        choices = {
            key: str(label)
            for key, label in CompetitionForm(clubs=Club.objects.none()).fields["standings_method"].choices
        }
        assert set(choices) == set(METHODS)
        for method, label in choices.items():
            assert label == gettext(find_method(method).name)
            if language != "en":
                assert label != find_method(method).name


def test_total_points_needs_no_ranking_value_column_and_an_empty_table_says_so(world: World) -> None:  # noqa: F811
    competition = world.competition
    competition.standings_method = "total_points"
    header, row = cells(build([standing(competition, 1)], "total_points", frozenset(), full_names=False)).rows
    assert len(header) == len(row) == 5
    assert gettext("Ranking value") not in {c["text"] for c in header}
    _, empty = cells(build([], "total_points", frozenset(), full_names=False)).rows
    assert [c["text"] for c in empty] == [gettext("No standings yet.")]


def test_names_and_explanations_are_escaped(world: World) -> None:  # noqa: F811
    player = PlayerFactory(first_name='<script>alert("x")</script>', last_name="O'Brien & <b>Co</b>")
    html = build(
        [standing(world.competition, 1, player=player, explanation='tied on "total points" <i>')],
        "points_per_deal",
        frozenset(),
        full_names=True,
    )
    assert "<script>" not in html and "<b>" not in html and "<i>" not in html
    row = cells(html).rows[1]
    assert row[1]["text"] == shown_name(player, True)  # the parser unescapes what was escaped
    assert row[1]["title"] == 'tied on "total points" <i>'


def test_the_public_reads_public_names_and_those_who_run_it_full_names(world: World) -> None:  # noqa: F811
    url = reverse("competition-standings", args=[world.competition.slug])
    player = world.player
    public = client_of(world, "anonymous").get(url).content.decode()
    managers = client_of(world, "club_admin").get(url).content.decode()
    full = shown_name(player, True)
    assert player.public_name in public and full not in public
    assert full in managers


def test_the_table_is_built_once_per_version_language_and_naming(world: World) -> None:  # noqa: F811
    competition = Competition.objects.select_related("standings_state").get(pk=world.competition.pk)
    state = competition.standings_state

    def queries(language: str = "nl", full_names: bool = False, provisional: frozenset[int] = frozenset()) -> int:
        with translation.override(language), CaptureQueriesContext(connection) as captured:
            standings_table(competition, state, provisional, full_names=full_names)
        return len(captured)

    cache.clear()
    assert queries() == 1  # the rows
    assert queries() == 0  # kept: everyone else who reads this version in Dutch
    assert queries("fr") == 1 and queries("fr") == 0
    assert queries(full_names=True) == 1
    assert queries(provisional=frozenset({world.player.pk})) == 0  # marked when joined, not built again
    with quietly():
        record_deal(world.sheet, ALLEEN_4)
    computed(competition)
    state = StandingsState.objects.get(competition=competition)
    assert queries() == 0  # a new version, built by the standings job in every language
    assert queries(full_names=True) == 1  # full names: when those who run it ask
    world.player.first_name = "Renamed"
    world.player.save()  # the names counter moves
    assert queries() == 1


def test_a_cache_outage_costs_speed_not_the_table(world: World, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("cache down")

    monkeypatch.setattr(cache, "get", broken)
    monkeypatch.setattr(cache, "set", broken)
    response = Client().get(reverse("competition-standings", args=[world.competition.slug]))
    assert response.status_code == 200
    assert world.player.public_name in response.content.decode()


def test_the_standings_job_builds_the_public_table_in_every_language_before_anyone_asks(world: World) -> None:  # noqa: F811
    cache.clear()
    with quietly():
        record_deal(world.sheet, ALLEEN_4)
    computed(world.competition)  # the job: stores the standings, then builds the tables
    competition = Competition.objects.select_related("standings_state").get(pk=world.competition.pk)
    provisional = frozenset(Standing.objects.filter(competition=competition).values_list("player_id", flat=True))
    for language, _ in settings.LANGUAGES:
        with translation.override(language), CaptureQueriesContext(connection) as captured:
            table = standings_table(competition, competition.standings_state, provisional, full_names=False)
        assert len(captured) == 0, language  # built by the job
        assert world.player.public_name in table
    with CaptureQueriesContext(connection) as captured:
        standings_table(competition, competition.standings_state, provisional, full_names=True)
    assert len(captured) == 1  # full names: built for those who run it, when they ask
