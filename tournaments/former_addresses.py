"""A renamed competition keeps its former addresses.

A competition's pages live under its address name (``c/<slug>/…``), and that name is printed on the evening's
table cards (the codes the tables scan), bookmarked by players and in the address of every page left open: a
settings page another organiser is filling in, a table's entry page, an offline phone's queue of lines. An
organiser may still rename it, so the old name is kept (``FormerAddress``, recorded on every save, from the pages,
the API, the admin or a shell) and:

- a request to a former address that the competition's pages refused (not found, not allowed, or "log in") goes
  on to the same page at the current one: a 302 for a read, a 307 for a form or a queued line, so the browser
  sends the same data again and nothing typed is lost (``FormerAddressMiddleware``; pages at current addresses
  never pay for this);
- no other competition takes a former address while it is kept (``held_elsewhere``): printed codes lead nowhere
  else. The competition itself may take its old name back, and deleting it frees its names.

A hidden competition's new name is told only to those who may open it (its organisers, a table holding one of
its codes), so an old link does not tell a stranger it exists.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db.models.signals import post_save, pre_save
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import resolve_url
from django.urls import reverse
from django.utils import timezone

from tournaments.models import Competition, FormerAddress, ScoreSheet
from tournaments.permissions import can_manage_competition

#: a competition's pages: a route with ``c/<slug:slug>/`` in it (the public, organiser and table pages)
COMPETITION_ROUTE = re.compile(r"(^|/)c/<slug:slug>/")
#: a read goes on as a read; anything else keeps its method and body
READS = {"GET", "HEAD", "OPTIONS"}


def held_elsewhere(slug: str, competition_pk: int | None) -> bool:
    """Whether ``slug`` is a former address of a competition other than ``competition_pk``."""
    return FormerAddress.objects.filter(slug=slug).exclude(competition_id=competition_pk).exists()


def _before_save(sender: type[Competition], instance: Competition, update_fields: Any = None, **kwargs: Any) -> None:
    if instance.pk is None or (update_fields is not None and "slug" not in update_fields):
        return
    instance._slug_before = (  # type: ignore[attr-defined]
        Competition.objects.filter(pk=instance.pk).values_list("slug", flat=True).first()
    )


def _saved(sender: type[Competition], instance: Competition, created: bool, raw: bool = False, **kwargs: Any) -> None:
    before = instance.__dict__.pop("_slug_before", None)
    if raw or not (created or (before is not None and before != instance.slug)):
        return
    if before is not None and before != instance.slug:
        FormerAddress.objects.update_or_create(slug=before, defaults={"competition": instance, "until": timezone.now()})
    # the name in use is nobody's former one: taken back by its competition (or given away from a shell)
    FormerAddress.objects.filter(slug=instance.slug).delete()


def connect() -> None:
    pre_save.connect(_before_save, sender=Competition, dispatch_uid="former-address-before")
    post_save.connect(_saved, sender=Competition, dispatch_uid="former-address-saved")


def may_follow(request: HttpRequest, competition: Competition) -> bool:
    """Whether this request may learn where ``competition`` went: anyone for a public one; for a hidden one its
    organisers and a session holding one of its tables' codes."""
    if competition.is_public or can_manage_competition(request.user, competition):
        return True
    from tournaments.views.entry import TABLE_CODES  # the views build on the models, not the other way

    held = request.session.get(TABLE_CODES, {}) if hasattr(request, "session") else {}
    sheet_ids = [int(key) for key in held if isinstance(key, str) and key.isdigit()]
    return ScoreSheet.objects.filter(pk__in=sheet_ids, table__round__competition=competition).exists()


def _refused(response: HttpResponse) -> bool:
    """Whether the page answered as it does for an address it does not know: not found, not allowed, log in."""
    if response.status_code in (403, 404):
        return True
    login = resolve_url(settings.LOGIN_URL)
    return response.status_code == 302 and str(response.get("Location", "")).startswith(login)


def moved_to(request: HttpRequest) -> str | None:
    """The same page at the competition's current address, when this request named a former one."""
    match = request.resolver_match
    if match is None or "slug" not in match.kwargs or not COMPETITION_ROUTE.search(match.route):
        return None
    former = FormerAddress.objects.select_related("competition").filter(slug=match.kwargs["slug"]).first()
    if former is None or not may_follow(request, former.competition):
        return None
    address = reverse(match.view_name, args=match.args, kwargs={**match.kwargs, "slug": former.competition.slug})
    query = request.META.get("QUERY_STRING", "")
    return f"{address}?{query}" if query else address


class FormerAddressMiddleware:
    """Sends a request the pages refused at a former address on to the current one (the module docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not _refused(response):
            return response
        address = moved_to(request)
        if address is None:
            return response
        moved = HttpResponseRedirect(address, preserve_request=request.method not in READS)  # 302 or 307
        moved["Cache-Control"] = "no-store"  # a name may be taken back: no browser keeps this answer
        return moved
