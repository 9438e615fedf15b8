"""Two people on one sheet through the entry page: the second save over a changed deal is refused, clearly,
and nothing of it is stored (no lost update)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory, seated_competition
from tournaments.models import DealEntry, ScoreSheet
from tournaments.services.entry import record_deal

pytestmark = pytest.mark.django_db

ALLEEN_6 = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6}
ALLEEN_5 = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 5}
ALLEEN_7 = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [1], "tricks": 7}


def entry_url(sheet: ScoreSheet) -> str:
    table = sheet.table
    return reverse("sheet-entry", args=[table.round.competition.slug, table.round.number, table.number])


@pytest.fixture
def sheet_and_clients() -> tuple[ScoreSheet, Client, Client]:
    competition = seated_competition(players=4)
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    first, second = Client(), Client()
    for client in (first, second):
        user = UserFactory()
        competition.organisers.add(user)
        client.force_login(user)
    return sheet, first, second


def test_a_correction_over_someone_elses_newer_version_is_refused_and_shows_theirs(
    sheet_and_clients: tuple[ScoreSheet, Client, Client],
) -> None:
    sheet, first, second = sheet_and_clients
    record_deal(sheet, ALLEEN_6)
    form_1 = first.get(entry_url(sheet), {"deal": 1}).context["form"]
    form_2 = second.get(entry_url(sheet), {"deal": 1}).context["form"]
    assert form_1.initial["version"] == form_2.initial["version"] == 1

    saved = first.post(entry_url(sheet), {**ALLEEN_5, "version": 1, "idempotency_key": "a"})
    assert saved.status_code == 302
    refused = second.post(entry_url(sheet), {**ALLEEN_7, "version": 1, "idempotency_key": "b"})

    assert refused.status_code == 200
    message = " ".join(refused.context["form"].non_field_errors())
    assert "Someone else saved deal 1" in message and "version 2" in message
    assert DealEntry.objects.get(sheet=sheet, is_current=True).line == ALLEEN_5  # the first save stands
    assert refused.context["form"]["version"].value() == "2"  # saving again now is a knowing overwrite
    again = second.post(entry_url(sheet), {**ALLEEN_7, "version": 2, "idempotency_key": "c"})
    assert again.status_code == 302
    assert DealEntry.objects.get(sheet=sheet, is_current=True).line == ALLEEN_7


def test_two_first_entries_of_the_same_deal_keep_the_first(
    sheet_and_clients: tuple[ScoreSheet, Client, Client],
) -> None:
    sheet, first, second = sheet_and_clients
    assert first.get(entry_url(sheet)).context["form"].initial["version"] == 0
    assert first.post(entry_url(sheet), {**ALLEEN_6, "version": 0, "idempotency_key": "x"}).status_code == 302
    refused = second.post(entry_url(sheet), {**ALLEEN_7, "version": 0, "idempotency_key": "y"})
    assert refused.status_code == 200 and "Someone else saved deal 1" in refused.content.decode()
    assert list(DealEntry.objects.filter(sheet=sheet).values_list("line", flat=True)) == [ALLEEN_6]


@pytest.mark.parametrize(
    ("language", "said"),
    [("nl", "Spel 1 staat al op het blad, bewaard vanaf dit toestel"), ("en", "Deal 1 is already on the sheet")],
)
def test_a_deal_typed_again_on_the_same_phone_is_not_blamed_on_someone_else(
    sheet_and_clients: tuple[ScoreSheet, Client, Client], language: str, said: str
) -> None:
    """The table moved back to deal 1 and typed it again as new: its own line is on the sheet, not another's."""
    sheet, phone, other = sheet_and_clients
    phone.cookies["django_language"] = language
    assert phone.post(entry_url(sheet), {**ALLEEN_6, "version": 0, "idempotency_key": "p"}).status_code == 302
    again = phone.post(entry_url(sheet), {**ALLEEN_5, "version": 0, "idempotency_key": "q"})
    message = " ".join(again.context["form"].non_field_errors())
    assert said in message and "Someone else" not in message and "Iemand anders" not in message
    assert DealEntry.objects.get(sheet=sheet, is_current=True).line == ALLEEN_6
    other_said = " ".join(
        other.post(entry_url(sheet), {**ALLEEN_7, "version": 0, "idempotency_key": "r"})
        .context["form"]
        .non_field_errors()
    )
    assert "Someone else saved deal 1" in other_said  # another device's line is still theirs
