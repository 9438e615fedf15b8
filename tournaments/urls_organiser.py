"""The organiser's pages, under /manage/: competitions, registrations, rounds and their progress."""

from django.urls import path  # noqa: F401 - the organiser's routes come here

urlpatterns: list = []  # type: ignore[type-arg]
