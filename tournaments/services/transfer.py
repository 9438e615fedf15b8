"""Import and export: score sheets and standings as CSV and JSON, a competition as one JSON archive.

Imports are all or nothing: every bad row is reported with its row number,
and nothing is stored while any row is bad. Lines go through the entry
service, so the engine judges imported lines like typed ones.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import DataError, IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify

from games.contracts import CONTRACTS, Side
from games.errors import FieldError, GameError, InvalidSheet
from scoring.models import Standing
from scoring.records import ScoringError
from scoring.services import recompute_standings
from tournaments import limits
from tournaments.csv_cells import restore, write_csv
from tournaments.former_addresses import held_elsewhere
from tournaments.models import (
    Board,
    Club,
    Competition,
    DealEntry,
    Membership,
    Penalty,
    Player,
    Registration,
    Round,
    RuleSet,
    ScoreSheet,
    Seat,
    SeatingWish,
    Table,
)
from tournaments.public_names import is_named
from tournaments.seating import GENERATORS
from tournaments.services.entry import engine_sheet, record_deal
from tournaments.services.errors import EntryRejected, ServiceError, StaleVersion
from tournaments.services.transfer_checks import (
    INCONSISTENT,
    INVALID,
    MALFORMED,
    ArchiveProblem,
    Part,
    add_penalty,
    at,
    checked,
    kind_of,
    place_once,
    problem,
    refusals_at,
    refuse_only_spaces,
    refuse_unstorable_text,
    seats_of,
)

ARCHIVE_FORMAT = "wiezen-competition/1"
CSV_COLUMNS = [
    "deal",
    "dealer",
    "contract",
    "declarers",
    "tricks",
    "level",
    "trump",
    "offender",
    "played",
    "cut",
    "duties_failed",
    "trump_ace",
    "note",
    "points",
]
_INT_COLUMNS = {"deal", "dealer", "level", "offender", "trump_ace"}
_LIST_COLUMNS = {"declarers", "played", "duties_failed"}


class ImportRejected(ServiceError):
    """Rows that cannot be imported: ``errors`` pairs a row number (from 1; ``None``: the file) with a problem.

    Only the first ``ERROR_LIST_LIMIT`` problems are kept, ``omitted`` counts the rest: a file of a million bad
    rows must not make an answer (or a message) a million problems long.
    """

    def __init__(self, errors: Iterable[tuple[int | None, FieldError]]):
        limit = settings.ERROR_LIST_LIMIT
        self.errors: list[tuple[int | None, FieldError]] = []
        self.omitted = 0
        for error in errors:
            if len(self.errors) < limit:
                self.errors.append(error)
            else:
                self.omitted += 1
        listed = "; ".join(f"row {row}: {e.field or 'row'}: {e.message}" for row, e in self.errors)
        super().__init__(listed + (f"; and {self.omitted} more" if self.omitted else ""))


def current_lines(sheet: ScoreSheet) -> list[dict[str, Any]]:
    return list(sheet.entries.filter(is_current=True).order_by("deal_number").values_list("line", flat=True))


def sheet_csv(sheet: ScoreSheet) -> str:
    rows = []
    for entry in sheet.entries.filter(is_current=True).order_by("deal_number"):
        row = {key: _cell(value) for key, value in entry.line.items() if key in CSV_COLUMNS}
        row["points"] = _cell(entry.points)
        rows.append(row)
    return write_csv(CSV_COLUMNS, rows)


def _cell(value: Any) -> Any:
    """A list as its items separated by spaces; anything else as it is (``write_csv`` neutralises text)."""
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return value


def parse_sheet_csv(text: str) -> list[dict[str, Any]]:
    """Engine lines from CSV rows (the ``points`` column, if any, is ignored: points are computed).

    A cell that does not read as its column's type is kept as text, so the
    engine reports it (``wrong_type``) together with every other bad row.
    """
    reader = csv.DictReader(io.StringIO(text.removeprefix("\ufeff")))  # a spreadsheet's byte order mark
    try:
        return _read_lines(reader)
    except csv.Error as exc:  # e.g. a cell over the csv module's size limit
        raise ImportRejected([(None, FieldError("malformed_csv", "", f"line {reader.line_num}: {exc}"))]) from exc


def _read_lines(reader: csv.DictReader[str]) -> list[dict[str, Any]]:
    unknown = [c for c in reader.fieldnames or [] if c not in CSV_COLUMNS]
    if not reader.fieldnames or "deal" not in reader.fieldnames:
        raise ImportRejected([(None, FieldError("missing_field", "deal", "the CSV needs a header with a deal column"))])
    if unknown:
        raise ImportRejected([(None, FieldError("unknown_field", unknown[0], f"unknown columns {unknown}"))])
    lines: list[dict[str, Any]] = []
    errors: list[tuple[int | None, FieldError]] = []
    for number, row in enumerate(reader, start=1):
        surplus = row.pop(None, None)  # type: ignore[call-overload]
        if surplus:
            message = f"row {number} has {len(surplus)} more cells than the header has columns: {surplus}"
            errors.append((number, FieldError("unknown_field", "", message)))
        line: dict[str, Any] = {}
        for key, raw in row.items():
            text_value = restore((raw or "").strip())  # an exported note keeps its "=": see csv_cells
            if key == "points" or not text_value:
                continue
            try:
                line[key] = _parse_cell(key, text_value)
            except ValueError:
                line[key] = text_value
        if type(line.get("tricks")) is int and _counts_per_declarer(line.get("contract")):
            line["tricks"] = [line["tricks"]]  # a miserie's tricks are a list even with one declarer
        lines.append(line)
    if errors:
        raise ImportRejected(errors)
    return lines


def _counts_per_declarer(contract_id: Any) -> bool:
    contract = CONTRACTS.get(contract_id) if isinstance(contract_id, str) else None
    return contract is not None and contract.side is Side.EACH_ALONE


def _parse_cell(key: str, text: str) -> Any:
    if key in _INT_COLUMNS:
        return int(text)
    if key in _LIST_COLUMNS:
        return [int(part) for part in text.split()]
    if key == "tricks":
        parts = [int(part) for part in text.split()]
        return parts if len(parts) > 1 else parts[0]
    return text


def import_lines(sheet: ScoreSheet, lines: list[Any], *, by: Any = None, entered_in: str = "") -> list[DealEntry]:
    """Append ``lines`` after the sheet's current ones: every row is checked first, then all are stored.
    ``entered_in``: the importing device's mark, as for a line entered (``tournaments.devices``)."""
    if not isinstance(lines, list) or not lines:
        raise ImportRejected([(None, FieldError("missing_field", "lines", "nothing to import: give a list of lines"))])
    existing = current_lines(sheet)
    if len(existing) + len(lines) > limits.DEAL_NUMBER.high:
        message = f"a sheet takes at most {limits.DEAL_NUMBER.high} deals; it has {len(existing)}"
        raise ImportRejected([(None, FieldError("too_many_deals", "lines", message))])
    try:
        engine_sheet(sheet, [*existing, *lines])
    except EntryRejected as exc:
        raise ImportRejected(_rows(exc, len(existing))) from exc
    try:
        with transaction.atomic():
            return [
                record_deal(sheet, line, by=by, source=DealEntry.Source.IMPORT, entered_in=entered_in).entry
                for line in lines
            ]
    except EntryRejected as exc:  # the sheet takes no lines (a draft or finalised round, a final sheet)
        raise ImportRejected([(None, e) for e in exc.errors]) from exc
    except StaleVersion as exc:  # someone added a deal meanwhile: an import only appends, it never overwrites
        raise ImportRejected([(None, FieldError("deal_exists", "deal", str(exc)))]) from exc


def _rows(exc: EntryRejected, offset: int) -> list[tuple[int | None, FieldError]]:
    cause = exc.__cause__
    if not isinstance(cause, InvalidSheet):
        return [(None, e) for e in exc.errors]
    rows: list[tuple[int | None, FieldError]] = []
    for failure in cause.lines:
        number = failure.line_number or 0
        for error in failure.errors:
            if number > offset:
                rows.append((number - offset, error))
            else:  # a line already on the sheet no longer fits its rule set
                rows.append((None, FieldError("stored_lines_invalid", error.field, f"deal {number}: {error.message}")))
    return rows


def standings_rows(competition: Competition) -> list[dict[str, Any]]:
    stored = Standing.objects.filter(competition=competition).select_related("player")
    return [
        {
            "rank": s.rank,
            "player": s.player_id,
            "player_name": s.player.public_name,
            "points": s.points,
            "deals_played": s.deals_played,
            "sessions_played": s.sessions_played,
            "penalty_points": s.penalty_points,
        }
        for s in stored.order_by(*Standing.BEST_FIRST)
    ]


def standings_csv(competition: Competition) -> str:
    columns = ["rank", "player", "player_name", "points", "deals_played", "sessions_played", "penalty_points"]
    return write_csv(columns, standings_rows(competition))


# Competition settings that travel in an archive as they are.
COMPETITION_SETTINGS = (
    "standings_method",
    "tie_breaks",
    "placement_points",
    "min_evenings",
    "best_evenings",
    "evening_decay",
    "seating_method",
    "keep_clubmates_apart",
    "duplicate",
    "movement",
)


def export_competition(competition: Competition) -> dict[str, Any]:
    """The whole competition as one JSON object that ``import_competition`` reads back."""
    rule_set = competition.rule_set
    players = Player.objects.filter(registrations__competition=competition).order_by("pk")
    rounds = []
    for round_ in competition.rounds.order_by("number"):
        tables = []
        for table in round_.tables.order_by("number").select_related("sheet"):
            tables.append(
                {
                    "number": table.number,
                    "size": table.size,
                    "seats": list(table.seats.order_by("position").values_list("player_id", flat=True)),
                    "sheet": {"state": table.sheet.state, "lines": current_lines(table.sheet)},
                }
            )
        rounds.append(
            {
                "number": round_.number,
                "seed": round_.seed,
                "status": round_.status,
                "method": round_.method,
                "byes": list(round_.byes or []),
                **({"boards": _export_boards(round_)} if competition.duplicate else {}),
                "tables": tables,
            }
        )
    return {
        "format": ARCHIVE_FORMAT,
        "competition": {
            "name": competition.name,
            "slug": competition.slug,
            "kind": competition.kind,
            "deals_per_session": competition.deals_per_session,
            "is_public": competition.is_public,
            "starts_on": competition.starts_on.isoformat() if competition.starts_on else None,
            **{name: getattr(competition, name) for name in COMPETITION_SETTINGS},
            "closed": competition.closed_at is not None,
        },
        "rule_set": {
            "name": rule_set.name,
            "game": rule_set.game,
            "preset": rule_set.preset,
            "overrides": rule_set.overrides,
        },
        "players": [
            {
                "key": p.pk,
                "first_name": p.first_name,
                "last_name": p.last_name,
                "display_name": p.display_name,
                "federation_id": p.federation_id,
            }
            for p in players
        ],
        "withdrawn": sorted(
            competition.registrations.filter(withdrawn_at__isnull=False).values_list("player_id", flat=True)
        ),
        "wishes": [
            {"player": a, "other": b, "kind": kind}
            for a, b, kind in competition.seating_wishes.order_by("pk").values_list("player_id", "other_id", "kind")
        ],
        "rounds": rounds,
        "penalties": [
            {
                "round": p.round.number if p.round else None,
                "player": p.player_id,
                "points": p.points,
                "reason": p.reason,
            }
            for p in competition.penalties.select_related("round").order_by("pk")
        ],
    }


def _export_boards(round_: Round) -> list[dict[str, Any]]:
    """A duplicate round's boards as stored: the deal's 52 compass letters, the turned card's index, the seed."""
    return [
        {"number": b.number, "dealer": b.dealer, "deal": b.deal, "turned": b.turned, "seed": b.seed}
        for b in round_.boards.order_by("number")
    ]


def import_competition(archive: Any, *, club: Club, by: Any = None, slug: str | None = None) -> Competition:
    """Create a competition from an archive, all or nothing; players are matched on federation id.

    Its standings are computed in the same transaction, so an archive the standings refuse leaves nothing.
    """
    if not isinstance(archive, dict) or archive.get("format") != ARCHIVE_FORMAT:
        raise ImportRejected([(None, FieldError("wrong_format", "format", f"not a {ARCHIVE_FORMAT} archive"))])
    try:
        with transaction.atomic():
            competition = _import(Part(archive), club, by, slug)
            _compute_standings(competition)
    except ArchiveProblem as exc:
        raise ImportRejected((None, e) for e in exc.errors) from exc
    except (KeyError, TypeError, ValueError) as exc:  # a shape the checks did not foresee: still the archive's
        raise ImportRejected([(None, FieldError(MALFORMED, "", f"the archive is malformed: {exc!r}"))]) from exc
    except (IntegrityError, DataError) as exc:  # a last resort: the checks should have named the place
        raise ImportRejected(
            [(None, FieldError(INCONSISTENT, "", f"the database refuses the archive: {exc}"))]
        ) from exc
    return competition


def _compute_standings(competition: Competition) -> None:
    """In the import's transaction: an archive whose standings cannot be computed is not imported at all."""
    try:
        recompute_standings(competition.pk, claim=False)
    except ScoringError as exc:
        raise problem("competition", f"its standings cannot be computed: {exc}", INVALID) from exc


def _import(root: Part, club: Club, by: Any, slug: str | None) -> Competition:
    refuse_unstorable_text(root.value)
    competition = _import_settings(root, club, slug)
    players = _import_players(root["players"], club)
    Registration.objects.bulk_create([Registration(competition=competition, player=p) for p in players.values()])
    rounds: dict[int, Round] = {}
    final_status: dict[int, str] = {}
    errors: list[FieldError] = []
    for part in root["rounds"].objects():
        round_, status, refused = _import_round(part, competition, players, by)
        rounds[round_.number], final_status[round_.pk] = round_, status
        errors += refused
    _import_penalties(root.get("penalties", []), competition, players, rounds, by)
    if errors:
        raise ArchiveProblem(errors)  # every line the engine refused, in every sheet
    for round_pk, status in final_status.items():
        Round.objects.filter(pk=round_pk).update(status=status)
    withdrawn = [_player(players, key).pk for key in root.get("withdrawn", []).items()]
    Registration.objects.filter(competition=competition, player__in=withdrawn).update(withdrawn_at=timezone.now())
    _import_wishes(root.get("wishes", []), competition, players)
    if root["competition"].get("closed").value:
        Competition.objects.filter(pk=competition.pk).update(closed_at=timezone.now())
        competition.refresh_from_db()
    return competition


def _import_settings(root: Part, club: Club, slug: str | None) -> Competition:
    """The rule set (under a name free in the club) and the competition with its settings."""
    from tournaments.services.competitions import create_competition, create_rule_set

    spec = root["rule_set"]
    name = spec["name"]
    if not isinstance(name.value, str):
        raise problem(name.where, f"must be text, got {kind_of(name.value)}")
    with refusals_at(spec.where):
        rule_set = create_rule_set(
            name=_free_rule_set_name(name.value, club),
            game=spec["game"].value,
            preset=spec["preset"].value,
            overrides=spec.get("overrides").value or {},
            club=club,
        )
        refuse_only_spaces(rule_set)
    info = root["competition"]
    settings = {name: info.object()[name] for name in COMPETITION_SETTINGS if name in info.object()}
    with refusals_at(info.where):
        competition = create_competition(
            club=club,
            name=info["name"].value,
            slug=slug or _free_slug(info["slug"].value),
            rule_set=rule_set,
            kind=info.get("kind", Competition.Kind.TOURNAMENT).value,
            deals_per_session=info.get("deals_per_session").value,
            is_public=bool(info.get("is_public", True).value),
            starts_on=info.get("starts_on").value,
            **settings,
        )
        refuse_only_spaces(competition)
    return competition


def _import_players(part: Part, club: Club) -> dict[int, Player]:
    """The archive's players by key: an existing player with the same federation id, else a new one."""
    players: dict[int, Player] = {}
    federation_ids: dict[str, str] = {}
    for p in part.objects():
        key = p["key"].key()
        if key in players:
            raise problem(at(p.where, "key"), f"player key {key} is used twice")
        candidate = Player(
            first_name=p["first_name"].value,
            last_name=p["last_name"].value,
            display_name=p.get("display_name").value or "",
            federation_id=p.get("federation_id").value or None,  # "" is no federation id
        )
        checked(candidate, p.where, validate_unique=False)  # an existing federation id is a match, not a clash
        federation_id = candidate.federation_id
        if federation_id is not None:
            if federation_id in federation_ids:
                where = at(p.where, "federation_id")
                raise problem(where, f"also {federation_ids[federation_id]}'s federation id", INCONSISTENT)
            federation_ids[federation_id] = p.where
        player = Player.objects.filter(federation_id=federation_id).first() if federation_id else None
        if player is None:  # a new player joins the importing club
            candidate.save()
            player = candidate
            Membership.objects.create(club=club, player=player)
        elif not is_named(player, candidate.first_name, candidate.last_name):  # an id is no key to another's member
            raise problem(
                at(p.where, "federation_id"),
                f"federation id {federation_id} is another player's here: check it, or leave it out",
                INCONSISTENT,
            )
        players[key] = player  # an existing player plays in the competition; their clubs stay theirs
    return players


def _player(players: dict[int, Player], part: Part) -> Player:
    key = part.key()
    if key not in players:
        raise problem(part.where, f"no player with key {key} in players")
    return players[key]


def _import_round(
    part: Part, competition: Competition, players: dict[int, Player], by: Any
) -> tuple[Round, str, list[FieldError]]:
    """A round with its tables, seats and lines; returns its archived status and the lines the engine refused."""
    method = part.get("method", "random")
    if not (isinstance(method.value, str) and method.value in GENERATORS):
        raise problem(method.where, f"unknown seating method: choose one of {', '.join(sorted(GENERATORS))}", INVALID)
    places: dict[int, str] = {}  # a seat or a bye for each of the round's players
    byes = []
    for bye in part.get("byes", []).items():
        byes.append(_player(players, bye).pk)
        place_once(places, bye.key(), bye.where)
    round_ = Round(
        competition=competition,
        number=part["number"].value,
        seed=part.get("seed", 0).value,
        status=part.get("status", Round.Status.DRAFT).value,
        method=method.value,
        byes=byes,
    )
    checked(round_, part.where)
    status, round_.status = round_.status, Round.Status.IN_PLAY  # takes the lines; its own status is set after
    round_.save()
    if competition.duplicate:  # before the lines: each is checked against its board
        _import_boards(part, round_, competition.deals_per_session or 0)
    errors: list[FieldError] = []
    for table in part["tables"].objects():
        errors += _import_table(table, round_, players, places, by)
    return round_, status, errors


def _import_boards(part: Part, round_: Round, count: int) -> None:
    """A duplicate round's boards 1..``count``, each a whole deal the database and the engine accept."""
    boards = part.get("boards", [])
    numbers = []
    for item in boards.objects():
        board = Board(
            round=round_,
            number=item["number"].value,
            dealer=item["dealer"].value,
            deal=item["deal"].value,
            turned=item["turned"].value,
            seed=item.get("seed").value,
        )
        checked(board, item.where)
        try:
            board.engine_board()
        except (GameError, ValueError) as exc:
            raise problem(item.where, f"not a deal: {exc}", INVALID) from exc
        board.save()
        numbers.append(board.number)
    if sorted(numbers) != list(range(1, count + 1)):
        where = at(part.where, "boards")
        raise problem(where, f"a duplicate round has boards 1 to {count}, one a deal; the archive gives {len(numbers)}")


def _import_table(
    part: Part, round_: Round, players: dict[int, Player], places: dict[int, str], by: Any
) -> list[FieldError]:
    table = checked(Table(round=round_, number=part["number"].value, size=part["size"].value), part.where)
    table.save()
    seats = []
    for position, seat in enumerate(seats_of(part, table.size)):
        seats.append(Seat(table=table, round=round_, position=position, player=_player(players, seat)))
        place_once(places, seat.key(), seat.where)
    Seat.objects.bulk_create(seats)
    return _import_sheet(part["sheet"], table, by)


def _import_sheet(part: Part, table: Table, by: Any) -> list[FieldError]:
    """The sheet's lines, judged together by the engine first: a deal listed twice is not taken as a correction."""
    sheet = checked(ScoreSheet(table=table, state=part.get("state", ScoreSheet.State.DRAFT).value), part.where)
    state, sheet.state = sheet.state, ScoreSheet.State.DRAFT  # takes the lines; its own state is set after
    sheet.save()
    lines = [line.value for line in part["lines"].items()]
    try:
        engine_sheet(sheet, lines)
        for line in lines:
            record_deal(sheet, line, by=by, source=DealEntry.Source.IMPORT)
    except EntryRejected as exc:
        where = at(part.where, "lines")
        table_is = f"(round {table.round.number}, table {table.number})"
        return [
            FieldError(e.code, e.field, f"{where if row is None else at(where, row - 1)} {table_is}: {e.message}")
            for row, e in _rows(exc, 0)
        ]
    ScoreSheet.objects.filter(pk=sheet.pk).update(state=state)
    return []


def _import_wishes(part: Part, competition: Competition, players: dict[int, Player]) -> None:
    for wish in part.objects():
        row = SeatingWish(
            competition=competition,
            player=_player(players, wish["player"]),
            other=_player(players, wish["other"]),
            kind=wish["kind"].value,
        )
        checked(row, wish.where).save()


def _import_penalties(
    part: Part, competition: Competition, players: dict[int, Player], rounds: dict[int, Round], by: Any
) -> None:
    totals: dict[int, int] = {}
    for p in part.objects():
        round_part = p.get("round")
        round_ = None if round_part.value is None else rounds.get(round_part.key())
        if round_part.value is not None and round_ is None:
            raise problem(round_part.where, f"no round {round_part.value} in rounds")
        penalty = Penalty(
            competition=competition,
            round=round_,
            player=_player(players, p["player"]),
            points=p["points"].value,
            reason=p["reason"].value,
            created_by=by if getattr(by, "is_authenticated", False) else None,
        )
        checked(penalty, p.where)
        add_penalty(totals, p["player"].key(), penalty.points, p.where)
        penalty.save()


def _free_rule_set_name(wanted: str, club: Club) -> str:
    """``wanted``, or with " (imported)" added as often as the club needs, shortened to fit the column."""
    longest = RuleSet._meta.get_field("name").max_length or 80
    name, suffix = wanted, ""
    while RuleSet.objects.filter(club=club, name=name).exists():
        suffix += " (imported)"
        name = wanted[: max(longest - len(suffix), 1)] + suffix
    return name


def _free_slug(wanted: Any) -> str:
    longest = Competition._meta.get_field("slug").max_length or 50
    base = slugify(str(wanted))[: longest - 6].strip("-") or "competition"  # room for a "-99999"
    slug, n = base, 1
    while Competition.objects.filter(slug=slug).exists() or held_elsewhere(slug, None):
        n += 1
        slug = f"{base}-{n}"
    return slug
