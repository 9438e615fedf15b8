"""Check-in addresses: the phone page under the competition, the organiser's under /manage/."""

from django.urls import path

from tournaments.checkin import views

urlpatterns = [
    path("c/<slug:slug>/check-in/", views.check_in, name="checkin"),
    path("manage/c/<slug:slug>/check-in/", views.organiser_page, name="manage-checkin"),
    path("manage/c/<slug:slug>/check-in/poster/", views.poster, name="manage-checkin-poster"),
    path("manage/c/<slug:slug>/check-in/seat/", views.seat, name="manage-checkin-seat"),
    path("manage/c/<slug:slug>/check-in/new-code/", views.new_code, name="manage-checkin-new-code"),
]
