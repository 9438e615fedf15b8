"""The database keeps the domain's invariants even when code bypasses the services; the setup services seat well."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from tests.factories import ClubFactory, CompetitionFactory, PlayerFactory, RuleSetFactory, seated_competition
from tournaments.models import (
    Competition,
    DealEntry,
    Penalty,
    Player,
    Round,
    RuleSet,
    ScoreSheet,
    Seat,
    Table,
)
from tournaments.seating import table_sizes
from tournaments.services.rounds import create_round

pytestmark = pytest.mark.django_db


def refused(create: Any, /, **fields: Any) -> None:
    """``create(**fields)`` must be refused by the database, leaving the test's transaction usable."""
    with pytest.raises(IntegrityError), transaction.atomic():
        create(**fields)


# -- deal entries -------------------------------------------------------------------------------------------------


def a_sheet(players: int = 4) -> ScoreSheet:
    competition = seated_competition(players=players)
    return ScoreSheet.objects.get(table__round__competition=competition, table__number=1)


def entry(sheet: ScoreSheet, deal: int = 1, version: int = 1, **fields: Any) -> DealEntry:
    fields.setdefault("line", {"deal": deal, "dealer": (deal - 1) % 4, "contract": "pass"})
    fields.setdefault("contract", "pass")
    fields.setdefault("points", [0] * sheet.table.size)
    return DealEntry.objects.create(sheet=sheet, deal_number=deal, version=version, **fields)


def test_a_deal_has_one_current_entry() -> None:
    sheet = a_sheet()
    entry(sheet, deal=1, version=1)
    refused(entry, sheet=sheet, deal=1, version=2, is_current=True)
    entry(sheet, deal=1, version=2, is_current=False)  # an older version beside the current one is fine
    assert DealEntry.objects.filter(sheet=sheet, deal_number=1).count() == 2


def test_a_version_of_a_deal_is_stored_once() -> None:
    sheet = a_sheet()
    entry(sheet, deal=1, version=1)
    refused(entry, sheet=sheet, deal=1, version=1, is_current=False)


def test_an_idempotency_key_is_used_once_per_sheet() -> None:
    sheet = a_sheet()
    entry(sheet, deal=1, idempotency_key="tablet-1")
    refused(entry, sheet=sheet, deal=2, idempotency_key="tablet-1")


def test_the_same_idempotency_key_may_appear_on_two_sheets() -> None:
    competition = seated_competition(players=8)
    first, second = ScoreSheet.objects.filter(table__round__competition=competition).order_by("table__number")
    entry(first, idempotency_key="tablet-1")
    entry(second, idempotency_key="tablet-1")
    assert DealEntry.objects.filter(idempotency_key="tablet-1").count() == 2


def test_many_lines_of_a_sheet_may_have_no_idempotency_key() -> None:
    sheet = a_sheet()
    for deal in (1, 2, 3):
        entry(sheet, deal=deal, idempotency_key=None)
    assert DealEntry.objects.filter(sheet=sheet, idempotency_key__isnull=True).count() == 3


# -- tables and seats ---------------------------------------------------------------------------------------------


def a_round(number: int = 1, competition: Competition | None = None) -> Round:
    return Round.objects.create(competition=competition or CompetitionFactory(), number=number)


def a_table(round_: Round, number: int = 1, size: int = 4) -> Table:
    return Table.objects.create(round=round_, number=number, size=size)


def seat(table: Table, position: int, player: Player) -> Seat:
    return Seat.objects.create(table=table, round=table.round, position=position, player=player)


def test_a_seat_position_is_taken_once_per_table() -> None:
    table = a_table(a_round())
    seat(table, 0, PlayerFactory())
    refused(seat, table=table, position=0, player=PlayerFactory())


def test_a_player_sits_once_at_a_table() -> None:
    table = a_table(a_round())
    player = PlayerFactory()
    seat(table, 0, player)
    refused(seat, table=table, position=1, player=player)


def test_a_player_sits_at_one_table_per_round() -> None:
    round_ = a_round()
    first, second = a_table(round_, 1), a_table(round_, 2)
    player = PlayerFactory()
    seat(first, 0, player)
    refused(seat, table=second, position=0, player=player)


def test_a_player_may_sit_at_a_table_in_each_round() -> None:
    competition = CompetitionFactory()
    player = PlayerFactory()
    seat(a_table(a_round(1, competition)), 0, player)
    seat(a_table(a_round(2, competition)), 0, player)
    assert Seat.objects.filter(player=player).count() == 2


@pytest.mark.parametrize("size", [3, 6])
def test_a_table_seats_four_or_five_players(size: int) -> None:
    round_ = a_round()
    refused(a_table, round_=round_, size=size)


@pytest.mark.parametrize("size", [4, 5])
def test_tables_of_four_and_five_are_allowed(size: int) -> None:
    assert a_table(a_round(), size=size).size == size


def test_seat_positions_stop_at_four() -> None:
    table = a_table(a_round(), size=5)
    seat(table, 4, PlayerFactory())
    refused(seat, table=table, position=5, player=PlayerFactory())


# -- competitions, rounds, penalties ------------------------------------------------------------------------------


@pytest.mark.parametrize("deals", [20, None])
def test_a_wiezen_session_has_16_or_24_deals(deals: int | None) -> None:
    rule_set = RuleSetFactory()
    refused(CompetitionFactory.create, rule_set=rule_set, game="wiezen", deals_per_session=deals)


@pytest.mark.parametrize("deals", [16, 24])
def test_wiezen_sessions_of_16_and_24_deals_are_allowed(deals: int) -> None:
    assert CompetitionFactory(deals_per_session=deals).deals_per_session == deals


def zwicken_rules() -> RuleSet:
    # Stored directly: the constraint is on the competition, whatever the engine knows of Zwicken.
    return RuleSet.objects.create(name="Zwicken", game="zwicken", preset="zwicken")


def test_a_zwicken_session_is_open_ended() -> None:
    rules = zwicken_rules()
    refused(CompetitionFactory.create, rule_set=rules, game="zwicken", deals_per_session=16)
    assert CompetitionFactory(rule_set=rules, game="zwicken", deals_per_session=None).deals_per_session is None


def test_rounds_are_numbered_from_one() -> None:
    competition = CompetitionFactory()
    refused(Round.objects.create, competition=competition, number=0)
    assert Round.objects.create(competition=competition, number=1).number == 1


def test_a_penalty_deducts_at_least_one_point() -> None:
    competition = CompetitionFactory()
    player = PlayerFactory()
    refused(Penalty.objects.create, competition=competition, player=player, points=0, reason="late")
    assert Penalty.objects.create(competition=competition, player=player, points=1, reason="late").points == 1


# -- rule sets are checked by the engine --------------------------------------------------------------------------


def rule_set_errors(**fields: Any) -> dict[str, list[str]]:
    fields.setdefault("name", "Club rules")
    fields.setdefault("game", "wiezen")
    rule_set = RuleSet(club=ClubFactory(), **fields)
    with pytest.raises(ValidationError) as invalid:
        rule_set.full_clean()
    return invalid.value.message_dict


def test_an_unknown_preset_is_refused_on_the_preset_field() -> None:
    errors = rule_set_errors(preset="no-such-rules")
    assert list(errors) == ["preset"]
    assert "no-such-rules" in errors["preset"][0]


@pytest.mark.parametrize(
    ("overrides", "mentions"),
    [
        ({"tariffs": {"miserie": {"base": -1}}}, "miserie"),
        ({"nonsense": 1}, "nonsense"),
    ],
)
def test_bad_overrides_are_refused_on_the_overrides_field(overrides: dict[str, Any], mentions: str) -> None:
    errors = rule_set_errors(preset="iwwa", overrides=overrides)
    assert list(errors) == ["overrides"]
    assert mentions in errors["overrides"][0]


def test_a_preset_of_another_game_is_refused() -> None:
    errors = rule_set_errors(game="solo_whist", preset="iwwa")
    assert list(errors) == ["preset"]


def test_a_combined_preset_with_a_tariff_override_is_accepted() -> None:
    rule_set = RuleSet(
        name="Kleurenwiezen", game="wiezen", preset="flemish+kleurenwiezen", overrides={"tariffs": {"miserie": 6}}
    )
    rule_set.full_clean()
    rule_set.save()
    assert RuleSet.objects.filter(preset="flemish+kleurenwiezen").exists()


# -- seating services ---------------------------------------------------------------------------------------------


def test_a_new_round_seats_every_registered_player_once_with_a_sheet_per_table() -> None:
    competition = seated_competition(players=18, rounds=0)
    registered = sorted(competition.registrations.values_list("player_id", flat=True))

    round_ = create_round(competition)

    assert round_.number == 1
    tables = list(round_.tables.order_by("number"))
    assert sorted(t.size for t in tables) == sorted(table_sizes(18))
    seated = Counter(Seat.objects.filter(round=round_).values_list("player_id", flat=True))
    assert sorted(seated) == registered and set(seated.values()) == {1}
    for table in tables:
        assert list(table.seats.order_by("position").values_list("position", flat=True)) == list(range(table.size))
        assert ScoreSheet.objects.filter(table=table).count() == 1
    assert ScoreSheet.objects.filter(table__round=round_).count() == len(tables)
    assert create_round(competition).number == 2


@pytest.mark.django_db
def test_a_seat_must_belong_to_the_round_of_its_table() -> None:
    competition = seated_competition(players=4, rounds=2)
    first, second = competition.rounds.order_by("number")
    table = first.tables.get()
    seat = Seat(table=table, round=second, position=0, player=PlayerFactory())
    with pytest.raises(ValidationError) as invalid:
        seat.full_clean()
    assert "round" in invalid.value.message_dict


@pytest.mark.parametrize(
    ("field", "value", "mentions"),
    [("evening_decay", 16.0, "decay"), ("evening_decay", 0.0, "decay"), ("best_evenings", 0, "best N")],
)
def test_league_options_the_standings_refuse_are_refused_on_their_field(field: str, value: Any, mentions: str) -> None:
    competition = CompetitionFactory(kind="league")
    setattr(competition, field, value)
    with pytest.raises(ValidationError) as refused:
        competition.full_clean()
    assert list(refused.value.message_dict) == [field]
    assert any(mentions in message for message in refused.value.message_dict[field])


def test_league_options_within_range_are_accepted() -> None:
    competition = CompetitionFactory(kind="league", evening_decay=0.9, best_evenings=8, min_evenings=3)
    competition.full_clean()


@pytest.mark.parametrize(
    ("visibility", "is_public", "public_results"),
    [("hidden", False, False), ("standings", True, False), ("everything", True, True)],
)
def test_visibility_is_the_two_switches_as_one_choice(visibility: str, is_public: bool, public_results: bool) -> None:
    competition = CompetitionFactory()
    competition.visibility = visibility
    assert (competition.is_public, competition.public_results) == (is_public, public_results)
    assert competition.visibility == visibility
