"""A relay: the tables of a duplicate round play the boards in groups of four and hand them on after every fourth
deal, so one set serves up to four tables. Each table's deal k is judged, compared and printed as the board its
order gives; the table card says the order and the hand-overs; the movement is chosen before the first round."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import PlayerFactory, UserFactory, seated_competition
from tests.tournaments.test_pages import page
from tournaments.duplicate.movement import board_for_deal, board_orders, relay_hand_overs, sets_to_deal
from tournaments.duplicate.results import played_boards
from tournaments.line_errors import person_message
from tournaments.models import Board, Competition, Round, ScoreSheet
from tournaments.services.competitions import register_players, update_competition
from tournaments.services.entry import record_deal
from tournaments.services.errors import EntryRejected
from tournaments.services.rounds import cards_changed, reseat_round
from tournaments.services.seating import round_tables

pytestmark = pytest.mark.django_db


def relay(players: int = 12) -> Round:
    competition = seated_competition(players=players, duplicate=True, movement="relay", deals_per_session=16)
    return Round.objects.get(competition=competition)


def test_three_tables_of_a_relay_play_the_boards_in_turn_from_one_set() -> None:
    round_ = relay()
    assert board_orders(round_) == {
        1: list(range(1, 17)),
        2: [*range(5, 17), *range(1, 5)],
        3: [*range(9, 17), *range(1, 9)],
    }
    assert sets_to_deal(round_) == 1
    assert board_for_deal(round_, 2, 1) == 5 and board_for_deal(round_, 3, 16) == 8
    assert board_for_deal(round_, 2, 17) is None
    # boards 1-4 go to the side after the first stanza; table 3's next boards come from there
    assert relay_hand_overs(round_) == {1: (None, 2), 2: (1, 3), 3: (2, None)}


def test_a_line_is_compared_as_the_board_its_table_played() -> None:
    round_ = relay()
    second = ScoreSheet.objects.get(table__round=round_, table__number=2)
    record_deal(second, {"deal": 1, "dealer": 0, "contract": "vraag", "declarers": [0, 2], "tricks": 8})

    boards = played_boards(round_)

    assert list(boards) == [5]
    (played,) = boards[5]
    assert (played.table_number, played.deal, played.board) == (2, 1, 5)
    assert played.seat_of == {0: 0, 1: 1, 2: 2, 3: 3}  # board 5 is dealt by North, as deal 1 by seat 1


def test_the_table_card_gives_each_table_its_order_and_its_hand_overs() -> None:
    round_ = relay()
    doc = page(Client().get(reverse("round-print", args=[round_.competition.slug, 1]), {"only": "cards"}))
    cards = doc.find_all("article", class_="table-card")
    orders = [card.find(class_="board-order").text() for card in cards]
    assert orders == [
        "Boards, one a deal, in this order: 1–16",
        "Boards, one a deal, in this order: 5–16, 1–4",
        "Boards, one a deal, in this order: 9–16, 1–8",
    ]
    relays = [card.find(class_="relay").text() for card in cards]
    assert relays[0] == (
        "Relay: after every fourth deal, hand your boards to the relay table and take the next ones from table 2."
    )
    assert relays[1] == (
        "Relay: after every fourth deal, hand your boards to table 1 and take the next ones from table 3."
    )
    assert relays[2].endswith("take the next ones from the relay table.")


def test_a_relay_reseated_to_more_tables_names_the_kept_table_whose_hand_overs_changed() -> None:
    """Thirteen players at three tables, three more arrive: four tables, so the relay closes (table 3 now takes
    its boards from table 4, not the side). Table 3 keeps its players and its code, but its card is wrong."""
    round_ = relay(players=13)
    before = round_tables(round_)
    codes = dict(round_.tables.values_list("number", "sheet__captain_code"))
    late = PlayerFactory.create_batch(3)
    register_players(round_.competition, late)
    reseat_round(round_, players=[p for t in before for p in t] + [p.pk for p in late], reason="late")
    after = round_tables(round_)
    kept = [n for n, (old, new) in enumerate(zip(before, after, strict=False), start=1) if old == new]
    assert len(after) == 4 and 3 in kept
    assert relay_hand_overs(round_)[3] == (2, 4)
    assert all(codes[n] == round_.tables.get(number=n).sheet.captain_code for n in kept)
    # the tables seated anew, and table 3; a kept table 2 still hands to table 1 and takes from table 3
    assert cards_changed(round_) == sorted({*(n for n in range(1, 5) if n not in kept), 3})


ENTRY_SAYS = {
    "en": ("Boards, one a deal, in this order: 5–16, 1–4", "Deal 1, board 5, as typed"),
    "nl": ("Borden, één per spel, in deze volgorde: 5–16, 1–4", "Spel 1, bord 5, zoals getypt"),
    "fr": ("Étuis, un par donne, dans cet ordre : 5–16, 1–4", "Donne 1, étui 5, telle que saisie"),
}


@pytest.mark.parametrize("language", sorted(ENTRY_SAYS))
def test_a_relay_tables_entry_page_says_which_board_each_deal_is(language: str) -> None:
    """Table 2 starts on board 5: its entry page lists its order as the table card does, and the preview names the
    board of the deal typed, so "board 5" in a refusal is not news to the scorer."""
    round_ = relay()
    sheet = ScoreSheet.objects.get(table__round=round_, table__number=2)
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    args = [round_.competition.slug, 1, 2]
    order, preview = ENTRY_SAYS[language]
    assert page(client.get(reverse("sheet-entry", args=args))).find(id="board-order").text() == order
    typed = {"deal": "1", "dealer": "0", "contract": "pass", "version": "0", "idempotency_key": "k"}
    shown = page(client.post(reverse("sheet-entry-preview", args=args), typed, HTTP_HX_REQUEST="true"))
    assert shown.find(id="preview-title").text() == preview
    record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "pass"})
    correcting = page(client.get(reverse("sheet-entry", args=args), {"deal": 1}))
    assert correcting.find(id="preview-title").text() == preview


def test_a_missing_board_is_named_by_its_own_number_not_the_deal() -> None:
    round_ = relay()
    sheet = ScoreSheet.objects.get(table__round=round_, table__number=2)
    # a board row missing (the pages never leave one out) while the round still counts 16: board 5 is gone
    spare = Board.objects.get(round=round_, number=5)
    Board.objects.filter(pk=spare.pk).update(number=17)
    with pytest.raises(EntryRejected) as refused:
        record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "pass"})
    with translation.override("nl"):
        (said,) = [person_message(error, ["A", "B", "C", "D"]) for error in refused.value.errors]
    assert said == "Deze ronde heeft geen bord 5: vraag de organisator de borden van de ronde na te kijken."


def test_a_table_outside_duplicate_hears_of_no_board() -> None:
    competition = seated_competition(players=4, deals_per_session=16)
    client = Client()
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    args = [competition.slug, 1, 1]
    assert 'id="board-order"' not in client.get(reverse("sheet-entry", args=args)).content.decode()
    typed = {"deal": "1", "dealer": "0", "contract": "pass", "version": "0", "idempotency_key": "k"}
    shown = page(client.post(reverse("sheet-entry-preview", args=args), typed, HTTP_HX_REQUEST="true"))
    assert shown.find(id="preview-title").text() == "Deal 1 as typed"


def test_the_boards_page_asks_for_one_set(client: Client) -> None:
    round_ = relay()
    competition = round_.competition
    organiser = UserFactory()
    competition.organisers.add(organiser)
    client.force_login(organiser)
    doc = page(client.get(reverse("manage-boards", args=[competition.slug, 1])))
    assert "Deal 1 set of the boards" in doc.find(id="sets").text()


def test_a_relay_is_duplicate_only_and_chosen_before_the_first_round() -> None:
    plain = seated_competition(players=4, rounds=0)
    plain.movement = Competition.Movement.RELAY
    with pytest.raises(ValidationError) as exc:
        plain.full_clean()
    assert "only in duplicate play" in str(exc.value.message_dict["movement"])

    round_ = relay()
    with pytest.raises(ValidationError) as exc:
        update_competition(round_.competition, movement=Competition.Movement.ALL_AT_ONCE)
    assert "the movement stays as it was" in str(exc.value.message_dict["movement"])


def test_the_finalised_round_page_links_its_boards_and_an_unfinished_one_does_not(client: Client) -> None:
    from tournaments.models import Table
    from tournaments.services.rounds import finalise_round
    from tournaments.services.sheets import confirm_sheet

    round_ = relay(players=4)
    slug = round_.competition.slug
    assert "round-boards-link" not in client.get(reverse("round", args=[slug, 1])).content.decode()
    sheet = Table.objects.get(round=round_).sheet
    for deal in range(1, 17):
        record_deal(sheet, {"deal": deal, "dealer": (deal - 1) % 4, "contract": "pass"})
    organiser = UserFactory()
    round_.competition.organisers.add(organiser)
    confirm_sheet(sheet, by=organiser)
    finalise_round(Round.objects.get(pk=round_.pk), by=organiser)
    doc = page(client.get(reverse("round", args=[slug, 1])))
    link = doc.find(id="round-boards-link").find("a")
    assert link.attrs["href"] == reverse("round-boards", args=[slug, 1])
    assert client.get(link.attrs["href"]).status_code == 200


def finalised_relay() -> Round:
    """A relay of three tables, every deal a pass, each sheet confirmed and the round finalised."""
    from tournaments.services.rounds import finalise_round
    from tournaments.services.sheets import confirm_sheet

    round_ = relay()
    organiser = UserFactory()
    round_.competition.organisers.add(organiser)
    for sheet in ScoreSheet.objects.filter(table__round=round_):
        for deal in range(1, 17):
            record_deal(sheet, {"deal": deal, "dealer": (deal - 1) % 4, "contract": "pass"})
        confirm_sheet(sheet, by=organiser)
    finalise_round(Round.objects.get(pk=round_.pk), by=organiser)
    return Round.objects.get(pk=round_.pk)


@pytest.mark.parametrize(("language", "first"), [("en", "Board 5"), ("nl", "Bord 5"), ("fr", "Étui 5")])
def test_a_relay_tables_sheet_names_each_deals_board_and_links_its_row_on_the_boards_page(
    language: str, first: str
) -> None:
    """Read after the evening, table 2's deal 1 is board 5: the sheet says so and leads to how the other tables
    did on it; the board page's table number leads back to the sheet."""
    round_ = finalised_relay()
    slug = round_.competition.slug
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    sheet = page(client.get(reverse("sheet", args=[slug, 1, 2])))
    boards = sheet.find_all(class_="board")
    assert [board.text() for board in boards][:2] == [first, first[:-1] + "6"]
    assert len(boards) == 16
    link = boards[0].find("a").attrs["href"]
    assert link == reverse("board", args=[slug, 1, 5]) + "#table-2"
    board_page = page(client.get(link.split("#")[0]))
    back = board_page.find(id="table-2").find("a")
    assert back.attrs["href"] == reverse("sheet", args=[slug, 1, 2])


def test_before_the_round_is_over_only_the_entry_page_names_the_boards_and_links_none() -> None:
    """The table reads its boards on its entry page (its order is on the table card), without a link: the board
    pages stay hand records until the round is finalised."""
    round_ = relay()
    slug = round_.competition.slug
    sheet = ScoreSheet.objects.get(table__round=round_, table__number=3)
    record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "pass"})
    client = Client()
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    entry = page(client.get(reverse("sheet-entry", args=[slug, 1, 3])))
    (board,) = entry.find_all(class_="board")
    assert board.text() == "Board 9" and board.find_all("a") == []
    assert 'class="board"' not in Client().get(reverse("sheet", args=[slug, 1, 3])).content.decode()


def test_a_sheet_outside_duplicate_names_no_board() -> None:
    competition = seated_competition(players=4, deals_per_session=16)
    record_deal(
        ScoreSheet.objects.get(table__round__competition=competition), {"deal": 1, "dealer": 0, "contract": "pass"}
    )
    shown = Client().get(reverse("sheet", args=[competition.slug, 1, 1])).content.decode()
    assert 'class="line-text"' in shown
    assert 'class="board"' not in shown


def test_the_french_table_card_says_its_hand_overs_as_french_does() -> None:
    """ "passez vos étuis à table 1": French puts the article before a table's number, as before the relay table."""
    from tournaments.views.round_print import relay_sentence

    with translation.override("fr"):
        assert relay_sentence(1, 3) == (
            "Relais\u00a0: après chaque quatrième donne, passez vos étuis à la table 1 et prenez les suivants à la "
            "table 3."
        )
        assert relay_sentence(None, 2).endswith(
            "passez vos étuis à la table relais et prenez les suivants à la table 2."
        )
