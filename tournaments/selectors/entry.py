"""Reads for the entry page that the public pages do not need."""

from __future__ import annotations

from django.db.models import QuerySet

from tournaments.models import AuditEvent, Penalty, ScoreSheet


def table_penalties(sheet: ScoreSheet) -> QuerySet[Penalty]:
    """The penalties given to this table's players in this round, newest first."""
    table = sheet.table
    players = table.seats.values("player_id")
    return (
        Penalty.objects.filter(round_id=table.round_id, player_id__in=players)
        .select_related("player", "created_by")
        .order_by("-created_at", "-pk")
    )


def sheet_reviews(sheet: ScoreSheet) -> QuerySet[AuditEvent]:
    """The sheet's confirmations and rejections, oldest first (the audit trail keeps them)."""
    actions = [AuditEvent.Action.CONFIRM, AuditEvent.Action.REJECT]
    return AuditEvent.objects.filter(model="scoresheet", object_id=str(sheet.pk), action__in=actions).order_by(
        "at", "pk"
    )
