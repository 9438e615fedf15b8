"""Set up competitions: rule sets, the competition itself, registration (one by one, walk-ins, a CSV list)."""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.utils.text import capfirst
from django.utils.translation import gettext

from config.punctuation import colon
from config.untrusted import UNSTORABLE, UNSTORABLE_MESSAGE
from tournaments.csv_cells import restore
from tournaments.integrity import competition_played
from tournaments.models import Club, Competition, Membership, Player, Registration, RuleSet
from tournaments.public_names import is_named
from tournaments.services import edits
from tournaments.services.errors import ServiceError
from tournaments.services.privacy import full_name
from tournaments.services.seasons import refuse_if_closed
from tournaments.services.standings import standings_follow


def create_rule_set(
    *, name: str, game: str, preset: str, overrides: dict[str, Any] | None = None, club: Club | None = None
) -> RuleSet:
    """Create a rule set after the engine has accepted preset and overrides."""
    rule_set = RuleSet(name=name, game=game, preset=preset, overrides=overrides or {}, club=club)
    rule_set.full_clean()
    rule_set.save()
    return rule_set


def create_competition(
    *,
    club: Club,
    name: str,
    slug: str,
    rule_set: RuleSet,
    kind: str = Competition.Kind.TOURNAMENT,
    deals_per_session: int | None = 16,
    **extra: Any,
) -> Competition:
    if rule_set.game == RuleSet.GameChoice.ZWICKEN:
        deals_per_session = None
    competition = Competition(
        club=club,
        name=name,
        slug=slug,
        kind=kind,
        game=rule_set.game,
        rule_set=rule_set,
        deals_per_session=deals_per_session,
        **extra,
    )
    competition.full_clean()
    competition.save()
    return competition


@transaction.atomic
def update_competition(competition: Competition, **fields: Any) -> Competition:
    """Change a competition's settings; every problem comes back as a ``ValidationError`` keyed by field.

    Another rule set is taken only if it is the club's (or shared) and the competition has not been played
    (no line entered, no round finalised, not closed: ``tournaments.integrity``); the game follows the rule
    set, and changes only while no round is seated.
    """
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    ranked_before = competition.ranking()
    for name, value in fields.items():
        setattr(competition, name, value)
    rule_set = fields.get("rule_set")
    if rule_set is not None and rule_set.game != competition.game:
        if competition.rounds.exists():
            raise ValidationError({"rule_set": gettext("The game cannot change once rounds are seated.")})
        competition.game = rule_set.game
        if rule_set.game == RuleSet.GameChoice.ZWICKEN:
            competition.deals_per_session = None
    competition.full_clean()
    competition.save()
    if competition.ranking() != ranked_before:  # the standings are computed with these settings
        standings_follow(competition.pk)
    return competition


def register_players(competition: Competition, players: Iterable[Player]) -> int:
    """Register players (again is harmless); returns how many were new."""
    refuse_if_closed(competition)
    before = competition.registrations.count()
    Registration.objects.bulk_create(
        [Registration(competition=competition, player=p) for p in players], ignore_conflicts=True
    )
    return competition.registrations.count() - before


def _free_rule_set_name(wanted: str, club: Club | None, competition_slug: str) -> str:
    """The competition's name for its own rule set; the slug (and a number) added while the club has that name."""
    longest = RuleSet._meta.get_field("name").max_length or 80
    name, tries = wanted[:longest], 1
    while RuleSet.objects.filter(club=club, name=name).exists():
        tries += 1
        suffix = f" ({competition_slug})" if tries == 2 else f" ({competition_slug} {tries})"
        name = wanted[: max(longest - len(suffix), 1)] + suffix
    return name


@transaction.atomic
def save_competition(
    competition: Competition | None,
    *,
    club: Club | None = None,
    game: str,
    preset: str,
    overrides: dict[str, Any],
    visibility: str,
    shown: edits.Digests | None = None,
    **fields: Any,
) -> Competition:
    """Create a competition with its own rule set, or change one (its rule set too).

    Every problem, the engine's and the competition's, comes back at once as a ``ValidationError`` keyed by
    field, so a form shows each beside its field. A rule set other competitions share, or that is not the
    competition's club's (one shared by all clubs), is left as it is: the changed rules become this
    competition's own. The game does not change once rounds are seated.

    ``shown`` is what the settings page showed (``edits``): a setting someone else changed since then, and this
    page did not, keeps their value; one both changed is refused (``edits.ChangedMeanwhile``).
    """
    creating = competition is None
    if competition is None:
        assert club is not None, "a new competition needs its club"
        competition = Competition(club=club)
    else:  # as stored now, and no other save in between: a close, an entry's version and a setting stay theirs
        competition = Competition.objects.select_for_update().select_related("rule_set").get(pk=competition.pk)
        ranked_before = competition.ranking()
        sent = {**fields, "game": game, "preset": preset, "overrides": overrides, "visibility": visibility}
        fields = edits.merged(shown, competition_settings(competition), sent)
        game, preset, overrides, visibility = (
            fields.pop(name) for name in ("game", "preset", "overrides", "visibility")
        )
    if not creating and game != competition.game and competition.rounds.exists():
        raise ValidationError({"game": gettext("The game cannot change once rounds are seated.")})
    for name, value in fields.items():
        setattr(competition, name, value)
    competition.game = game
    competition.visibility = visibility
    if game == RuleSet.GameChoice.ZWICKEN:
        competition.deals_per_session = None
    rule_set = None if creating else competition.rule_set
    rules_change = rule_set is None or (rule_set.game, rule_set.preset, rule_set.overrides) != (game, preset, overrides)
    if rules_change and not creating and competition_played(competition.pk):
        message = gettext(
            "%(competition)s has results entered (or is closed): its rules stay the ones it was played under."
        ) % {"competition": competition}
        assert rule_set is not None
        raise ValidationError(
            {"preset" if (rule_set.game, rule_set.preset) != (game, preset) else "overrides": message}
        )
    # Changed in place only when it is the competition's own: its club's, and no other competition's. A rule set
    # shared by all clubs, or another's, may be played by competitions yet to come (and its owners' alone to
    # change): the changed rules become a new rule set of the competition's club.
    own = (
        rule_set is not None
        and rule_set.club_id == competition.club_id
        and not rule_set.competitions.exclude(pk=competition.pk).exists()
    )
    if rule_set is None or (rules_change and not own):
        name = _free_rule_set_name(competition.name or competition.slug, competition.club, competition.slug)
        rule_set = RuleSet(name=name, club=competition.club)
    rule_set.game, rule_set.preset, rule_set.overrides = game, preset, overrides
    rule_set.game_changes_with = competition.pk  # its only competition (not shared) takes the new game with it
    competition.rule_set = rule_set  # checked with the rules it will have (a new rule set is saved below)
    errors: dict[str, list[str]] = {}
    for row, exclude in ((rule_set, ["name", "club"]), (competition, ["rule_set", "club"])):
        try:
            row.full_clean(exclude=exclude)
        except ValidationError as exc:
            for field, messages in exc.message_dict.items():
                errors.setdefault(field, []).extend(messages)
    if errors:
        raise ValidationError(errors)
    if rules_change:
        rule_set.save()
    competition.rule_set = rule_set
    competition.save(update_fields=None if creating else [*STORED_SETTINGS, "rule_set"])
    if not creating and competition.ranking() != ranked_before:
        standings_follow(competition.pk)
    return competition


def competition_settings(competition: Competition) -> dict[str, Any]:
    """A competition's settings as its settings page sends them (``save_competition``'s arguments)."""
    rule_set = competition.rule_set
    return {
        **{name: getattr(competition, name) for name in SETTINGS},
        "preset": rule_set.preset,
        "overrides": rule_set.overrides or {},
    }


# The competition's own settings that its page edits (besides its rule set's preset and overrides)
SETTINGS = (
    "name",
    "slug",
    "kind",
    "game",
    "deals_per_session",
    "duplicate",
    "movement",
    "visibility",
    "starts_on",
    "seating_method",
    "keep_clubmates_apart",
    "standings_method",
    "tie_breaks",
    "placement_points",
    "min_evenings",
    "best_evenings",
    "evening_decay",
)
STORED_SETTINGS = [name for name in SETTINGS if name != "visibility"] + ["is_public", "public_results"]


@transaction.atomic
def add_walk_in(
    competition: Competition,
    *,
    first_name: str,
    last_name: str,
    federation_id: str | None = None,
    club: Club | None = None,
) -> Player:
    """A player nobody registered beforehand: created (a member of ``club`` if given) and registered at once.

    A federation id that is taken is a ``ValidationError`` on that field: that player exists, register them.
    """
    refuse_if_closed(competition)
    federation_id = federation_id or None
    if federation_id is not None and Player.objects.filter(federation_id=federation_id).exists():
        raise ValidationError(
            {
                "federation_id": gettext(
                    "This federation id is a player's already: find them with the search and register them."
                )
            }
        )
    player = Player(first_name=first_name, last_name=last_name, federation_id=federation_id)
    player.full_clean()
    with transaction.atomic():
        # one walk-in at a time per competition: a double-click sends the form twice
        Competition.objects.select_for_update().filter(pk=competition.pk).first()
        namesake = None if federation_id is not None else _registered_namesake(competition, first_name, last_name)
        if namesake is not None:
            said = gettext(
                "%(name)s is registered in this competition already. Another player of the same name? Give their "
                "federation id."
            )
            raise ValidationError({NON_FIELD_ERRORS: said % {"name": full_name(namesake)}})
        player.save()
        if club is not None:
            Membership.objects.get_or_create(club=club, player=player)
        register_players(competition, [player])
    return player


def _registered_namesake(competition: Competition, first_name: str, last_name: str) -> Player | None:
    """The player of this name (whatever its case and spaces) registered in ``competition``, if any."""
    registered = Player.objects.filter(registrations__competition=competition)
    return next((p for p in registered if is_named(p, first_name, last_name)), None)


# -- a CSV list of players ------------------------------------------------------------------------------------------

MAX_IMPORT_ROWS = 2000
COLUMN_NAMES = {"name", "first_name", "last_name", "federation_id"}
# Headers as Dutch and French (and English) spreadsheets write them, without accents: "Voornaam;Achternaam",
# "Prénom;Nom;Numéro de fédération". "Naam" and "Nom" beside a first name are the last name, alone the whole name.
COLUMN_ALIASES = {
    "first": "first_name",
    "firstname": "first_name",
    "given_name": "first_name",
    "voornaam": "first_name",
    "prenom": "first_name",
    "last": "last_name",
    "lastname": "last_name",
    "surname": "last_name",
    "family_name": "last_name",
    "achternaam": "last_name",
    "familienaam": "last_name",
    "nom_de_famille": "last_name",
    "federation_number": "federation_id",
    "federatienummer": "federation_id",
    "federatie_id": "federation_id",
    "numero_de_federation": "federation_id",
    "numero_federation": "federation_id",
}
WHOLE_OR_LAST_NAME = {"naam", "nom"}


class PlayerImportRejected(ServiceError):
    """A list of players was refused whole; ``errors`` holds (line number, message) for every bad row."""

    def __init__(self, errors: list[tuple[int, str]]):
        self.errors = errors
        super().__init__("; ".join(f"line {line}: {message}" for line, message in errors))


@dataclass(frozen=True)
class PlayerImport:
    created: int  # players new to the site
    registered: int  # registrations new to the competition (the rest were registered already)
    rows: int


@dataclass(frozen=True)
class _Row:
    line: int
    first_name: str
    last_name: str
    federation_id: str | None


def import_players_csv(competition: Competition, text: str, *, club: Club | None = None) -> PlayerImport:
    """Register the players of a CSV list (``name`` or ``first_name`` and ``last_name``; ``federation_id``).

    A row is an existing player when its federation id is theirs (the names must agree) or, without an id,
    when exactly one player has that name; otherwise a new player (a member of ``club`` if given). Every bad
    row is reported (``PlayerImportRejected``) and then nothing is written.
    """
    refuse_if_closed(competition)
    rows, errors = _read_player_rows(text)
    players, new = _match_players(rows, errors)
    if errors:
        raise PlayerImportRejected(sorted(errors))
    with transaction.atomic():
        for player in new:
            player.clean()  # public names: a player saved just before may show the same default name
            player.save()
            if club is not None:
                Membership.objects.get_or_create(club=club, player=player)
        registered = register_players(competition, players)
    return PlayerImport(created=len(new), registered=registered, rows=len(rows))


def _read_player_rows(text: str) -> tuple[list[_Row], list[tuple[int, str]]]:
    text = text.removeprefix("\ufeff")  # a spreadsheet's byte order mark
    unstorable = UNSTORABLE.search(text)
    if unstorable:
        return [], [(text[: unstorable.start()].count("\n") + 1, UNSTORABLE_MESSAGE)]
    first_line = text.split("\n", 1)[0]
    # spreadsheets in Belgium write ";", Excel's "Unicode text" a tab
    delimiter = next((d for d in (";", "\t") if d in first_line and "," not in first_line), ",")
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        table = [(reader.line_num, cells) for cells in reader if any(cell.strip() for cell in cells)]
    except csv.Error as exc:
        return [], [(reader.line_num, str(exc))]
    if not table:
        return [], [(1, gettext("the file is empty: give a header line and one line per player"))]
    (header_line, header), *body = table
    columns = _columns(header)
    named = [c for c in columns if c]  # a spreadsheet's empty columns at the end (";;") have no header
    unknown = [typed.strip() for typed, c in zip(header, columns, strict=True) if c and c not in COLUMN_NAMES]
    has_names = "name" in columns or {"first_name", "last_name"} <= set(columns)
    if unknown or not has_names or len(set(named)) < len(named):
        return [], [(header_line, _header_problem(named, unknown))]
    if len(body) > MAX_IMPORT_ROWS:
        return [], [(header_line, gettext("at most %(n)s players at a time") % {"n": MAX_IMPORT_ROWS})]
    rows, errors = [], []
    for line, cells in body:
        if len(cells) > len(columns):
            errors.append((line, gettext("more cells than the header has columns")))
            continue
        # a cell our exports wrote as '=... (tournaments.csv_cells) is the name =... again
        values = {c: restore(cell.strip()) for c, cell in zip(columns, cells, strict=False) if c}
        first, last = values.get("first_name", ""), values.get("last_name", "")
        if "name" in values:
            first, _, last = values["name"].partition(" ")
            first, last = first.strip(), last.strip()
        if not first or not last:
            errors.append((line, gettext("give a first and a last name")))
            continue
        rows.append(_Row(line, first, last, values.get("federation_id") or None))
    return rows, errors


def _columns(header: list[str]) -> list[str]:
    """The header's columns by their names here (``COLUMN_NAMES``), read as a person may have typed them."""
    plain = [unicodedata.normalize("NFKD", cell).encode("ascii", "ignore").decode().strip().lower() for cell in header]
    columns = [re.sub(r"[\s\-.]+", "_", cell).strip("_") for cell in plain]
    with_first_name = any(COLUMN_ALIASES.get(c, c) == "first_name" for c in columns)
    return [
        ("last_name" if with_first_name else "name") if c in WHOLE_OR_LAST_NAME else COLUMN_ALIASES.get(c, c)
        for c in columns
    ]


def _header_problem(columns: list[str], unknown: list[str]) -> str:
    expected = gettext("expected columns: name (or first_name and last_name) and, if known, federation_id")
    if unknown:
        return gettext("unknown column %(columns)s; %(expected)s") % {
            "columns": ", ".join(unknown),
            "expected": expected,
        }
    if len(set(columns)) < len(columns):
        return gettext("a column is named twice; %(expected)s") % {"expected": expected}
    return expected


def _match_players(rows: list[_Row], errors: list[tuple[int, str]]) -> tuple[list[Player], list[Player]]:
    """Each row's player (existing, or new and unsaved), and the new ones; problems go into ``errors``."""
    ids = [row.federation_id for row in rows if row.federation_id]
    by_id = {p.federation_id: p for p in Player.objects.filter(federation_id__in=ids)}
    players: list[Player] = []
    new: list[Player] = []
    seen: dict[Any, int] = {}  # each player's first line
    for row in rows:
        try:
            player = by_id.get(row.federation_id) if row.federation_id else _only_player_named(row)
            if player is not None and row.federation_id and not is_named(player, row.first_name, row.last_name):
                said = {"id": row.federation_id}  # not whose it is: the id is no key to another club's member
                raise ServiceError(gettext("federation id %(id)s is another player's: check the name or the id") % said)
            if player is None:
                player = _new_player(row)
                new.append(player)
        except ServiceError as exc:
            errors.append((row.line, str(exc)))
            continue
        key = player.pk or row.federation_id or (row.first_name.lower(), row.last_name.lower())
        if key in seen:
            errors.append((row.line, gettext("the same player as on line %(line)s") % {"line": seen[key]}))
            continue
        seen[key] = row.line
        players.append(player)
    return players, new


def _only_player_named(row: _Row) -> Player | None:
    namesakes = Player.objects.filter(
        first_name__iexact=row.first_name, last_name__iexact=row.last_name, anonymised_at__isnull=True
    )
    found = list(namesakes[:2])
    if len(found) > 1:
        name = f"{row.first_name} {row.last_name}"
        raise ServiceError(gettext("several players are named %(name)s: give the federation id") % {"name": name})
    return found[0] if found else None


def _field_problem(field: str, messages: list[str]) -> str:
    """ "Last name: ..." with the field's name as people read it, never the model's attribute."""
    said = " ".join(messages)
    if field == NON_FIELD_ERRORS:
        return said
    return f"{capfirst(Player._meta.get_field(field).verbose_name)}{colon()} {said}"


def _new_player(row: _Row) -> Player:
    player = Player(first_name=row.first_name, last_name=row.last_name, federation_id=row.federation_id)
    try:
        player.full_clean(validate_unique=False)  # a known federation id was matched already
    except ValidationError as exc:
        raise ServiceError(
            " ".join(_field_problem(field, messages) for field, messages in exc.message_dict.items())
        ) from exc
    return player
