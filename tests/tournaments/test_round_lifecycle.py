"""A round's life through the services: draft → published → in play → complete → finalised (→ reopened)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any

import pytest
from django.utils import translation

from games.generate import random_session
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    MembershipFactory,
    PlayerFactory,
    RuleSetFactory,
    UserFactory,
)
from tournaments.line_errors import person_message
from tournaments.models import Competition, DealEntry, Player, Registration, Round, ScoreSheet, Seat, SeatingWish
from tournaments.services.competitions import register_players
from tournaments.services.entry import record_deal
from tournaments.services.errors import EntryRejected, ServiceError
from tournaments.services.rounds import (
    create_round,
    finalise_round,
    publish_round,
    regenerate_round,
    reopen_round,
    reseat_round,
    round_problems,
    swap_players,
    withdraw_player,
)
from tournaments.services.seating import round_tables
from tournaments.services.sheets import confirm_sheet

pytestmark = pytest.mark.django_db
Status = Round.Status


def competition_with(players: int, **kwargs: Any) -> Competition:
    competition = CompetitionFactory(rule_set=RuleSetFactory(preset="iwwa"), **kwargs)
    register_players(competition, PlayerFactory.create_batch(players))
    return competition


def actions(round_: Round) -> list[str]:
    return list(round_.events.order_by("at", "id").values_list("action", flat=True))


def fill_sheet(sheet: ScoreSheet, by: Any, seed: int = 1) -> None:
    rules = sheet.table.round.competition.rule_set.engine_rules()
    for line in random_session(rules, random.Random(seed), sheet.table.size, 16):
        record_deal(sheet, line, by=by)


def pairs(tables: list[list[int]]) -> set[frozenset[int]]:
    return {frozenset(p) for t in tables for p in combinations(t, 2)}


def test_a_new_round_is_a_logged_draft_seated_by_the_competitions_method() -> None:
    competition = competition_with(17)
    round_ = create_round(competition)
    assert round_.status == Status.DRAFT and round_.method == "mixer"
    assert sorted(len(t) for t in round_tables(round_)) == [4, 4, 4, 5]
    assert actions(round_) == ["seated"]
    assert round_.events.get().detail == {"method": "mixer", "seed": round_.seed}


def test_a_draft_takes_no_scores() -> None:
    competition = competition_with(4)
    sheet = ScoreSheet.objects.get(table__round=create_round(competition))
    with pytest.raises(EntryRejected) as refused:
        record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "pass"})
    assert refused.value.codes == {"round_draft"}
    assert "publish" in str(refused.value)
    assert not DealEntry.objects.exists()


def test_redrawing_a_draft_seats_the_same_players_again_and_is_refused_once_published() -> None:
    competition = competition_with(20)
    round_ = create_round(competition, seed=1)
    before = round_tables(round_)
    round_ = regenerate_round(round_)
    after = round_tables(round_)
    assert round_.seed == 2 and after != before
    assert sorted(p for t in after for p in t) == sorted(p for t in before for p in t)
    assert ScoreSheet.objects.filter(table__round=round_).count() == len(after)
    publish_round(round_)
    with pytest.raises(ServiceError, match=r"Round 1 \(Published\): only a draft"):
        regenerate_round(round_)
    assert actions(round_) == ["seated", "regenerated", "published"]


def test_the_second_round_of_sixteen_players_repeats_no_meeting() -> None:
    competition = competition_with(16)
    first = publish_round(create_round(competition))
    second = create_round(competition)
    assert not pairs(round_tables(first)) & pairs(round_tables(second))


def test_swapping_two_players_exchanges_their_seats() -> None:
    competition = competition_with(8)
    round_ = create_round(competition)
    (a, *_), (b, *_) = round_tables(round_)
    seat_a, seat_b = (Seat.objects.get(round=round_, player_id=p) for p in (a, b))
    swap_players(round_, a, b)
    assert Seat.objects.get(round=round_, player_id=a).table_id == seat_b.table_id
    assert Seat.objects.get(round=round_, player_id=b).table_id == seat_a.table_id
    assert round_.events.get(action="swapped").detail == {"players": [a, b]}


def test_swapping_a_seated_player_with_one_who_has_a_bye_moves_the_bye() -> None:
    competition = competition_with(11)  # two tables of 5 and one bye
    round_ = create_round(competition)
    (waiting,) = round_.byes
    seated = round_tables(round_)[0][0]
    round_ = swap_players(round_, seated, waiting)
    assert round_.byes == [seated]
    assert Seat.objects.filter(round=round_, player_id=waiting).exists()
    with pytest.raises(ServiceError, match="not two different players") as refused:
        swap_players(round_, seated, 10**9)
    # each named as the organiser reads it: a player by name, an id no one has as "player 1000000000"
    assert str(refused.value).startswith(f"{Player.objects.get(pk=seated).name} and player {10**9} are not")


def test_byes_rotate_over_rounds() -> None:
    competition = competition_with(7)  # one table of 5, two byes a round
    byes: Counter[int] = Counter()
    for _ in range(7):
        round_ = publish_round(create_round(competition))
        byes.update(round_.byes)
    counts = [byes[p] for p in competition.registrations.values_list("player_id", flat=True)]
    assert sum(counts) == 14 and max(counts) - min(counts) <= 1


def test_a_broken_wish_is_a_problem_that_blocks_publishing_until_fixed() -> None:
    competition = competition_with(8)
    round_ = create_round(competition)
    (a, b, *_), (c, *_) = round_tables(round_)
    SeatingWish.objects.create(competition=competition, player_id=a, other_id=b, kind=SeatingWish.Kind.APART)
    names = {p.pk: p.name for p in Player.objects.filter(pk__in=[a, b])}
    assert round_problems(round_) == [f"{names[a]} and {names[b]} should be kept apart, but both sit at table 1."]
    with pytest.raises(ServiceError, match="kept apart"):
        publish_round(round_)
    swap_players(round_, b, c)
    assert round_problems(round_) == []
    assert publish_round(round_).status == Status.PUBLISHED


def test_wishes_and_club_mates_are_kept_by_the_mixer() -> None:
    competition = competition_with(16, keep_clubmates_apart=True)
    players = sorted(competition.registrations.values_list("player_id", flat=True))
    clubs = ClubFactory.create_batch(4)
    for i, player_id in enumerate(players):
        MembershipFactory(club=clubs[i % 4], player_id=player_id)
    SeatingWish.objects.create(
        competition=competition, player_id=players[0], other_id=players[1], kind=SeatingWish.Kind.TOGETHER
    )
    tables = round_tables(create_round(competition))
    assert any(players[0] in t and players[1] in t for t in tables)
    assert all(len({players.index(p) % 4 for p in t}) == 4 for t in tables)  # one player of each club a table


def test_play_completion_finalisation_and_a_logged_reopen() -> None:
    competition = competition_with(4)
    round_ = publish_round(create_round(competition))
    sheet = ScoreSheet.objects.get(table__round=round_)
    scorer, checker = UserFactory(), UserFactory()
    fill_sheet(sheet, scorer)
    round_.refresh_from_db()
    assert round_.status == Status.IN_PLAY
    with pytest.raises(ServiceError, match="someone else"):
        confirm_sheet(sheet, by=scorer)
    with pytest.raises(ServiceError, match="once every sheet is confirmed"):
        finalise_round(round_)
    confirm_sheet(sheet, by=checker)
    round_.refresh_from_db()
    assert round_.status == Status.COMPLETE

    finalise_round(round_, by=checker)
    sheet.refresh_from_db()
    assert sheet.state == ScoreSheet.State.FINAL
    first = sheet.entries.get(deal_number=1, is_current=True)
    correction = {**first.line}
    with pytest.raises(EntryRejected) as refused:
        record_deal(sheet, correction, by=scorer, expected_version=first.version)
    assert refused.value.codes == {"round_finalised"}

    with pytest.raises(ServiceError, match="reason"):
        reopen_round(round_, reason="  ", by=checker)
    reopen_round(round_, reason="table 1 swapped two scores", by=checker)
    record_deal(sheet, correction, by=scorer, expected_version=first.version)
    round_.refresh_from_db()
    sheet.refresh_from_db()
    assert round_.status == Status.IN_PLAY and sheet.state == ScoreSheet.State.ENTERED
    reopened = round_.events.get(action="reopened")
    assert (reopened.reason, reopened.by, reopened.from_status) == ("table 1 swapped two scores", checker, "finalised")
    assert actions(round_) == ["seated", "published", "in_play", "complete", "finalised", "reopened", "in_play"]


def test_a_withdrawal_reseats_the_draft_keeping_the_other_tables() -> None:
    competition = competition_with(17)  # 4, 4, 4, 5
    round_ = create_round(competition)
    before = round_tables(round_)
    leaving = next(t for t in before if len(t) == 5)[0]
    (changed,) = withdraw_player(competition, leaving, reason="ill")
    after = round_tables(changed)
    assert sorted(map(sorted, after)) == sorted(sorted(p for p in t if p != leaving) for t in before)
    assert Registration.objects.get(competition=competition, player_id=leaving).withdrawn_at is not None
    assert changed.events.get(action="reseated").reason == "ill"
    later = create_round(competition)
    assert leaving not in {p for t in round_tables(later) for p in t}
    with pytest.raises(ServiceError, match="not an active player") as refused:
        withdraw_player(competition, leaving)
    assert str(refused.value).startswith(Player.objects.get(pk=leaving).name)


def test_a_late_arrival_joins_without_moving_the_full_tables() -> None:
    competition = competition_with(16)
    round_ = publish_round(create_round(competition))
    before = round_tables(round_)
    late = PlayerFactory()
    register_players(competition, [late])
    present = [p for t in before for p in t] + [late.pk]
    after = round_tables(reseat_round(round_, players=present, reason="late"))
    assert sorted(len(t) for t in after) == [4, 4, 4, 5]
    assert sum(t in after for t in before) == 3  # one table of 4 took the newcomer


def test_a_reseated_published_round_keeps_the_cards_and_codes_of_the_tables_it_keeps() -> None:
    """Cards are printed and handed out once a round is published: a late arrival or a withdrawal that leaves a
    table as it was must not void that table's code (its card, its QR code, the phones already signed in)."""
    competition = competition_with(16)
    round_ = publish_round(create_round(competition))
    sheets = {s.table.number: s for s in ScoreSheet.objects.filter(table__round=round_).select_related("table")}
    before = round_tables(round_)
    late = PlayerFactory()
    register_players(competition, [late])
    after = round_tables(reseat_round(round_, players=[p for t in before for p in t] + [late.pk], reason="late"))
    kept = [number for number, (old, new) in enumerate(zip(before, after, strict=True), start=1) if old == new]
    assert len(kept) == 3
    now = {s.table.number: s for s in ScoreSheet.objects.filter(table__round=round_).select_related("table")}
    for number in kept:
        assert (now[number].pk, now[number].captain_code) == (sheets[number].pk, sheets[number].captain_code)
        assert now[number].table.pk == sheets[number].table.pk
    (joined,) = set(now) - set(kept)
    assert now[joined].captain_code != sheets[joined].captain_code  # its card lists four players: a new one
    assert late.pk in after[joined - 1]
    assert sorted(ScoreSheet.objects.values_list("captain_code", flat=True)) == sorted(
        {s.captain_code for s in now.values()}
    ), "no sheet of the old seating is left behind"


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "This table was seated again: open the entry page from its new table card."),
        ("nl", "Deze tafel is opnieuw ingedeeld: open de invulpagina met haar nieuwe tafelkaart."),
        (
            "fr",
            "Cette table a été placée à nouveau\u00a0: ouvrez la page d'encodage depuis sa nouvelle carte de table.",
        ),
    ],
)
def test_a_line_for_a_table_seated_anew_meanwhile_is_refused_in_words(language: str, said: str) -> None:
    """The page read the sheet, then the organiser seated a late arrival at that table before the line arrived."""
    competition = competition_with(16)
    round_ = publish_round(create_round(competition))
    before = round_tables(round_)
    sheets = list(ScoreSheet.objects.filter(table__round=round_).select_related("table__round__competition"))
    late = PlayerFactory()
    register_players(competition, [late])
    reseat_round(round_, players=[p for t in before for p in t] + [late.pk], reason="late")
    (gone,) = [s for s in sheets if not ScoreSheet.objects.filter(pk=s.pk).exists()]

    with pytest.raises(EntryRejected) as refused:
        record_deal(gone, {"deal": 1, "dealer": 0, "contract": "pass"})

    (error,) = refused.value.errors
    with translation.override(language):
        assert person_message(error, []) == said
    assert not DealEntry.objects.exists()
    assert Round.objects.get(pk=round_.pk).status == Status.PUBLISHED


def test_a_league_evening_seats_only_who_checked_in() -> None:
    competition = competition_with(20, kind=Competition.Kind.LEAGUE)
    players = sorted(competition.registrations.values_list("player_id", flat=True))
    present = players[:11]
    round_ = create_round(competition, players=present)
    seated = sorted(p for t in round_tables(round_) for p in t)
    assert len(seated) == 10 and len(round_.byes) == 1 and sorted(seated + round_.byes) == present
    stranger = PlayerFactory()
    with pytest.raises(ServiceError, match="not registered") as refused:
        create_round(competition, players=[*present, 10**9, stranger.pk])
    # a stranger to the competition by the name public pages show ("Ann P."): ids typed do not reveal full names
    assert str(refused.value).endswith(f": {stranger.public_name} and player {10**9}")
    assert stranger.last_name not in str(refused.value)


def test_a_manual_seating_is_taken_as_given_or_refused_with_its_problems() -> None:
    competition = competition_with(8)
    players = sorted(competition.registrations.values_list("player_id", flat=True))
    tables = [players[4:], players[:4]]
    round_ = create_round(competition, method="manual", tables=tables)
    assert round_tables(round_) == tables
    with pytest.raises(ServiceError, match="seats 3 players"):
        regenerate_round(round_, method="manual", tables=[players[:3], players[3:]])
    assert round_tables(round_) == tables  # nothing changed
