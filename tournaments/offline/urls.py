from django.urls import path

from tournaments.offline import views

urlpatterns = [path("offline/engine.zip", views.engine, name="offline-engine")]
