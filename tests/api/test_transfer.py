"""Import and export through the API and the transfer service.

Score sheets as JSON and CSV (a CSV exported from one sheet imports into
another and gives the same lines and points; a file with bad rows reports
every one of them and imports nothing), standings as JSON and CSV, and a
whole competition as one archive that imports back to the same standings
and the same lines.
"""

from __future__ import annotations

import copy
import csv
import io
import random
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from rest_framework.test import APIClient

import games
from games.generate import random_session
from scoring.models import Standing
from scoring.services import recompute_standings
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, seated_competition
from tests.roles import make_roles
from tournaments.models import (
    Club,
    Competition,
    DealEntry,
    Membership,
    Penalty,
    Player,
    Round,
    RuleSet,
    ScoreSheet,
    Seat,
    Table,
)
from tournaments.services.entry import record_deal
from tournaments.services.transfer import (
    ARCHIVE_FORMAT,
    CSV_COLUMNS,
    ImportRejected,
    export_competition,
    import_competition,
    import_lines,
    parse_sheet_csv,
    sheet_csv,
)

pytestmark = pytest.mark.django_db

API = "/api/v1"
STANDING_COLUMNS = ["rank", "player", "player_name", "points", "deals_played", "sessions_played", "penalty_points"]


# --- helpers -----------------------------------------------------------------------------------------------------


def sheets_of(competition: Competition) -> list[ScoreSheet]:
    return list(
        ScoreSheet.objects.filter(table__round__competition=competition)
        .select_related("table__round")
        .order_by("table__round__number", "table__number")
    )


def current(sheet: ScoreSheet) -> list[DealEntry]:
    return list(sheet.entries.filter(is_current=True).order_by("deal_number"))


def lines_of(sheet: ScoreSheet) -> list[dict[str, Any]]:
    return [e.line for e in current(sheet)]


def points_of(sheet: ScoreSheet) -> list[list[int]]:
    return [e.points for e in current(sheet)]


def session(size: int, seed: int = 1) -> list[dict[str, Any]]:
    """A valid iwwa session of 16 deals for a table of ``size``; seed 1 holds miseries (tricks as a list)."""
    return random_session(games.find("iwwa"), random.Random(seed), size, 16)


def fill(sheet: ScoreSheet, lines: list[dict[str, Any]]) -> None:
    for line in lines:
        record_deal(sheet, line)


def sheet_csv_of(lines: list[dict[str, Any]], scratch: ScoreSheet) -> str:
    """The CSV export of ``lines``, entered on the empty sheet ``scratch`` (emptied again afterwards)."""
    fill(scratch, lines)
    text = sheet_csv(scratch)
    scratch.entries.all().delete()
    return text


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user=user)
    return client


def csv_rows(text: str) -> tuple[list[str], list[dict[str, str]]]:
    reader = csv.DictReader(io.StringIO(text))
    return list(reader.fieldnames or []), list(reader)


def csv_text(header: list[str], rows: list[list[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def import_csv(client: APIClient, sheet: ScoreSheet, text: str) -> Any:
    return client.post(f"{API}/sheets/{sheet.pk}/import/", data=text.encode(), content_type="text/csv")


def import_json(client: APIClient, sheet: ScoreSheet, body: Any) -> Any:
    return client.post(f"{API}/sheets/{sheet.pk}/import/", data=body, format="json")


def error_rows(response: Any) -> set[tuple[int | None, str, str]]:
    return {(e["line"], e["code"], e["field"]) for e in response.json()["errors"]}


@pytest.fixture
def two_tables() -> tuple[ScoreSheet, ScoreSheet, Any]:
    """Round 1 of a competition of 8 players: two empty sheets of four under one rule set; and a superuser."""
    competition = seated_competition(players=8)
    first, second = sheets_of(competition)
    return first, second, make_roles(competition).organiser


# --- sheet export ------------------------------------------------------------------------------------------------


def test_the_json_export_holds_the_current_lines_only(two_tables: tuple[ScoreSheet, ScoreSheet, Any]) -> None:
    sheet, _, organiser = two_tables
    lines = session(4)[:6]
    fill(sheet, lines)
    corrected = {**lines[1], "note": "corrected"}
    record_deal(sheet, corrected, expected_version=1)  # deal 2 gets a second version

    response = client_for(organiser).get(f"{API}/sheets/{sheet.pk}/export/")

    assert response.status_code == 200
    exported = response.json()["lines"]
    assert exported == [lines[0], corrected, *lines[2:]]
    assert exported == lines_of(sheet)


def test_the_csv_export_has_a_header_and_a_row_per_current_line(two_tables: tuple[ScoreSheet, ScoreSheet, Any]) -> None:
    sheet, _, organiser = two_tables
    lines = session(4)
    lines[4] = {**lines[4], "note": 'late, "table 3"'}  # a note that needs quoting
    fill(sheet, lines)

    response = client_for(organiser).get(f"{API}/sheets/{sheet.pk}/export/", {"fmt": "csv"})

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert f'filename="sheet-{sheet.pk}.csv"' in response["Content-Disposition"]
    header, rows = csv_rows(response.content.decode())
    assert header == CSV_COLUMNS
    assert len(rows) == 16
    for row, entry in zip(rows, current(sheet), strict=True):
        line = entry.line
        assert int(row["deal"]) == line["deal"] and int(row["dealer"]) == line["dealer"]
        assert row["contract"] == line["contract"]
        assert row["declarers"] == " ".join(str(d) for d in line.get("declarers", []))
        assert [int(p) for p in row["points"].split()] == entry.points
        assert row["note"] == line.get("note", "")
    assert rows[4]["note"] == 'late, "table 3"'


# --- sheet import ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [8, 10], ids=["tables-of-4", "tables-of-5"])
def test_a_csv_export_imports_into_an_empty_sheet_with_the_same_lines_and_points(players: int) -> None:
    competition = seated_competition(players=players)
    source, target = sheets_of(competition)
    size = source.table.size
    assert target.table.size == size and size == players // 2
    fill(source, session(size, seed=1))  # holds miseries: tricks [0] must stay a list
    client = client_for(make_roles(competition).organiser)

    exported = client.get(f"{API}/sheets/{source.pk}/export/", {"fmt": "csv"})
    assert exported.status_code == 200
    response = import_csv(client, target, exported.content.decode())

    assert response.status_code == 201, response.content
    assert [e["deal_number"] for e in response.json()] == list(range(1, 17))
    assert lines_of(target) == lines_of(source)
    assert points_of(target) == points_of(source)
    assert {e.source for e in current(target)} == {DealEntry.Source.IMPORT}
    target.refresh_from_db()
    assert target.state == ScoreSheet.State.ENTERED  # a complete session


def test_several_miserie_declarers_survive_the_csv_round_trip(two_tables: tuple[ScoreSheet, ScoreSheet, Any]) -> None:
    source, target, organiser = two_tables
    lines = [
        {"deal": 1, "dealer": 0, "contract": "miserie", "declarers": [1, 3], "tricks": [0, 2]},
        {"deal": 2, "dealer": 1, "contract": "miserie", "declarers": [2], "tricks": [0]},
        {"deal": 3, "dealer": 2, "contract": "pass"},
    ]
    fill(source, lines)
    client = client_for(organiser)

    response = import_csv(client, target, sheet_csv(source))

    assert response.status_code == 201, response.content
    assert lines_of(target) == lines == lines_of(source)
    assert points_of(target) == points_of(source)


def test_json_lines_import_after_the_current_ones(two_tables: tuple[ScoreSheet, ScoreSheet, Any]) -> None:
    sheet, _, organiser = two_tables
    lines = session(4)
    fill(sheet, lines[:4])

    response = import_json(client_for(organiser), sheet, {"lines": lines[4:10]})

    assert response.status_code == 201, response.content
    body = response.json()
    assert [e["deal_number"] for e in body] == list(range(5, 11))
    assert [e["line"] for e in body] == lines[4:10]
    assert lines_of(sheet) == lines[:10]
    assert [e["points"] for e in body] == points_of(sheet)[4:10]


def test_a_json_list_of_lines_imports_too(two_tables: tuple[ScoreSheet, ScoreSheet, Any]) -> None:
    sheet, _, organiser = two_tables
    lines = session(4)[:3]

    response = import_json(client_for(organiser), sheet, lines)

    assert response.status_code == 201, response.content
    assert lines_of(sheet) == lines


BAD_FILE_ROWS = [
    # deal, dealer, contract, declarers, tricks
    [1, 0, "vraag", "0 2", 8],
    [2, 1, "pass", "", ""],
    [3, 2, "alleen", "1 3", 6],  # a partner on a solo
    [4, 3, "vraag", "1 2", 9],
    [5, 0, "vraag", "0 1", 14],  # 14 tricks of 13
    [6, 1, "alleen", "2", 5],
    [7, "x", "vraag", "2 3", 7],  # not a seat number
    [8, 3, "miserie", "0", "0"],
]
BAD_ROWS = {(3, "partner_on_solo", "declarers"), (5, "tricks_out_of_range", "tricks"), (7, "wrong_type", "dealer")}


def test_a_file_with_bad_rows_lists_every_one_and_imports_nothing(
    two_tables: tuple[ScoreSheet, ScoreSheet, Any],
) -> None:
    sheet, _, organiser = two_tables
    text = csv_text(["deal", "dealer", "contract", "declarers", "tricks"], BAD_FILE_ROWS)

    response = import_csv(client_for(organiser), sheet, text)

    assert response.status_code == 400, response.content
    errors = response.json()["errors"]
    assert error_rows(response) >= BAD_ROWS
    assert {e["line"] for e in errors} == {3, 5, 7}  # the good rows are not blamed
    assert all(e["message"] for e in errors)
    assert not DealEntry.objects.exists()


def test_rows_are_numbered_within_the_file_when_the_sheet_already_has_lines(
    two_tables: tuple[ScoreSheet, ScoreSheet, Any],
) -> None:
    sheet, _, organiser = two_tables
    stored = session(4)[:2]
    fill(sheet, stored)
    before = DealEntry.objects.count()
    dealer = stored[-1]["dealer"]  # clockwise from there
    rows = [
        [3, (dealer + 1) % 4, "pass", "", ""],
        [4, (dealer + 2) % 4, "vraag", "1", 8],  # the partner is missing
        [5, (dealer + 3) % 4, "pass", "", ""],
    ]

    response = import_csv(
        client_for(organiser), sheet, csv_text(["deal", "dealer", "contract", "declarers", "tricks"], rows)
    )

    assert response.status_code == 400
    assert error_rows(response) == {(2, "missing_partner", "declarers")}
    assert DealEntry.objects.count() == before
    assert len(lines_of(sheet)) == 2


def test_bad_json_lines_are_listed_by_their_position_and_nothing_is_imported(
    two_tables: tuple[ScoreSheet, ScoreSheet, Any],
) -> None:
    sheet, _, organiser = two_tables
    lines = session(4)[:5]
    lines[1] = {**lines[1], "contract": "piccolo"}  # not enabled under iwwa
    lines[3] = "not a line"

    response = import_json(client_for(organiser), sheet, {"lines": lines})

    assert response.status_code == 400
    assert error_rows(response) >= {(2, "contract_not_enabled", "contract"), (4, "not_an_object", "")}
    assert {e["line"] for e in response.json()["errors"]} == {2, 4}
    assert not DealEntry.objects.exists()


@pytest.mark.parametrize(
    ("text", "code", "field"),
    [
        ("dealer,contract\n0,pass\n", "missing_field", "deal"),
        ("deal,dealer,contract,colour\n1,0,pass,red\n", "unknown_field", "colour"),
        ("deal,dealer,contract\n", "missing_field", "lines"),
        ("", "missing_field", "lines"),
    ],
    ids=["no-deal-column", "unknown-column", "header-only", "empty-file"],
)
def test_a_csv_without_the_right_header_is_refused_as_a_whole(
    two_tables: tuple[ScoreSheet, ScoreSheet, Any], text: str, code: str, field: str
) -> None:
    sheet, _, organiser = two_tables

    response = import_csv(client_for(organiser), sheet, text)

    assert response.status_code == 400
    assert error_rows(response) == {(None, code, field)}
    assert not DealEntry.objects.exists()


def test_a_row_with_more_cells_than_the_header_is_a_bad_row_not_a_server_error(
    two_tables: tuple[ScoreSheet, ScoreSheet, Any],
) -> None:
    sheet, _, organiser = two_tables
    text = "deal,dealer,contract\n1,0,pass\n2,1,pass,surplus\n3,2,pass\n"

    response = import_csv(client_for(organiser), sheet, text)

    assert response.status_code == 400, response.content
    assert {e["line"] for e in response.json()["errors"]} == {2}
    assert not DealEntry.objects.exists()


def test_a_csv_saved_by_a_spreadsheet_with_a_byte_order_mark_imports(
    two_tables: tuple[ScoreSheet, ScoreSheet, Any],
) -> None:
    sheet, _, organiser = two_tables
    lines = session(4)[:3]
    text = "\ufeff" + sheet_csv_of(lines, two_tables[1])

    response = import_csv(client_for(organiser), sheet, text.replace("\n", "\r\n"))

    assert response.status_code == 201, response.content
    assert lines_of(sheet) == lines


def test_a_cell_too_large_for_the_csv_reader_is_a_400(two_tables: tuple[ScoreSheet, ScoreSheet, Any]) -> None:
    sheet, _, organiser = two_tables
    text = 'deal,dealer,contract,note\n1,0,pass,"' + "x" * 200_000 + '"\n'

    response = import_csv(client_for(organiser), sheet, text)

    assert response.status_code == 400
    assert {e["code"] for e in response.json()["errors"]} == {"malformed_csv"}
    assert not DealEntry.objects.exists()


@pytest.mark.parametrize("body", [{}, {"lines": []}, {"lines": "1,0,pass"}], ids=["no-lines", "empty", "not-a-list"])
def test_a_json_import_without_lines_is_refused(two_tables: tuple[ScoreSheet, ScoreSheet, Any], body: Any) -> None:
    sheet, _, organiser = two_tables

    response = import_json(client_for(organiser), sheet, body)

    assert response.status_code == 400
    assert error_rows(response) == {(None, "missing_field", "lines")}


def test_import_lines_checks_every_row_before_storing_any(two_tables: tuple[ScoreSheet, ScoreSheet, Any]) -> None:
    sheet, _, _ = two_tables
    lines = session(4)[:6]
    lines[5] = {**lines[5], "dealer": 3}  # out of rotation: the last row is bad

    with pytest.raises(ImportRejected) as rejected:
        import_lines(sheet, lines)

    assert [(row, e.code) for row, e in rejected.value.errors] == [(6, "dealer_out_of_rotation")]
    assert not DealEntry.objects.exists()


def test_stored_lines_the_rule_set_no_longer_allows_are_not_blamed_on_the_file(
    two_tables: tuple[ScoreSheet, ScoreSheet, Any],
) -> None:
    sheet, _, _ = two_tables
    fill(sheet, [{"deal": 1, "dealer": 0, "contract": "miserie", "declarers": [1, 3], "tricks": [0, 0]}])
    RuleSet.objects.filter(competitions__rounds__tables__sheet=sheet).update(overrides={"multiple_miserie": False})
    sheet = ScoreSheet.objects.get(pk=sheet.pk)

    with pytest.raises(ImportRejected) as rejected:
        import_lines(sheet, [{"deal": 2, "dealer": 1, "contract": "pass"}])

    assert [(row, e.code, e.field) for row, e in rejected.value.errors] == [(None, "stored_lines_invalid", "declarers")]
    assert "deal 1" in rejected.value.errors[0][1].message
    assert DealEntry.objects.count() == 1


def test_parse_sheet_csv_reads_lists_numbers_and_text_and_ignores_points() -> None:
    text = (
        "deal,dealer,contract,declarers,tricks,level,trump,note,points\n"
        "1,0,abondance,2,10,9,H,,3 3 -9 3\n"
        '2,1,miserie,0 3,0 1,,,"a, note",\n'
        "3,2,miserie,1,0,,,,\n"
    )

    assert parse_sheet_csv(text) == [
        {"deal": 1, "dealer": 0, "contract": "abondance", "declarers": [2], "tricks": 10, "level": 9, "trump": "H"},
        {"deal": 2, "dealer": 1, "contract": "miserie", "declarers": [0, 3], "tricks": [0, 1], "note": "a, note"},
        {"deal": 3, "dealer": 2, "contract": "miserie", "declarers": [1], "tricks": [0]},
    ]


# --- standings ---------------------------------------------------------------------------------------------------


@pytest.fixture
def played() -> tuple[Competition, Any]:
    """A competition of 9 players (tables of 5 and 4), both sheets complete, one penalty; standings computed."""
    competition = seated_competition(players=9)
    for sheet in sheets_of(competition):
        fill(sheet, session(sheet.table.size, seed=sheet.table.number))
    player = competition.registrations.order_by("player_id").first().player  # type: ignore[union-attr]
    organiser = make_roles(competition).organiser
    response = client_for(organiser).post(
        f"{API}/penalties/", {"competition": competition.pk, "player": player.pk, "points": 7, "reason": "late"}
    )
    assert response.status_code == 201, response.content
    recompute_standings(competition.pk, claim=False)  # its queued request runs on a commit this test never makes
    return competition, organiser


def test_standings_as_json_rank_every_player(played: tuple[Competition, Any]) -> None:
    competition, _ = played

    response = APIClient().get(f"{API}/competitions/{competition.pk}/standings/")

    assert response.status_code == 200
    rows = response.json()
    assert len(rows) == 9 == competition.registrations.count()
    assert {r["player"] for r in rows} == set(competition.registrations.values_list("player_id", flat=True))
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
    assert rows[0]["rank"] == 1
    points = [r["points"] for r in rows]
    assert points == sorted(points, reverse=True)
    # every deal is zero-sum, so the total is what the penalties took away
    assert sum(points) == -7
    assert sum(r["penalty_points"] for r in rows) == 7
    # at the table of five the dealer sits each deal out
    assert sorted(r["deals_played"] for r in rows).count(16) == 4
    assert all(12 <= r["deals_played"] <= 13 for r in rows if r["deals_played"] != 16)
    stored = {s.player_id: (s.rank, s.points) for s in Standing.objects.filter(competition=competition)}
    assert {r["player"]: (r["rank"], r["points"]) for r in rows} == stored


def test_standings_as_csv_have_a_header_and_a_row_per_player(played: tuple[Competition, Any]) -> None:
    competition, _ = played
    client = APIClient()

    response = client.get(f"{API}/competitions/{competition.pk}/standings/", {"fmt": "csv"})

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert f'filename="standings-{competition.slug}.csv"' in response["Content-Disposition"]
    header, rows = csv_rows(response.content.decode())
    assert header == STANDING_COLUMNS
    as_json = client.get(f"{API}/competitions/{competition.pk}/standings/").json()
    assert len(rows) == 9
    assert [{k: str(r[k]) for k in STANDING_COLUMNS} for r in as_json] == rows
    assert all(r["value"] and r["explanation"] for r in as_json)  # the JSON says the method's value and why, too


# --- competition archives ----------------------------------------------------------------------------------------


def load_demo() -> Competition:
    call_command("load_demo", stdout=StringIO())
    return Competition.objects.get(slug="demo-tournament")


def standings_by_federation_id(competition: Competition) -> dict[str, tuple[int, int, int, int]]:
    return {
        s.player.federation_id: (s.rank, s.points, s.deals_played, s.penalty_points)
        for s in Standing.objects.filter(competition=competition).select_related("player")
    }


def sheets_by_place(competition: Competition) -> dict[tuple[int, int], dict[str, Any]]:
    """Every sheet by (round, table): who sits where (by federation id), its state, lines and points."""
    return {
        (sheet.table.round.number, sheet.table.number): {
            "seats": list(sheet.table.seats.order_by("position").values_list("player__federation_id", flat=True)),
            "state": sheet.state,
            "lines": lines_of(sheet),
            "points": points_of(sheet),
        }
        for sheet in sheets_of(competition)
    }


def assert_same_competition(copy_: Competition, original: Competition) -> None:
    assert copy_.pk != original.pk
    assert standings_by_federation_id(copy_) == standings_by_federation_id(original)
    assert len(standings_by_federation_id(original)) == 18
    assert sheets_by_place(copy_) == sheets_by_place(original)
    assert len(sheets_by_place(original)) == 12
    assert list(copy_.rounds.order_by("number").values_list("number", "seed", "status")) == list(
        original.rounds.order_by("number").values_list("number", "seed", "status")
    )


def test_a_competition_archive_imports_back_through_the_api_to_the_same_standings_and_lines() -> None:
    original = load_demo()
    organiser = get_user_model().objects.get(username="organiser")  # the demo club's administrator
    client = client_for(organiser)

    exported = client.get(f"{API}/competitions/{original.pk}/archive/")
    assert exported.status_code == 200
    archive = exported.json()
    assert archive["format"] == ARCHIVE_FORMAT
    response = client.post(f"{API}/competitions/import/?club={original.club_id}", archive, format="json")

    assert response.status_code == 201, response.content
    imported = Competition.objects.get(pk=response.json()["id"])
    assert imported.slug != original.slug and imported.name == original.name
    assert imported.club_id == original.club_id
    assert imported.rule_set_id != original.rule_set_id  # a copy of the rule set, under a free name
    assert imported.rule_set.engine_rules() == original.rule_set.engine_rules()
    assert Player.objects.count() == 18  # players are matched on their federation id, not duplicated
    assert_same_competition(imported, original)


def test_a_competition_archive_round_trips_through_the_services() -> None:
    original = load_demo()
    first = original.registrations.order_by("player_id").first().player  # type: ignore[union-attr]
    Penalty.objects.create(competition=original, player=first, points=4, reason="late", round=original.rounds.first())
    recompute_standings(original.pk, claim=False)
    other_club = ClubFactory()
    archive = export_competition(original)

    imported = import_competition(copy.deepcopy(archive), club=other_club)

    assert imported.club == other_club
    assert_same_competition(imported, original)
    assert standings_by_federation_id(imported)[first.federation_id][3] == 4
    again = export_competition(imported)
    assert again["competition"].pop("slug") != archive["competition"].pop("slug")
    assert again == archive  # the same players (by key), rounds, seats, lines and penalties


def test_an_archive_names_existing_players_by_federation_id_without_making_them_the_importing_club_s() -> None:
    """A federation id matches a player only under their own names, and a matched player plays in the imported
    competition without becoming a member of the importing club (which would open their record to its
    administrators): an archive is not a way to take another club's members."""
    original = seated_competition(players=4)
    players = [r.player for r in original.registrations.order_by("pk")]
    for n, player in enumerate(players):
        player.federation_id = f"BE-{n}"
        player.save()
        MembershipFactory(club=original.club, player=player)
    archive = export_competition(original)
    other_club = ClubFactory()

    imported = import_competition(copy.deepcopy(archive), club=other_club)
    assert {r.player_id for r in imported.registrations.all()} == {p.pk for p in players}
    assert not Membership.objects.filter(club=other_club).exists()

    archive["players"][0]["last_name"] = "Somebody Else"
    with pytest.raises(ImportRejected) as refused:
        import_competition(archive, club=other_club)
    assert "federation id BE-0 is another player's here" in str(refused.value)
    assert players[0].last_name not in str(refused.value)  # the stored name is not told


# --- malformed archives ------------------------------------------------------------------------------------------


@pytest.fixture
def small_archive() -> tuple[dict[str, Any], Club, Any]:
    """The archive of a competition of 8 players with a few lines on both sheets, a club to import it into and
    that club's administrator."""
    competition = seated_competition(players=8)
    for sheet in sheets_of(competition):
        fill(sheet, session(4, seed=sheet.table.number)[:5])
    for player in Player.objects.all():
        player.federation_id = f"F-{player.pk:03d}"
        player.save(update_fields=["federation_id"])
    club = ClubFactory()
    admin = get_user_model().objects.create(username="importer")
    MembershipFactory(club=club, player=PlayerFactory(user=admin), is_admin=True)
    return export_competition(competition), club, admin


def counts() -> dict[str, int]:
    return {
        model.__name__: model.objects.count()
        for model in (Competition, RuleSet, Player, Round, Table, Seat, ScoreSheet, DealEntry, Penalty)
    }


def broken(archive: dict[str, Any], how: str) -> Any:
    archive = copy.deepcopy(archive)
    first_table = archive["rounds"][0]["tables"][0]
    if how == "not-an-object":
        return [archive]
    if how == "wrong-format":
        archive["format"] = "wiezen-competition/0"
    elif how == "no-format":
        del archive["format"]
    elif how == "no-rounds":
        del archive["rounds"]
    elif how == "no-rule-set":
        del archive["rule_set"]
    elif how == "no-lines":
        del first_table["sheet"]["lines"]
    elif how == "unknown-seat":
        first_table["seats"][0] = 999_999
    elif how == "table-of-seven":
        first_table["size"] = 7
    elif how == "round-twice":
        archive["rounds"].append(copy.deepcopy(archive["rounds"][0]))
    elif how == "unknown-preset":
        archive["rule_set"]["preset"] = "no-such-preset"
    elif how == "unknown-kind":
        archive["competition"]["kind"] = "friendly"
    elif how == "bad-date":
        archive["competition"]["starts_on"] = "the first of May"
    elif how == "zero-penalty":
        archive["penalties"] = [{"round": 1, "player": archive["players"][0]["key"], "points": 0, "reason": "none"}]
    elif how == "rounds-not-a-list":
        archive["rounds"] = "three"
    else:
        raise AssertionError(how)
    return archive


@pytest.mark.parametrize(
    ("how", "code"),
    [
        ("not-an-object", "wrong_format"),
        ("wrong-format", "wrong_format"),
        ("no-format", "wrong_format"),
        ("no-rounds", "malformed_archive"),
        ("no-rule-set", "malformed_archive"),
        ("no-lines", "malformed_archive"),
        ("unknown-seat", "malformed_archive"),
        ("rounds-not-a-list", "malformed_archive"),
        ("table-of-seven", None),
        ("round-twice", None),
        ("unknown-preset", None),
        ("unknown-kind", None),
        ("bad-date", None),
        ("zero-penalty", None),
    ],
)
def test_a_malformed_archive_imports_nothing_and_says_why(
    small_archive: tuple[dict[str, Any], Club, Any], how: str, code: str | None
) -> None:
    archive, club, admin = small_archive
    before = counts()

    response = client_for(admin).post(f"{API}/competitions/import/?club={club.pk}", broken(archive, how), format="json")

    assert response.status_code == 400, response.content
    errors = response.json()["errors"]
    assert errors and all(e["message"] for e in errors)
    if code is not None:
        assert {e["code"] for e in errors} == {code}
    assert counts() == before
    assert not Competition.objects.filter(club=club).exists()


def test_an_archive_with_a_line_the_engine_rejects_imports_nothing(
    small_archive: tuple[dict[str, Any], Club, Any],
) -> None:
    archive, club, admin = small_archive
    archive = copy.deepcopy(archive)
    lines = archive["rounds"][0]["tables"][1]["sheet"]["lines"]
    lines[2] = {**lines[2], "contract": "vraag", "declarers": [0, 1], "tricks": 14}
    before = counts()

    response = client_for(admin).post(f"{API}/competitions/import/?club={club.pk}", archive, format="json")

    assert response.status_code == 400
    errors = response.json()["errors"]
    assert "tricks_out_of_range" in {e["code"] for e in errors}
    blamed = next(e for e in errors if e["code"] == "tricks_out_of_range")
    assert blamed["field"] == "tricks" and "round 1, table 2" in blamed["message"]
    assert counts() == before


def test_the_services_refuse_a_malformed_archive_the_same_way(small_archive: tuple[dict[str, Any], Club, Any]) -> None:
    archive, club, _ = small_archive
    before = counts()

    for how in ("wrong-format", "no-rounds", "unknown-seat", "table-of-seven", "unknown-kind", "zero-penalty"):
        with pytest.raises(ImportRejected) as rejected:
            import_competition(broken(archive, how), club=club)
        assert rejected.value.errors, how
        assert counts() == before, how


def test_importing_into_an_unknown_club_is_a_404(small_archive: tuple[dict[str, Any], Club, Any]) -> None:
    archive, _, admin = small_archive
    client = client_for(admin)

    assert client.post(f"{API}/competitions/import/?club=999999", archive, format="json").status_code == 404
    assert client.post(f"{API}/competitions/import/?club=abc", archive, format="json").status_code == 404
    assert client.post(f"{API}/competitions/import/", archive, format="json").status_code == 404
