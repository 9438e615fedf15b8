"""The slow-changing parts of what a live page shows, read once a second for everyone who polls.

A thousand phones polling the standings every 5 s ask about 200 times a second what changed. The competition's row
and its standings' bookkeeping are read fresh on every request (one query: an entry bumps ``entries_version``, the
standings job stores a new version; ``with_live_columns``); what takes joins over every sheet of the season (which
rows are provisional, each round's progress) is kept here for ``LIVE_PARTS_SECONDS`` in the shared cache, so
all web servers read them from the database about once a second between them, and dropped (``forget``) when a sheet
or round changes state, so a poll sees it at once.

Whatever is kept here is part of the validators made from it, and a page is rendered from the same parts that made
its validator: a copy a second old never lies under a newer validator.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from scoring.models import StandingsState, Statistics
from tournaments.conditional import NAMES_VERSION
from tournaments.models import Competition, Round
from tournaments.selectors.public import SETTLED, provisional_players

logger = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class RoundProgress:
    number: int
    status: str
    tables: int
    settled: int


@dataclass(frozen=True, slots=True)
class LiveParts:
    provisional: frozenset[int]  # players with a result on a sheet nobody has confirmed yet
    rounds: tuple[RoundProgress, ...]  # drafts included: only those who run the competition see them

    def rounds_fingerprint(self, language: str, *, drafts: bool) -> str:
        """What a poll has seen of the rounds' status and progress (the page sends it back as ``rounds_seen``)."""
        shown = [r for r in self.rounds if drafts or r.status != Round.Status.DRAFT]
        return _digest(language, *shown)


def with_live_columns(competitions: QuerySet[Competition]) -> QuerySet[Competition]:
    """Competitions read with what changes on every entry or job, in the same query: their standings' bookkeeping
    (``selectors.standings_state``) and when their statistics were stored (``statistics_fingerprint``)."""
    stored = Statistics.objects.filter(competition=OuterRef("pk"), player=None).values("computed_at")[:1]
    return competitions.select_related("standings_state").annotate(statistics_at=Subquery(stored))


def polled_competition(slug: str) -> Competition | None:
    """The competition with its live columns, kept ``LIVE_PARTS_SECONDS`` in the shared cache: a thousand phones
    polling read it from the database about once a second between them.

    It is forgotten when the competition is saved (a visibility or method changed: ``connect``), when its
    standings are stored and when a sheet or round changes state (``changed``); an entry alone (``entries_version``)
    shows within the second, as the standings it brings do.
    """
    key = _polled_key(slug)
    try:  # with its live parts and the names counter, which every validator of the poll includes: one round trip
        found: dict[str, Any] | None = cache.get_many([key, _key(slug), NAMES_VERSION])
    except Exception:
        logger.warning("cache unavailable for %s", key, exc_info=True)
        found = None
    competition = _kept(key, Competition, lambda: read_polled_competition(slug), found)
    if competition is not None and found is not None:
        competition.names_version = str(found.get(NAMES_VERSION, 0))  # type: ignore[attr-defined]
        competition.live_found = found  # type: ignore[attr-defined] # for live_parts, read in the same trip
    return competition


def read_polled_competition(slug: str) -> Competition | None:
    """The competition with its live columns (as ``with_live_columns``) in one hand-written query.

    A poll does little else; compiling the ORM's three-table query cost it more than running it. The competition's
    own columns come converted as the ORM converts them; the others are converted here.
    """
    c, s, t = (connection.ops.quote_name(m._meta.db_table) for m in (Competition, StandingsState, Statistics))
    sql = (
        f"SELECT c.*, s.competition_id AS live_state, s.queued AS live_queued, s.queued_at AS live_queued_at, "
        f"s.computed_at AS live_computed_at, s.computed_version AS live_version, s.computations AS live_computations, "
        f"(SELECT t.computed_at FROM {t} t WHERE t.competition_id = c.id AND t.player_id IS NULL) AS live_statistics "
        f"FROM {c} c LEFT JOIN {s} s ON s.competition_id = c.id WHERE c.slug = %s"
    )
    competition: Any = next(iter(Competition.objects.raw(sql, [slug])), None)
    if competition is None:
        return None
    state = None
    if competition.live_state is not None:
        state = StandingsState(
            competition_id=competition.pk,
            queued=bool(competition.live_queued),
            queued_at=_aware(competition.live_queued_at),
            computed_at=_aware(competition.live_computed_at),
            computed_version=competition.live_version,
            computations=competition.live_computations,
        )
    Competition.standings_state.related.set_cached_value(competition, state)  # as select_related leaves it
    competition.statistics_at = _aware(competition.live_statistics)
    return competition  # type: ignore[no-any-return]


def _aware(value: datetime | str | None) -> datetime | None:
    """A datetime read outside the ORM: SQLite gives text, in UTC; PostgreSQL an aware datetime."""
    if value is None or isinstance(value, datetime):
        return value if value is None or timezone.is_aware(value) else timezone.make_aware(value, UTC)
    parsed = parse_datetime(value)
    if parsed is None:
        raise ValueError(f"not a date and time: {value!r}")
    return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed, UTC)


def statistics_fingerprint(competition: Competition, language: str) -> str:
    """What a poll has seen of the contract statistics (the page sends it back as ``statistics_seen``)."""
    stored = getattr(competition, "statistics_at", None)
    if stored is None and not hasattr(competition, "statistics_at"):
        stored = (
            Statistics.objects.filter(competition=competition, player=None)
            .values_list("computed_at", flat=True)
            .first()
        )
    return _digest(language, stored.isoformat() if stored else None)


def live_parts(competition: Competition) -> LiveParts:
    """The competition's parts, from the shared cache when read less than ``LIVE_PARTS_SECONDS`` ago."""
    found = getattr(competition, "live_found", None)  # read with the polled competition
    parts = _kept(_key(competition.slug), LiveParts, lambda: read_parts(competition), found)
    assert parts is not None  # read_parts always answers
    return parts


def _kept(key: str, kind: type[T], read: Callable[[], T | None], found: dict[str, Any] | None = None) -> T | None:
    """What ``read`` answers, kept ``LIVE_PARTS_SECONDS`` under ``key`` (an answer of None is not kept); ``found``:
    what the caller already read from the cache with other keys. A cache outage costs speed, not the page: it
    reads."""
    seconds = settings.LIVE_PARTS_SECONDS
    if not seconds:
        return read()
    try:
        kept = found.get(key) if found is not None else cache.get(key)
    except Exception:
        logger.warning("cache unavailable for %s", key, exc_info=True)
        return read()
    if isinstance(kept, kind):
        return kept
    value = read()
    if value is not None:
        try:
            cache.set(key, value, seconds)
        except Exception:
            logger.warning("cache unavailable for %s", key, exc_info=True)
    return value


def read_parts(competition: Competition) -> LiveParts:
    """Two queries, whatever the size of the season."""
    rounds = (
        competition.rounds.annotate(
            table_count=Count("tables"),
            settled_count=Count("tables", filter=Q(tables__sheet__state__in=SETTLED)),
        )
        .order_by("number")
        .values_list("number", "status", "table_count", "settled_count")
    )
    return LiveParts(
        provisional_players(competition),
        tuple(RoundProgress(*row) for row in rounds),
    )


def changed(competition_id: int) -> None:
    """A sheet or round of the competition changes state in this transaction: forget its parts now and once
    committed (a poll in between may have kept them as they were)."""
    forget(competition_id)
    transaction.on_commit(lambda: forget(competition_id))


def forget(competition_id: int, slug: str | None = None) -> None:
    """Something a poll shows changed: the next poll reads the competition and its parts afresh."""
    if slug is None:
        slug = Competition.objects.filter(pk=competition_id).values_list("slug", flat=True).first()
    if not slug:
        return  # deleted: nothing is kept under an address that no longer exists for long
    keys = [_key(slug), _polled_key(slug)]
    try:
        cache.delete_many(keys)
    except Exception:
        logger.warning("cache unavailable for %s", keys, exc_info=True)


def competition_saved(sender: Any, instance: Competition, **kwargs: Any) -> None:
    """Saved or deleted by a form, the admin, an import: its visibility may have changed. Forgotten at once and once
    committed, as ``changed``."""
    forget(instance.pk, instance.slug)
    transaction.on_commit(lambda: forget(instance.pk, instance.slug))


def connect() -> None:
    from django.db.models.signals import post_delete, post_save

    post_save.connect(competition_saved, sender=Competition, dispatch_uid="live-competition-saved")
    post_delete.connect(competition_saved, sender=Competition, dispatch_uid="live-competition-deleted")


def _key(slug: str) -> str:
    """The live parts, by the competition's address, as the polled competition: a poll reads both at once."""
    return f"wiezen:live:{slug}"


def _polled_key(slug: str) -> str:
    return f"wiezen:polled:{slug}"


def _digest(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]
