"""The Django admin for every model, for organisers and club administrators.

Points are computed by the engine, never typed: deal entries are read-only
here and go through the entry service (the sheet's entry page).

A club administrator (staff, not a superuser) sees their own clubs' objects, and every form (inlines too) offers
and accepts only those in its foreign keys (``permissions.referable``): a form naming another club's object is
refused on save, whatever was posted. Locked objects (``tournaments.locks``: a closed competition, a finalised
round) are read-only here and cannot be deleted; model validation refuses them too, as a form error.
"""

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import NON_FIELD_ERRORS, FieldDoesNotExist, ValidationError
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _

from tournaments.integrity import removal_problem
from tournaments.locks import delete_reason, lock_reason
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
from tournaments.permissions import (
    admin_club_ids,
    may_change_player,
    may_reference,
    not_yours,
    referable_condition,
)
from tournaments.services import audit


class ClubScopedForm(forms.ModelForm):
    """A form that offers, and accepts, only objects its user may name (``scope_user``, set per request).

    A value already stored stays acceptable (a registration of another club's player in an open tournament);
    a new one must be the user's clubs' own. What the object belongs to is read from the stored instance,
    never from the form's initial data (which a request's query string can set).
    """

    scope_user: Any = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        user = self.scope_user
        if user is None:
            return
        for name, field in self.fields.items():
            if isinstance(field, forms.ModelChoiceField):
                condition = referable_condition(user, field.queryset.model)
                if condition is not None:
                    field.queryset = field.queryset.filter(condition | Q(pk__in=self._stored(name)))

    def _stored(self, name: str) -> set[Any]:
        """The primary keys field ``name`` holds in the database now (nothing for a new object)."""
        instance = self.instance
        if instance._state.adding or instance.pk is None:
            return set()
        try:
            field = instance._meta.get_field(name)
        except FieldDoesNotExist:
            return set()
        if field.many_to_many:
            return set(getattr(instance, name).values_list("pk", flat=True))
        if field.many_to_one or field.one_to_one:
            value = getattr(instance, field.attname)
            return set() if value is None else {value}
        return set()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        user = self.scope_user
        if user is None or user.is_superuser:
            return cleaned
        for name, field in list(self.fields.items()):
            if not isinstance(field, forms.ModelChoiceField) or cleaned.get(name) is None:
                continue
            value = cleaned[name]
            chosen = list(value) if isinstance(field, forms.ModelMultipleChoiceField) else [value]
            stored = self._stored(name)
            foreign = next((obj for obj in chosen if obj.pk not in stored and not may_reference(user, obj)), None)
            if foreign is not None:
                self.add_error(name, not_yours(foreign))
        if "club" in self.fields and "club" not in self.errors and cleaned.get("club") is None:
            self.add_error("club", _("Choose one of the clubs you administer."))
        return cleaned

    def _update_errors(self, errors: ValidationError) -> None:
        """A model's ``clean()`` may blame a field this form shows read-only: say it above the form, not a 500."""
        if hasattr(errors, "error_dict"):
            moved: dict[str, list[Any]] = {}
            for name, found in errors.error_dict.items():
                moved.setdefault(name if name in self.fields else NON_FIELD_ERRORS, []).extend(found)
            errors = ValidationError(moved)
        super()._update_errors(errors)


class SeatForm(ClubScopedForm):
    """A seat's round is its table's (never typed): set before the model checks what belongs together."""

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        table = cleaned.get("table") or (self.instance.table if self.instance.table_id else None)
        if table is not None:
            self.instance.round_id = table.round_id
        return cleaned


def _scoped(form: Any, request: HttpRequest) -> Any:
    """The form class (made afresh for this request by the admin) bound to this request's user."""
    form.scope_user = request.user
    return form


class ClubScopedAdmin(admin.ModelAdmin):
    """A club administrator (staff, not superuser) sees and edits only what belongs to their clubs, and names
    only their clubs' objects; objects under a lock are read-only and stay."""

    club_path = "club"
    form = ClubScopedForm

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        return qs.filter(**{f"{self.club_path}__in": admin_club_ids(request.user)}).distinct()

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        return _scoped(super().get_form(request, obj, change=change, **kwargs), request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and obj._meta.label != "tournaments.Competition" and lock_reason(obj) is not None:
            return False  # shown read-only; a closed competition's form says what it keeps
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and delete_reason(obj) is not None:
            return False
        if obj is not None and not may_reference(request.user, obj):
            return False  # another club's row a deletion would cascade into (a shared player's other membership)
        return super().has_delete_permission(request, obj)


class ScopedInline(admin.TabularInline):
    """An inline whose rows name only the user's clubs' objects, read-only under a locked parent."""

    form = ClubScopedForm

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        formset = super().get_formset(request, obj, **kwargs)
        _scoped(formset.form, request)
        return formset

    def _parent_locked(self, obj: Any) -> bool:
        return obj is not None and obj.pk is not None and delete_reason(obj) is not None

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not self._parent_locked(obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not self._parent_locked(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not self._parent_locked(obj) and super().has_delete_permission(request, obj)


class MembershipInline(ScopedInline):
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

    def has_add_permission(self, request: HttpRequest) -> bool:
        """A new club is nobody's yet: only a superuser creates one (and names its first administrator)."""
        return request.user.is_superuser and super().has_add_permission(request)


@admin.register(Player)
class PlayerAdmin(ClubScopedAdmin):
    """A club's administrators see their members; they change or delete one only while the player is theirs
    alone (``permissions.may_change_player``): another club's member is shown read-only."""

    club_path = "memberships__club"
    list_display = ["last_name", "first_name", "federation_id", "user"]
    search_fields = ["last_name", "first_name", "federation_id"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and not may_change_player(request.user, obj):
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and not may_change_player(request.user, obj):
            return False
        return super().has_delete_permission(request, obj)


@admin.register(Membership)
class MembershipAdmin(ClubScopedAdmin):
    club_path = "club"
    list_display = ["player", "club", "is_admin"]
    list_filter = [("club", admin.RelatedOnlyFieldListFilter), "is_admin"]
    autocomplete_fields = ["player", "club"]


@admin.register(RuleSet)
class RuleSetAdmin(ClubScopedAdmin):
    club_path = "club"
    list_display = ["name", "game", "preset", "club"]
    list_filter = ["game"]
    search_fields = ["name", "preset"]


class KeepPlayedRegistrations(forms.BaseInlineFormSet):
    """A registration someone played under (seats, penalties) is not deleted among a competition's rows."""

    def clean(self) -> None:
        super().clean()
        for form in self.deleted_forms:
            if form.instance.pk is not None and (problem := removal_problem(form.instance)) is not None:
                raise ValidationError(problem)


class RegistrationInline(ScopedInline):
    model = Registration
    formset = KeepPlayedRegistrations
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Competition)
class CompetitionAdmin(ClubScopedAdmin):
    club_path = "club"
    list_display = ["name", "club", "kind", "game", "rule_set", "deals_per_session", "is_public"]
    list_filter = ["kind", "game", "is_public", ("club", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["closed_at"]  # closing and reopening go through the season service, with the audit trail
    inlines = [RegistrationInline]


class RoundEventInline(ScopedInline):
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
    list_filter = [("competition", admin.RelatedOnlyFieldListFilter), "status"]
    readonly_fields = ["status", "method", "seed", "byes"]
    inlines = [RoundEventInline]


@admin.register(SeatingWish)
class SeatingWishAdmin(ClubScopedAdmin):
    club_path = "competition__club"
    list_display = ["competition", "player", "other", "kind"]
    list_filter = [("competition", admin.RelatedOnlyFieldListFilter), "kind"]
    autocomplete_fields = ["player", "other"]


class SeatInline(ScopedInline):
    model = Seat
    form = SeatForm
    extra = 0
    fields = ["position", "player"]  # the round is the table's: set below, never typed
    autocomplete_fields = ["player"]


@admin.register(Table)
class TableAdmin(ClubScopedAdmin):
    club_path = "round__competition__club"
    list_display = ["round", "number", "size"]
    list_filter = [("round__competition", admin.RelatedOnlyFieldListFilter)]
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
    form = SeatForm
    list_display = ["table", "position", "player"]
    list_filter = [("round__competition", admin.RelatedOnlyFieldListFilter)]
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


class DealEntryInline(ScopedInline):
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
    list_filter = ["state", ("table__round__competition", admin.RelatedOnlyFieldListFilter)]
    # state and table code change only through the services (confirm, reject, finalise; a new code is issued
    # there), never typed: a sheet set back to draft here would drop its confirmation without a trace
    readonly_fields = ["state", "captain_code", "updated_at"]
    inlines = [DealEntryInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """A sheet keeps its table once made: moving it would move its lines to other players."""
        return [*self.readonly_fields, "table"] if obj is not None else self.readonly_fields


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
    list_filter = [("competition", admin.RelatedOnlyFieldListFilter)]
    autocomplete_fields = ["player"]
    readonly_fields = ["created_by"]  # whoever saves it, never typed

    def save_model(self, request: HttpRequest, obj: Penalty, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(Registration)
class RegistrationAdmin(ClubScopedAdmin):
    club_path = "competition__club"
    list_display = ["competition", "player", "registered_at"]
    list_filter = [("competition", admin.RelatedOnlyFieldListFilter)]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Seats and penalties name a registration's player: it stays (withdraw the player instead)."""
        if obj is not None and removal_problem(obj) is not None:
            return False
        return super().has_delete_permission(request, obj)
