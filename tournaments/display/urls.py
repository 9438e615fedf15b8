"""The display's public addresses: the venue's screen, its polled fragment, and a round's clock."""

from django.urls import path

from tournaments.display import views

urlpatterns = [
    path("c/<slug:slug>/display/", views.display, name="display"),
    path("c/<slug:slug>/display/live/", views.display_live, name="display-live"),
    path("c/<slug:slug>/r<int:round_number>/clock/", views.round_clock, name="round-clock"),
]
