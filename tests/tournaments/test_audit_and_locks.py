"""Nothing lost, nothing edited behind our back: the audit trail, restoring versions, locked rounds and seasons,
and the backup commands that round-trip a competition."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction
from rest_framework.test import APIClient

from games.generate import random_session
from scoring.models import Standing
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory, seated_competition
from tournaments.models import AuditEvent, Competition, DealEntry, Membership, Penalty, Round, RuleSet, ScoreSheet
from tournaments.services.entry import record_deal
from tournaments.services.errors import EntryRejected, ServiceError, StaleVersion
from tournaments.services.history import restore_version
from tournaments.services.rounds import create_round, finalise_round, reopen_round
from tournaments.services.seasons import close_competition, reopen_competition
from tournaments.services.transfer import export_competition

pytestmark = pytest.mark.django_db
API = "/api/v1"

DEAL_1 = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6}
DEAL_1_FIXED = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [1], "tricks": 5}


def sheet_of(competition: Competition) -> ScoreSheet:
    return ScoreSheet.objects.filter(table__round__competition=competition).order_by("table__number").first()


def test_every_version_of_a_line_is_audited_with_who_from_where_before_and_after() -> None:
    competition = seated_competition(players=4)
    sheet = sheet_of(competition)
    user = UserFactory()
    competition.organisers.add(user)
    client = APIClient()
    client.force_authenticate(user)
    created = client.post(f"{API}/sheets/{sheet.pk}/lines/", DEAL_1, format="json", REMOTE_ADDR="192.0.2.7")
    assert created.status_code == 201, created.content
    corrected = client.put(
        f"{API}/sheets/{sheet.pk}/lines/1/",
        {"line": DEAL_1_FIXED, "version": 1},
        format="json",
        REMOTE_ADDR="192.0.2.8",
    )
    assert corrected.status_code == 200, corrected.content

    rows = list(AuditEvent.objects.filter(model="dealentry").order_by("id"))
    assert [(r.action, r.username, r.ip, r.competition_id) for r in rows] == [
        ("create", user.username, "192.0.2.7", competition.pk),
        ("change", user.username, "192.0.2.8", competition.pk),
    ]
    assert rows[0].before is None and rows[0].after["line"] == DEAL_1
    assert rows[1].before["line"] == DEAL_1 and rows[1].after["line"] == DEAL_1_FIXED
    assert rows[1].before["points"] != rows[1].after["points"]


def test_direct_edits_of_rule_sets_memberships_and_penalties_are_audited() -> None:
    competition = seated_competition(players=4)
    rule_set = competition.rule_set
    original_name = rule_set.name
    rule_set.name = "Renamed"
    rule_set.save()
    membership = MembershipFactory(club=competition.club, player=PlayerFactory())
    membership.is_admin = True
    membership.save()
    penalty = Penalty.objects.create(competition=competition, player=competition.players.first(), points=2, reason="x")
    penalty.delete()

    renamed = AuditEvent.objects.get(model="ruleset", action="change")
    assert (renamed.before["name"], renamed.after["name"]) == (original_name, "Renamed")
    changed = AuditEvent.objects.get(model="membership", action="change")
    assert (changed.before["is_admin"], changed.after["is_admin"]) == (False, True)
    assert AuditEvent.objects.filter(model="penalty", action="create").count() == 1
    deleted = AuditEvent.objects.get(model="penalty", action="delete")
    assert deleted.before["points"] == 2 and deleted.competition_id == competition.pk
    assert not AuditEvent.objects.filter(model="membership", action="delete").exists()
    Membership.objects.filter(pk=membership.pk).first().delete()
    assert AuditEvent.objects.filter(model="membership", action="delete").count() == 1
    assert RuleSet.objects.filter(name="Renamed").exists()


def test_seatings_and_round_steps_are_audited_with_the_tables() -> None:
    competition = seated_competition(players=8, rounds=0)
    round_ = create_round(competition)
    seated = AuditEvent.objects.get(model="round", object_id=str(round_.pk), action="create")
    assert sorted(p for t in seated.after["tables"] for p in t) == sorted(
        competition.players.values_list("pk", flat=True)
    )


def test_the_audit_trail_cannot_be_changed() -> None:
    competition = seated_competition(players=4)
    record_deal(sheet_of(competition), DEAL_1)
    event = AuditEvent.objects.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        AuditEvent.objects.filter(pk=event.pk).update(username="someone else")
    assert AuditEvent.objects.get(pk=event.pk).username == event.username


def test_an_earlier_version_is_restored_as_a_new_audited_version() -> None:
    competition = seated_competition(players=4)
    sheet = sheet_of(competition)
    record_deal(sheet, DEAL_1)
    record_deal(sheet, DEAL_1_FIXED, expected_version=1)
    result = restore_version(sheet, 1, 1)
    assert (result.entry.version, result.entry.line, result.entry.source) == (3, DEAL_1, DealEntry.Source.RESTORE)
    assert list(sheet.entries.order_by("version").values_list("version", flat=True)) == [1, 2, 3]
    assert AuditEvent.objects.filter(model="dealentry", action="restore").count() == 1
    with pytest.raises(ServiceError, match="already the current one"):
        restore_version(sheet, 1, 3)
    with pytest.raises(ServiceError, match="no version 9"):
        restore_version(sheet, 1, 9)
    with pytest.raises(StaleVersion):
        restore_version(sheet, 1, 2, expected_version=1)


def test_restoring_through_the_api_answers_409_with_the_current_line_when_stale() -> None:
    competition = seated_competition(players=4)
    sheet = sheet_of(competition)
    record_deal(sheet, DEAL_1)
    record_deal(sheet, DEAL_1_FIXED, expected_version=1)
    organiser = UserFactory()
    competition.organisers.add(organiser)
    client = APIClient()
    client.force_authenticate(organiser)
    url = f"{API}/sheets/{sheet.pk}/lines/1/restore/"
    stale = client.post(url, {"version": 1, "expected_version": 1}, format="json")
    assert stale.status_code == 409 and stale.json()["current"]["version"] == 2
    restored = client.post(url, {"version": 1, "expected_version": 2}, format="json")
    assert restored.status_code == 201 and restored.json()["line"] == DEAL_1


def full_round(players: int = 4) -> tuple[Competition, Round, ScoreSheet]:
    competition = seated_competition(players=players)
    round_ = competition.rounds.get()
    sheet = sheet_of(competition)
    rules = competition.rule_set.engine_rules()
    for line in random_session(rules, random.Random(3), sheet.table.size, 16):
        record_deal(sheet, line)
    ScoreSheet.objects.filter(table__round=round_).update(state=ScoreSheet.State.CONFIRMED)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.COMPLETE)
    return competition, round_, sheet


def test_the_database_refuses_a_line_in_a_finalised_round_whatever_the_path() -> None:
    _, round_, sheet = full_round()
    finalise_round(round_)
    first = sheet.entries.get(deal_number=1, is_current=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        DealEntry.objects.create(sheet=sheet, deal_number=17, version=1, line={}, contract="pass", points=[0] * 4)
    with pytest.raises(EntryRejected) as refused:
        record_deal(sheet, first.line)
    assert refused.value.codes == {"round_finalised"}
    reopen_round(round_, reason="typo on deal 1")
    DealEntry.objects.create(sheet=sheet, deal_number=17, version=1, line={}, contract="pass", points=[0] * 4)


def test_a_closed_season_takes_no_lines_rounds_penalties_or_registrations_until_reopened() -> None:
    competition = seated_competition(players=4)
    sheet = sheet_of(competition)
    close_competition(competition)
    competition.refresh_from_db()
    with pytest.raises(EntryRejected) as refused:
        record_deal(sheet, DEAL_1)
    assert refused.value.codes == {"season_closed"}
    with pytest.raises(IntegrityError), transaction.atomic():
        DealEntry.objects.create(sheet=sheet, deal_number=1, version=1, line={}, contract="pass", points=[0] * 4)
    with pytest.raises(IntegrityError), transaction.atomic():
        Penalty.objects.create(competition=competition, player=competition.players.first(), points=1, reason="late")
    with pytest.raises(ServiceError, match="closed"):
        create_round(competition)
    with pytest.raises(ServiceError, match="reason"):
        reopen_competition(competition, reason="")
    reopen_competition(competition, reason="a sheet was missing")
    record_deal(sheet, DEAL_1)
    audited = AuditEvent.objects.filter(model="competition").exclude(action=AuditEvent.Action.CREATE).order_by("id")
    assert list(audited.values_list("note", flat=True)) == ["closed", "reopened: a sheet was missing"]


def test_closing_through_the_api_and_penalties_refused_after() -> None:
    competition = seated_competition(players=4)
    organiser = UserFactory()
    competition.organisers.add(organiser)
    client = APIClient()
    client.force_authenticate(organiser)
    closed = client.post(f"{API}/competitions/{competition.pk}/close/")
    assert closed.status_code == 200 and closed.json()["closed_at"]
    player = competition.players.first()
    penalty = {"competition": competition.pk, "player": player.pk, "points": 2, "reason": "late"}
    refused = client.post(f"{API}/penalties/", penalty, format="json")
    assert refused.status_code == 400 and "closed" in refused.json()["detail"]
    assert client.post(f"{API}/competitions/{competition.pk}/close/").status_code == 400
    reopened = client.post(f"{API}/competitions/{competition.pk}/reopen/", {"reason": "late sheet"}, format="json")
    assert reopened.status_code == 200 and reopened.json()["closed_at"] is None


def comparable(archive: dict[str, Any]) -> dict[str, Any]:
    """An archive without what an import renumbers: player keys become positions, the slug is the target's."""
    keys = {p["key"]: i for i, p in enumerate(archive["players"])}
    text = json.dumps(archive, sort_keys=True)
    data = json.loads(text)
    data["competition"].pop("slug")
    for p in data["players"]:
        p["key"] = keys[p["key"]]
    for r in data["rounds"]:
        r["byes"] = [keys[k] for k in r["byes"]]
        for t in r["tables"]:
            t["seats"] = [keys[k] for k in t["seats"]]
    for p in data["penalties"]:
        p["player"] = keys[p["player"]]
    data["withdrawn"] = [keys[k] for k in data["withdrawn"]]
    for w in data["wishes"]:
        w["player"], w["other"] = keys[w["player"]], keys[w["other"]]
    return data


def test_export_and_import_commands_round_trip_a_competition_exactly(tmp_path: Path) -> None:
    competition, round_, _ = full_round(players=9)
    finalise_round(round_)
    round_2 = create_round(competition)
    Penalty.objects.create(competition=competition, player=competition.players.first(), points=3, reason="late")
    competition = close_competition(competition)
    original = export_competition(competition)
    target = ClubFactory(slug="restored-club")
    path = tmp_path / "backup.json"

    call_command("export_competition", competition.slug, "-o", str(path))
    call_command("import_competition", str(path), "--club", "restored-club", "--slug", "restored")

    restored = Competition.objects.get(slug="restored", club=target)
    copy = comparable(export_competition(restored))
    # The originals are still in this database, so each restored namesake (no federation id to match them on)
    # gets a longer public name than theirs (public names are unambiguous); into an empty database they match.
    restored_names = [p.pop("display_name") for p in copy["players"]]
    expected = comparable(original)
    original_names = [p.pop("display_name") for p in expected["players"]]
    assert copy == expected
    assert not set(restored_names) & {p.public_name for p in competition.players.all()}
    assert all(name.startswith(p["first_name"]) for name, p in zip(restored_names, copy["players"], strict=True))
    assert original_names == [""] * len(original_names)
    assert restored.closed_at is not None
    assert restored.rounds.get(number=2).status == round_2.status
    assert (
        list(Standing.objects.filter(competition=restored).order_by("rank").values_list("points", flat=True))
        == list(Standing.objects.filter(competition=competition).order_by("rank").values_list("points", flat=True))
        or not Standing.objects.filter(competition=competition).exists()
    )


def test_import_refuses_a_broken_archive_and_stores_nothing(tmp_path: Path) -> None:
    competition, _, _ = full_round()
    archive = export_competition(competition)
    archive["rounds"][0]["tables"][0]["sheet"]["lines"][2]["tricks"] = 99
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(archive))
    ClubFactory(slug="elsewhere")
    before = Competition.objects.count()
    with pytest.raises(CommandError, match="nothing imported"):
        call_command("import_competition", str(path), "--club", "elsewhere")
    assert Competition.objects.count() == before
    with pytest.raises(CommandError, match="no club"):
        call_command("import_competition", str(path), "--club", "nowhere")
    with pytest.raises(CommandError, match="no competition"):
        call_command("export_competition", "nothing-like-it")
