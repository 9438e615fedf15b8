"""What belongs together, and rules that freeze once played: one place, asked on every write path.

Every model that names two or more other objects says here which of them must agree (a penalty's round is a
round of its competition, its player is registered there; a competition's rule set is its club's or a global
one, for its game), or why they need not (``INDEPENDENT``). Models call ``refuse_mismatch`` from ``clean()``,
so the admin (``full_clean``), the services, the API serializers and the archive import all meet the same rule;
``tests/security/test_belonging.py`` fails when a model with two references is declared nowhere.

A rule set is *in play* once a competition using it has a line entered, a round finalised or is closed:
from then on its game, preset and overrides cannot change (a sheet is settled by the rules it was played
under), and such a competition cannot switch to another rule set. Changed rules go into a new rule set.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Model, Q
from django.utils.translation import gettext as _

Problems = dict[str, str]  # field -> what is wrong, shown beside that field

# model label -> the pairs of references that must agree; the first field of a pair carries the error
PAIRS: dict[str, tuple[tuple[str, str], ...]] = {
    "tournaments.Competition": (("rule_set", "club"), ("rule_set", "game")),
    "tournaments.Penalty": (("round", "competition"), ("player", "competition")),
    "tournaments.SeatingWish": (("player", "competition"), ("other", "competition")),
    "tournaments.Seat": (("round", "table"), ("player", "round")),
    "tournaments.SeatResult": (("player", "sheet"),),
}

# model label -> why its references need not agree with each other (who may write them is tournaments.permissions)
INDEPENDENT: dict[str, str] = {
    "tournaments.Membership": "any player may join any club; who may add members is a question of permissions",
    "tournaments.Registration": "open tournaments take players of any club; who may register them is permissions",
    "tournaments.RoundEvent": "`by` is whoever took the step, not an object of the round",
    "tournaments.DealEntry": "`created_by` is whoever entered the line, not an object of the sheet",
    "scoring.Standing": "computed by the standings service from the competition's own sheets, never typed",
    "scoring.Statistics": "computed by the statistics service from the competition's own sheets, never typed",
    "admin.LogEntry": "Django's own log of admin actions",
}


def _registered(competition_id: int, player_id: int) -> bool:
    from tournaments.models import Registration

    return Registration.objects.filter(competition_id=competition_id, player_id=player_id).exists()


def _not_registered(player: Any, competition: Any) -> str:
    return _("%(player)s is not registered for %(competition)s.") % {"player": player, "competition": competition}


def _competition(obj: Any) -> Problems:
    problems: Problems = {}
    if obj.rule_set_id is None:
        return problems
    rule_set = obj.rule_set
    if obj.club_id is not None and rule_set.club_id not in (None, obj.club_id):
        problems["rule_set"] = _("Rule set %(rule_set)s is another club's: choose one of %(club)s or a shared one.") % {
            "rule_set": rule_set,
            "club": obj.club,
        }
    elif obj.game and rule_set.game != obj.game:
        problems["rule_set"] = _("Rule set %(rule_set)s is for %(rules_game)s; this competition plays %(game)s.") % {
            "rule_set": rule_set,
            "rules_game": rule_set.get_game_display(),
            "game": obj.get_game_display(),
        }
    elif obj.pk is not None:
        stored = type(obj).objects.filter(pk=obj.pk).values_list("rule_set_id", flat=True).first()
        if stored is not None and stored != obj.rule_set_id and competition_played(obj.pk):
            problems["rule_set"] = _(
                "%(competition)s has results entered (or is closed): it keeps the rule set it was played under."
            ) % {"competition": obj}
    return problems


def _penalty(obj: Any) -> Problems:
    problems: Problems = {}
    if obj.competition_id is None:
        return problems
    if obj.round_id is not None and obj.round.competition_id != obj.competition_id:
        problems["round"] = _("Round %(number)s is not a round of %(competition)s.") % {
            "number": obj.round.number,
            "competition": obj.competition,
        }
    if obj.player_id is not None and not _registered(obj.competition_id, obj.player_id):
        problems["player"] = _not_registered(obj.player, obj.competition)
    return problems


def _seating_wish(obj: Any) -> Problems:
    problems: Problems = {}
    if obj.competition_id is None:
        return problems
    for field in ("player", "other"):
        if getattr(obj, f"{field}_id") is not None and not _registered(obj.competition_id, getattr(obj, f"{field}_id")):
            problems[field] = _not_registered(getattr(obj, field), obj.competition)
    return problems


def _seat(obj: Any) -> Problems:
    problems: Problems = {}
    if obj.table_id is not None and obj.round_id is not None and obj.table.round_id != obj.round_id:
        problems["round"] = _("A seat belongs to the round of its table.")
        return problems
    round_ = obj.round if obj.round_id is not None else obj.table.round if obj.table_id is not None else None
    if round_ is not None and obj.player_id is not None and not _registered(round_.competition_id, obj.player_id):
        problems["player"] = _not_registered(obj.player, round_.competition)
    return problems


def _seat_result(obj: Any) -> Problems:
    from tournaments.models import Seat

    if obj.sheet_id is None or obj.player_id is None or obj.position is None:
        return {}
    seated = Seat.objects.filter(table_id=obj.sheet.table_id, position=obj.position, player_id=obj.player_id)
    if not seated.exists():
        return {
            "player": _("%(player)s does not sit in seat %(position)s of this sheet's table.")
            % {
                "player": obj.player,
                "position": obj.position + 1,
            }
        }
    return {}


def played_in(competition_id: int, player_id: int) -> bool:
    """Whether the player sat at a table or was penalised in the competition: their registration then stays."""
    from tournaments.models import Penalty, Seat

    seated = Seat.objects.filter(round__competition_id=competition_id, player_id=player_id).exists()
    return seated or Penalty.objects.filter(competition_id=competition_id, player_id=player_id).exists()


def _registration(obj: Any) -> Problems:
    """Open tournaments take any club's players; but a registration someone played under stays theirs."""
    if obj.pk is None:
        return {}
    stored = type(obj).objects.filter(pk=obj.pk).values_list("competition_id", "player_id").first()
    if stored is None or stored == (obj.competition_id, obj.player_id) or not played_in(*stored):
        return {}
    field = "player" if stored[1] != obj.player_id else "competition"
    return {field: removal_problem(obj, stored_ids=stored) or ""}


def removal_problem(obj: Any, *, stored_ids: tuple[int, int] | None = None) -> str | None:
    """Why a registration cannot be removed (or moved): its player has seats or penalties in the competition."""
    from tournaments.models import Competition, Player

    competition_id, player_id = stored_ids or (obj.competition_id, obj.player_id)
    if not played_in(competition_id, player_id):
        return None
    return _("%(player)s has played or been penalised in %(competition)s: withdraw them instead.") % {
        "player": Player.objects.get(pk=player_id),
        "competition": Competition.objects.get(pk=competition_id),
    }


CHECKS: dict[str, Callable[[Any], Problems]] = {
    "tournaments.Registration": _registration,
    "tournaments.Competition": _competition,
    "tournaments.Penalty": _penalty,
    "tournaments.SeatingWish": _seating_wish,
    "tournaments.Seat": _seat,
    "tournaments.SeatResult": _seat_result,
    "tournaments.RuleSet": lambda obj: rule_set_problems(obj),  # defined below, with the freeze
}


def problems(obj: Model) -> Problems:
    """What does not belong together in ``obj`` (empty if all is well), by field."""
    check = CHECKS.get(obj._meta.label)
    return check(obj) if check is not None else {}


def refuse_mismatch(obj: Model) -> None:
    """``ValidationError`` by field if ``obj`` names objects that do not belong together."""
    found = problems(obj)
    if found:
        raise ValidationError(found)


# -- rules freeze once played ---------------------------------------------------------------------------------------


def _played() -> Q:
    """Competitions that have been played: closed, a round finalised, or a line entered on one of their sheets."""
    return Q(closed_at__isnull=False) | Q(rounds__status="finalised") | Q(rounds__tables__sheet__entries__isnull=False)


def competition_played(competition_id: int) -> bool:
    from tournaments.models import Competition

    return Competition.objects.filter(_played(), pk=competition_id).exists()


def rule_set_in_play(rule_set_id: int) -> Any:
    """The first competition that played under this rule set (``None`` if none did)."""
    from tournaments.models import Competition

    return Competition.objects.filter(_played(), rule_set_id=rule_set_id).order_by("pk").first()


RULE_FIELDS = ("game", "preset", "overrides")


def rule_set_problems(rule_set: Any) -> Problems:
    """A rule set in play keeps its rules; one used by a club's competitions stays that club's (or shared)."""
    from tournaments.models import Competition, RuleSet

    if rule_set.pk is None:
        return {}
    stored = RuleSet.objects.filter(pk=rule_set.pk).values("club_id", *RULE_FIELDS).first()
    if stored is None:
        return {}
    problems: Problems = {}
    changed = [field for field in RULE_FIELDS if getattr(rule_set, field) != stored[field]]
    if changed:
        played = rule_set_in_play(rule_set.pk)
        if played is not None:
            message = _(
                "%(competition)s was played under rule set %(rule_set)s: its rules can no longer change, so every "
                "sheet stays settled by the rules it was played under. Make a new rule set for the changed rules."
            ) % {"rule_set": stored_name(rule_set), "competition": played}
            problems.update(dict.fromkeys(changed, message))
        elif "game" in changed:
            others = Competition.objects.filter(rule_set_id=rule_set.pk).exclude(game=rule_set.game)
            other = others.exclude(pk=rule_set.game_changes_with).first()
            if other is not None:
                problems["game"] = _("%(competition)s plays %(game)s under this rule set.") % {
                    "competition": other,
                    "game": other.get_game_display(),
                }
    if rule_set.club_id is not None and rule_set.club_id != stored["club_id"]:
        other = Competition.objects.filter(rule_set_id=rule_set.pk).exclude(club_id=rule_set.club_id).first()
        if other is not None:
            problems["club"] = _("%(competition)s of another club plays under this rule set.") % {"competition": other}
    return problems


def stored_name(rule_set: Any) -> str:
    return str(type(rule_set).objects.filter(pk=rule_set.pk).values_list("name", flat=True).first() or rule_set)
