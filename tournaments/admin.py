"""The Django admin for every model, for organisers and club administrators.

Points are computed by the engine, never typed: deal entries are read-only
here and go through the entry service (the sheet's entry page).
"""

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from tournaments.models import (
    AuditEvent,
    Club,
    Competition,
    DealEntry,
    Membership,
    Penalty,
    Player,
    Registration,
    Round,
    RoundEvent,
    RuleSet,
    ScoreSheet,
    Seat,
    SeatingWish,
    Table,
)
from tournaments.permissions import admin_club_ids
from tournaments.services import audit


class ClubScopedAdmin(admin.ModelAdmin):
    """A club administrator (staff, not superuser) sees and edits only what belongs to their clubs."""

    club_path = "club"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        return qs.filter(**{f"{self.club_path}__in": admin_club_ids(request.user)}).distinct()


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Club)
class ClubAdmin(ClubScopedAdmin):
    club_path = "pk"
    list_display = ["name", "city"]
    search_fields = ["name", "city"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Player)
class PlayerAdmin(ClubScopedAdmin):
    club_path = "memberships__club"
    list_display = ["last_name", "first_name", "federation_id", "user"]
    search_fields = ["last_name", "first_name", "federation_id"]


@admin.register(Membership)
class MembershipAdmin(ClubScopedAdmin):
    club_path = "club"
    list_display = ["player", "club", "is_admin"]
    list_filter = ["club", "is_admin"]
    autocomplete_fields = ["player", "club"]


@admin.register(RuleSet)
class RuleSetAdmin(ClubScopedAdmin):
    club_path = "club"
    list_display = ["name", "game", "preset", "club"]
    list_filter = ["game"]
    search_fields = ["name", "preset"]


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Competition)
class CompetitionAdmin(ClubScopedAdmin):
    club_path = "club"
    list_display = ["name", "club", "kind", "game", "rule_set", "deals_per_session", "is_public"]
    list_filter = ["kind", "game", "is_public", "club"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [RegistrationInline]


class RoundEventInline(admin.TabularInline):
    """The round's log, read-only: history is not edited."""

    model = RoundEvent
    extra = 0
    can_delete = False
    fields = readonly_fields = ["at", "action", "from_status", "to_status", "by", "reason", "detail"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Round)
class RoundAdmin(ClubScopedAdmin):
    """Status, seed and byes change only through the lifecycle (API, pages), where each step is logged."""

    club_path = "competition__club"
    list_display = ["competition", "number", "status", "method", "seed"]
    list_filter = ["competition", "status"]
    readonly_fields = ["status", "method", "seed", "byes"]
    inlines = [RoundEventInline]


@admin.register(SeatingWish)
class SeatingWishAdmin(ClubScopedAdmin):
    club_path = "competition__club"
    list_display = ["competition", "player", "other", "kind"]
    list_filter = ["competition", "kind"]
    autocomplete_fields = ["player", "other"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["position", "player"]  # the round is the table's: set below, never typed
    autocomplete_fields = ["player"]


@admin.register(Table)
class TableAdmin(ClubScopedAdmin):
    club_path = "round__competition__club"
    list_display = ["round", "number", "size"]
    list_filter = ["round__competition"]
    inlines = [SeatInline]

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        for seat_form in formset.forms:
            if isinstance(seat_form.instance, Seat):
                seat_form.instance.round_id = form.instance.round_id
        before = _seating(form.instance)
        super().save_formset(request, form, formset, change)
        if before != _seating(form.instance):
            _audit_seating(form.instance, before, "seats edited in the admin")


def _audit_seating(table: Table, before: list[list[int]], note: str, *, created: bool = False) -> None:
    """One audit row for a table's seats as the admin changed them: (position, player) before and after."""
    audit.record(
        AuditEvent.Action.CREATE if created else AuditEvent.Action.CHANGE,
        table,
        before=before,
        after=_seating(table),
        competition_id=table.round.competition_id,
        note=note,
    )


def _seating(table: Table) -> list[list[int]]:
    return [list(p) for p in table.seats.order_by("position").values_list("position", "player_id")] if table.pk else []


@admin.register(Seat)
class SeatAdmin(ClubScopedAdmin):
    club_path = "round__competition__club"
    list_display = ["table", "position", "player"]
    list_filter = ["round__competition"]
    readonly_fields = ["round"]

    def save_model(self, request: HttpRequest, obj: Seat, form: Any, change: bool) -> None:
        obj.round_id = obj.table.round_id
        before = _seating(obj.table)
        super().save_model(request, obj, form, change)
        _audit_seating(obj.table, before, "seat edited in the admin", created=not change)

    def delete_model(self, request: HttpRequest, obj: Seat) -> None:
        table = obj.table
        before = _seating(table)
        super().delete_model(request, obj)
        _audit_seating(table, before, "seat deleted in the admin")


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    """The audit trail, read-only (the database refuses changes too); superusers see everything, club
    administrators the events of their clubs' competitions."""

    list_display = ["at", "username", "ip", "action", "model", "object_id", "note"]
    list_filter = ["action", "model"]
    search_fields = ["username", "object_id", "note"]
    readonly_fields = [f.name for f in AuditEvent._meta.fields]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        clubs = admin_club_ids(request.user)
        return qs.filter(competition_id__in=Competition.objects.filter(club_id__in=clubs).values("pk"))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class DealEntryInline(admin.TabularInline):
    model = DealEntry
    extra = 0
    fields = [
        "deal_number",
        "version",
        "is_current",
        "line",
        "points",
        "multiplier",
        "source",
        "created_by",
        "created_at",
    ]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ScoreSheet)
class ScoreSheetAdmin(ClubScopedAdmin):
    club_path = "table__round__competition__club"
    list_display = ["table", "state", "updated_at"]
    list_filter = ["state", "table__round__competition"]
    inlines = [DealEntryInline]


@admin.register(DealEntry)
class DealEntryAdmin(ClubScopedAdmin):
    club_path = "sheet__table__round__competition__club"
    list_display = ["sheet", "deal_number", "version", "is_current", "contract", "points", "multiplier", "source"]
    list_filter = ["is_current", "source", "contract"]
    readonly_fields = [f.name for f in DealEntry._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Penalty)
class PenaltyAdmin(ClubScopedAdmin):
    club_path = "competition__club"
    list_display = ["competition", "player", "points", "reason", "created_at"]
    list_filter = ["competition"]
    autocomplete_fields = ["player"]


@admin.register(Registration)
class RegistrationAdmin(ClubScopedAdmin):
    club_path = "competition__club"
    list_display = ["competition", "player", "registered_at"]
    list_filter = ["competition"]
