"""The organiser's pages, under /manage/: competitions, registrations, rounds and their progress."""

from django.urls import include, path

from tournaments.display import views_manage as display
from tournaments.views.manage import competitions, players, rounds

ROUND = "c/<slug:slug>/r<int:number>/"

urlpatterns = [
    path("", competitions.dashboard, name="manage-dashboard"),
    path("new/", competitions.competition_new, name="manage-competition-new"),
    path("rules/", include("tournaments.rule_editor.urls")),
    path("", include("tournaments.duplicate.urls")),
    path("c/<slug:slug>/", competitions.competition_page, name="manage-competition"),
    path("c/<slug:slug>/edit/", competitions.competition_edit, name="manage-competition-edit"),
    path("c/<slug:slug>/close/", competitions.competition_close, name="manage-competition-close"),
    path("c/<slug:slug>/reopen/", competitions.competition_reopen, name="manage-competition-reopen"),
    path("c/<slug:slug>/players/", players.players, name="manage-players"),
    path("c/<slug:slug>/players/register/", players.register, name="manage-register"),
    path("c/<slug:slug>/players/walk-in/", players.walk_in, name="manage-walk-in"),
    path("c/<slug:slug>/players/import/", players.import_players, name="manage-import-players"),
    path("c/<slug:slug>/players/<int:player_id>/withdraw/", players.withdraw, name="manage-withdraw"),
    path("c/<slug:slug>/rounds/new/", rounds.round_new, name="manage-round-new"),
    path(ROUND, rounds.round_page, name="manage-round"),
    path(f"{ROUND}progress/", rounds.round_progress, name="manage-round-progress"),
    path(f"{ROUND}redraw/", rounds.round_redraw, name="manage-round-redraw"),
    path(f"{ROUND}swap/", rounds.round_swap, name="manage-round-swap"),
    path(f"{ROUND}publish/", rounds.round_publish, name="manage-round-publish"),
    path(f"{ROUND}finalise/", rounds.round_finalise, name="manage-round-finalise"),
    path(f"{ROUND}reopen/", rounds.round_reopen, name="manage-round-reopen"),
    path(f"{ROUND}clock/start/", display.clock_start, name="manage-clock-start"),
    path(f"{ROUND}clock/pause/", display.clock_pause, name="manage-clock-pause"),
    path(f"{ROUND}clock/resume/", display.clock_resume, name="manage-clock-resume"),
    path(f"{ROUND}clock/adjust/", display.clock_adjust, name="manage-clock-adjust"),
    path(f"{ROUND}clock/stop/", display.clock_stop, name="manage-clock-stop"),
    path("c/<slug:slug>/announcements/", display.announcement_add, name="manage-announcement-add"),
    path("c/<slug:slug>/announcements/<int:pk>/hide/", display.announcement_hide, name="manage-announcement-hide"),
]
