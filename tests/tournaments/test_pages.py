"""The server-rendered pages: home, competition, score sheet, entry form, the admin, language and phone use.

Points asserted here are worked out by hand from RULES.md §3-4 (preset ``iwwa``, settlement per player):
alleen is 2 per opponent +1 per overtrick, vraag 2 per opponent +1 per overtrick.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pytest
from django.conf import settings
from django.contrib import admin
from django.test import Client, RequestFactory
from django.urls import reverse

import games
from scoring.models import Standing
from tests.factories import ClubFactory, CompetitionFactory, PlayerFactory, seated_competition
from tests.roles import Roles, make_roles
from tournaments.line_errors import person_message
from tournaments.models import Competition, DealEntry, Penalty, ScoreSheet
from tournaments.services.competitions import register_players
from tournaments.services.entry import record_deal
from tournaments.services.privacy import public_name
from tournaments.services.rounds import create_round, publish_round

pytestmark = pytest.mark.django_db

# -- a small HTML tree, enough to find an element and read its text ------------------------------------------------

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str | None]
    children: list[Element | str] = field(default_factory=list)

    def iter(self) -> Iterator[Element]:
        yield self
        for child in self.children:
            if isinstance(child, Element):
                yield from child.iter()

    def find_all(self, tag: str | None = None, class_: str | None = None, **attrs: str) -> list[Element]:
        return [
            el
            for el in self.iter()
            if (tag is None or el.tag == tag)
            and (class_ is None or class_ in (el.attrs.get("class") or "").split())
            and all(el.attrs.get(k) == v for k, v in attrs.items())
        ]

    def find(self, tag: str | None = None, class_: str | None = None, **attrs: str) -> Element:
        found = self.find_all(tag, class_, **attrs)
        assert found, f"no <{tag} class={class_} {attrs}> in the page"
        return found[0]

    def text(self) -> str:
        parts = [child if isinstance(child, str) else child.text() for child in self.children]
        return " ".join(" ".join(parts).split())


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.root = Element("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, dict(attrs))
        self.stack[-1].children.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Element(tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def page(response: Any) -> Element:
    assert response.status_code == 200, response.status_code
    builder = _TreeBuilder()
    builder.feed(response.content.decode())
    builder.close()
    return builder.root


def rows(table: Element) -> list[list[str]]:
    """The body rows of a table, as the text of each cell."""
    body = table.find("tbody")
    return [[cell.text() for cell in tr.find_all("td")] for tr in body.find_all("tr")]


def value_of(doc: Element, name: str) -> str | None:
    """What a form field shows: an input's value, or a select's selected option."""
    inputs = doc.find_all("input", name=name)
    if inputs:
        return inputs[0].attrs.get("value")
    selected = [o for o in doc.find("select", name=name).find_all("option") if "selected" in o.attrs]
    return selected[0].attrs.get("value") if selected else None


def checked(doc: Element, name: str) -> list[str]:
    return [str(el.attrs.get("value")) for el in doc.find_all("input", name=name) if "checked" in el.attrs]


# -- fixtures -----------------------------------------------------------------------------------------------------


def first_sheet(competition: Competition) -> ScoreSheet:
    return ScoreSheet.objects.get(table__round__competition=competition, table__round__number=1, table__number=1)


def sheet_url(sheet: ScoreSheet, name: str = "sheet") -> str:
    table = sheet.table
    return reverse(name, args=[table.round.competition.slug, table.round.number, table.number])


def names_by_seat(sheet: ScoreSheet) -> list[str]:
    """The players as the public sees them ("Player3 L."): full names are for those who run the competition."""
    return [public_name(seat.player) for seat in sheet.table.seats.order_by("position")]


ALLEEN_6 = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6}  # 9 / -3 -3 -3
VRAAG_9 = {"deal": 2, "dealer": 1, "contract": "vraag", "declarers": [0, 3], "tricks": 9}  # 3 3 / -3 -3


@pytest.fixture
def sheet() -> ScoreSheet:
    return first_sheet(seated_competition(players=4))


@pytest.fixture
def roles(sheet: ScoreSheet) -> Roles:
    return make_roles(sheet.table.round.competition)


def logged_in(client: Client, user: Any) -> Client:
    client.force_login(user)
    return client


# -- home and competition pages -----------------------------------------------------------------------------------


def test_home_lists_the_clubs_and_links_the_public_competitions_only(client: Client) -> None:
    public = CompetitionFactory(name="Open van Hemiksem", club=ClubFactory(name="Klaverblad", city="Hemiksem"))
    hidden = CompetitionFactory(name="Clubkampioenschap intern", is_public=False, club=ClubFactory(name="Ruiten Aas"))

    doc = page(client.get(reverse("home")))

    items = [li.text() for li in doc.find_all("li")]
    assert any(item.startswith("Klaverblad") and "Hemiksem" in item for item in items)
    assert any(item.startswith("Ruiten Aas") for item in items)
    links = {a.attrs.get("href"): a.text() for a in doc.find_all("a")}
    assert links.get(reverse("competition", args=[public.slug])) == public.name
    assert reverse("competition", args=[hidden.slug]) not in links
    assert hidden.name not in doc.text()


def test_a_competition_that_is_not_public_is_hidden_from_everyone_but_its_organisers(client: Client) -> None:
    hidden = CompetitionFactory(is_public=False)
    roles = make_roles(hidden)
    url = reverse("competition", args=[hidden.slug])

    assert client.get(url).status_code == 404
    assert logged_in(client, roles.outsider).get(url).status_code == 404
    assert page(logged_in(client, roles.club_admin).get(url)).find("h1").text() == hidden.name


def test_the_competition_page_shows_the_standings_and_their_age_after_an_entry(
    client: Client, sheet: ScoreSheet, django_capture_on_commit_callbacks: Any
) -> None:
    competition = sheet.table.round.competition
    url = reverse("competition", args=[competition.slug])
    assert "Not computed yet." in page(client.get(url)).find(id="standings-age").text()

    with django_capture_on_commit_callbacks(execute=True):
        record_deal(sheet, ALLEEN_6)

    doc = page(client.get(url))
    assert re.search(r"Updated .+ ago", doc.find(id="standings-age").text())
    table = rows(doc.find("table", id="standings"))
    names = names_by_seat(sheet)
    assert all(cells[1].endswith(" provisional") for cells in table)  # one line of a sheet nobody confirmed
    by_name = {cells[1].removesuffix(" provisional"): cells for cells in table}
    assert set(by_name) == set(names)
    winner = by_name[names[2]]
    assert (winner[0], winner[2]) == ("1", "9")
    for seat in (0, 1, 3):
        assert by_name[names[seat]][2] == "-3" and by_name[names[seat]][0] == "2 ="  # level on every tie-break
    assert table[0][1].startswith(names[2])  # the leader comes first


def test_the_competition_page_links_its_rounds_and_each_round_page_its_tables_players_and_sheets(
    client: Client,
) -> None:
    competition = seated_competition(players=9, rounds=2)  # a table of 5 and one of 4 each round

    doc = page(client.get(reverse("competition", args=[competition.slug])))

    round_links = [a.attrs["href"] for a in doc.find("ul", id="rounds").find_all("a")]
    assert round_links == [reverse("round", args=[competition.slug, n]) for n in (1, 2)]
    shown = {}
    for url in round_links:
        for card in page(client.get(url)).find_all(class_="card"):
            shown[card.find("h2").find("a").attrs["href"]] = [tr.find("td").text() for tr in card.find_all("tr")[1:]]
    expected = {
        sheet_url(sheet): names_by_seat(sheet)
        for sheet in ScoreSheet.objects.filter(table__round__competition=competition)
    }
    assert len(expected) == 4
    assert shown == expected


# -- the score sheet ----------------------------------------------------------------------------------------------


def seat_columns(doc: Element) -> list[tuple[int, str]]:
    """The sheet's seat columns in order: (seat shown, player named) — a short label, the name as its title.

    Seats are numbered from 1, as on the table card."""
    headers = doc.find("table", class_="sheet").find("thead").find_all("th")
    numbered = [(re.match(r"(\d+)\b", th.text()), th) for th in headers]
    return [(int(match[1]), str(th.attrs["title"])) for match, th in numbered if match]


def sheet_table(doc: Element, size: int) -> tuple[list[list[int]], list[list[int]]]:
    """(points by line, running totals by line) as shown on the page: each deal is a row saying what was played
    (its deal number a row header), a row of points by seat and a row of running totals."""
    body = rows(doc.find("table", class_="sheet"))
    lines, totals = body[1::3], body[2::3]
    assert all(row[0] == "total" for row in totals)
    return [[int(c) for c in row[:size]] for row in lines], [[int(c) for c in row[1 : 1 + size]] for row in totals]


def test_the_sheet_page_shows_each_line_with_points_per_seat_and_running_totals(
    client: Client, sheet: ScoreSheet
) -> None:
    record_deal(sheet, ALLEEN_6)
    record_deal(sheet, VRAAG_9)

    doc = page(client.get(sheet_url(sheet)))

    assert seat_columns(doc) == list(enumerate(names_by_seat(sheet), start=1))
    # a phone shows the number alone (the name, and its colon, only from a wider screen): "1", never "1:"
    named = [th for th in doc.find("table", class_="sheet").find("thead").find_all("th") if "title" in th.attrs]
    assert [th.children[0] for th in named] == ["1", "2", "3", "4"]
    assert all(th.find(class_="wide").text().startswith(": ") for th in named)
    points, totals = sheet_table(doc, 4)
    assert points == [[-3, -3, 9, -3], [3, -3, -3, 3]]
    assert totals == [[-3, -3, 9, -3], [0, -6, 6, 0]]


def test_the_sheet_page_keeps_the_history_of_a_corrected_line(client: Client, sheet: ScoreSheet) -> None:
    record_deal(sheet, ALLEEN_6)
    record_deal(sheet, VRAAG_9)
    record_deal(sheet, {**ALLEEN_6, "declarers": [1], "tricks": 5}, expected_version=1)  # made exactly: 6 / -2 each

    doc = page(client.get(sheet_url(sheet)))

    points, totals = sheet_table(doc, 4)
    assert points == [[-2, 6, -2, -2], [3, -3, -3, 3]]
    assert totals[-1] == [1, 3, -5, 1]
    assert doc.find("table", class_="sheet").find("tbody").find("th").text() == "1 v2"
    history = [li.text() for li in doc.find("details").find_all("li")]
    assert len(history) == 3
    who = names_by_seat(sheet)
    assert history[0].startswith(
        f"deal 1 v1: Alleen — seat 3 {who[2]} — 6 tricks, made · points by seat -3 / -3 / 9 / -3"
    )
    assert "(superseded)" in history[0]
    assert history[1].startswith(
        f"deal 1 v2: Alleen — seat 2 {who[1]} — 5 tricks, made · points by seat -2 / 6 / -2 / -2"
    )
    assert "superseded" not in history[1]
    assert (
        history[2].startswith("deal 2 v1: Vraag en meegaan — seat ") and "points by seat 3 / -3 / -3 / 3" in history[2]
    )


# -- the entry form -----------------------------------------------------------------------------------------------


def test_entry_asks_an_anonymous_visitor_to_log_in(client: Client, sheet: ScoreSheet) -> None:
    url = sheet_url(sheet, "sheet-entry")
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse(settings.LOGIN_URL))
    assert f"next={url}" in response["Location"]


@pytest.mark.parametrize("role", ["outsider", "player"])
def test_entry_is_forbidden_to_users_who_do_not_run_the_club(
    client: Client, sheet: ScoreSheet, roles: Roles, role: str
) -> None:
    client.force_login(getattr(roles, role))
    assert client.get(sheet_url(sheet, "sheet-entry")).status_code == 403
    assert client.post(sheet_url(sheet, "sheet-entry"), {"deal": 1, "dealer": 0, "contract": "pass"}).status_code == 403
    assert not DealEntry.objects.exists()


@pytest.mark.parametrize("role", ["club_admin", "organiser"])
def test_entry_offers_the_next_deal_and_the_expected_dealer(
    client: Client, sheet: ScoreSheet, roles: Roles, role: str
) -> None:
    record_deal(sheet, ALLEEN_6)  # dealer 0 dealt deal 1; clockwise rotation gives seat 1 next
    client.force_login(getattr(roles, role))

    doc = page(client.get(sheet_url(sheet, "sheet-entry")))

    form = doc.find("form", class_="entry")
    assert value_of(form, "deal") == "2"
    assert value_of(form, "dealer") == "1"
    assert value_of(form, "idempotency_key")  # a fresh key for this form


def entry_form(line: dict[str, Any], key: str = "") -> dict[str, Any]:
    return {**line, "idempotency_key": key}


def test_posting_a_valid_line_stores_it_and_returns_to_the_form(
    client: Client, sheet: ScoreSheet, roles: Roles
) -> None:
    client.force_login(roles.club_admin)
    url = sheet_url(sheet, "sheet-entry")

    response = client.post(url, entry_form(ALLEEN_6, "form-1"))

    assert response.status_code == 302 and response["Location"] == url
    stored = DealEntry.objects.get(sheet=sheet)
    assert stored.points == [-3, -3, 9, -3]
    assert stored.created_by == roles.club_admin and stored.idempotency_key == "form-1"


def test_posting_a_bad_line_shows_the_engines_errors_as_people_read_them_beside_the_fields_and_stores_nothing(
    client: Client, sheet: ScoreSheet, roles: Roles
) -> None:
    line = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [1, 2], "tricks": 14}
    with pytest.raises(games.InvalidLine) as judged:  # what the engine itself says of this line
        games.Sheet(games.find("iwwa"), players=4, deals=16).add(line)
    names = [seat.player.name for seat in sheet.table.seats.select_related("player").order_by("position")]
    # as a person reads it (tournaments.line_errors): seats from 1 with names, no codes
    expected = {(e.field, person_message(e, names)) for e in judged.value.errors}
    assert {f for f, _ in expected} == {"declarers", "tricks"}
    client.force_login(roles.club_admin)

    doc = page(client.post(sheet_url(sheet, "sheet-entry"), entry_form(line, "form-bad")))

    form = doc.find("form", class_="entry")
    for key, message in expected:
        name = {"declarers": "seats"}.get(key, key)  # the page types the declarers as seat numbers
        paragraph = next(p for p in form.find_all("div", class_="field") if p.find_all(name=name))  # its own block
        errors = paragraph.find("ul", class_="errorlist", id=f"id_{name}_error")
        assert message in errors.text()
    tricks = form.find("input", name="tricks")
    assert tricks.attrs.get("value") == "14"  # what was typed stays in the field
    assert "id_tricks_error" in (tricks.attrs.get("aria-describedby") or "").split()
    assert not DealEntry.objects.exists()


def test_a_double_post_with_the_same_idempotency_key_stores_one_line(
    client: Client, sheet: ScoreSheet, roles: Roles
) -> None:
    client.force_login(roles.club_admin)
    url = sheet_url(sheet, "sheet-entry")
    assert client.post(url, entry_form(ALLEEN_6, "tap-twice")).status_code == 302
    assert client.post(url, entry_form(ALLEEN_6, "tap-twice")).status_code == 302
    assert DealEntry.objects.filter(sheet=sheet).count() == 1


def test_a_correction_is_prefilled_and_saved_as_version_2(client: Client, sheet: ScoreSheet, roles: Roles) -> None:
    record_deal(sheet, ALLEEN_6)
    record_deal(sheet, VRAAG_9)
    client.force_login(roles.organiser)
    url = sheet_url(sheet, "sheet-entry")

    form = page(client.get(url, {"deal": 1})).find("form", class_="entry")
    assert (value_of(form, "deal"), value_of(form, "dealer"), value_of(form, "contract")) == ("1", "0", "alleen")
    assert value_of(form, "seats") == "3"  # position 2: seat 3 on the table card
    assert value_of(form, "tricks") == "6"

    corrected = {**ALLEEN_6, "tricks": 4}  # one under: 4 per opponent -> -12 / +4 each
    # the form carries the version it was opened on: without it, the deal already there is not replaced
    assert client.post(url, entry_form(corrected, "fix-0")).status_code == 200
    assert client.post(url, {**entry_form(corrected, "fix-1"), "version": value_of(form, "version")}).status_code == 302

    current = DealEntry.objects.get(sheet=sheet, deal_number=1, is_current=True)
    assert (current.version, current.points) == (2, [4, 4, -12, 4])
    assert DealEntry.objects.get(sheet=sheet, deal_number=1, version=1).points == [-3, -3, 9, -3]


# -- the admin ----------------------------------------------------------------------------------------------------


@pytest.fixture
def populated(sheet: ScoreSheet, roles: Roles, django_capture_on_commit_callbacks: Any) -> Roles:
    """Some of every model, so each changelist renders rows."""
    with django_capture_on_commit_callbacks(execute=True):
        record_deal(sheet, ALLEEN_6, by=roles.club_admin)
    competition = sheet.table.round.competition
    Penalty.objects.create(
        competition=competition,
        player=sheet.table.seats.first().player,
        points=5,
        reason="late",
        created_by=roles.organiser,
    )
    assert Standing.objects.filter(competition=competition).exists()
    return roles


ADMIN_MODELS = sorted(admin.site._registry.items(), key=lambda item: item[0]._meta.label)


@pytest.mark.parametrize(("model", "model_admin"), ADMIN_MODELS, ids=[m._meta.label for m, _ in ADMIN_MODELS])
def test_the_organiser_can_open_every_admin_list_and_add_where_adding_is_allowed(
    client: Client, populated: Roles, model: Any, model_admin: admin.ModelAdmin[Any]
) -> None:
    client.force_login(populated.organiser)
    opts = model._meta
    changelist = client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"))
    assert changelist.status_code == 200

    request = RequestFactory().get("/")
    request.user = populated.organiser
    add = client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_add"))
    assert add.status_code == (200 if model_admin.has_add_permission(request) else 403)


def test_deal_entries_cannot_be_added_in_the_admin(client: Client, roles: Roles) -> None:
    request = RequestFactory().get("/")
    request.user = roles.organiser
    assert not admin.site._registry[DealEntry].has_add_permission(request)
    client.force_login(roles.organiser)
    assert client.get(reverse("admin:tournaments_dealentry_add")).status_code == 403


# -- phones and languages -----------------------------------------------------------------------------------------


def test_every_page_declares_a_viewport_for_phones(client: Client, sheet: ScoreSheet, roles: Roles) -> None:
    competition = sheet.table.round.competition
    urls = [reverse("home"), reverse("competition", args=[competition.slug]), sheet_url(sheet), reverse("login")]
    client.force_login(roles.club_admin)
    urls.append(sheet_url(sheet, "sheet-entry"))
    for url in urls:
        viewport = page(client.get(url)).find("meta", name="viewport")
        assert "width=device-width" in (viewport.attrs.get("content") or ""), url


def test_the_language_switch_remembers_dutch(client: Client) -> None:
    response = client.post("/i18n/setlang/", {"language": "nl", "next": "/"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "nl"
    assert page(client.get("/")).find("html").attrs.get("lang") == "nl"


@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES])
def test_the_language_switch_names_each_language_in_itself(client: Client, language: str) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    options = page(client.get("/")).find("select", name="language").find_all("option")
    assert [(o.attrs["value"], o.attrs.get("lang"), o.text()) for o in options] == [
        ("nl", "nl", "Nederlands"),
        ("fr", "fr", "Français"),
        ("en", "en", "English"),
    ]
    assert [o.attrs["value"] for o in options if "selected" in o.attrs] == [language]


def test_at_a_table_of_five_the_dealer_sits_out_with_zero(client: Client) -> None:
    competition = CompetitionFactory()
    register_players(competition, PlayerFactory.create_batch(5))
    publish_round(create_round(competition))
    sheet = first_sheet(competition)
    assert sheet.table.size == 5
    record_deal(sheet, ALLEEN_6)  # seat 0 deals and sits out; seat 2 plays alone against seats 1, 3 and 4

    doc = page(client.get(sheet_url(sheet)))

    assert seat_columns(doc) == list(enumerate(names_by_seat(sheet), start=1))
    points, _ = sheet_table(doc, 5)
    assert points == [[0, -3, 9, -3, -3]]
    first_points = doc.find("table", class_="sheet").find("tbody").find_all("tr")[1]
    assert [i for i, td in enumerate(first_points.find_all("td")[0:5]) if "out" in (td.attrs.get("class") or "")] == [0]
