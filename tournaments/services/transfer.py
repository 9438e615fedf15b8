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

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify

from games.contracts import CONTRACTS, Side
from games.errors import FieldError, InvalidSheet
from scoring.models import Standing
from scoring.services import recompute_standings
from tournaments.models import (
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
from tournaments.services.entry import engine_sheet, record_deal
from tournaments.services.errors import EntryRejected, ServiceError

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
    """Rows that cannot be imported: ``errors`` pairs a row number (from 1; ``None``: the file) with a problem."""

    def __init__(self, errors: Iterable[tuple[int | None, FieldError]]):
        self.errors = list(errors)
        super().__init__("; ".join(f"row {row}: {e.field or 'row'}: {e.message}" for row, e in self.errors))


def current_lines(sheet: ScoreSheet) -> list[dict[str, Any]]:
    return list(sheet.entries.filter(is_current=True).order_by("deal_number").values_list("line", flat=True))


def sheet_csv(sheet: ScoreSheet) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS)
    writer.writeheader()
    for entry in sheet.entries.filter(is_current=True).order_by("deal_number"):
        row = {key: _cell(value) for key, value in entry.line.items() if key in CSV_COLUMNS}
        row["points"] = _cell(entry.points)
        writer.writerow(row)
    return out.getvalue()


def _cell(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return "" if value is None else str(value)


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
            text_value = (raw or "").strip()
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


def import_lines(sheet: ScoreSheet, lines: list[Any], *, by: Any = None) -> list[DealEntry]:
    """Append ``lines`` after the sheet's current ones: every row is checked first, then all are stored."""
    if not isinstance(lines, list) or not lines:
        raise ImportRejected([(None, FieldError("missing_field", "lines", "nothing to import: give a list of lines"))])
    existing = current_lines(sheet)
    try:
        engine_sheet(sheet, [*existing, *lines])
    except EntryRejected as exc:
        raise ImportRejected(_rows(exc, len(existing))) from exc
    with transaction.atomic():
        return [record_deal(sheet, line, by=by, source=DealEntry.Source.IMPORT).entry for line in lines]


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
        for s in Standing.objects.filter(competition=competition).select_related("player").order_by("rank", "player_id")
    ]


def standings_csv(competition: Competition) -> str:
    rows = standings_rows(competition)
    out = io.StringIO()
    writer = csv.DictWriter(
        out, fieldnames=["rank", "player", "player_name", "points", "deals_played", "sessions_played", "penalty_points"]
    )
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


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


def import_competition(archive: Any, *, club: Club, by: Any = None, slug: str | None = None) -> Competition:
    """Create a competition from an archive, all or nothing; players are matched on federation id."""
    if not isinstance(archive, dict) or archive.get("format") != ARCHIVE_FORMAT:
        raise ImportRejected([(None, FieldError("wrong_format", "format", f"not a {ARCHIVE_FORMAT} archive"))])
    try:
        with transaction.atomic():
            competition = _import(archive, club, by, slug)
    except (KeyError, TypeError, ValueError) as exc:
        raise ImportRejected(
            [(None, FieldError("malformed_archive", "", f"the archive is incomplete: {exc!r}"))]
        ) from exc
    except ValidationError as exc:  # the competition or its rule set, as full_clean judged them
        raise ImportRejected(
            (None, FieldError("invalid", "" if field == "__all__" else field, message))
            for field, messages in _messages(exc).items()
            for message in messages
        ) from exc
    except IntegrityError as exc:  # rounds, tables, seats or penalties that contradict the rules of the data
        raise ImportRejected(
            [(None, FieldError("inconsistent_archive", "", f"the archive contradicts itself: {exc}"))]
        ) from exc
    recompute_standings(competition.pk, claim=False)
    return competition


def _import(archive: dict[str, Any], club: Club, by: Any, slug: str | None) -> Competition:
    from tournaments.services.competitions import create_competition, create_rule_set

    spec = archive["rule_set"]
    name = spec["name"]
    while RuleSet.objects.filter(club=club, name=name).exists():
        name += " (imported)"
    rule_set = create_rule_set(
        name=name, game=spec["game"], preset=spec["preset"], overrides=spec.get("overrides") or {}, club=club
    )
    info = archive["competition"]
    slug = slug or _free_slug(info["slug"])
    competition = create_competition(
        club=club,
        name=info["name"],
        slug=slug,
        rule_set=rule_set,
        kind=info.get("kind", Competition.Kind.TOURNAMENT),
        deals_per_session=info.get("deals_per_session"),
        is_public=bool(info.get("is_public", True)),
        starts_on=info.get("starts_on"),
        **{name: info[name] for name in COMPETITION_SETTINGS if name in info},
    )
    players: dict[int, Player] = {}
    for p in archive["players"]:
        federation_id = p.get("federation_id")
        player = Player.objects.filter(federation_id=federation_id).first() if federation_id else None
        if player is None:
            player = Player.objects.create(
                first_name=p["first_name"],
                last_name=p["last_name"],
                display_name=p.get("display_name") or "",
                federation_id=federation_id,
            )
        Membership.objects.get_or_create(club=club, player=player)
        players[int(p["key"])] = player
    Registration.objects.bulk_create([Registration(competition=competition, player=p) for p in players.values()])
    rounds: dict[int, Round] = {}
    errors: list[tuple[int | None, FieldError]] = []
    final_status: dict[int, str] = {}
    for r in archive["rounds"]:
        round_ = Round.objects.create(
            competition=competition,
            number=r["number"],
            seed=r.get("seed", 0),
            status=Round.Status.IN_PLAY,  # takes the lines; its own status is set once they are in
            method=r.get("method", "random"),
            byes=[players[int(key)].pk for key in r.get("byes", [])],
        )
        final_status[round_.pk] = r.get("status", Round.Status.DRAFT)
        rounds[round_.number] = round_
        for t in r["tables"]:
            table = Table.objects.create(round=round_, number=t["number"], size=t["size"])
            Seat.objects.bulk_create(
                Seat(table=table, round=round_, position=pos, player=players[int(key)])
                for pos, key in enumerate(t["seats"])
            )
            sheet = ScoreSheet.objects.create(table=table)
            for line in t["sheet"]["lines"]:
                try:
                    record_deal(sheet, line, by=by, source=DealEntry.Source.IMPORT)
                except EntryRejected as exc:
                    where = f"round {round_.number}, table {table.number}"
                    errors += [(None, FieldError(e.code, e.field, f"{where}: {e.message}")) for e in exc.errors]
            ScoreSheet.objects.filter(pk=sheet.pk).update(state=t["sheet"].get("state", ScoreSheet.State.DRAFT))
    for p in archive.get("penalties", []):
        Penalty.objects.create(
            competition=competition,
            round=rounds.get(p["round"]) if p.get("round") is not None else None,
            player=players[int(p["player"])],
            points=p["points"],
            reason=p["reason"],
            created_by=by if getattr(by, "is_authenticated", False) else None,
        )
    if errors:
        raise ImportRejected(errors)  # rolls the whole import back
    for round_pk, status in final_status.items():
        Round.objects.filter(pk=round_pk).update(status=status)
    Registration.objects.filter(
        competition=competition, player__in=[players[int(key)] for key in archive.get("withdrawn", [])]
    ).update(withdrawn_at=timezone.now())
    for wish in archive.get("wishes", []):
        SeatingWish.objects.create(
            competition=competition,
            player=players[int(wish["player"])],
            other=players[int(wish["other"])],
            kind=wish["kind"],
        )
    if info.get("closed"):
        Competition.objects.filter(pk=competition.pk).update(closed_at=timezone.now())
        competition.refresh_from_db()
    return competition


def _messages(exc: ValidationError) -> dict[str, list[str]]:
    return exc.message_dict if hasattr(exc, "error_dict") else {"__all__": list(exc.messages)}


def _free_slug(wanted: str) -> str:
    base = slugify(wanted) or "competition"
    slug, n = base, 1
    while Competition.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug
