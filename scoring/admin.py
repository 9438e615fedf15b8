from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from scoring.models import Standing, StandingsState
from tournaments.admin import ClubScopedAdmin


class ComputedAdmin(ClubScopedAdmin):
    """Standings are computed, never hand-edited: read-only in the admin; a club administrator sees their clubs'."""

    club_path = "competition__club"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Standing)
class StandingAdmin(ComputedAdmin):
    list_display = ["competition", "rank", "player", "points", "deals_played", "computed_at"]
    list_filter = [("competition", admin.RelatedOnlyFieldListFilter)]


@admin.register(StandingsState)
class StandingsStateAdmin(ComputedAdmin):
    list_display = ["competition", "computed_version", "computed_at", "queued", "computations"]
