from django.urls import path

from tournaments.ratings import views

urlpatterns = [
    path("ratings/", views.ratings_list, name="ratings"),
]
