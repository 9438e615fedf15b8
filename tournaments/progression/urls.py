from django.urls import path

from tournaments.progression import views

urlpatterns = [
    path("c/<slug:slug>/progression/", views.progression_page, name="progression"),
    path("c/<slug:slug>/progression/p<int:pk>/", views.player_fragment, name="progression-player"),
]
