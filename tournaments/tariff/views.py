"""The tariff card page: shown exactly when the competition page is (``tournaments.views._access``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournaments.views import _access


@require_GET
def tariff(request: HttpRequest, slug: str) -> HttpResponse:
    seen = _access(request, slug)  # the competition page's own rule: hidden is a 404
    competition = seen.competition
    return render(request, "tariff/card.html", {"competition": competition})
