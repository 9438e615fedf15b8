"""A duplicate competition's rounds get their boards: dealt from a stored seed when the round is made, replaceable
by a PBN file until the first line of the round is stored, kept whole by the database; and the setting itself
is Wiezen's alone, chosen before the first round."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, transaction
from rest_framework.test import APIClient

from games.cards import CARDS
from games.duplicate import deal_boards, from_pbn, holder, to_pbn
from tests.factories import ClubFactory, CompetitionFactory, PlayerFactory, RuleSetFactory, seated_competition
from tests.roles import make_roles
from tournaments.duplicate import selectors, services
from tournaments.models import AuditEvent, Board, Competition, Round, ScoreSheet
from tournaments.models.boards import deal_text, hands_of
from tournaments.services.competitions import (
    create_competition,
    register_players,
    save_competition,
    update_competition,
)
from tournaments.services.entry import record_deal
from tournaments.services.errors import ServiceError
from tournaments.services.rounds import create_round, publish_round, regenerate_round
from tournaments.services.seasons import close_competition

pytestmark = pytest.mark.django_db

DEAL_1 = {"deal": 1, "dealer": 0, "contract": "pass"}


def duplicate(players: int = 8, deals: int = 16, **kwargs: Any) -> Competition:
    return seated_competition(players=players, duplicate=True, deals_per_session=deals, **kwargs)


def first_round(competition: Competition) -> Round:
    return competition.rounds.get(number=1)


def stored(round_: Round) -> list[Any]:
    return selectors.engine_boards(round_)


# -- boards dealt when the round is made ------------------------------------------------------------------------


@pytest.mark.parametrize("deals", [16, 24])
def test_a_duplicate_round_is_made_with_a_board_for_each_deal_of_the_session(deals: int) -> None:
    round_ = first_round(duplicate(deals=deals))
    assert selectors.board_numbers(round_) == list(range(1, deals + 1))
    assert [board.dealer for board in stored(round_)] == [(n - 1) % 4 for n in range(1, deals + 1)]


def test_the_boards_are_the_engines_deal_of_their_stored_seed() -> None:
    round_ = first_round(duplicate())
    rows = selectors.round_boards(round_)
    seed = rows[0].seed
    assert seed is not None and all(row.seed == seed for row in rows)
    assert stored(round_) == deal_boards(16, seed)  # reproducible: the seed deals them again


def test_the_seed_is_drawn_at_random_not_worked_out_from_the_round() -> None:
    """The seating seed is the competition's id and the round's number: a board seed like it would tell the cards."""
    seeds = {selectors.round_boards(first_round(duplicate(players=4)))[0].seed for _ in range(3)}
    round_ = first_round(duplicate(players=4))
    assert len(seeds) == 3
    assert selectors.round_boards(round_)[0].seed != round_.seed


def test_a_given_seed_deals_the_same_boards_again() -> None:
    a, b = first_round(duplicate(players=4)), first_round(duplicate(players=4))
    services.deal_round_boards(a, seed=12345)
    services.deal_round_boards(b, seed=12345)
    assert stored(a) == stored(b) == deal_boards(16, 12345)


def test_every_round_of_a_duplicate_competition_has_boards_and_a_plain_round_none() -> None:
    competition = duplicate(rounds=2)
    assert [len(selectors.board_numbers(r)) for r in competition.rounds.order_by("number")] == [16, 16]
    assert stored(competition.rounds.get(number=1)) != stored(competition.rounds.get(number=2))
    plain = seated_competition(players=4)
    assert not Board.objects.filter(round__competition=plain).exists()
    with pytest.raises(ServiceError, match="not a duplicate competition"):
        services.deal_round_boards(first_round(plain))


def test_drawing_the_seating_again_keeps_the_boards() -> None:
    competition = CompetitionFactory(duplicate=True)
    register_players(competition, PlayerFactory.create_batch(8))
    round_ = create_round(competition)
    before = stored(round_)
    regenerate_round(round_)
    assert stored(round_) == before


def test_dealing_is_in_the_audit_trail_without_the_seed_or_the_cards() -> None:
    round_ = first_round(duplicate(players=4))
    event = AuditEvent.objects.get(model="boards", object_id=str(round_.pk))
    assert event.after == {"boards": 16, "source": "dealt"}
    assert str(selectors.round_boards(round_)[0].seed) not in str(event.after) + event.note


# -- a PBN file replaces them until the first line ------------------------------------------------------------------


def test_a_pbn_file_round_trips_through_the_upload() -> None:
    source, target = first_round(duplicate(players=4)), first_round(duplicate(players=4))
    text = selectors.round_pbn(source)
    services.import_round_boards(target, text)
    assert stored(target) == stored(source) == from_pbn(text)
    assert all(row.seed is None for row in selectors.round_boards(target))  # read, not dealt
    assert selectors.dealt_seed(selectors.round_boards(target)) is None


def test_a_file_in_another_order_is_stored_by_board_number() -> None:
    round_ = first_round(duplicate(players=4))
    boards = deal_boards(16, 99)
    services.import_round_boards(round_, to_pbn(list(reversed(boards))))
    assert stored(round_) == boards


@pytest.mark.parametrize(
    ("numbers", "said"),
    [
        (range(1, 16), "The file has 15 boards, numbered 1–15."),
        (range(1, 33), "The file has 32 boards, numbered 1–32."),
        ([*range(1, 8), *range(9, 18)], "The file has 16 boards, numbered 1–7, 9–17."),
        ([1], "The file has 1 board, numbered 1."),
    ],
)
def test_a_file_whose_boards_are_not_numbered_1_to_n_is_refused(numbers: Any, said: str) -> None:
    round_ = first_round(duplicate(players=4))
    before = stored(round_)
    boards = [board for board in deal_boards(40, 7) if board.number in set(numbers)]
    with pytest.raises(ServiceError) as refused:
        services.import_round_boards(round_, to_pbn(boards))
    wanted = "This round plays boards 1 to 16, one for each deal: give a file of exactly those."
    assert str(refused.value) == f"{said} {wanted}"
    assert stored(round_) == before


def test_replacing_the_boards_is_refused_once_a_line_of_the_round_is_stored() -> None:
    competition = duplicate(players=8)
    round_ = first_round(competition)
    before = stored(round_)
    other_table = ScoreSheet.objects.get(table__round=round_, table__number=2)
    record_deal(other_table, DEAL_1)  # any table's line: the boards were on every table

    with pytest.raises(ServiceError, match="Round 1 has scores entered"):
        services.import_round_boards(round_, to_pbn(deal_boards(16, 5)))
    with pytest.raises(ServiceError, match="Round 1 has scores entered"):
        services.deal_round_boards(round_)
    assert stored(round_) == before
    assert not selectors.replaceable(round_)


def test_replacing_is_refused_in_a_closed_competition() -> None:
    competition = duplicate(players=4)
    close_competition(competition)
    round_ = first_round(competition)
    with pytest.raises(ServiceError, match="is closed"):
        services.import_round_boards(round_, to_pbn(deal_boards(16, 5)))


def test_a_draft_or_published_round_without_lines_takes_a_file() -> None:
    competition = CompetitionFactory(duplicate=True)
    register_players(competition, PlayerFactory.create_batch(4))
    draft = create_round(competition)
    services.import_round_boards(draft, to_pbn(deal_boards(16, 1)))
    publish_round(draft)
    services.import_round_boards(draft, to_pbn(deal_boards(16, 2)))
    assert stored(draft) == deal_boards(16, 2)
    event = AuditEvent.objects.filter(model="boards", object_id=str(draft.pk)).order_by("pk").last()
    assert event is not None and event.after == {"boards": 16, "source": "pbn"}


def test_a_file_with_no_boards_is_refused_in_words() -> None:
    round_ = first_round(duplicate(players=4))
    with pytest.raises(ServiceError, match="The file holds no boards"):
        services.import_round_boards(round_, '[Event "Nothing"]\n')


# -- the database keeps a board whole ------------------------------------------------------------------------------


def row(round_: Round, **changes: Any) -> Board:
    board = Board.from_engine(round_, deal_boards(1, 3)[0])
    for name, value in changes.items():
        setattr(board, name, value)
    return board


def refused(board: Board) -> None:
    with pytest.raises((IntegrityError, DataError)), transaction.atomic():  # PostgreSQL: 53 letters do not fit
        board.save()


def test_the_database_keeps_a_board_a_deal_of_13_cards_a_hand() -> None:
    competition = CompetitionFactory(duplicate=True)
    round_ = Round.objects.create(competition=competition, number=1)
    good = row(round_)
    deal = good.deal
    turned = good.turned
    elsewhere = next(i for i, letter in enumerate(deal) if letter != deal[turned])
    refused(row(round_, number=0))
    refused(row(round_, number=101))
    refused(row(round_, dealer=4))
    refused(row(round_, deal=deal[:51]))  # a card missing
    refused(row(round_, deal=deal + "N"))  # a card too many
    refused(row(round_, deal="N" * 26 + "E" * 26))  # two hands of 26
    swapped = deal[:elsewhere] + deal[turned] + deal[elsewhere + 1 :]
    refused(row(round_, deal=swapped))  # 14 cards in one hand, 12 in another
    refused(row(round_, deal=deal.lower()))
    refused(row(round_, deal=deal.replace("W", "X")))
    refused(row(round_, turned=52))
    refused(row(round_, turned=elsewhere))  # the turned card is not in the dealer's hand
    refused(row(round_, dealer=(good.dealer + 1) % 4))  # nor is it the other dealer's
    refused(row(round_, seed=-1))
    good.save()
    refused(row(round_))  # board 1 twice in the round
    assert Board.objects.get().engine_board() == deal_boards(1, 3)[0]


def test_a_deal_is_52_letters_one_a_card_naming_its_holder() -> None:
    board = deal_boards(1, 3)[0]
    text = deal_text(board.hands)
    assert len(text) == 52 and all(text.count(letter) == 13 for letter in "NESW")
    assert all(text[card.index] == "NESW"[holder(board, card)] for card in CARDS)
    assert hands_of(text) == board.hands


# -- the setting: Wiezen only, chosen before the first round ---------------------------------------------------------


@pytest.mark.parametrize(("game", "preset"), [("solo_whist", "solo_whist"), ("zwicken", "zwicken")])
def test_duplicate_is_refused_for_solo_whist_and_zwicken_in_words(game: str, preset: str) -> None:
    club = ClubFactory()
    with pytest.raises(ValidationError) as refused:
        create_competition(
            club=club, name="Cup", slug="cup", rule_set=RuleSetFactory(game=game, preset=preset), duplicate=True
        )
    message = refused.value.message_dict["duplicate"][0]
    assert message.startswith("Duplicate play is for Wiezen only:")
    assert "[" not in message and "_" not in message  # no Python list, no internal code such as solo_whist

    with pytest.raises(ValidationError) as changed:
        save_competition(
            None,
            club=club,
            name="Cup",
            slug="cup",
            game=game,
            preset=preset,
            overrides={},
            visibility="everything",
            duplicate=True,
        )
    assert "Wiezen only" in changed.value.message_dict["duplicate"][0]


def test_the_database_refuses_a_duplicate_competition_of_another_game() -> None:
    competition = CompetitionFactory(rule_set=RuleSetFactory(game="zwicken", preset="zwicken"), deals_per_session=None)
    with pytest.raises(IntegrityError), transaction.atomic():
        Competition.objects.filter(pk=competition.pk).update(duplicate=True)


def test_the_setting_is_chosen_before_the_first_round_and_the_deals_then_stay() -> None:
    plain = seated_competition(players=4)
    with pytest.raises(ValidationError) as refused:
        update_competition(plain, duplicate=True)
    assert "chosen before the first round" in refused.value.message_dict["duplicate"][0]

    played = duplicate(players=4)
    with pytest.raises(ValidationError) as off:
        update_competition(played, duplicate=False)
    assert "duplicate" in off.value.message_dict
    with pytest.raises(ValidationError) as deals:
        update_competition(played, deals_per_session=24)
    assert "stays 16" in deals.value.message_dict["deals_per_session"][0]

    fresh = CompetitionFactory()
    assert update_competition(fresh, duplicate=True).duplicate  # no round yet: free to choose
    assert update_competition(fresh, deals_per_session=24).deals_per_session == 24


def test_the_api_sets_and_shows_the_setting_and_refuses_it_for_zwicken() -> None:
    competition = CompetitionFactory()
    roles = make_roles(competition)
    client = APIClient()
    client.force_authenticate(roles.club_admin)
    url = f"/api/v1/competitions/{competition.pk}/"

    response = client.patch(url, {"duplicate": True}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["duplicate"] is True

    zwicken = RuleSetFactory(game="zwicken", preset="zwicken")
    created = client.post(
        "/api/v1/competitions/",
        {"club": competition.club_id, "name": "Z", "slug": "z", "rule_set": zwicken.pk, "duplicate": True},
        format="json",
    )
    assert created.status_code == 400
    assert "Wiezen only" in created.json()["duplicate"][0]
