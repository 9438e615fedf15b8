"""Who may open what: every page of the site against every role, one test id per cell.

The roles (columns of ``EXPECTED``), as in the API's matrix (``tests/api/test_permission_matrix.py``):

- ``anonymous``: nobody logged in (the public);
- ``outsider``: logged in, no tie to the club or the competition;
- ``player``: a member of the organising club, not an administrator, with a linked ``Player``;
- ``captain``: nobody logged in, but this session opened table 1's entry page with the sheet's table code;
- ``organiser``: listed in ``Competition.organisers`` (of both competitions), not a club administrator;
- ``other_admin``: administrator of another club;
- ``club_admin``: administrator of the competitions' club (staff, so the admin lets them in);
- ``superuser``.

The world: a public tournament (round 1 in play, tables 1 and 2; round 2 a draft seating) and a competition of
the same club that is not public. A row names one request (``PAGES``); ``test_every_page_route_has_a_row`` fails
when ``tournaments/urls.py`` or ``config/urls.py`` gains a route without one, so a new page must say who sees it.
The API under ``/api/v1/`` has its own matrix; the admin's own pages are the admin's permissions
(``tests/tournaments/test_admin_scope.py``), its index and login are here.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import get_resolver, reverse

from tests.factories import (
    ClubFactory,
    MembershipFactory,
    PlayerFactory,
    RuleSetFactory,
    UserFactory,
    seated_competition,
)
from tests.roles import make_roles
from tests.urlconf import routes
from tournaments.models import Competition, DealEntry, Player, Round, RuleSet, ScoreSheet
from tournaments.services.entry import record_deal
from tournaments.services.rounds import create_round

pytestmark = pytest.mark.django_db

OTHER_IP = "10.1.2.3"
ROLES = ("anonymous", "outsider", "player", "captain", "organiser", "other_admin", "club_admin", "superuser")
DEAL_1 = {"deal": 1, "dealer": 0, "contract": "alleen", "declarers": [2], "tricks": 6}
DEAL_1_FORM = {"deal": 1, "dealer": 0, "contract": "pass", "idempotency_key": "matrix-1"}
DEAL_2_FORM = {"deal": 2, "dealer": 1, "contract": "pass", "idempotency_key": "matrix-2"}


@dataclass
class World:
    competition: Competition  # public; round 1 in play (deal 1 of table 1 entered), round 2 a draft
    hidden: Competition  # is_public=False, same club, same organiser; round 1 published
    sheet: ScoreSheet  # round 1, table 1: the captain's
    other_sheet: ScoreSheet  # round 1, table 2
    draft_sheet: ScoreSheet  # round 2 (draft), table 1
    hidden_sheet: ScoreSheet
    registered: Player  # plays in the competition
    users: dict[str, Any]
    club_rules: RuleSet  # the club's own rule set (the competitions play under a shared one)


@pytest.fixture
def world() -> World:
    club = ClubFactory()
    competition = seated_competition(players=8, club=club)
    hidden = seated_competition(players=4, club=club, is_public=False)
    roles = make_roles(competition)
    organiser = UserFactory(username="director")
    competition.organisers.add(organiser)
    hidden.organisers.add(organiser)
    other_admin = UserFactory(username="otheradmin")
    MembershipFactory(club=ClubFactory(), player=PlayerFactory(user=other_admin), is_admin=True)
    sheet, other_sheet = ScoreSheet.objects.filter(table__round__competition=competition).order_by("table__number")
    record_deal(sheet, DEAL_1, by=roles.club_admin)
    hidden_sheet = ScoreSheet.objects.get(table__round__competition=hidden)
    record_deal(hidden_sheet, DEAL_1, by=roles.club_admin)  # its players have a rank: the progression rows
    draft = create_round(competition)
    assert draft.status == Round.Status.DRAFT
    return World(
        competition=competition,
        hidden=hidden,
        sheet=sheet,
        other_sheet=other_sheet,
        draft_sheet=ScoreSheet.objects.get(table__round=draft, table__number=1),
        hidden_sheet=hidden_sheet,
        registered=competition.players.order_by("pk").first(),
        club_rules=RuleSetFactory(club=club, name="House rules"),
        users={
            "outsider": roles.outsider,
            "player": roles.player,
            "organiser": organiser,
            "other_admin": other_admin,
            "club_admin": roles.club_admin,
            "superuser": roles.organiser,  # make_roles' "organiser" is the federation's superuser
        },
    )


def sheet_path(sheet: ScoreSheet, name: str = "sheet") -> str:
    table = sheet.table
    return reverse(name, args=[table.round.competition.slug, table.round.number, table.number])


def client_for(world: World, role: str) -> Client:
    client = Client()
    if role == "captain":
        opened = client.get(sheet_path(world.sheet, "sheet-entry"), {"code": world.sheet.captain_code})
        assert opened.status_code == 302
    elif role != "anonymous":
        client.force_login(world.users[role])
    return client


# -- the requests ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Page:
    route: str  # the URL pattern's name ("admin:index" for the admin's)
    url: Callable[[World], str]
    method: str = "get"
    data: Callable[[World], dict[str, Any]] | None = None


def _print(competition: Callable[[World], Competition], number: int = 1) -> Callable[[World], str]:
    return lambda w: reverse("round-print", args=[competition(w).slug, number])


def _manage(name: str, *more: int, hidden: bool = False) -> Callable[[World], str]:
    """A /manage/ address of the public competition (or the hidden one), with the round or player in ``more``."""
    return lambda w: reverse(name, args=[(w.hidden if hidden else w.competition).slug, *more])


def _rules_file() -> Any:
    upload = io.BytesIO(b'{"preset": "iwwa", "name": "Imported rules"}')
    upload.name = "rules.json"
    return upload


def _swap(w: World) -> dict[str, Any]:
    """The first players of the draft round's two tables."""
    from tournaments.models import Seat

    seats = Seat.objects.filter(round=w.draft_sheet.table.round, position=0).order_by("table__number")
    return {"swap-first": seats[0].player_id, "swap-second": seats[1].player_id}


def _check_in(w: World) -> dict[str, Any]:
    """A registered player's public name and the venue code: whoever holds the code checks them in."""
    from tournaments.checkin.services import venue_code

    return {"name": w.registered.public_name, "code": venue_code(w.competition)}


def _players_csv(w: World) -> dict[str, Any]:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return {"import-file": SimpleUploadedFile("players.csv", b"name\nMie Smet\n", content_type="text/csv")}


def _duplicate(w: World, *, hidden: bool = False) -> Competition:
    """The public (or hidden) competition made duplicate, its rounds given boards (tournaments.duplicate).

    The setting is chosen before the first round, so it is set here in the database, with each round's boards.
    """
    from games.duplicate import deal_boards
    from tournaments.models import Board

    competition = w.hidden if hidden else w.competition
    if not competition.duplicate:
        Competition.objects.filter(pk=competition.pk).update(duplicate=True)
        competition.duplicate = True
        for round_ in competition.rounds.all():
            Board.objects.bulk_create(Board.from_engine(round_, board) for board in deal_boards(16, round_.pk))
    return competition


def _boards(name: str, number: int, *, hidden: bool = False) -> Callable[[World], str]:
    """A board page of round ``number`` of the duplicate competition (``_duplicate``)."""
    return lambda w: reverse(name, args=[_duplicate(w, hidden=hidden).slug, number])


def _public_boards(
    name: str, number: int, *more: int, hidden: bool = False, over: bool = True
) -> Callable[[World], str]:
    """A public board page (tournaments.duplicate.public_urls) of round ``number``, finalised first when ``over``."""

    def url(w: World) -> str:
        competition = _duplicate(w, hidden=hidden)
        if over:
            Round.objects.filter(competition=competition, number=number).update(status=Round.Status.FINALISED)
        return reverse(name, args=[competition.slug, number, *more])

    return url


def _pbn_file(w: World) -> dict[str, Any]:
    from django.core.files.uploadedfile import SimpleUploadedFile

    from games.duplicate import deal_boards, to_pbn

    return {"file": SimpleUploadedFile("boards.pbn", to_pbn(deal_boards(16, 7)).encode())}


def _announcement(w: World) -> str:
    from tournaments.models import Announcement

    announcement, _ = Announcement.objects.get_or_create(competition=w.competition, text="Welcome")
    return reverse("manage-announcement-hide", args=[w.competition.slug, announcement.pk])


PAGES: dict[str, Page] = {
    # tournaments/urls.py
    "home": Page("home", lambda w: reverse("home")),
    "competition": Page("competition", lambda w: reverse("competition", args=[w.competition.slug])),
    "competition-hidden": Page("competition", lambda w: reverse("competition", args=[w.hidden.slug])),
    "competition-unknown": Page("competition", lambda w: reverse("competition", args=["no-such-competition"])),
    "competition-standings": Page(
        "competition-standings", lambda w: reverse("competition-standings", args=[w.competition.slug])
    ),
    "competition-standings-hidden": Page(
        "competition-standings", lambda w: reverse("competition-standings", args=[w.hidden.slug])
    ),
    "round": Page("round", lambda w: reverse("round", args=[w.competition.slug, 1])),
    "round-draft": Page("round", lambda w: reverse("round", args=[w.competition.slug, 2])),
    "round-hidden": Page("round", lambda w: reverse("round", args=[w.hidden.slug, 1])),
    "club": Page("club", lambda w: reverse("club", args=[w.competition.club.slug])),
    "season": Page("season", lambda w: reverse("season", args=[w.competition.slug])),
    "season-hidden": Page("season", lambda w: reverse("season", args=[w.hidden.slug])),
    "tariff": Page("tariff", lambda w: reverse("tariff", args=[w.competition.slug])),
    "tariff-hidden": Page("tariff", lambda w: reverse("tariff", args=[w.hidden.slug])),
    "player": Page("player", lambda w: reverse("player", args=[w.registered.pk])),
    "player-unknown": Page("player", lambda w: reverse("player", args=[999999])),
    "round-print": Page("round-print", _print(lambda w: w.competition)),
    "round-print-draft": Page("round-print", _print(lambda w: w.competition, 2)),
    "round-print-hidden": Page("round-print", _print(lambda w: w.hidden)),
    "sheet": Page("sheet", lambda w: sheet_path(w.sheet)),
    "sheet-draft": Page("sheet", lambda w: sheet_path(w.draft_sheet)),
    "sheet-hidden": Page("sheet", lambda w: sheet_path(w.hidden_sheet)),
    "sheet-entry": Page("sheet-entry", lambda w: sheet_path(w.sheet, "sheet-entry")),
    "sheet-entry-post": Page(
        "sheet-entry", lambda w: sheet_path(w.sheet, "sheet-entry"), "post", lambda w: DEAL_2_FORM
    ),
    "sheet-entry-other-table": Page("sheet-entry", lambda w: sheet_path(w.other_sheet, "sheet-entry")),
    "sheet-entry-other-table-post": Page(
        "sheet-entry", lambda w: sheet_path(w.other_sheet, "sheet-entry"), "post", lambda w: DEAL_1_FORM
    ),
    "sheet-entry-preview": Page(
        "sheet-entry-preview", lambda w: sheet_path(w.sheet, "sheet-entry-preview"), "post", lambda w: DEAL_2_FORM
    ),
    # a deal kept offline, sent when the connection returns (tournaments/offline/sync.py): JSON for the page's script
    "sheet-entry-queued": Page(
        "sheet-entry-queued", lambda w: sheet_path(w.sheet, "sheet-entry-queued"), "post", lambda w: DEAL_2_FORM
    ),
    "sheet-confirm": Page("sheet-confirm", lambda w: sheet_path(w.sheet, "sheet-confirm"), "post"),
    # a Zwicken table says it stopped playing (refused here with a message, the sheet being Wiezen's: a redirect)
    "sheet-stop": Page("sheet-stop", lambda w: sheet_path(w.sheet, "sheet-stop"), "post"),
    "sheet-penalty": Page(
        "sheet-penalty",
        lambda w: sheet_path(w.sheet, "sheet-penalty"),
        "post",
        lambda w: {"position": 0, "points": 5, "reason": "late"},
    ),
    "sheet-reject": Page(
        "sheet-reject", lambda w: sheet_path(w.sheet, "sheet-reject"), "post", lambda w: {"reason": "deal 2 is wrong"}
    ),
    "sheet-entry-draft": Page("sheet-entry", lambda w: sheet_path(w.draft_sheet, "sheet-entry")),
    "sheet-entry-hidden": Page("sheet-entry", lambda w: sheet_path(w.hidden_sheet, "sheet-entry")),
    "sheet-entry-with-the-code": Page(
        "sheet-entry", lambda w: f"{sheet_path(w.sheet, 'sheet-entry')}?code={w.sheet.captain_code}"
    ),
    "sheet-entry-with-a-wrong-code": Page("sheet-entry", lambda w: f"{sheet_path(w.sheet, 'sheet-entry')}?code=0"),
    # tournaments/urls_organiser.py (/manage/): rounds 1 (in play) and 2 (a draft) of the public competition
    "manage-dashboard": Page("manage-dashboard", lambda w: reverse("manage-dashboard")),
    "manage-competition-new": Page("manage-competition-new", lambda w: reverse("manage-competition-new")),
    # tournaments/rule_editor/urls.py (/manage/rules/): the club's own rule set, and the shared one its plays under
    "manage-rule-sets": Page("manage-rule-sets", lambda w: reverse("manage-rule-sets")),
    "manage-rule-set-new": Page(
        "manage-rule-set-new",
        lambda w: reverse("manage-rule-set-new"),
        "post",
        lambda w: {"new-club": w.competition.club_id, "new-preset": "iwwa", "new-name": "Matrix rules"},
    ),
    "manage-rule-set-import": Page(
        "manage-rule-set-import",
        lambda w: reverse("manage-rule-set-import"),
        "post",
        lambda w: {"import-club": w.competition.club_id, "import-file": _rules_file()},
    ),
    "manage-rule-set": Page("manage-rule-set", lambda w: reverse("manage-rule-set", args=[w.club_rules.pk])),
    "manage-rule-set-shared": Page(
        "manage-rule-set", lambda w: reverse("manage-rule-set", args=[w.competition.rule_set_id])
    ),
    "manage-rule-set-preview": Page(
        "manage-rule-set-preview", lambda w: reverse("manage-rule-set-preview", args=[w.club_rules.pk]), "post"
    ),
    "manage-rule-set-export": Page(
        "manage-rule-set-export", lambda w: reverse("manage-rule-set-export", args=[w.club_rules.pk])
    ),
    "manage-competition": Page("manage-competition", _manage("manage-competition")),
    "manage-competition-hidden": Page("manage-competition", _manage("manage-competition", hidden=True)),
    "manage-competition-edit": Page("manage-competition-edit", _manage("manage-competition-edit")),
    "manage-competition-close": Page("manage-competition-close", _manage("manage-competition-close"), "post"),
    "manage-competition-reopen": Page(
        "manage-competition-reopen", _manage("manage-competition-reopen"), "post", lambda w: {"reopen-reason": "x"}
    ),
    "manage-players": Page("manage-players", _manage("manage-players")),
    "manage-players-hidden": Page("manage-players", _manage("manage-players", hidden=True)),
    "manage-register": Page(
        "manage-register", _manage("manage-register"), "post", lambda w: {"player": PlayerFactory().pk}
    ),
    "manage-walk-in": Page(
        "manage-walk-in",
        _manage("manage-walk-in"),
        "post",
        lambda w: {"walkin-first_name": "Mie", "walkin-last_name": "Smet"},
    ),
    "manage-import-players": Page("manage-import-players", _manage("manage-import-players"), "post", _players_csv),
    "manage-withdraw": Page("manage-withdraw", lambda w: _manage("manage-withdraw", w.registered.pk)(w)),
    "manage-withdraw-post": Page("manage-withdraw", lambda w: _manage("manage-withdraw", w.registered.pk)(w), "post"),
    "manage-round-new": Page("manage-round-new", _manage("manage-round-new"), "post", lambda w: {"method": "random"}),
    "manage-round": Page("manage-round", _manage("manage-round", 2)),
    "manage-round-hidden": Page("manage-round", _manage("manage-round", 1, hidden=True)),
    "manage-round-progress": Page("manage-round-progress", _manage("manage-round-progress", 1)),
    "manage-round-redraw": Page(
        "manage-round-redraw", _manage("manage-round-redraw", 2), "post", lambda w: {"redraw-method": "random"}
    ),
    "manage-round-swap": Page("manage-round-swap", _manage("manage-round-swap", 2), "post", _swap),
    "manage-round-publish": Page("manage-round-publish", _manage("manage-round-publish", 2), "post"),
    "manage-round-finalise": Page("manage-round-finalise", _manage("manage-round-finalise", 1), "post"),
    "manage-round-reopen": Page(
        "manage-round-reopen", _manage("manage-round-reopen", 1), "post", lambda w: {"reopen-reason": "x"}
    ),
    # tournaments/duplicate/urls.py (/manage/): a duplicate round's boards are hand records, for those who run it only
    "manage-boards": Page("manage-boards", _boards("manage-boards", 2)),
    "manage-boards-in-play": Page("manage-boards", _boards("manage-boards", 1)),
    "manage-boards-hidden": Page("manage-boards", _boards("manage-boards", 1, hidden=True)),
    "manage-boards-not-duplicate": Page("manage-boards", _manage("manage-boards", 1)),
    "manage-boards-pbn": Page("manage-boards-pbn", _boards("manage-boards-pbn", 2)),
    "manage-boards-pbn-hidden": Page("manage-boards-pbn", _boards("manage-boards-pbn", 1, hidden=True)),
    "manage-boards-print": Page("manage-boards-print", _boards("manage-boards-print", 2)),
    "manage-boards-print-hidden": Page("manage-boards-print", _boards("manage-boards-print", 1, hidden=True)),
    "manage-boards-import": Page("manage-boards-import", _boards("manage-boards-import", 2), "post", _pbn_file),
    "manage-boards-import-in-play": Page("manage-boards-import", _boards("manage-boards-import", 1), "post", _pbn_file),
    # tournaments/duplicate/public_urls.py: the boards, their analysis and par once the round is finalised; before,
    # for those who run it only (players and table-code holders included: a 404)
    "round-boards": Page("round-boards", _public_boards("round-boards", 1)),
    "round-boards-in-play": Page("round-boards", _public_boards("round-boards", 1, over=False)),
    "round-boards-draft": Page("round-boards", _public_boards("round-boards", 2, over=False)),
    "round-boards-hidden": Page("round-boards", _public_boards("round-boards", 1, hidden=True)),
    "round-boards-not-duplicate": Page("round-boards", _manage("round-boards", 1)),  # finalised or not: no boards
    "board": Page("board", _public_boards("board", 1, 1)),
    "board-in-play": Page("board", _public_boards("board", 1, 1, over=False)),
    "board-hidden": Page("board", _public_boards("board", 1, 1, hidden=True)),
    "board-unknown": Page("board", _public_boards("board", 1, 99)),
    # tournaments/checkin/urls.py: the phone page takes a player's public name and the venue code
    "checkin": Page("checkin", lambda w: reverse("checkin", args=[w.competition.slug])),
    "checkin-hidden": Page("checkin", lambda w: reverse("checkin", args=[w.hidden.slug])),
    "checkin-post": Page("checkin", lambda w: reverse("checkin", args=[w.competition.slug]), "post", _check_in),
    "manage-checkin": Page("manage-checkin", _manage("manage-checkin")),
    "manage-checkin-hidden": Page("manage-checkin", _manage("manage-checkin", hidden=True)),
    "manage-checkin-poster": Page("manage-checkin-poster", _manage("manage-checkin-poster")),
    "manage-checkin-seat": Page("manage-checkin-seat", _manage("manage-checkin-seat"), "post"),
    "manage-checkin-new-code": Page("manage-checkin-new-code", _manage("manage-checkin-new-code"), "post"),
    # tournaments/display/urls.py: the venue's screen and its fragments; its controls under /manage/
    "display": Page("display", lambda w: reverse("display", args=[w.competition.slug])),
    "display-hidden": Page("display", lambda w: reverse("display", args=[w.hidden.slug])),
    "display-live": Page("display-live", lambda w: reverse("display-live", args=[w.competition.slug])),
    "display-live-hidden": Page("display-live", lambda w: reverse("display-live", args=[w.hidden.slug])),
    "round-clock": Page("round-clock", lambda w: reverse("round-clock", args=[w.competition.slug, 1])),
    "round-clock-draft": Page("round-clock", lambda w: reverse("round-clock", args=[w.competition.slug, 2])),
    "round-clock-hidden": Page("round-clock", lambda w: reverse("round-clock", args=[w.hidden.slug, 1])),
    "manage-clock-start": Page(
        "manage-clock-start", _manage("manage-clock-start", 1), "post", lambda w: {"minutes": 60}
    ),
    "manage-clock-pause": Page("manage-clock-pause", _manage("manage-clock-pause", 1), "post"),
    "manage-clock-resume": Page("manage-clock-resume", _manage("manage-clock-resume", 1), "post"),
    "manage-clock-adjust": Page(
        "manage-clock-adjust", _manage("manage-clock-adjust", 1), "post", lambda w: {"minutes": 5}
    ),
    "manage-clock-stop": Page("manage-clock-stop", _manage("manage-clock-stop", 1), "post"),
    "manage-announcement-add": Page(
        "manage-announcement-add", _manage("manage-announcement-add"), "post", lambda w: {"text": "Break"}
    ),
    "manage-announcement-hide": Page("manage-announcement-hide", _announcement, "post"),
    # tournaments/progression/urls.py: the standings' rule; the player fragment only for a player with a rank there
    "progression": Page("progression", lambda w: reverse("progression", args=[w.competition.slug])),
    "progression-hidden": Page("progression", lambda w: reverse("progression", args=[w.hidden.slug])),
    "progression-player": Page(
        "progression-player", lambda w: reverse("progression-player", args=[w.competition.slug, w.registered.pk])
    ),
    "progression-player-hidden": Page(
        "progression-player",
        lambda w: reverse("progression-player", args=[w.hidden.slug, w.hidden.players.order_by("pk")[0].pk]),
    ),
    "progression-player-elsewhere": Page(
        "progression-player",
        lambda w: reverse("progression-player", args=[w.competition.slug, w.hidden.players.order_by("pk")[0].pk]),
    ),
    # tournaments/ratings/urls.py: public names only, finalised public rounds only
    "ratings": Page("ratings", lambda w: reverse("ratings")),
    "offline-engine": Page("offline-engine", lambda w: reverse("offline-engine")),  # the engine's own source
    "offline-worker": Page("offline-worker", lambda w: reverse("offline-worker")),  # the entry page's worker
    # config/urls.py
    "admin-index": Page("admin:index", lambda w: reverse("admin:index")),
    "admin-login": Page("admin:login", lambda w: reverse("admin:login")),
    "login": Page("login", lambda w: reverse("login")),
    "logout": Page("logout", lambda w: reverse("logout"), "post"),
    "password-change": Page("password_change", lambda w: reverse("password_change")),
    "password-change-done": Page("password_change_done", lambda w: reverse("password_change_done")),
    "set-language": Page("set_language", lambda w: reverse("set_language"), "post", lambda w: {"language": "nl"}),
    "api-schema": Page("api-schema", lambda w: reverse("api-schema")),
    "api-docs": Page("api-docs", lambda w: reverse("api-docs")),
    "favicon": Page("favicon", lambda w: reverse("favicon")),
}

# -- the expectations -----------------------------------------------------------------------------------------------

OK = "ok"  # 200
LOG = "login"  # 302 to the login page, coming back here afterwards
ADM = "admin login"  # 302 to the admin's login page
IDX = "admin index"  # 302 to the admin's index: already logged in as staff
NO = "forbidden"  # 403
HID = "hidden"  # 404
GO = "redirect"  # 302 somewhere else: done (a logout, a language, a saved line, a code remembered)
BAD = "refused"  # 400: the form refuses what was named (another club's, for one)
OUT = "signed out"  # 401: a script's JSON answer (the entry page's queue), which says to log in again

EVERYONE = (OK, OK, OK, OK, OK, OK, OK, OK)
MANAGERS = (HID, HID, HID, HID, OK, HID, OK, OK)  # the competition's organiser, its club's admins, superusers
NOBODY = (HID, HID, HID, HID, HID, HID, HID, HID)
# /manage/: log in first; then those who run it, a 403 for others (a 404 when the competition is hidden)
MANAGE = (LOG, NO, NO, LOG, OK, NO, OK, OK)
MANAGE_POST = (LOG, NO, NO, LOG, GO, NO, GO, GO)
MANAGE_HIDDEN = (LOG, HID, HID, LOG, OK, HID, OK, OK)
# fmt: off
EXPECTED: dict[str, tuple[str, ...]] = {
    #                                 anonymous outsider player captain organiser other_admin club_admin superuser
    "home":                           EVERYONE,
    "competition":                    EVERYONE,
    "competition-hidden":             MANAGERS,
    "competition-unknown":            NOBODY,
    "competition-standings":          EVERYONE,
    "competition-standings-hidden":   MANAGERS,
    "round":                          EVERYONE,
    "round-draft":                    MANAGERS,
    "round-hidden":                   MANAGERS,
    "club":                           EVERYONE,
    "season":                         EVERYONE,
    "season-hidden":                  MANAGERS,
    "tariff":                         EVERYONE,  # the competition page's rule (tournaments.tariff)
    "tariff-hidden":                  MANAGERS,
    "player":                         EVERYONE,
    "player-unknown":                 NOBODY,
    "round-print":                    EVERYONE,
    "round-print-draft":              MANAGERS,
    "round-print-hidden":             MANAGERS,
    "sheet":                          EVERYONE,
    "sheet-draft":                    MANAGERS,
    "sheet-hidden":                   MANAGERS,
    "sheet-entry":                    (LOG,     NO,      NO,    OK,     OK,       NO,         OK,        OK),
    "sheet-entry-post":               (LOG,     NO,      NO,    GO,     GO,       NO,         GO,        GO),
    "sheet-entry-other-table":        (LOG,     NO,      NO,    LOG,    OK,       NO,         OK,        OK),
    "sheet-entry-other-table-post":   (LOG,     NO,      NO,    LOG,    GO,       NO,         GO,        GO),
    "sheet-entry-preview":            (LOG,     NO,      NO,    OK,     OK,       NO,         OK,        OK),
    "sheet-entry-queued":             (OUT,     NO,      NO,    OK,     OK,       NO,         OK,        OK),
    "sheet-confirm":                  (LOG,     NO,      NO,    GO,     GO,       NO,         GO,        GO),
    "sheet-stop":                     (LOG,     NO,      NO,    GO,     GO,       NO,         GO,        GO),
    "sheet-penalty":                  (LOG,     NO,      NO,    NO,     GO,       NO,         GO,        GO),
    "sheet-reject":                   (LOG,     NO,      NO,    GO,     GO,       NO,         GO,        GO),
    "sheet-entry-draft":              (LOG,     HID,     HID,   LOG,    OK,       HID,        OK,        OK),
    "sheet-entry-hidden":             (LOG,     HID,     HID,   LOG,    OK,       HID,        OK,        OK),
    "sheet-entry-with-the-code":      (GO,      GO,      GO,    GO,     GO,       GO,         GO,        GO),
    "sheet-entry-with-a-wrong-code":  (NO,      NO,      NO,    NO,     NO,       NO,         NO,        NO),
    "manage-dashboard":               (LOG,     OK,      OK,    LOG,    OK,       OK,         OK,        OK),
    "manage-competition-new":         (LOG,     NO,      NO,    LOG,    NO,       OK,         OK,        OK),
    "manage-rule-sets":               (LOG,     NO,      NO,    LOG,    NO,       OK,         OK,        OK),
    "manage-rule-set-new":            (LOG,     NO,      NO,    LOG,    NO,       BAD,        GO,        GO),
    "manage-rule-set-import":         (LOG,     NO,      NO,    LOG,    NO,       BAD,        GO,        GO),
    "manage-rule-set":                (LOG,     HID,     HID,   LOG,    HID,      HID,        OK,        OK),
    "manage-rule-set-shared":         (LOG,     HID,     HID,   LOG,    HID,      HID,        HID,       OK),
    "manage-rule-set-preview":        (LOG,     HID,     HID,   LOG,    HID,      HID,        OK,        OK),
    "manage-rule-set-export":         (LOG,     HID,     HID,   LOG,    HID,      HID,        OK,        OK),
    "manage-competition":             MANAGE,
    "manage-competition-hidden":      MANAGE_HIDDEN,
    "manage-competition-edit":        MANAGE,
    "manage-competition-close":       MANAGE_POST,
    "manage-competition-reopen":      MANAGE_POST,
    "manage-players":                 MANAGE,
    "manage-players-hidden":          MANAGE_HIDDEN,
    "manage-register":                MANAGE_POST,
    "manage-walk-in":                 MANAGE_POST,
    "manage-import-players":          MANAGE_POST,
    "manage-withdraw":                MANAGE,
    "manage-withdraw-post":           MANAGE_POST,
    "manage-round-new":               MANAGE_POST,
    "manage-round":                   MANAGE,
    "manage-round-hidden":            MANAGE_HIDDEN,
    "manage-round-progress":          MANAGE,
    "manage-round-redraw":            MANAGE_POST,
    "manage-round-swap":              MANAGE_POST,
    "manage-round-publish":           MANAGE_POST,
    "manage-round-finalise":          MANAGE_POST,
    "manage-round-reopen":            MANAGE_POST,
    "manage-boards":                  MANAGE,
    "manage-boards-in-play":          MANAGE,
    "manage-boards-hidden":           MANAGE_HIDDEN,
    "manage-boards-not-duplicate":    (LOG,     NO,      NO,    LOG,    HID,      NO,         HID,       HID),
    "manage-boards-pbn":              MANAGE,
    "manage-boards-pbn-hidden":       MANAGE_HIDDEN,
    "manage-boards-print":            MANAGE,
    "manage-boards-print-hidden":     MANAGE_HIDDEN,
    "manage-boards-import":           MANAGE_POST,
    "manage-boards-import-in-play":   MANAGE,  # refused beside the file field: round 1 has a line
    "round-boards":                   EVERYONE,  # finalised: as the round's results
    "round-boards-in-play":           MANAGERS,
    "round-boards-draft":             MANAGERS,
    "round-boards-hidden":            MANAGERS,
    "round-boards-not-duplicate":     NOBODY,
    "board":                          EVERYONE,
    "board-in-play":                  MANAGERS,
    "board-hidden":                   MANAGERS,
    "board-unknown":                  NOBODY,
    "checkin":                        EVERYONE,
    "checkin-hidden":                 MANAGERS,
    "checkin-post":                   EVERYONE,  # a 200 saying "checked in": the venue code is the key
    "manage-checkin":                 MANAGE,
    "manage-checkin-hidden":          MANAGE_HIDDEN,
    "manage-checkin-poster":          MANAGE,
    "manage-checkin-seat":            MANAGE_POST,
    "manage-checkin-new-code":        MANAGE_POST,
    "display":                        EVERYONE,
    "display-hidden":                 MANAGERS,
    "display-live":                   EVERYONE,
    "display-live-hidden":            MANAGERS,
    "round-clock":                    EVERYONE,
    "round-clock-draft":              MANAGERS,
    "round-clock-hidden":             MANAGERS,
    "manage-clock-start":             MANAGE_POST,
    "manage-clock-pause":             MANAGE_POST,
    "manage-clock-resume":            MANAGE_POST,
    "manage-clock-adjust":            MANAGE_POST,
    "manage-clock-stop":              MANAGE_POST,
    "manage-announcement-add":        MANAGE_POST,
    "manage-announcement-hide":       MANAGE_POST,
    "progression":                    EVERYONE,
    "progression-hidden":             MANAGERS,
    "progression-player":             EVERYONE,
    "progression-player-hidden":      MANAGERS,
    "progression-player-elsewhere":   NOBODY,  # no rank in this competition
    "ratings":                        EVERYONE,
    "admin-index":                    (ADM,     ADM,     ADM,   ADM,    ADM,      ADM,        OK,        OK),
    "admin-login":                    (OK,      OK,      OK,    OK,     OK,       OK,         IDX,       IDX),
    "login":                          EVERYONE,
    "logout":                         (GO,      GO,      GO,    GO,     GO,       GO,         GO,        GO),
    "password-change":                (LOG,     OK,      OK,    LOG,    OK,       OK,         OK,        OK),
    "password-change-done":           (LOG,     OK,      OK,    LOG,    OK,       OK,         OK,        OK),
    "set-language":                   (GO,      GO,      GO,    GO,     GO,       GO,         GO,        GO),
    "offline-engine":                 EVERYONE,
    "offline-worker":                 EVERYONE,
    "api-schema":                     EVERYONE,
    "api-docs":                       EVERYONE,
    "favicon":                        (GO,      GO,      GO,    GO,     GO,       GO,         GO,        GO),
}
# fmt: on

CELLS = [(name, role, outcome) for name, row in EXPECTED.items() for role, outcome in zip(ROLES, row, strict=True)]


def request(client: Client, world: World, page: Page) -> Any:
    data = page.data(world) if page.data else {}
    return getattr(client, page.method)(page.url(world), data)


def check(response: Any, outcome: str, url: str) -> str | None:
    """Why ``response`` is not ``outcome``, or None when it is."""
    status, location = response.status_code, response.get("Location", "")
    login = reverse(settings.LOGIN_URL)
    admin_login = reverse("admin:login")
    expected: dict[str, Callable[[], bool]] = {
        OK: lambda: status == 200,
        NO: lambda: status == 403,
        HID: lambda: status == 404,
        LOG: lambda: status == 302 and location.startswith(login) and f"next={url.split('?')[0]}" in location,
        ADM: lambda: status == 302 and location.startswith(admin_login),
        IDX: lambda: status == 302 and location == reverse("admin:index"),
        GO: lambda: status == 302 and not location.startswith((login, admin_login)),
        BAD: lambda: status == 400,
        OUT: lambda: status == 401,
    }
    return None if expected[outcome]() else f"expected {outcome}, got {status} {location}"


@pytest.mark.parametrize(("name", "role", "outcome"), CELLS, ids=[f"{n}-{r}" for n, r, _ in CELLS])
def test_each_role_gets_exactly_the_page_access_the_matrix_gives_it(
    world: World, name: str, role: str, outcome: str
) -> None:
    page = PAGES[name]
    url = page.url(world)
    problem = check(request(client_for(world, role), world, page), outcome, url)
    assert problem is None, f"{page.method.upper()} {url} as {role}: {problem}"


def test_every_row_has_a_request_and_every_request_a_row() -> None:
    assert set(EXPECTED) == set(PAGES)


# -- every route has a row ------------------------------------------------------------------------------------------

COVERED_ELSEWHERE = (
    "api/v1/",  # the API's own matrix: tests/api/test_permission_matrix.py
    "admin/",  # the admin's permissions (test_admin_scope.py); its index and login have rows here
)


def test_every_page_route_has_a_row() -> None:
    served = routes(get_resolver().url_patterns)
    pages = {(path, name) for path, name in served if not path.startswith(COVERED_ELSEWHERE)}
    assert {name for _, name in pages} >= {"home", "sheet-entry", "login", "set_language"}  # the walk works
    unnamed = {path for path, name in pages if not name}
    assert unnamed == set(), "routes without a name cannot be given a row"
    rows = {page.route for page in PAGES.values()}
    assert {name for _, name in pages} - rows == set(), "page routes without a permission row"
    assert {"admin:index", "admin:login"} <= rows
    assert rows - {name for _, name in served} == set(), "rows for routes that do not exist"


# -- what the captain's code does, beyond the matrix ----------------------------------------------------------------


def test_the_captains_line_is_stored_with_no_account_and_the_code_leaves_the_address(world: World) -> None:
    client = Client()
    url = sheet_path(world.sheet, "sheet-entry")
    opened = client.get(url, {"code": world.sheet.captain_code})
    assert opened["Location"] == url  # the code is not kept in the address (history, referrers, logs)

    assert client.post(url, DEAL_2_FORM).status_code == 302

    stored = DealEntry.objects.get(sheet=world.sheet, deal_number=2)
    assert stored.created_by is None and stored.points == [0, 0, 0, 0]


def test_a_new_table_code_shuts_out_the_session_that_held_the_old_one(world: World) -> None:
    client = client_for(world, "captain")
    url = sheet_path(world.sheet, "sheet-entry")
    assert client.get(url).status_code == 200

    ScoreSheet.objects.filter(pk=world.sheet.pk).update(captain_code="fresh-code")

    assert client.get(url).status_code == 302  # to the login page


def test_the_captain_of_a_table_of_a_hidden_competition_enters_it_with_the_code(world: World) -> None:
    client = Client()
    url = sheet_path(world.hidden_sheet, "sheet-entry")
    assert client.get(url, {"code": world.hidden_sheet.captain_code}).status_code == 302
    assert client.get(url).status_code == 200
    assert client.get(sheet_path(world.hidden_sheet)).status_code == 404  # the rest stays hidden


def test_wrong_table_codes_from_one_address_do_not_shut_out_the_right_one(world: World) -> None:
    """A venue's tables share one address: wrong codes there (80-bit codes, not guessed) lock nobody out."""
    client = Client()
    url = sheet_path(world.sheet, "sheet-entry")
    for attempt in range(30):
        assert client.get(url, {"code": f"wrong-{attempt}"}).status_code == 403
    assert client.get(url, {"code": world.sheet.captain_code}).status_code == 302
