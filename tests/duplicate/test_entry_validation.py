"""A duplicate round's lines against its boards (issue 19, item 3): the entry page, the API and a correction refuse
what the cards rule out, in words; rule sets that would let deals and boards drift apart are refused; the table
card says which seat takes which hand."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from games.duplicate import Board as EngineBoard
from games.duplicate import validation
from tests.factories import CompetitionFactory, RuleSetFactory, seated_competition
from tests.games.test_duplicate_validation import make_board
from tests.roles import Roles, make_roles
from tests.tournaments.test_pages import page
from tournaments.line_errors import person_message
from tournaments.models import Board, Competition, DealEntry, Round, ScoreSheet, Table
from tournaments.models.boards import deal_text
from tournaments.services.competitions import save_competition, update_competition
from tournaments.services.entry import record_deal
from tournaments.services.errors import EntryRejected
from tournaments.services.transfer import ImportRejected, import_lines

pytestmark = pytest.mark.django_db

API = "/api/v1"
# Board 1: East, who is seat 2 at a table of four, holds three aces; South (seat 3) the ace of spades.
THREE_ACES_EAST = make_board(1, {"AC": 1, "AD": 1, "AH": 1, "AS": 2})


def put_board(round_: Round, board: EngineBoard) -> None:
    """The round's board of that number becomes ``board`` (before any line, as a PBN upload would)."""
    Board.objects.filter(round=round_, number=board.number).update(
        dealer=board.dealer, deal=deal_text(board.hands), turned=board.turned.index, seed=None
    )


def duplicate_round(players: int = 8, preset: str = "iwwa", board: EngineBoard = THREE_ACES_EAST) -> Round:
    competition = seated_competition(players=players, preset=preset, duplicate=True, deals_per_session=16)
    round_ = Round.objects.get(competition=competition)
    put_board(round_, board)
    return round_


def first_sheet(round_: Round) -> ScoreSheet:
    return ScoreSheet.objects.get(table__round=round_, table__number=1)


def troel(declarers: list[int], deal: int = 1, dealer: int = 0, **more: Any) -> dict[str, Any]:
    return {"deal": deal, "dealer": dealer, "contract": "troel", "declarers": declarers, "tricks": 9, **more}


def refused(sheet: ScoreSheet, line: dict[str, Any], **kwargs: Any) -> EntryRejected:
    with pytest.raises(EntryRejected) as exc:
        record_deal(sheet, line, **kwargs)
    return exc.value


def names(sheet: ScoreSheet) -> list[str]:
    return [f"P{k + 1}" for k in range(sheet.table.size)]


@pytest.fixture
def round_() -> Round:
    return duplicate_round()


@pytest.fixture
def roles(round_: Round) -> Roles:
    return make_roles(round_.competition)


# -- the entry page, the API, a correction ------------------------------------------------------------------------


def entry_url(sheet: ScoreSheet) -> str:
    table = sheet.table
    return reverse("sheet-entry", args=[table.round.competition.slug, table.round.number, table.number])


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Troel is played by the player holding three aces: on this board that is seat 2 ("),
        ("nl", "plaats 2 ("),
    ],
)
def test_a_troel_by_seats_without_three_aces_is_refused_on_the_entry_page_in_words(
    client: Client, round_: Round, roles: Roles, language: str, said: str
) -> None:
    sheet = first_sheet(round_)
    client.force_login(roles.club_admin)
    form = {"deal": 1, "dealer": 0, "idempotency_key": "", "version": 0, "contract": "troel", "seats": "14"}
    doc = page(client.post(entry_url(sheet), {**form, "tricks": "9"}, HTTP_ACCEPT_LANGUAGE=language))
    text = doc.find(id="errors-seats").text()
    assert said in text, text
    assert "plaats 1 (" in text or "seat 1 (" in text  # the seats named, numbered as on the card
    assert "troel_without" not in text and "[" not in text and "seat 0" not in text
    assert not DealEntry.objects.filter(sheet=sheet).exists()


def test_the_api_refuses_it_with_the_code_and_seats_counted_from_one(round_: Round) -> None:
    sheet = first_sheet(round_)
    client = APIClient()
    client.credentials(HTTP_X_TABLE_CODE=sheet.captain_code)
    response = client.post(f"{API}/sheets/{sheet.pk}/lines/", troel([0, 3]), format="json")
    assert response.status_code == 400, response.content
    (error,) = response.json()["errors"]
    assert error["code"] == "troel_without_three_aces" and error["field"] == "declarers"
    assert "seat 2 does" in error["message"] and "seats 1 and 4" in error["message"]
    assert not DealEntry.objects.filter(sheet=sheet).exists()


def test_a_correction_into_a_troel_without_the_aces_is_refused(round_: Round) -> None:
    sheet = first_sheet(round_)
    record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [0, 2], "tricks": 8})
    client = APIClient()
    client.credentials(HTTP_X_TABLE_CODE=sheet.captain_code)
    response = client.put(f"{API}/sheets/{sheet.pk}/lines/1/", {"line": troel([1, 3]), "version": 1}, format="json")
    assert response.status_code == 400, response.content
    (error,) = response.json()["errors"]
    assert error["code"] == "troel_wrong_partner"
    rejected = refused(sheet, troel([1, 3]), expected_version=1)
    with translation.override("en"):
        (text,) = [person_message(e, names(sheet)) for e in rejected.errors]
    assert text == "Troel's partner is seat 3 (P3), who holds ♠A, not seat 4 (P4)."
    assert sheet.entries.get(is_current=True).line["contract"] == "vraag"


def test_an_import_and_offline_sync_refuse_it_too(client: Client, round_: Round) -> None:
    sheet = first_sheet(round_)
    fits = {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [0, 2], "tricks": 8}
    put_board(round_, make_board(2, {"AC": 0, "AD": 1, "AH": 2, "AS": 3}))  # an ace a hand: nobody may play troel
    with pytest.raises(ImportRejected) as exc:
        import_lines(sheet, [fits, troel([0, 3], deal=2, dealer=1)])
    assert {error.code for _row, error in exc.value.errors} == {"troel_without_three_aces"}
    assert not DealEntry.objects.filter(sheet=sheet).exists()  # all or nothing
    put_board(round_, make_board(2, {"AC": 1, "AD": 1, "AH": 1, "AS": 2}))
    with pytest.raises(ImportRejected):
        import_lines(sheet, [fits, troel([0, 3], deal=2, dealer=1)])
    client.get(entry_url(sheet), {"code": sheet.captain_code})
    queued = reverse("sheet-entry-queued", args=[round_.competition.slug, round_.number, 1])
    fields = {"deal": "1", "dealer": "0", "contract": "troel", "seats": "14", "tricks": "9", "version": "0"}
    response = client.post(queued, {**fields, "idempotency_key": "k1"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 422
    (error,) = response.json()["errors"]
    assert error["message"].startswith("Troel is played by the player holding three aces: on this board that is seat 2")
    response = client.post(queued, {**fields, "seats": "23", "idempotency_key": "k2"})
    assert response.json()["state"] == "saved"


def test_a_line_that_fits_the_board_is_stored(round_: Round) -> None:
    sheet = first_sheet(round_)
    entry = record_deal(sheet, troel([2, 1], trump="S")).entry
    assert entry.line["declarers"] == [2, 1] and entry.points[1] > 0
    # the other table plays the same board: a vraag there is none of the aces' business
    other = ScoreSheet.objects.get(table__round=round_, table__number=2)
    record_deal(other, {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [0, 3], "tricks": 8})


def test_troel_s_trump_and_the_turned_trump_come_from_the_board(round_: Round) -> None:
    sheet = first_sheet(round_)
    rejected = refused(sheet, troel([1, 2], trump="H"))
    assert rejected.codes == {"trump_not_troel"}
    with translation.override("en"):
        (text,) = [person_message(e, names(sheet)) for e in rejected.errors]
    assert text == "Troel is played in the suit of the fourth ace, ♠ spades: choose it or leave the trump empty."
    turned = THREE_ACES_EAST.turned
    other = next(letter for letter in "CDHS" if letter != turned.suit.value)
    vraag = {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [0, 2], "tricks": 8, "trump": other}
    rejected = refused(sheet, vraag)
    assert rejected.codes == {"trump_not_turned"}
    with translation.override("en"):
        (text,) = [person_message(e, names(sheet)) for e in rejected.errors]
    assert text.startswith("Vraag en meegaan is played in the turned trump, ") and "the turned card is" in text


def test_deal_one_is_dealt_by_seat_one_and_a_deal_without_its_board_is_refused(round_: Round) -> None:
    sheet = first_sheet(round_)
    rejected = refused(sheet, {"deal": 1, "dealer": 1, "contract": "pass"})
    assert rejected.codes == {"dealer_not_boards"}
    with translation.override("en"):
        (text,) = [person_message(e, names(sheet)) for e in rejected.errors]
    assert text.startswith("In duplicate play deal 1 is dealt by seat 1 (P1), not by seat 2 (P2)")
    Board.objects.filter(round=round_, number=1).delete()
    rejected = refused(sheet, {"deal": 1, "dealer": 0, "contract": "pass"})
    assert rejected.codes == {"no_board"}
    with translation.override("en"):
        (text,) = [person_message(e, names(sheet)) for e in rejected.errors]
    assert text == "This round has no board 1: ask the organiser to check the round's boards."


# What the cards decide, as ``games.duplicate.validation`` lists it: a check added there is covered here by default.
BOARD_CODES = set(re.findall(r"``([a-z]+_[a-z_]+)``:", validation.__doc__ or ""))
OTHER_SUIT = next(letter for letter in "CDHS" if letter != THREE_ACES_EAST.turned.suit.value)
# Lines that board 1 refuses for its cards (East, seat 2, holds three aces and South, seat 3, the fourth), each a way
# of asking what a board holds.
PROBES = {
    "who holds three aces": troel([0, 3]),
    "who holds the fourth": troel([1, 0]),
    "the fourth ace's suit": troel([1, 2], trump="H"),
    "the turned card": {
        "deal": 1,
        "dealer": 0,
        "contract": "vraag",
        "declarers": [0, 2],
        "tricks": 8,
        "trump": OTHER_SUIT,
    },
}


def test_the_board_checks_are_those_the_module_lists() -> None:
    assert {"troel_without_three_aces", "troel_wrong_partner", "trump_not_turned", "dealer_not_boards"} <= BOARD_CODES


@pytest.mark.parametrize("probe", PROBES, ids=list(PROBES))
def test_a_line_for_a_deal_not_yet_reached_says_nothing_of_its_board(round_: Round, probe: str) -> None:
    """A table code holder probing board 5 before it is played (the same line as deal 5 of an empty sheet) learns
    that the deal is out of sequence, not what the board holds: through saving, the preview and the API. As deal 1,
    the deal the table is at, the same line meets its board."""
    from tournaments.services.preview import preview_deal

    put_board(round_, make_board(5, {"AC": 1, "AD": 1, "AH": 1, "AS": 2}, turned=str(THREE_ACES_EAST.turned)))
    sheet = first_sheet(round_)
    assert refused(sheet, PROBES[probe]).codes & BOARD_CODES  # deal 1: the board speaks
    line = {**PROBES[probe], "deal": 5}
    saving = refused(sheet, line).codes
    previewed = {e.code for e in preview_deal(sheet, line).errors}
    api = APIClient()
    api.credentials(HTTP_X_TABLE_CODE=sheet.captain_code)
    response = api.post(f"{API}/sheets/{sheet.pk}/lines/", line, format="json")
    assert response.status_code == 400, response.content
    answered = {e["code"] for e in response.json()["errors"]}
    assert saving == previewed == answered == {"deal_out_of_sequence"}
    assert not DealEntry.objects.filter(sheet=sheet).exists()


def test_the_engine_s_complaints_come_with_the_board_s(round_: Round) -> None:
    sheet = first_sheet(round_)
    rejected = refused(sheet, {**troel([0, 3]), "tricks": 14})
    assert [e.code for e in rejected.errors] == ["tricks_out_of_range", "troel_without_three_aces"]


def test_a_non_duplicate_competition_s_lines_meet_no_board() -> None:
    competition = seated_competition(players=4)
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    assert record_deal(sheet, troel([0, 3], dealer=2)).entry.deal_number == 1


def test_at_a_table_of_five_the_dealer_holds_no_hand_and_the_seat_on_its_right_takes_the_dealer_s() -> None:
    # board 1: North deals and holds three aces; seat 1 deals and sits out, seat 5 takes North's hand
    round_ = duplicate_round(players=5, board=make_board(1, {"AC": 0, "AD": 0, "AH": 0, "AS": 1}))
    sheet = first_sheet(round_)
    assert sheet.table.size == 5
    assert refused(sheet, troel([0, 1])).codes == {"declarer_sits_out"}
    assert refused(sheet, troel([1, 2])).codes == {"troel_without_three_aces"}
    assert refused(sheet, troel([4, 2])).codes == {"troel_wrong_partner"}
    entry = record_deal(sheet, troel([4, 1])).entry
    assert entry.points[0] == 0 and entry.points[4] > 0


# -- rule sets that fit duplicate play ----------------------------------------------------------------------------


def duplicate_under(preset: str, **overrides: Any) -> Competition:
    rule_set = RuleSetFactory(preset=preset, overrides=overrides)
    return CompetitionFactory(rule_set=rule_set, duplicate=True)


@pytest.mark.parametrize("preset", ["iwwa", "iwwa+counter_clockwise", "iwwa+kleurenwiezen", "iwwa+1v3"])
def test_rule_sets_that_keep_deals_on_their_boards_fit(preset: str) -> None:
    duplicate_under(preset).full_clean()


@pytest.mark.parametrize(
    ("preset", "overrides", "said"),
    [
        ("belgian", {}, "the same dealer deals again"),
        ("belgian", {}, "decided by an extra deal"),
        ("flemish", {}, "counts double"),
        ("iwwa", {"passes_count": False}, "does not count as a deal"),
        ("iwwa", {"doubling": "per_pass"}, "counts double"),
    ],
)
def test_rule_sets_that_let_deals_drift_from_the_boards_are_refused_in_words(
    preset: str, overrides: dict[str, Any], said: str
) -> None:
    competition = duplicate_under(preset, **overrides)
    with translation.override("en"), pytest.raises(ValidationError) as exc:
        competition.full_clean()
    (message,) = exc.value.message_dict["rule_set"]
    assert message.startswith("These rules do not fit duplicate play: ")
    assert said in message and "_" not in message and "[" not in message


def test_changing_a_duplicate_competition_s_rule_set_is_checked_too() -> None:
    competition = duplicate_under("iwwa")
    with pytest.raises(ValidationError) as exc:
        update_competition(competition, rule_set=RuleSetFactory(preset="belgian", club=competition.club))
    assert "rule_set" in exc.value.message_dict
    competition.refresh_from_db()
    assert competition.rule_set.preset == "iwwa"
    update_competition(competition, rule_set=RuleSetFactory(preset="iwwa+counter_clockwise", club=competition.club))


def test_the_settings_page_s_service_checks_the_rules_it_is_given() -> None:
    competition = duplicate_under("iwwa")
    settings = {"game": "wiezen", "overrides": {}, "visibility": competition.visibility}
    with pytest.raises(ValidationError) as exc:
        save_competition(competition, preset="flemish", **settings)
    assert "counts double" in " ".join(exc.value.message_dict["rule_set"])
    belgian = CompetitionFactory(rule_set=RuleSetFactory(preset="belgian"))
    with pytest.raises(ValidationError) as exc:
        save_competition(belgian, preset="belgian", duplicate=True, **settings)
    assert "the same dealer deals again" in " ".join(exc.value.message_dict["rule_set"])
    assert save_competition(belgian, preset="iwwa", duplicate=True, **settings).duplicate


def test_a_competition_that_is_not_duplicate_keeps_any_rule_set() -> None:
    CompetitionFactory(rule_set=RuleSetFactory(preset="belgian")).full_clean()


# -- the table card -----------------------------------------------------------------------------------------------


def card(client: Client, round_: Round, table: int, language: str = "en") -> Any:
    """Table ``table``'s card, as the round's organiser prints it."""
    if "_auth_user_id" not in client.session:
        client.force_login(make_roles(round_.competition).organiser)
    url = reverse("round-print", args=[round_.competition.slug, round_.number]) + "?only=cards"
    doc = page(client.get(url, HTTP_ACCEPT_LANGUAGE=language))
    return next(s for s in doc.find_all("section") if s.attrs.get("data-table") == str(table))


def test_at_a_table_of_four_one_sentence_says_which_seat_takes_which_hand(client: Client) -> None:
    round_ = duplicate_round()
    section = card(client, round_, 1)
    text = section.find(class_="board-hands").text()
    assert text == "On every board seat 1 takes North's hand, seat 2 East's, seat 3 South's and seat 4 West's."
    assert section.find_all("table", class_="board-hands") == []
    dutch = card(client, round_, 1, "nl").find(class_="board-hands").text()
    assert "Noord" in dutch and "Oost" in dutch


def cells(section: Any) -> list[list[str]]:
    out = []
    for table in section.find_all("table", class_="board-hands"):
        for tr in table.find("tbody").find_all("tr"):
            out.append([tr.find("th").text()] + [td.text() for td in tr.find_all("td")])
    return out


def test_at_a_table_of_five_the_card_lists_each_board_with_who_sits_out(client: Client) -> None:
    round_ = duplicate_round(players=5, board=make_board(1, {}))
    section = card(client, round_, Table.objects.get(round=round_).number)
    assert section.find(class_="board-hands-title").text() == "Who takes which hand of each board"
    rows = cells(section)
    assert len(rows) == 16
    # board: sits out, North, East, South, West
    assert rows[0] == ["1", "seat 1", "seat 5", "seat 2", "seat 3", "seat 4"]
    assert rows[1] == ["2", "seat 2", "seat 5", "seat 1", "seat 3", "seat 4"]
    assert rows[5] == ["6", "seat 1", "seat 4", "seat 5", "seat 2", "seat 3"]  # board 6: East deals


def test_counter_clockwise_the_card_lists_each_board(client: Client) -> None:
    round_ = duplicate_round(preset="iwwa+counter_clockwise", board=make_board(1, {}))
    section = card(client, round_, 1)
    rows = cells(section)
    assert len(rows) == 16
    assert rows[0] == ["1", "seat 1", "seat 2", "seat 3", "seat 4"]
    # deal 2 is dealt by seat 4, who takes East's hand (board 2's dealer): seat 1 South's, seat 2 West's
    assert rows[1] == ["2", "seat 3", "seat 4", "seat 1", "seat 2"]
    assert section.find_all("p", class_="board-hands") == []


def test_the_preview_as_the_scorer_types_refuses_what_saving_would(round_: Round) -> None:
    from tournaments.services.preview import preview_deal

    sheet = first_sheet(round_)
    wrong = preview_deal(sheet, troel([0, 3]))
    assert not wrong.valid and {e.code for e in wrong.errors} == {"troel_without_three_aces"}
    right = preview_deal(sheet, troel([1, 2]))  # East (seat 2) holds three aces, South (seat 3) the fourth
    assert right.valid and right.points[1] > 0 and right.points[2] > 0
    assert not DealEntry.objects.filter(sheet=sheet).exists()  # a preview stores nothing


def test_a_rule_set_a_duplicate_competition_plays_under_cannot_be_edited_into_rules_that_do_not_fit() -> None:
    duplicate = seated_competition(players=4, duplicate=True, rounds=0)
    plain = seated_competition(players=4, rounds=0)
    for competition, refused in ((duplicate, True), (plain, False)):
        rule_set = competition.rule_set
        rule_set.overrides = {"doubling": "next_deal"}
        if refused:
            with pytest.raises(ValidationError) as exc:
                rule_set.full_clean()
            assert "counts double" in str(exc.value.message_dict["overrides"])
        else:
            rule_set.full_clean()
