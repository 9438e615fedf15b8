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
- no other competition takes a former address for ``KEPT_FOR`` after the rename (``held_elsewhere``), so the
  evening's printed codes lead nowhere else; then it is free, and its link leads to its old competition until
  another takes it. The competition itself may take its old name back, keeps at most ``KEPT_AT_MOST`` of them
  (a name given up again and again does not reserve the site's names), and deleting it frees them all.

A hidden competition's new name is told only to those who may open it (its organisers, a table holding one of
its codes or bringing it in the address), so an old link does not tell a stranger it exists.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models.signals import post_save, pre_save
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import resolve_url
from django.urls import reverse
from django.utils import timezone

from tournaments.models import Competition, FormerAddress, ScoreSheet
from tournaments.permissions import can_manage_competition, table_code_opens
from tournaments.table_code_sessions import holds_table_code, sheets_held

#: a competition's pages: a route with ``c/<slug:slug>/`` in it (the public, organiser and table pages)
COMPETITION_ROUTE = re.compile(r"(^|/)c/<slug:slug>/")
#: a read goes on as a read; anything else keeps its method and body
READS = {"GET", "HEAD", "OPTIONS"}
#: how long no other competition may take a former address: past a season's printed cards and bookmarks
KEPT_FOR = timedelta(days=90)
#: the former addresses a competition keeps, its latest ones
KEPT_AT_MOST = 10


def held_elsewhere(slug: str, competition_pk: int | None) -> bool:
    """Whether ``slug`` is a former address another competition than ``competition_pk`` still keeps to itself."""
    kept = FormerAddress.objects.filter(slug=slug, until__gt=timezone.now() - KEPT_FOR)
    return kept.exclude(competition_id=competition_pk).exists()


def _before_save(sender: type[Competition], instance: Competition, update_fields: Any = None, **kwargs: Any) -> None:
    if instance.pk is None or (update_fields is not None and "slug" not in update_fields):
        return
    instance._slug_before = (  # type: ignore[attr-defined]
        Competition.objects.filter(pk=instance.pk).values_list("slug", flat=True).first()
    )


def _saved(sender: type[Competition], instance: Competition, created: bool, raw: bool = False, **kwargs: Any) -> None:
    before = instance.__dict__.pop("_slug_before", None)
    renamed = before is not None and before != instance.slug
    if raw or not (created or renamed):
        return
    if renamed:
        FormerAddress.objects.update_or_create(slug=before, defaults={"competition": instance, "until": timezone.now()})
        latest = instance.former_addresses.order_by("-until", "-pk").values_list("pk", flat=True)[:KEPT_AT_MOST]
        instance.former_addresses.exclude(pk__in=list(latest)).delete()
    # the name in use is no longer a former one: its own, taken back, or another's whose time has passed (a
    # competition that took one still kept, by a race or from a shell, wins anyway: ``moved_to``)
    taken = FormerAddress.objects.filter(slug=instance.slug)
    taken.filter(competition=instance).delete()
    taken.filter(until__lte=timezone.now() - KEPT_FOR).delete()


def connect() -> None:
    pre_save.connect(_before_save, sender=Competition, dispatch_uid="former-address-before")
    post_save.connect(_saved, sender=Competition, dispatch_uid="former-address-saved")


def may_follow(request: HttpRequest, competition: Competition, kwargs: dict[str, Any]) -> bool:
    """Whether this request may learn where ``competition`` went: anyone for a public one; for a hidden one its
    organisers, a session holding one of its tables' current codes, and a table card's code in the address."""
    if competition.is_public or can_manage_competition(request.user, competition):
        return True
    sheets = ScoreSheet.objects.filter(table__round__competition=competition)
    if any(holds_table_code(request, sheet) for sheet in sheets.filter(pk__in=sheets_held(request))):
        return True
    code, round_number, table_number = request.GET.get("code"), kwargs.get("round_number"), kwargs.get("table_number")
    if code is None or round_number is None or table_number is None:
        return False
    card = sheets.filter(table__round__number=round_number, table__number=table_number).first()
    return card is not None and table_code_opens(card, code)


def _refused(response: HttpResponse) -> bool:
    """Whether the page answered as it does for an address it does not know: not found, not allowed, log in (a
    page's redirect, or the offline queue's 401)."""
    if response.status_code in (401, 403, 404):
        return True
    login = resolve_url(settings.LOGIN_URL)
    return response.status_code == 302 and str(response.get("Location", "")).startswith(login)


def moved_to(request: HttpRequest) -> str | None:
    """The same page at the competition's current address, when this request named a former one."""
    match = request.resolver_match
    if match is None or "slug" not in match.kwargs or not COMPETITION_ROUTE.search(match.route):
        return None
    slug = match.kwargs["slug"]
    former = FormerAddress.objects.select_related("competition").filter(slug=slug).first()
    if former is None or Competition.objects.filter(slug=slug).exists():  # a name in use is that competition's
        return None
    if not may_follow(request, former.competition, match.kwargs):
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
