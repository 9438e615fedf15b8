"""What of a competition a viewer may read: the public pages' one rule, from ``Competition.visibility``.

- hidden: nothing, for the public (a 404, as if it did not exist);
- standings only: the standings and season table; no round results, table sheets or sessions on player pages;
- everything: all of it.

Those who manage the competition (``permissions.can_manage_competition``) read everything, whatever its visibility.
A round's seating stays a draft, unseen by the public, until it is published.

A duplicate round's scores (each table's lines, deal by deal, and its players' totals) are for those who run it
until the round is finalised: the same boards are still to be played at other tables, or later in a relay, and a
line tells what a board holds (a troel, a miserie that makes), as does a total after its first deal. The
standings stay live: they compare the tables that have played a board, as live results do in bridge.

The same rule for many objects at once (``standings_visible_to``, ``results_visible_to``, ``rounds_visible_to``,
``sheets_visible_to``, ``statistics_visible_to``, ``rule_sets_visible_to``) is what the API's lists and details,
its exports, the player pages, ratings and statistics filter by, so no path shows more than the pages do
(tests/security/test_api_visibility_parity.py, tests/security/test_duplicate_lines_unseen.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet

from tournaments.models import Competition, Penalty, Round, RuleSet, ScoreSheet
from tournaments.permissions import admin_club_ids, can_manage_competition


@dataclass(frozen=True)
class Access:
    """One viewer's access to one competition, asked once per request."""

    competition: Competition
    manages: bool

    @property
    def standings(self) -> bool:
        return self.manages or self.competition.is_public

    @property
    def results(self) -> bool:
        """Round results, table sheets, and the competition's sessions on player pages."""
        return self.manages or self.competition.visibility == Competition.Visibility.EVERYTHING

    def scores(self, round_: Round) -> bool:
        """The lines and totals of ``round_``'s sheets (given ``results``): a duplicate round's once finalised."""
        return self.manages or not scores_unsettled(self.competition, round_)

    def contract_counts(self) -> bool:
        """The competition's contract counts (how often each contract was played and made): held back from those
        who do not run a duplicate competition while a round is in play, as its scores are (they move deal by deal:
        "one vraag, failed" tells the tables still to play board 1 how it went)."""
        if self.manages or not self.competition.duplicate:
            return True
        return not self.competition.rounds.exclude(status__in=SCORES_SETTLED).exists()

    def boards(self, round_: Round) -> bool:
        """A duplicate round's board pages (hands, analysis, each table's result): those who run it see them at
        once, everyone who may read the results once the round is finalised."""
        finalised = round_.status == Round.Status.FINALISED
        return self.competition.duplicate and self.results and (finalised or self.manages)


# a round with no scores yet (a draft seating) or whose every board is played (finalised)
SCORES_SETTLED = (Round.Status.DRAFT, Round.Status.FINALISED)


def scores_unsettled(competition: Competition, round_: Round) -> bool:
    """Whether ``round_``'s boards may still be played somewhere: a duplicate round in play, not yet finalised."""
    return competition.duplicate and round_.status not in SCORES_SETTLED


def boards_in_play(round_path: str) -> Q:
    """Rows (``round_path`` leads from them to their round) of duplicate rounds in play: ``scores_unsettled`` as a
    filter. The standings, the league table and their provisional marks leave them out for everyone, since the rows
    are stored once for all readers: a table's points on a board would tell the tables still to play it."""
    return Q(**{f"{round_path}__competition__duplicate": True}) & ~Q(**{f"{round_path}__status__in": SCORES_SETTLED})


def access(user: Any, competition: Competition) -> Access:
    return Access(competition, can_manage_competition(user, competition))


# what everyone may read of a competition: its results, when it is public with public results
PUBLIC_RESULTS = Q(is_public=True, public_results=True)


def _managed(user: Any) -> Q | None:
    """The competitions ``user`` manages, as a filter; None for the public and for a superuser (who manages all)."""
    if not getattr(user, "is_authenticated", False) or user.is_superuser:
        return None
    organised = Competition.organisers.through.objects.filter(user_id=user.pk).values("competition_id")
    return Q(club_id__in=admin_club_ids(user)) | Q(pk__in=organised)


def _is_superuser(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.is_superuser)


def _visible(everyone: Q, managed: Q | None) -> QuerySet[Competition]:
    return Competition.objects.filter(everyone if managed is None else everyone | managed)


def managed_by(user: Any) -> QuerySet[Competition]:
    """The competitions ``user`` manages (``permissions.can_manage_competition`` for many at once)."""
    if _is_superuser(user):
        return Competition.objects.all()
    managed = _managed(user)
    return Competition.objects.none() if managed is None else Competition.objects.filter(managed)


def standings_visible_to(user: Any) -> QuerySet[Competition]:
    """The competitions ``user`` may see at all (``Access.standings``): public ones, and those they manage."""
    if _is_superuser(user):
        return Competition.objects.all()
    return _visible(Q(is_public=True), _managed(user))


def rule_sets_visible_to(user: Any) -> QuerySet[RuleSet]:
    """The rule sets ``user`` may read: those shared by all clubs, those a competition they may see plays under,
    and their clubs' own. A club's other rule sets stay its own: one is often named after a hidden competition
    ("Spring Cup"), and stays so once no competition plays it (the competition took another, or was deleted)."""
    if _is_superuser(user):
        return RuleSet.objects.all()
    played_seen = standings_visible_to(user).values("rule_set_id")
    return RuleSet.objects.filter(Q(club__isnull=True) | Q(pk__in=played_seen) | Q(club_id__in=admin_club_ids(user)))


def results_visible_to(user: Any) -> QuerySet[Competition]:
    """The competitions whose results ``user`` may read (``Access.results``): public ones with public results,
    and those they manage.

    One subquery, so a page filtering by it (a player's sessions) costs the same queries however many there are.
    """
    if _is_superuser(user):
        return Competition.objects.all()
    return _visible(PUBLIC_RESULTS, _managed(user))


def rounds_visible_to(user: Any) -> QuerySet[Round]:
    """The rounds whose seating and sheets ``user`` may read, as the round and sheet pages allow: rounds of
    competitions whose results they may read, drafts only of the competitions they manage.

    What the API's rounds, tables and sheets return, so it never shows what those pages answer with a 404.
    """
    if _is_superuser(user):
        return Round.objects.all()
    return _rounds_visible(_managed(user))


def _rounds_visible(managed: Q | None) -> QuerySet[Round]:
    published = Q(competition__in=_visible(PUBLIC_RESULTS, managed)) & ~Q(status=Round.Status.DRAFT)
    if managed is None:
        return Round.objects.filter(published)
    return Round.objects.filter(published | Q(competition__in=Competition.objects.filter(managed)))


def sheets_visible_to(user: Any) -> QuerySet[ScoreSheet]:
    """The sheets whose scores ``user`` may read, as the sheet page shows them: of ``rounds_visible_to``, and of a
    duplicate round only once it is finalised, unless they run the competition."""
    if _is_superuser(user):
        return ScoreSheet.objects.all()
    managed = _managed(user)  # asked once: it reads the user's clubs
    sheets = ScoreSheet.objects.filter(table__round__in=_rounds_visible(managed))
    return sheets.exclude(table__round__in=_unsettled_rounds(managed))


def statistics_visible_to(user: Any) -> QuerySet[Competition]:
    """The competitions whose players' contract statistics ``user`` may read: ``results_visible_to``, but not a
    duplicate competition with a round in play unless they run it (its counts move deal by deal, as its totals)."""
    if _is_superuser(user):
        return Competition.objects.all()
    managed = _managed(user)
    return _visible(PUBLIC_RESULTS, managed).exclude(rounds__in=_unsettled_rounds(managed))


def _unsettled_rounds(managed: Q | None) -> QuerySet[Round]:
    """The duplicate rounds in play whose scores a viewer waits for (``scores_unsettled`` for many at once): of the
    competitions they do not run (``managed``)."""
    rounds = Round.objects.filter(competition__duplicate=True).exclude(status__in=SCORES_SETTLED)
    return rounds if managed is None else rounds.exclude(competition__in=Competition.objects.filter(managed))


def penalties_visible_to(user: Any) -> QuerySet[Penalty]:
    """Penalties as the results they are: of a round ``user`` may read (``rounds_visible_to``), or, naming no
    round, of a competition whose results they may read."""
    return Penalty.objects.filter(
        Q(round__isnull=True, competition__in=results_visible_to(user)) | Q(round__in=rounds_visible_to(user))
    )
