"""Audit rows for direct edits (admin, API, pages, shell) of competitions' settings, rule sets, memberships,
registrations, penalties and seating wishes. Results and seatings change only through services, which record
their own, richer rows (closing and reopening a competition among them)."""

from __future__ import annotations

from typing import Any

from django.db.models import Model
from django.db.models.signals import post_delete, post_save, pre_save

from tournaments.models import AuditEvent, Competition, Membership, Penalty, Registration, RuleSet, SeatingWish
from tournaments.services.audit import record

AUDITED: tuple[type[Model], ...] = (Competition, RuleSet, Membership, Registration, Penalty, SeatingWish)
# Columns a row's audit leaves out: closing and reopening record their own rows (with the reason), and every
# entry counts itself in the competition's entries_version
NOT_AUDITED = {Competition: {"closed_at", "entries_version"}}


def snapshot(obj: Model) -> dict[str, Any]:
    """The row's fields as JSON-safe values."""
    out: dict[str, Any] = {}
    left_out = NOT_AUDITED.get(type(obj), set())
    for f in obj._meta.concrete_fields:
        if f.name in left_out:
            continue
        value = getattr(obj, f.attname)
        out[f.attname] = value if isinstance(value, int | float | str | bool | list | dict | type(None)) else str(value)
    return out


def _competition_id(obj: Model) -> int | None:
    return obj.pk if isinstance(obj, Competition) else getattr(obj, "competition_id", None)


def _remember(sender: type[Model], instance: Model, **kwargs: Any) -> None:
    if instance.pk is None:
        return
    old = sender._default_manager.filter(pk=instance.pk).first()  # type: ignore[attr-defined]
    instance._audit_before = snapshot(old) if old is not None else None  # type: ignore[attr-defined]


def _saved(sender: type[Model], instance: Model, created: bool, raw: bool = False, **kwargs: Any) -> None:
    if raw:  # loading fixtures
        return
    before = None if created else getattr(instance, "_audit_before", None)
    after = snapshot(instance)
    if before == after:
        return
    action = AuditEvent.Action.CREATE if created else AuditEvent.Action.CHANGE
    record(action, instance, before=before, after=after, competition_id=_competition_id(instance))


def _deleted(sender: type[Model], instance: Model, **kwargs: Any) -> None:
    record(AuditEvent.Action.DELETE, instance, before=snapshot(instance), competition_id=_competition_id(instance))


def connect() -> None:
    for model in AUDITED:
        pre_save.connect(_remember, sender=model, dispatch_uid=f"audit-pre-{model.__name__}")
        post_save.connect(_saved, sender=model, dispatch_uid=f"audit-save-{model.__name__}")
        post_delete.connect(_deleted, sender=model, dispatch_uid=f"audit-delete-{model.__name__}")
