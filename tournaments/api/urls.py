from django.contrib.auth import get_user_model
from django.urls import include, path, re_path
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.routers import DefaultRouter
from rest_framework.throttling import ScopedRateThrottle

from tournaments.api import views_history, views_results, views_rounds, views_setup
from tournaments.api.errors import ApiSchema, not_found
from tournaments.services.audit import client_ip


class ClientAddressThrottle(ScopedRateThrottle):
    """Counts per client address as the audit trail and the login lock-out see it (``TRUSTED_PROXIES``)."""

    def get_ident(self, request: Request) -> str:
        return client_ip(request) or ""


USERNAME_MAX_LENGTH = get_user_model()._meta.get_field("username").max_length


class BoundedAuthTokenSerializer(AuthTokenSerializer):
    """DRF's, with the lengths the login form has: a longer username is refused here (400), not stored by the
    lock-out's failure log, whose column it would not fit (a server error on PostgreSQL)."""

    username = serializers.CharField(label=_("Username"), max_length=USERNAME_MAX_LENGTH, write_only=True)
    password = serializers.CharField(
        label=_("Password"), max_length=4096, style={"input_type": "password"}, trim_whitespace=False, write_only=True
    )


class TokenView(ObtainAuthToken):
    serializer_class = BoundedAuthTokenSerializer
    throttle_classes = [ClientAddressThrottle]
    throttle_scope = "token"


router = DefaultRouter()
router.register("clubs", views_setup.ClubViewSet, basename="club")
router.register("players", views_setup.PlayerViewSet, basename="player")
router.register("rulesets", views_setup.RuleSetViewSet, basename="ruleset")
router.register("competitions", views_setup.CompetitionViewSet, basename="competition")
router.register("rounds", views_rounds.RoundViewSet, basename="round")
router.register("tables", views_setup.TableViewSet, basename="table")
router.register("sheets", views_results.ScoreSheetViewSet, basename="sheet")
router.register("penalties", views_setup.PenaltyViewSet, basename="penalty")
router.register("ratings", views_results.RatingViewSet, basename="rating")

urlpatterns = [
    path(
        "sheets/<int:pk>/lines/<int:deal>/restore/",
        views_history.RestoreVersionView.as_view(),
        name="sheet-line-restore",
    ),
    path("", include(router.urls)),
    # token requests share a per-address rate (API_TOKEN_RATE) besides the per-user lockout of django-axes
    path(
        "token/",
        TokenView.as_view(schema=ApiSchema()),
        name="api-token",
    ),
    # anything else under the API (ending in a slash, so APPEND_SLASH still redirects): a JSON 404
    re_path(r"^(?:.*/)?$", not_found),
]
