"""A duplicate round's boards for everyone once the round is finalised (included by ``tournaments.urls``)."""

from django.urls import path

from tournaments.duplicate import public_views

ROUND = "c/<slug:slug>/r<int:round_number>/"

urlpatterns = [
    path(f"{ROUND}boards/", public_views.round_boards, name="round-boards"),
    path(f"{ROUND}boards/<int:board_number>/", public_views.board_detail, name="board"),
]
