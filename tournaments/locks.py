"""What is locked when: one place, asked by model validation, the admin and the services.

- A **closed competition** (``closed_at`` set) takes no new rounds, registrations, penalties, seating wishes,
  tables, seats, sheets or lines, and none of those it has may change or go; its own scoring settings (club,
  rule set, game, session length, duplicate setting, standings method and options) stay as they were. Reopen
  it first, with a reason (``services.seasons``).
- A **finalised round** keeps its tables, seats, sheets and lines (and its own number and competition): reopen
  it first, with a reason (``services.rounds.reopen_round``).

Models call ``refuse_if_locked`` from ``clean()``, so every ``full_clean`` (the admin's forms, the services
that validate) meets the rule; the admin also makes locked objects read-only and refuses to delete them; the
database triggers of migration 0003 refuse new lines and penalties whatever the path.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Model
from django.utils.translation import gettext as _

# model label -> (path to its competition, path to its round or None); "" is the object itself
PATHS: dict[str, tuple[str, str | None]] = {
    "tournaments.Competition": ("", None),
    "tournaments.Registration": ("competition", None),
    "tournaments.Penalty": ("competition", None),
    "tournaments.SeatingWish": ("competition", None),
    "tournaments.Round": ("competition", ""),
    "tournaments.Table": ("round__competition", "round"),
    "tournaments.Seat": ("table__round__competition", "table__round"),
    "tournaments.ScoreSheet": ("table__round__competition", "table__round"),
    "tournaments.DealEntry": ("sheet__table__round__competition", "sheet__table__round"),
    "tournaments.SeatResult": ("sheet__table__round__competition", "sheet__table__round"),
}

# model label -> the foreign keys through which a new or moved object would land under a lock
PARENTS: dict[str, tuple[str, ...]] = {
    "tournaments.Registration": ("competition",),
    "tournaments.Penalty": ("competition",),
    "tournaments.SeatingWish": ("competition",),
    "tournaments.Round": ("competition",),
    "tournaments.Table": ("round",),
    "tournaments.Seat": ("table", "round"),
    "tournaments.ScoreSheet": ("table",),
    "tournaments.DealEntry": ("sheet",),
    "tournaments.SeatResult": ("sheet",),
}

# a closed competition's own fields that decide its results
FROZEN_WHEN_CLOSED = (
    "club_id",
    "rule_set_id",
    "game",
    "deals_per_session",
    "duplicate",
    "standings_method",
    "tie_breaks",
    "placement_points",
    "min_evenings",
    "best_evenings",
    "evening_decay",
)


def _join(path: str, field: str) -> str:
    return f"{path}__{field}" if path else field


def _lock_reason(model: type[Model], pk: Any) -> str | None:
    """Why the stored object ``pk`` of ``model`` is locked, or ``None``."""
    paths = PATHS.get(model._meta.label)
    if paths is None or pk is None:
        return None
    competition_path, round_path = paths
    rows = model._default_manager.filter(pk=pk)
    closed = rows.filter(**{_join(competition_path, "closed_at__isnull"): False})
    name = closed.values_list(_join(competition_path, "name"), flat=True).first()
    if name is not None:
        return _(
            "%(competition)s is closed: reopen it first, with a reason, to change its rounds, registrations, "
            "penalties or sheets."
        ) % {"competition": name}
    if round_path is not None:
        finalised = rows.filter(**{_join(round_path, "status"): "finalised"})
        number = finalised.values_list(_join(round_path, "number"), flat=True).first()
        if number is not None:
            return _(
                "Round %(number)s is finalised: reopen it first, with a reason, to change its tables, seats or sheets."
            ) % {"number": number}
    return None


def lock_reason(obj: Model) -> str | None:
    """Why ``obj`` may not be saved as it is: its stored self, or where it would go, is locked (``None``: free)."""
    label = obj._meta.label
    if label == "tournaments.Competition":
        return _closed_competition_change(obj)
    if not obj._state.adding:
        reason = _lock_reason(type(obj), obj.pk)
        if reason is not None:
            return reason
    for name in PARENTS.get(label, ()):
        field = obj._meta.get_field(name)
        reason = _lock_reason(field.related_model, getattr(obj, field.attname))
        if reason is not None:
            return reason
    return None


def delete_reason(obj: Model) -> str | None:
    """Why ``obj`` may not be deleted (a closed competition, or an object under a lock), or ``None``."""
    if obj.pk is None:
        return None
    return _lock_reason(type(obj), obj.pk)


def _closed_competition_change(competition: Any) -> str | None:
    if competition._state.adding or competition.pk is None:
        return None
    stored = type(competition)._default_manager.filter(pk=competition.pk, closed_at__isnull=False)
    before = stored.values(*FROZEN_WHEN_CLOSED).first()
    if before is None:
        return None
    if any(getattr(competition, field) != value for field, value in before.items()):
        return _(
            "%(competition)s is closed: its club, rule set and scoring settings stay as they were "
            "(reopen it first, with a reason)."
        ) % {"competition": competition}
    return None


def refuse_if_locked(obj: Model) -> None:
    """``ValidationError`` when saving ``obj`` would change something locked: call it from ``clean()``."""
    reason = lock_reason(obj)
    if reason is not None:
        raise ValidationError(reason)


def refuse_locked_write(obj: Model) -> None:
    """For services that write without ``full_clean`` (a sheet confirmed or rejected, a player withdrawn):
    ``ServiceError`` with the lock's reason when ``obj`` is under a closed competition or a finalised round."""
    from tournaments.services.errors import ServiceError

    reason = delete_reason(obj)
    if reason is not None:
        raise ServiceError(reason)
