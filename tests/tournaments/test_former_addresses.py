"""A renamed competition's former addresses still lead to it (``tournaments.former_addresses``).

Every route of a competition's pages is enumerated from the URL configuration, so a new page is covered by
default; then the people who hold an old address: a table phone with a line to send, a printed table card's code,
a stranger trying an old name of a hidden competition, and another club wanting the freed name.
"""

from __future__ import annotations

import json
import re
import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import get_resolver, reverse
from django.utils import timezone

from tests.factories import (
    ClubFactory,
    MembershipFactory,
    PlayerFactory,
    RuleSetFactory,
    UserFactory,
    seated_competition,
)
from tests.roles import Roles, make_roles
from tests.urlconf import walk
from tournaments.former_addresses import COMPETITION_ROUTE, KEPT_AT_MOST, KEPT_FOR
from tournaments.models import Competition, DealEntry, FormerAddress, ScoreSheet
from tournaments.services.competitions import create_competition
from tournaments.services.transfer import export_competition, import_competition

pytestmark = pytest.mark.django_db

ROUTES = [(path, name) for path, name, _ in walk(get_resolver().url_patterns) if COMPETITION_ROUTE.search(path)]
LINE = {"deal": 1, "dealer": 0, "contract": "pass", "idempotency_key": "after-the-rename"}


@pytest.fixture
def competition() -> Competition:
    return seated_competition(players=8, slug="spring-cup", name="Spring Cup")


@pytest.fixture
def roles(competition: Competition) -> Roles:
    return make_roles(competition)


def rename(competition: Competition, slug: str) -> Competition:
    competition.refresh_from_db()
    competition.slug = slug
    competition.save()
    return competition


def address(name: str, path: str, slug: str, competition: Competition) -> str:
    """The route's address for ``slug``, its other parts taken from the competition's first round and table."""
    values = {"slug": slug, "player_id": competition.players.order_by("pk").first().pk}  # type: ignore[union-attr]
    values |= {"round_number": 1, "number": 1, "table_number": 1, "board_number": 1, "pk": values["player_id"]}
    return reverse(name, kwargs={key: values[key] for key in re.findall(r"<\w+:(\w+)>", path)})


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_every_page_of_a_competition_is_enumerated() -> None:
    assert len(ROUTES) >= 50  # public, organiser, table, display, check-in, duplicate and progression pages
    assert {"competition", "sheet-entry", "manage-competition-edit", "checkin", "display"} <= {n for _, n in ROUTES}


@pytest.mark.parametrize(("path", "name"), ROUTES, ids=[name for _, name in ROUTES])
def test_every_page_goes_on_from_a_former_address(path: str, name: str, competition: Competition, roles: Roles) -> None:
    """As the club's administrator: a read goes on (302), a form goes on with its data (307), to the same page at
    the current address; a method the page does not take is refused at either address alike."""
    rename(competition, "lentebeker-2027")
    client = logged_in(roles.club_admin)
    old, new = address(name, path, "spring-cup", competition), address(name, path, "lentebeker-2027", competition)
    went_on = 0
    for method, status in (("get", 302), ("post", 307)):
        response = getattr(client, method)(old)
        if response.status_code == 405:  # the page does not take this method: refused before it looks anything up
            assert getattr(client, method)(new).status_code == 405
            continue
        assert response.status_code == status, (method, response.status_code)
        assert response["Location"] == new
        assert response["Cache-Control"] == "no-store"
        went_on += 1
    assert went_on, "the page answers neither a read nor a form"


def test_a_read_at_the_former_address_ends_where_the_current_one_does(competition: Competition) -> None:
    rename(competition, "lentebeker-2027")
    old = Client().get("/c/spring-cup/r1/?page=2", follow=True)
    assert old.redirect_chain == [("/c/lentebeker-2027/r1/?page=2", 302)]
    assert old.status_code == 200
    assert "Spring Cup" in old.content.decode()


def test_a_table_phone_sends_its_line_to_the_address_it_opened(competition: Competition) -> None:
    """The phone opened the table's page with its code before the organiser renamed the competition; the line it
    sends afterwards, to the address it has, is kept."""
    sheet = ScoreSheet.objects.filter(table__round__competition=competition).get(table__number=1)
    phone = Client()
    entry = reverse("sheet-entry", args=["spring-cup", 1, 1])
    assert phone.get(entry, {"code": sheet.captain_code}).status_code == 302
    rename(competition, "lentebeker-2027")

    sent = phone.post(entry, LINE, follow=True)

    assert sent.redirect_chain[0] == ("/c/lentebeker-2027/r1/t1/entry/", 307)
    assert sent.status_code == 200
    assert DealEntry.objects.filter(sheet=sheet, deal_number=1, is_current=True).count() == 1


@pytest.mark.parametrize("public", [True, False])
def test_a_line_kept_offline_is_sent_to_the_address_the_phone_had(competition: Competition, public: bool) -> None:
    """An offline phone's queue posts to ``…/entry/queued/`` at the address its page was opened at; there the
    answer without a session's code would be a 401 ("log in again"), which a table without an account cannot."""
    Competition.objects.filter(pk=competition.pk).update(is_public=public)
    sheet = ScoreSheet.objects.filter(table__round__competition=competition).get(table__number=1)
    phone = Client()
    phone.get(reverse("sheet-entry", args=["spring-cup", 1, 1]), {"code": sheet.captain_code})
    rename(competition, "lentebeker-2027")
    line = {"version": "0", "idempotency_key": uuid.uuid4().hex, "deal": "1", "dealer": "0", "contract": "pass"}

    sent = phone.post("/c/spring-cup/r1/t1/entry/queued/", line, follow=True)

    assert sent.redirect_chain == [("/c/lentebeker-2027/r1/t1/entry/queued/", 307)]
    assert sent.json()["state"] == "saved"
    assert DealEntry.objects.filter(sheet=sheet, deal_number=1, is_current=True).count() == 1


def test_the_offline_page_names_its_former_paths_so_lines_kept_there_are_sent(competition: Competition) -> None:
    sheet = ScoreSheet.objects.filter(table__round__competition=competition).get(table__number=1)
    rename(competition, "lentebeker")
    rename(competition, "lentebeker-2027")
    page = Client().get(f"/c/lentebeker-2027/r1/t1/entry/?code={sheet.captain_code}", follow=True)
    spec_text = page.content.decode().split('<script id="engine-spec" type="application/json">', 1)[1]
    spec = json.loads(spec_text.split("</script>", 1)[0])
    assert sorted(spec["former"]) == ["/c/lentebeker/r1/t1/entry/", "/c/spring-cup/r1/t1/entry/"]
    assert spec["sheet"] == "/c/lentebeker-2027/r1/t1/entry/"


def test_a_printed_table_card_opens_the_table_after_a_rename(competition: Competition) -> None:
    sheet = ScoreSheet.objects.filter(table__round__competition=competition).get(table__number=2)
    rename(competition, "lentebeker-2027")
    scanned = Client().get(f"/c/spring-cup/r1/t2/entry/?code={sheet.captain_code}", follow=True)
    assert scanned.redirect_chain[0] == (f"/c/lentebeker-2027/r1/t2/entry/?code={sheet.captain_code}", 302)
    assert scanned.status_code == 200
    assert 'name="contract"' in scanned.content.decode()


def test_renamed_twice_every_former_address_leads_to_the_current(competition: Competition) -> None:
    rename(competition, "lentebeker")
    rename(competition, "lentebeker-2027")
    for old in ("spring-cup", "lentebeker"):
        assert Client().get(f"/c/{old}/")["Location"] == "/c/lentebeker-2027/"
    assert set(competition.former_addresses.values_list("slug", flat=True)) == {"spring-cup", "lentebeker"}


def test_a_hidden_competition_tells_its_new_name_only_to_those_who_may_open_it(roles: Roles) -> None:
    hidden = seated_competition(players=4, slug="secret-cup", is_public=False, club=roles_club(roles))
    sheet = ScoreSheet.objects.get(table__round__competition=hidden)
    captain = Client()
    assert captain.get(f"/c/secret-cup/r1/t1/entry/?code={sheet.captain_code}").status_code == 302
    rename(hidden, "secret-cup-2027")
    outsider = logged_in(roles.outsider)
    for path in ("/c/secret-cup/", "/c/secret-cup/r1/t1/entry/", "/manage/c/secret-cup/"):
        for stranger in (Client(), outsider):
            response = stranger.get(path)
            assert "secret-cup-2027" not in response.get("Location", ""), path
            assert response.status_code in (302, 404), path  # as any unknown address: 404, or "log in"
    assert logged_in(roles.club_admin).get("/c/secret-cup/")["Location"] == "/c/secret-cup-2027/"
    assert captain.get("/c/secret-cup/r1/t1/entry/")["Location"] == "/c/secret-cup-2027/r1/t1/entry/"


def test_a_hidden_competitions_table_card_opens_on_a_phone_that_never_had_it(roles: Roles) -> None:
    hidden = seated_competition(players=4, slug="secret-cup", is_public=False, club=roles_club(roles))
    sheet = ScoreSheet.objects.get(table__round__competition=hidden)
    rename(hidden, "secret-cup-2027")
    scanned = Client().get(f"/c/secret-cup/r1/t1/entry/?code={sheet.captain_code}", follow=True)
    assert scanned.redirect_chain[0][0] == f"/c/secret-cup-2027/r1/t1/entry/?code={sheet.captain_code}"
    assert scanned.status_code == 200
    for guess in ("ABCD-EFGH-JKMN-PQRS", sheet.captain_code[:-1]):  # a wrong code learns nothing
        response = Client().get(f"/c/secret-cup/r1/t1/entry/?code={guess}")
        assert response.status_code == 403
        assert "secret-cup-2027" not in response.content.decode() + response.get("Location", "")
    other_table = Client().get(f"/c/secret-cup/r1/t2/entry/?code={sheet.captain_code}")
    assert other_table.status_code == 403  # the code opens its own table only


def roles_club(roles: Roles) -> Any:
    return roles.club_admin.player.memberships.get(is_admin=True).club


def test_no_other_competition_takes_a_former_address(competition: Competition) -> None:
    rename(competition, "lentebeker-2027")
    other_club = ClubFactory()
    with pytest.raises(ValidationError) as refused:
        create_competition(club=other_club, name="Spring Cup", slug="spring-cup", rule_set=RuleSetFactory())
    assert "printed table cards still lead there" in refused.value.message_dict["slug"][0]

    admin = UserFactory(username="other-admin")
    MembershipFactory(club=other_club, player=PlayerFactory(user=admin), is_admin=True)
    api = Client()
    api.force_login(admin)
    body = {"club": other_club.pk, "name": "Spring Cup", "slug": "spring-cup", "rule_set": RuleSetFactory().pk}
    response = api.post("/api/v1/competitions/", body, content_type="application/json")
    assert response.status_code == 400
    assert "slug" in response.json()
    assert Client().get("/c/spring-cup/")["Location"] == "/c/lentebeker-2027/"


def test_the_settings_page_refuses_a_former_address_beside_its_field_in_dutch(
    competition: Competition, roles: Roles
) -> None:
    rename(competition, "lentebeker-2027")
    other = seated_competition(players=4, slug="herfstbeker", club=competition.club)
    page = reverse("manage-competition-edit", args=[other.slug])
    client = Client(headers={"accept-language": "nl"})
    client.force_login(roles.club_admin)
    form = client.get(page).context["form"]
    data = {name: value for name, value in form.initial.items() if value is not None and name != "shown"}
    data |= {"club": other.club_id, "slug": "spring-cup", "tie_breaks_0": "", "variants": []}
    response = client.post(page, data)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors) == ["slug"]
    assert "gedrukte tafelkaarten" in errors["slug"][0]
    assert Competition.objects.get(pk=other.pk).slug == "herfstbeker"


def test_a_competition_takes_its_own_former_name_back(competition: Competition) -> None:
    rename(competition, "lentebeker")
    rename(competition, "spring-cup")
    assert list(competition.former_addresses.values_list("slug", flat=True)) == ["lentebeker"]
    assert Client().get("/c/spring-cup/").status_code == 200
    assert Client().get("/c/lentebeker/")["Location"] == "/c/spring-cup/"


def test_a_former_address_is_kept_for_a_season_then_free(competition: Competition) -> None:
    rename(competition, "lentebeker-2027")
    FormerAddress.objects.filter(slug="spring-cup").update(until=timezone.now() - KEPT_FOR - timedelta(days=1))
    other = create_competition(club=ClubFactory(), name="Spring Cup", slug="spring-cup", rule_set=RuleSetFactory())
    assert not FormerAddress.objects.filter(slug="spring-cup").exists()
    assert Client().get("/c/spring-cup/").context["competition"] == other


def test_a_competition_keeps_its_latest_former_addresses(competition: Competition) -> None:
    names = [f"name-{n}" for n in range(KEPT_AT_MOST + 2)]
    for name in names:
        rename(competition, name)
    kept = set(competition.former_addresses.values_list("slug", flat=True))
    assert kept == set(names[1:-1])  # the first two it gave up are free again
    assert len(kept) == KEPT_AT_MOST
    create_competition(club=ClubFactory(), name="Spring Cup", slug="spring-cup", rule_set=RuleSetFactory())


def test_a_name_in_use_is_never_sent_elsewhere(competition: Competition) -> None:
    """Written past the checks (a shell's update, a race with a rename), a competition may hold a name another
    keeps as former: the one using it is shown, and its missing pages are not sent to the other, nor to
    themselves."""
    rename(competition, "lentebeker-2027")
    other = seated_competition(players=4, slug="herfstbeker", club=competition.club)
    Competition.objects.filter(pk=other.pk).update(slug="spring-cup")
    assert Client().get("/c/spring-cup/").context["competition"] == other
    assert Client().get("/c/spring-cup/r9/").status_code == 404
    Competition.objects.filter(pk=other.pk).update(slug="herfstbeker")
    Competition.objects.filter(pk=competition.pk).update(slug="spring-cup")  # its own former name, past the signal
    assert Client().get("/c/spring-cup/r9/").status_code == 404


def test_renames_through_the_api_are_kept(competition: Competition, roles: Roles) -> None:
    api = logged_in(roles.club_admin)
    response = api.patch(
        f"/api/v1/competitions/{competition.pk}/", {"slug": "lentebeker-2027"}, content_type="application/json"
    )
    assert response.status_code == 200, response.content
    assert FormerAddress.objects.get(slug="spring-cup").competition_id == competition.pk


def test_deleting_a_competition_frees_its_names(competition: Competition) -> None:
    rename(competition, "lentebeker-2027")
    competition_pk = competition.pk
    ScoreSheet.objects.filter(table__round__competition=competition).delete()
    Competition.objects.filter(pk=competition_pk).delete()
    assert not FormerAddress.objects.exists()
    create_competition(club=ClubFactory(), name="Spring Cup", slug="spring-cup", rule_set=RuleSetFactory())


def test_an_imported_archive_takes_a_free_name(competition: Competition) -> None:
    archive = export_competition(competition)
    rename(competition, "lentebeker-2027")
    imported = import_competition(archive, club=ClubFactory())
    assert imported.slug not in {"spring-cup", "lentebeker-2027"}
    assert imported.slug.startswith("spring-cup-")


def test_pages_at_the_current_address_do_not_look_for_former_ones(competition: Competition) -> None:
    rename(competition, "lentebeker-2027")
    with CaptureQueriesContext(connection) as queries:
        assert Client().get("/c/lentebeker-2027/").status_code == 200
        assert Client().get("/c/lentebeker-2027/r1/t1/").status_code == 200
    assert not [q for q in queries.captured_queries if "formeraddress" in q["sql"].lower()]
