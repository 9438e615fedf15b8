"""The WSGI application, warmed before it takes its first request.

Django imports the URL configuration (and with it every view module) and each language's translations on first
use: in a freshly started web process that cost fell on the first requests, all at once (on an evening, a restart
made the first hundred entries and polls wait up to a second). Doing it here, while gunicorn boots the worker,
moves that cost before the worker accepts anything.
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()


def _warm() -> None:
    from django.conf import settings
    from django.template.loader import get_template
    from django.urls import get_resolver
    from django.utils import translation

    get_resolver().url_patterns  # noqa: B018 - imports every view module
    for language, _ in settings.LANGUAGES:
        with translation.override(language):
            translation.gettext("Player")  # loads the catalogue
    for name in ("public/_standings.html", "competition.html"):
        get_template(name)  # compiled once per process, kept by the cached loader


_warm()
