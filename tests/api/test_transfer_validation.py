"""A bad competition archive is refused whole, and the refusal names the place in the archive.

The service is called directly (the API's parser refuses some bodies before the import sees them, the
management command does not have one), so these are the import's own checks: the shape of each part, each new
row's ``full_clean()``, the rules that span rows, and standings computed before the commit.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import CommandError, call_command

import games
from games.generate import random_session
from scoring.models import Standing
from scoring.records import ScoringError
from tests.factories import ClubFactory, seated_competition
from tournaments import limits
from tournaments.models import (
    Club,
    Competition,
    DealEntry,
    Membership,
    Penalty,
    Player,
    Registration,
    Round,
    RuleSet,
    ScoreSheet,
    Seat,
    SeatingWish,
    Table,
)
from tournaments.services import transfer
from tournaments.services.entry import record_deal
from tournaments.services.transfer import ImportRejected, export_competition, import_competition
from tournaments.services.transfer_checks import PENALTY_TOTAL_MAX

pytestmark = pytest.mark.django_db

Archive = dict[str, Any]


@pytest.fixture
def archive() -> Archive:
    """8 players at two tables in round 1 (four lines each) and round 2; a penalty, a wish, federation ids."""
    competition = seated_competition(players=8, rounds=2)
    for number, player in enumerate(Player.objects.order_by("pk")):
        player.federation_id = f"F-{number}"
        player.save(update_fields=["federation_id"])
    first = competition.rounds.get(number=1)
    for sheet in ScoreSheet.objects.filter(table__round=first).order_by("table__number"):
        for line in random_session(games.find("iwwa"), random.Random(sheet.table.number), 4, 16)[:4]:
            record_deal(sheet, line)
    players = list(Player.objects.order_by("pk"))
    Penalty.objects.create(competition=competition, round=first, player=players[0], points=3, reason="late")
    SeatingWish.objects.create(competition=competition, player=players[0], other=players[1], kind="apart")
    return export_competition(competition)


@pytest.fixture
def club() -> Club:
    return ClubFactory()


def counts() -> list[int]:
    models = (Competition, RuleSet, Player, Membership, Registration, Round, Table, Seat, ScoreSheet, DealEntry)
    return [model.objects.count() for model in (*models, Penalty, SeatingWish, Standing)]


def refusal(archive: Archive, club: Club, change: Callable[[Archive], Any]) -> list[tuple[str, str, str]]:
    """The (code, field, message) of each error when ``change``d ``archive`` is imported; asserts nothing stayed."""
    archive = copy.deepcopy(archive)
    change(archive)
    before = counts()
    with pytest.raises(ImportRejected) as rejected:
        import_competition(archive, club=club)
    assert counts() == before
    errors = [(e.code, e.field, e.message) for _, e in rejected.value.errors]
    assert errors and all(message.strip() for _, _, message in errors)
    return errors


def table(archive: Archive, round_: int = 0, number: int = 0) -> dict[str, Any]:
    found: dict[str, Any] = archive["rounds"][round_]["tables"][number]
    return found


def seat_of_other_table(archive: Archive) -> None:
    table(archive, 0, 1)["seats"][0] = table(archive, 0, 0)["seats"][0]


def deal_twice(archive: Archive) -> None:
    lines = table(archive)["sheet"]["lines"]
    lines.insert(2, dict(lines[1]))


CASES: list[tuple[str, Callable[[Archive], Any], str, str]] = [
    ("players-not-a-list", lambda a: a.update(players="all of them"), "players", "malformed_archive"),
    ("player-not-an-object", lambda a: a["players"].__setitem__(0, 7), "players[0]", "malformed_archive"),
    ("player-without-key", lambda a: a["players"][2].pop("key"), "players[2].key", "malformed_archive"),
    ("key-as-text", lambda a: a["players"][0].update(key="1"), "players[0].key", "malformed_archive"),
    ("key-twice", lambda a: a["players"][1].update(key=a["players"][0]["key"]), "players[1].key", "malformed_archive"),
    (
        "federation-id-twice",
        lambda a: a["players"][3].update(federation_id=a["players"][0]["federation_id"]),
        "players[3].federation_id",
        "inconsistent_archive",
    ),
    ("blank-first-name", lambda a: a["players"][4].update(first_name=" "), "players[4].first_name", "invalid"),
    ("long-last-name", lambda a: a["players"][4].update(last_name="x" * 81), "players[4].last_name", "invalid"),
    ("blank-name", lambda a: a["competition"].update(name="\t"), "competition.name", "invalid"),
    ("rounds-not-a-list", lambda a: a.update(rounds={}), "rounds", "malformed_archive"),
    ("round-number-twice", lambda a: a["rounds"][1].update(number=1), "rounds[1]", "invalid"),
    ("round-number-zero", lambda a: a["rounds"][0].update(number=0), "rounds[0].number", "invalid"),
    ("unknown-status", lambda a: a["rounds"][1].update(status="done"), "rounds[1].status", "invalid"),
    ("unknown-method", lambda a: a["rounds"][0].update(method=["random"]), "rounds[0].method", "invalid"),
    ("seed-as-text", lambda a: a["rounds"][0].update(seed="lucky"), "rounds[0].seed", "invalid"),
    ("bye-unknown", lambda a: a["rounds"][0].update(byes=[404]), "rounds[0].byes[0]", "malformed_archive"),
    (
        "bye-twice",
        lambda a: a["rounds"][1].update(byes=[a["players"][0]["key"]] * 2),
        "rounds[1].byes[1]",
        "inconsistent_archive",
    ),
    (
        "bye-and-seat",
        lambda a: a["rounds"][1].update(byes=[table(a, 1)["seats"][2]]),
        "rounds[1].tables[0].seats[2]",
        "inconsistent_archive",
    ),
    ("table-number-twice", lambda a: table(a, 0, 1).update(number=1), "rounds[0].tables[1]", "invalid"),
    ("table-of-six", lambda a: table(a).update(size=6), "rounds[0].tables[0].size", "invalid"),
    ("seats-short", lambda a: table(a)["seats"].pop(), "rounds[0].tables[0].seats", "inconsistent_archive"),
    (
        "seats-over",
        lambda a: table(a)["seats"].append(table(a, 0, 1)["seats"][3]),
        "rounds[0].tables[0].seats",
        "inconsistent_archive",
    ),
    (
        "seat-unknown",
        lambda a: table(a)["seats"].__setitem__(1, 404),
        "rounds[0].tables[0].seats[1]",
        "malformed_archive",
    ),
    ("seated-twice", seat_of_other_table, "rounds[0].tables[1].seats[0]", "inconsistent_archive"),
    ("unknown-state", lambda a: table(a)["sheet"].update(state="done"), "rounds[0].tables[0].sheet.state", "invalid"),
    ("no-lines", lambda a: table(a)["sheet"].pop("lines"), "rounds[0].tables[0].sheet.lines", "malformed_archive"),
    ("deal-twice", deal_twice, "rounds[0].tables[0].sheet.lines[2]", "deal_out_of_sequence"),
    ("penalty-round", lambda a: a["penalties"][0].update(round=9), "penalties[0].round", "malformed_archive"),
    ("penalty-player", lambda a: a["penalties"][0].update(player=None), "penalties[0].player", "malformed_archive"),
    ("penalty-points", lambda a: a["penalties"][0].update(points=-3), "penalties[0].points", "invalid"),
    ("blank-reason", lambda a: a["penalties"][0].update(reason=""), "penalties[0].reason", "invalid"),
    ("wish-kind", lambda a: a["wishes"][0].update(kind="nearby"), "wishes[0].kind", "invalid"),
    ("wish-other", lambda a: a["wishes"][0].update(other=404), "wishes[0].other", "malformed_archive"),
    ("withdrawn-unknown", lambda a: a.update(withdrawn=[404]), "withdrawn[0]", "malformed_archive"),
    ("min-evenings", lambda a: a["competition"].update(min_evenings=-1), "competition.min_evenings", "invalid"),
    ("no-decay", lambda a: a["competition"].update(evening_decay=0), "competition.evening_decay", "invalid"),
    ("rule-set-name", lambda a: a["rule_set"].update(name=5), "rule_set.name", "malformed_archive"),
    ("unknown-preset", lambda a: a["rule_set"].update(preset="nope"), "rule_set.preset", "invalid"),
    ("nul-in-a-name", lambda a: a["competition"].update(name="a\x00b"), "competition.name", "invalid"),
    (
        "nul-in-a-note",
        lambda a: table(a)["sheet"]["lines"][0].update(note="\x00"),
        "rounds[0].tables[0].sheet.lines[0].note",
        "invalid",
    ),
    ("surrogate", lambda a: a["players"][0].update(display_name="\ud800"), "players[0].display_name", "invalid"),
]


@pytest.mark.parametrize(("change", "place", "code"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_a_bad_archive_is_refused_whole_naming_the_place(
    archive: Archive, club: Club, change: Callable[[Archive], Any], place: str, code: str
) -> None:
    errors = refusal(archive, club, change)

    assert (code, place) in {(code, message.split(" ")[0].rstrip(":")) for code, _, message in errors}, errors


def test_every_line_the_engine_refuses_is_listed_with_its_sheet(archive: Archive, club: Club) -> None:
    def two_bad_lines(archive: Archive) -> None:
        table(archive, 0, 0)["sheet"]["lines"][1]["tricks"] = 14
        table(archive, 0, 1)["sheet"]["lines"][3]["dealer"] = 9

    errors = refusal(archive, club, two_bad_lines)

    places = {message.split(":")[0] for _, _, message in errors}
    assert "rounds[0].tables[0].sheet.lines[1] (round 1, table 1)" in places
    assert "rounds[0].tables[1].sheet.lines[3] (round 1, table 2)" in places
    assert {field for _, field, _ in errors} >= {"tricks", "dealer"}


def test_a_players_penalties_must_fit_the_standings(archive: Archive, club: Club) -> None:
    def heavy(archive: Archive) -> None:
        key = archive["players"][0]["key"]
        most = limits.PENALTY_POINTS.high
        archive["penalties"] = [
            *(
                {"round": None, "player": key, "points": most, "reason": "one"}
                for _ in range(PENALTY_TOTAL_MAX // most)
            ),
            {"round": 1, "player": key, "points": 1, "reason": "two"},
        ]

    errors = refusal(archive, club, heavy)

    assert errors[0][1] == f"penalties[{PENALTY_TOTAL_MAX // limits.PENALTY_POINTS.high}].points"


def test_the_standings_are_computed_before_the_commit(
    archive: Archive, club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    imported = import_competition(copy.deepcopy(archive), club=club)
    assert Standing.objects.filter(competition=imported).count() == 8

    def refuse(competition_id: int, **options: Any) -> bool:
        raise ScoringError("a method that cannot rank this")

    monkeypatch.setattr(transfer, "recompute_standings", refuse)
    errors = refusal(archive, ClubFactory(), lambda a: None)

    assert errors == [
        ("invalid", "competition", "competition: its standings cannot be computed: a method that cannot rank this")
    ]


def test_a_long_rule_set_name_and_slug_still_fit_when_imported_twice(archive: Archive, club: Club) -> None:
    archive["rule_set"]["name"] = "r" * 80
    archive["competition"]["slug"] = "s" * 200

    first = import_competition(copy.deepcopy(archive), club=club)
    second = import_competition(copy.deepcopy(archive), club=club)

    assert first.rule_set.name == "r" * 80
    assert second.rule_set.name.endswith(" (imported)") and len(second.rule_set.name) == 80
    assert len(first.slug) <= 50 and second.slug == f"{first.slug}-2"


def test_an_empty_federation_id_is_none_not_a_clash(archive: Archive, club: Club) -> None:
    for player in archive["players"][:2]:
        player["federation_id"] = ""

    imported = import_competition(archive, club=club)

    assert Player.objects.filter(registrations__competition=imported, federation_id__isnull=True).count() == 2


def test_the_command_says_where_an_archive_is_wrong(archive: Archive, club: Club, tmp_path: Any) -> None:
    table(archive)["seats"].pop()
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(archive), encoding="utf-8")
    before = counts()

    with pytest.raises(CommandError, match=r"rounds\[0\]\.tables\[0\]\.seats: a table of 4 needs 4 players, got 3"):
        call_command("import_competition", str(path), "--club", club.slug)

    assert counts() == before
