"""A duplicate round's board pages, under /manage/ (included by ``tournaments.urls_organiser``): organisers only."""

from django.urls import path

from tournaments.duplicate import views

ROUND = "c/<slug:slug>/r<int:number>/"

urlpatterns = [
    path(f"{ROUND}boards/", views.boards, name="manage-boards"),
    path(f"{ROUND}boards/pbn/", views.boards_pbn, name="manage-boards-pbn"),
    path(f"{ROUND}boards/import/", views.boards_import, name="manage-boards-import"),
    path(f"{ROUND}boards/print/", views.boards_print, name="manage-boards-print"),
]
