"""The admin shows a club administrator their own clubs' data only."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from tests.factories import seated_competition
from tests.roles import make_roles

pytestmark = pytest.mark.django_db


def test_a_club_admin_sees_only_their_clubs_competitions_and_sheets(client: Client) -> None:
    mine = seated_competition(players=4, name="Our league")
    theirs = seated_competition(players=4, name="Their cup")
    roles = make_roles(mine)
    roles.club_admin.user_permissions.set(Permission.objects.filter(content_type__app_label="tournaments"))
    client.force_login(roles.club_admin)

    listing = client.get("/admin/tournaments/competition/").content.decode()
    assert "Our league" in listing and "Their cup" not in listing
    assert client.get(f"/admin/tournaments/competition/{mine.pk}/change/").status_code == 200
    assert client.get(f"/admin/tournaments/competition/{theirs.pk}/change/").status_code == 302  # not found: back
    their_sheet = theirs.rounds.get().tables.get().sheet
    assert client.get(f"/admin/tournaments/scoresheet/{their_sheet.pk}/change/").status_code == 302


def test_a_superuser_sees_every_club(client: Client) -> None:
    mine = seated_competition(players=4, name="Our league")
    seated_competition(players=4, name="Their cup")
    client.force_login(make_roles(mine).organiser)
    listing = client.get("/admin/tournaments/competition/").content.decode()
    assert "Our league" in listing and "Their cup" in listing
