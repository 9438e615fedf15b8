"""Self check-in: a registered player says "I'm here" with the venue code or their account; the organiser seats them."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import CompetitionFactory, PlayerFactory, UserFactory, seated_competition
from tournaments.checkin import services
from tournaments.models import AuditEvent, CheckIn, Competition, Registration, Round
from tournaments.services.competitions import register_players
from tournaments.services.rounds import create_round, publish_round, round_tables, withdraw_player

pytestmark = pytest.mark.django_db


def league(players: int = 8) -> Competition:
    competition = CompetitionFactory(kind="league")
    register_players(competition, PlayerFactory.create_batch(players))
    return competition


def registrations(competition: Competition) -> list[Registration]:
    return list(competition.registrations.select_related("player").order_by("player_id"))


def post(competition: Competition, client: Client | None = None, **data: Any) -> Any:
    return (client or Client()).post(reverse("checkin", args=[competition.slug]), data)


def refusal(response: Any) -> str:
    found = re.search(r'<p class="refused"[^>]*>(.*?)</p>', response.content.decode(), re.S)
    assert found is not None, "no refusal on the page"
    return found.group(1)


def seated(round_: Round) -> set[int]:
    round_.refresh_from_db()
    return {p for table in round_tables(round_) for p in table} | set(round_.byes or ())


# -- who may check whom in ------------------------------------------------------------------------------------------


def test_a_player_checks_in_with_their_public_name_and_the_venue_code() -> None:
    competition = league()
    player = registrations(competition)[0].player
    code = services.venue_code(competition)
    response = post(competition, name=f"  {player.public_name.upper()} ", code=code.lower().replace("-", " "))
    assert response.status_code == 200
    assert "you are checked in" in response.content.decode()
    row = CheckIn.objects.get()
    assert (row.registration.player, row.round_number, row.via) == (player, 1, CheckIn.Via.CODE)
    assert row.device.startswith("one:")  # the device that sent it, as lines record it


def test_a_wrong_code_is_refused_alike_whatever_the_name() -> None:
    competition = league()
    services.venue_code(competition)
    known = registrations(competition)[0].player.public_name
    answers = [post(competition, name=name, code="7KQ2-M9XD-4HTB-0WZC") for name in (known, "Nobody At-All")]
    assert [a.status_code for a in answers] == [400, 400]
    said = [refusal(a) for a in answers]
    assert said[0] == said[1] and "not the venue code" in said[0]
    assert not CheckIn.objects.exists()


def test_another_competitions_code_opens_nothing() -> None:
    competition, other = league(), league()
    services.venue_code(competition)
    player = registrations(competition)[0].player
    response = post(competition, name=player.public_name, code=services.venue_code(other))
    assert response.status_code == 400
    assert not CheckIn.objects.exists()


def test_names_are_matched_as_the_public_pages_show_them_never_by_the_private_full_name() -> None:
    competition = league()
    code = services.venue_code(competition)
    player = registrations(competition)[0].player
    response = post(competition, name=player.name, code=code)  # "Player1 Lastname1": the public name is "Player1 L."
    assert response.status_code == 400
    assert refusal(response) == refusal(post(competition, name="Nobody At-All", code=code))  # as for anyone unknown
    assert not CheckIn.objects.exists()
    done = post(competition, name=player.public_name, code=code)
    assert done.status_code == 200 and player.public_name in done.content.decode()
    assert player.last_name not in done.content.decode()


def test_only_active_players_of_the_competition_check_in() -> None:
    competition, other = league(), league()
    code = services.venue_code(competition)
    stranger = registrations(other)[0].player
    assert post(competition, name=stranger.public_name, code=code).status_code == 400
    leaving = registrations(competition)[1].player
    withdraw_player(competition, leaving.pk)
    assert post(competition, name=leaving.public_name, code=code).status_code == 400
    assert not CheckIn.objects.exists()


def test_checking_in_twice_is_once() -> None:
    competition = league()
    code = services.venue_code(competition)
    name = registrations(competition)[0].player.public_name
    first = services.check_in_with_code(competition, name=name, code=code)
    again = post(competition, name=name, code=code)
    assert first.created
    assert "already checked in" in again.content.decode()
    assert CheckIn.objects.count() == 1


def test_a_player_checks_in_with_their_own_account_and_only_themselves() -> None:
    competition = league()
    user = UserFactory()
    player = registrations(competition)[2].player
    player.user = user
    player.save()
    client = Client()
    client.force_login(user)
    page = client.get(reverse("checkin", args=[competition.slug])).content.decode()
    assert f"Check in as {player.public_name}" in page
    assert post(competition, client, account="1").status_code == 200
    row = CheckIn.objects.get()
    assert (row.registration.player, row.via) == (player, CheckIn.Via.ACCOUNT)
    outsider = Client()
    outsider.force_login(UserFactory())
    assert post(competition, outsider, account="1").status_code == 400
    assert CheckIn.objects.count() == 1


def test_a_hidden_competition_has_no_check_in_page() -> None:
    competition = league()
    competition.visibility = Competition.Visibility.HIDDEN
    competition.save()
    assert Client().get(reverse("checkin", args=[competition.slug])).status_code == 404
    assert post(competition, name="x", code=services.venue_code(competition)).status_code == 404


# -- for which round -------------------------------------------------------------------------------------------------


def test_check_ins_go_to_the_open_round_or_the_next_one_and_a_round_in_play_refuses() -> None:
    competition = seated_competition(players=8, kind="league")  # round 1 published
    code = services.venue_code(competition)
    names = [r.player.public_name for r in registrations(competition)]
    assert services.check_in_with_code(competition, name=names[0], code=code).check_in.round_number == 1
    Round.objects.filter(competition=competition).update(status=Round.Status.IN_PLAY)
    response = post(competition, name=names[1], code=code)
    assert "being played" in response.content.decode()
    with pytest.raises(services.CheckInRefused):
        services.check_in_with_code(competition, name=names[1], code=code)
    Round.objects.filter(competition=competition).update(status=Round.Status.FINALISED)
    assert services.check_in_with_code(competition, name=names[1], code=code).check_in.round_number == 2


def test_a_closed_competition_takes_no_check_ins() -> None:
    competition = league()
    code = services.venue_code(competition)
    Competition.objects.filter(pk=competition.pk).update(closed_at=timezone.now())
    competition.refresh_from_db()
    response = post(competition, name=registrations(competition)[0].player.public_name, code=code)
    assert "is closed" in response.content.decode()
    assert not CheckIn.objects.exists()


# -- seating who checked in -------------------------------------------------------------------------------------------


def check_in_players(competition: Competition, players: list[Registration]) -> None:
    code = services.venue_code(competition)
    for registration in players:
        services.check_in_with_code(competition, name=registration.player.public_name, code=code)


def test_a_new_round_seats_exactly_who_checked_in() -> None:
    competition = league(players=10)
    here = registrations(competition)[:8]
    check_in_players(competition, here)
    round_ = services.seat_checked_in(competition)
    assert round_.number == 1 and round_.status == Round.Status.DRAFT
    assert seated(round_) == {r.player_id for r in here}


def test_a_draft_is_seated_again_for_exactly_who_checked_in() -> None:
    competition = league(players=10)
    round_ = create_round(competition)  # everyone registered
    here = registrations(competition)[:9]
    check_in_players(competition, here)
    services.seat_checked_in(competition)
    assert seated(round_) == {r.player_id for r in here}


def test_a_late_arrival_joins_a_published_round_keeping_its_tables() -> None:
    competition = league(players=9)
    regs = registrations(competition)
    round_ = create_round(competition, players=[r.player_id for r in regs[:8]])
    publish_round(round_)
    before = round_tables(round_)
    check_in_players(competition, [regs[8]])
    services.seat_checked_in(competition)
    assert seated(round_) == {r.player_id for r in regs}
    after = round_tables(round_)
    assert sum(1 for table in before if any(set(table) <= set(t) for t in after)) >= 1
    assert round_.events.filter(action="reseated", reason="check-in").exists()
    with pytest.raises(services.CheckInRefused):  # nobody new: nothing to seat
        services.seat_checked_in(competition)


def test_seating_with_nobody_checked_in_says_so() -> None:
    with pytest.raises(services.CheckInRefused, match="Nobody has checked in"):
        services.seat_checked_in(league())


# -- the organiser's pages ---------------------------------------------------------------------------------------------


def organiser_client(competition: Competition) -> Client:
    user = UserFactory()
    competition.organisers.add(user)
    client = Client()
    client.force_login(user)
    return client


def test_the_round_page_lists_who_checked_in_and_seats_them() -> None:
    competition = league(players=9)
    regs = registrations(competition)
    round_ = create_round(competition, players=[r.player_id for r in regs[:8]])
    publish_round(round_)
    check_in_players(competition, [regs[8]])
    client = organiser_client(competition)
    page = client.get(reverse("manage-round", args=[competition.slug, 1])).content.decode()
    assert "Checked in for round 1" in page and regs[8].player.name in page and "not yet" in page
    response = client.post(reverse("manage-checkin-seat", args=[competition.slug]), {"next": "round"})
    assert response.status_code == 302 and response["Location"] == reverse("manage-round", args=[competition.slug, 1])
    assert regs[8].player_id in seated(round_)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Round 1: the table card of table {n} has changed; print it again."),
        ("nl", "Ronde 1: de tafelkaart van tafel {n} is gewijzigd; druk ze opnieuw af."),
        ("fr", "Manche 1\u00a0: la carte de la table {n} a changé\u00a0; imprimez-la à nouveau."),
    ],
)
def test_a_late_arrival_voids_only_the_card_of_the_table_they_join_and_the_organiser_is_told(
    language: str, said: str
) -> None:
    """Cards are out once a round is published: the table that stays as it was keeps its code, and the
    organiser reads, in their language, which card to print again."""
    competition = league(players=9)
    regs = registrations(competition)
    round_ = publish_round(create_round(competition, players=[r.player_id for r in regs[:8]]))
    codes = dict(round_.tables.values_list("number", "sheet__captain_code"))
    check_in_players(competition, [regs[8]])
    client = organiser_client(competition)
    client.cookies["django_language"] = language
    response = client.post(reverse("manage-checkin-seat", args=[competition.slug]), {"next": "round"}, follow=True)
    now = dict(round_.tables.values_list("number", "sheet__captain_code"))
    (joined,) = [n for n, players in enumerate(round_tables(round_), start=1) if regs[8].player_id in players]
    (kept,) = set(now) - {joined}
    assert now[kept] == codes[kept] and now[joined] != codes[joined]
    page = response.content.decode()
    assert said.format(n=joined) in page
    assert 'class="warning"' in page


def test_the_check_in_page_seats_a_new_round_from_the_check_ins() -> None:
    competition = league(players=8)
    check_in_players(competition, registrations(competition))
    client = organiser_client(competition)
    page = client.get(reverse("manage-checkin", args=[competition.slug])).content.decode()
    assert "Seat round 1 with who checked in" in page
    response = client.post(reverse("manage-checkin-seat", args=[competition.slug]))
    assert response["Location"] == reverse("manage-round", args=[competition.slug, 1])
    assert len(seated(competition.rounds.get())) == 8


def test_only_organisers_see_the_code_and_the_poster_and_seat() -> None:
    competition = league()
    code = services.venue_code(competition)
    outsider = Client()
    outsider.force_login(UserFactory())
    for name in ("manage-checkin", "manage-checkin-poster"):
        response = outsider.get(reverse(name, args=[competition.slug]))
        assert response.status_code == 403 and code not in response.content.decode()
    for name in ("manage-checkin-seat", "manage-checkin-new-code"):
        assert outsider.post(reverse(name, args=[competition.slug])).status_code == 403
    assert Client().get(reverse("manage-checkin-poster", args=[competition.slug])).status_code == 302  # log in
    assert not competition.rounds.exists() and services.venue_code(competition) == code


def test_the_poster_carries_the_qr_code_of_the_check_in_page_and_the_venue_code() -> None:
    competition = league()
    page = organiser_client(competition).get(reverse("manage-checkin-poster", args=[competition.slug])).content.decode()
    assert "<svg" in page and services.venue_code(competition) in page
    assert f"http://testserver/c/{competition.slug}/check-in/" in page


def test_a_new_venue_code_shuts_out_the_old_one() -> None:
    competition = league()
    old = services.venue_code(competition)
    organiser_client(competition).post(reverse("manage-checkin-new-code", args=[competition.slug]))
    assert services.venue_code(competition) != old
    assert not services.code_opens(competition, old)
    assert services.code_opens(competition, services.venue_code(competition))
    event = AuditEvent.objects.get(model="venuecode")
    assert event.competition_id == competition.pk and event.user_id is not None
    assert old not in str(event.before) + str(event.after) + event.note  # the trail keeps no code


def test_a_check_in_is_in_the_audit_trail() -> None:
    competition = league()
    registration = registrations(competition)[0]
    post(competition, name=registration.player.public_name, code=services.venue_code(competition))
    post(competition, name=registration.player.public_name, code=services.venue_code(competition))  # once
    event = AuditEvent.objects.get(model="checkin")
    assert event.competition_id == competition.pk and event.ip == "127.0.0.1"
    assert event.after == {"player_id": registration.player_id, "round_number": 1, "via": "code"}


# -- the database ------------------------------------------------------------------------------------------------------


def test_the_database_stores_a_check_in_once_per_round_and_only_for_real_rounds() -> None:
    registration = registrations(league())[0]
    CheckIn.objects.create(registration=registration, round_number=1, via="code")
    for fields in (
        {"round_number": 1, "via": "code"},
        {"round_number": 0, "via": "code"},
        {"round_number": 2, "via": "x"},
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            CheckIn.objects.create(registration=registration, **fields)


def test_an_empty_form_is_refused_field_by_field_with_the_cursor_in_the_first() -> None:
    competition = league()
    response = post(competition, name="", code="")
    page = response.content.decode()
    assert response.status_code == 400 and page.count('class="errorlist"') == 2
    assert re.search(r'<input[^>]*name="name"[^>]*autofocus', page)
    assert not CheckIn.objects.exists()


def test_after_the_last_round_a_competition_may_have_nobody_checks_in() -> None:
    competition = league()
    Round.objects.create(competition=competition, number=1000, status=Round.Status.FINALISED)
    with pytest.raises(services.CheckInRefused, match="1000 rounds"):
        services.check_in(registrations(competition)[0], via=CheckIn.Via.CODE)
    assert not CheckIn.objects.exists()


def test_a_check_in_refused_by_the_models_rules_is_a_refusal_not_an_error() -> None:
    competition = league()
    registration = registrations(competition)[0]
    Registration.objects.filter(pk=registration.pk).update(withdrawn_at=timezone.now())
    with pytest.raises(services.CheckInRefused, match="withdrawn"):
        services.check_in(registration, via=CheckIn.Via.CODE)
