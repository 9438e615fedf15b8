"""Issue 18: the organiser's progress table shows each table's last contact, so a table whose Wi-Fi dropped is
seen to have gone quiet. Requests that hold the table's code count (the entry page, its preview, the API); the
organiser's own visits do not. Written at most every 15 s a sheet."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import seated_competition
from tests.roles import make_roles
from tournaments.models import ScoreSheet
from tournaments.offline import contact
from tournaments.selectors.manage import round_progress
from tournaments.services.entry import record_deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheet() -> ScoreSheet:
    competition = seated_competition(players=8)
    return ScoreSheet.objects.get(table__round__competition=competition, table__number=1)


def progress_rows(sheet: ScoreSheet) -> dict[int, Any]:
    return {row.table.number: row for row in round_progress(sheet.table.round).tables}


def entry_url(sheet: ScoreSheet, name: str = "sheet-entry") -> str:
    table = sheet.table
    return reverse(name, args=[table.round.competition.slug, table.round.number, table.number])


def test_a_table_holding_its_code_is_heard_from_and_the_organiser_is_not(sheet: ScoreSheet) -> None:
    roles = make_roles(sheet.table.round.competition)
    organiser = Client()
    organiser.force_login(roles.club_admin)
    assert organiser.get(entry_url(sheet)).status_code == 200
    assert progress_rows(sheet)[1].last_contact is None  # the organiser at the desk is not the table

    table = Client()
    before = time.time()
    assert table.get(entry_url(sheet), {"code": sheet.captain_code}).status_code == 302
    assert table.get(entry_url(sheet)).status_code == 200
    rows = progress_rows(sheet)
    assert rows[1].last_contact is not None and rows[1].last_contact.timestamp() >= before - 1
    assert rows[2].last_contact is None  # the other table said nothing
    assert rows[1].quiet_minutes == 0


def test_a_line_sent_through_the_api_with_the_code_counts(sheet: ScoreSheet) -> None:
    response = Client().post(
        reverse("sheet-add-line", args=[sheet.pk]),
        {"deal": 1, "dealer": 0, "contract": "pass"},
        content_type="application/json",
        HTTP_X_TABLE_CODE=sheet.captain_code,
        HTTP_IDEMPOTENCY_KEY="contact-1",
    )
    assert response.status_code == 201, response.content
    assert progress_rows(sheet)[1].last_contact is not None


def test_contact_is_written_at_most_every_fifteen_seconds(sheet: ScoreSheet) -> None:
    contact.note(sheet.pk, now=1000.0)
    contact.note(sheet.pk, now=1010.0)  # within 15 s: not written
    assert contact.last_contacts([sheet.pk])[sheet.pk].timestamp() == 1000.0
    contact.note(sheet.pk, now=1016.0)
    assert contact.last_contacts([sheet.pk])[sheet.pk].timestamp() == 1016.0


def test_a_table_still_entering_and_not_heard_from_is_said_to_be_quiet_in_the_organisers_language(
    sheet: ScoreSheet,
) -> None:
    roles = make_roles(sheet.table.round.competition)
    contact.note(sheet.pk, now=time.time() - 5 * 60 - 5)
    assert progress_rows(sheet)[1].quiet_minutes == 5
    client = Client()
    client.force_login(roles.club_admin)
    client.cookies["django_language"] = "nl"
    competition = sheet.table.round.competition
    page = client.get(reverse("manage-round-progress", args=[competition.slug, 1])).content.decode()
    assert "5 minuten stil" in page
    # a table that has entered its sheet is done, not quiet
    for deal in range(1, competition.deals_per_session + 1):
        record_deal(sheet, {"deal": deal, "dealer": (deal - 1) % 4, "contract": "pass"}, by=roles.club_admin)
    sheet.refresh_from_db()
    assert sheet.state != ScoreSheet.State.DRAFT
    assert progress_rows(sheet)[1].quiet_minutes == 0


def test_an_unreachable_cache_costs_the_contacts_and_nothing_else(sheet: ScoreSheet) -> None:
    """Redis down (tests/e2e/test_faults.py does it for real): a table's line is still saved through the API with
    its code, and the progress table still shows, without contacts."""
    from unittest import mock

    from redis.exceptions import ConnectionError as RedisDown

    broken = mock.patch.multiple(
        contact.cache, get=mock.Mock(side_effect=RedisDown("down")), get_many=mock.Mock(side_effect=RedisDown("down"))
    )
    with broken:
        response = Client().post(
            reverse("sheet-add-line", args=[sheet.pk]),
            {"deal": 1, "dealer": 0, "contract": "pass"},
            content_type="application/json",
            HTTP_X_TABLE_CODE=sheet.captain_code,
            HTTP_IDEMPOTENCY_KEY="contact-down",
        )
        assert response.status_code == 201, response.content
        assert progress_rows(sheet)[1].last_contact is None
