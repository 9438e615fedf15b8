from django.urls import include, path

from tournaments.tariff import views as tariff_views
from tournaments.views import entry as views_entry
from tournaments.views import public as views
from tournaments.views import round_print as views_print

urlpatterns = [
    path("manage/", include("tournaments.urls_organiser")),
    path("", include("tournaments.checkin.urls")),
    path("", include("tournaments.ratings.urls")),
    path("", include("tournaments.display.urls")),
    path("", include("tournaments.offline.urls")),
    path("", include("tournaments.duplicate.public_urls")),
    path("", views.home, name="home"),
    path("c/<slug:slug>/", views.competition_detail, name="competition"),
    path("c/<slug:slug>/standings/", views.standings_fragment, name="competition-standings"),
    path("c/<slug:slug>/season/", views.season, name="season"),
    path("c/<slug:slug>/tariff/", tariff_views.tariff, name="tariff"),
    path("", include("tournaments.progression.urls")),
    path("c/<slug:slug>/r<int:round_number>/", views.round_detail, name="round"),
    path("players/<int:pk>/", views.player_detail, name="player"),
    path("clubs/<slug:slug>/", views.club_detail, name="club"),
    path("c/<slug:slug>/r<int:round_number>/print/", views_print.round_print, name="round-print"),
    path("c/<slug:slug>/r<int:round_number>/t<int:table_number>/", views.sheet_detail, name="sheet"),
    path("c/<slug:slug>/r<int:round_number>/t<int:table_number>/entry/", views_entry.sheet_entry, name="sheet-entry"),
    path(
        "c/<slug:slug>/r<int:round_number>/t<int:table_number>/entry/preview/",
        views_entry.entry_preview,
        name="sheet-entry-preview",
    ),
    path(
        "c/<slug:slug>/r<int:round_number>/t<int:table_number>/entry/confirm/",
        views_entry.review_sheet,
        {"verdict": "confirm"},
        name="sheet-confirm",
    ),
    path(
        "c/<slug:slug>/r<int:round_number>/t<int:table_number>/entry/stop/",
        views_entry.review_sheet,
        {"verdict": "stop"},
        name="sheet-stop",
    ),
    path(
        "c/<slug:slug>/r<int:round_number>/t<int:table_number>/entry/reject/",
        views_entry.review_sheet,
        {"verdict": "reject"},
        name="sheet-reject",
    ),
    path(
        "c/<slug:slug>/r<int:round_number>/t<int:table_number>/entry/penalty/",
        views_entry.penalise,
        name="sheet-penalty",
    ),
]
