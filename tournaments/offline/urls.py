from django.urls import path

from tournaments.offline import sync, views

urlpatterns = [
    path("offline/engine.zip", views.engine, name="offline-engine"),
    path("offline/worker.js", views.worker, name="offline-worker"),
    # under the entry page's address: the proxy sends it to the entries' pool with the page's other writes
    path(
        "c/<slug:slug>/r<int:round_number>/t<int:table_number>/entry/queued/",
        sync.queued_line,
        name="sheet-entry-queued",
    ),
]
