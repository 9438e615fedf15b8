"""Ranking: a standings method, then the organiser's tie-breaks in order, then shared ranks.

``rank`` sorts players by the chosen method's value; players level on it are
split by the first tie-break, those still level by the next, and so on, each
tie-break computed within the group still tied (which is what makes
head-to-head meaningful, as in Tabbycat). Players level after every
tie-break share a rank (1, 2, 2, 4) and are listed by player id so the table
is the same however the input was ordered. Every row says in words how it
was reached, so an organiser can answer "why am I fourth?".

League options shape which sessions count before any of that happens: a
minimum number of evenings to be ranked at all, only each player's best N
evenings, and a decay that lets older evenings count less. Penalties always
count in full: a sanction is not discarded with a weak evening nor faded by
time. Tie-breaks see the sessions the method counted, unweighted.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby

from scoring.methods import MethodOptions, MethodValue, StandingsMethod, find_method
from scoring.records import Penalty, ScoringError, SessionResult
from scoring.tiebreaks import TieBreak, TieBreakValue, find_tiebreak


@dataclass(frozen=True, slots=True)
class LeagueOptions:
    """Season rules: ``min_evenings`` to be ranked, only the ``best_n`` evenings count, ``decay`` per evening of age.

    An evening ``k`` evenings before the latest one counts ``decay ** k`` times.
    The decay is taken as the decimal it is written as (0.9 is exactly 9/10), so
    weighted totals stay exact and equal totals still share a rank.
    """

    min_evenings: int = 0
    best_n: int | None = None
    decay: float = 1.0

    def __post_init__(self) -> None:
        if self.min_evenings < 0:
            raise ScoringError(f"minimum evenings must not be negative, got {self.min_evenings}")
        if self.best_n is not None and self.best_n < 1:
            raise ScoringError(f"best N evenings must be at least 1 when set, got {self.best_n}")
        if not 0 < self.decay <= 1:
            raise ScoringError(f"decay must be above 0 and at most 1, got {self.decay}")


@dataclass(frozen=True, slots=True)
class RankedRow:
    """One line of a standings table; ``rank`` 0 means not ranked (the explanation says why)."""

    rank: int
    player_id: int
    value: MethodValue
    tiebreak_values: tuple[TieBreakValue, ...]
    shared: bool
    explanation: str


@dataclass(frozen=True, slots=True)
class SeasonRow:
    """One line of a season table.

    ``per_evening`` is the player's session points per evening (before
    penalties, which are in ``penalty_points``); ``counted_evenings`` are the
    evenings that count under best N; ``movement`` is the rank after the
    previous evening minus the rank now (positive: moved up), ``None`` for a
    player who was not ranked then or is not ranked now.
    """

    player_id: int
    per_evening: dict[int, int]
    total: MethodValue
    rank: int
    movement: int | None
    penalty_points: int
    counted_evenings: tuple[int, ...]
    explanation: str


def _players(ids: Iterable[int]) -> str:
    names = [f"#{pid}" for pid in sorted(ids)]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _find_tiebreaks(keys: Sequence[str]) -> list[TieBreak]:
    if isinstance(keys, str):
        raise ScoringError(f"tie-breaks must be a list of keys, got the string {keys!r}")
    if len(set(keys)) != len(keys):
        raise ScoringError(f"a tie-break is listed twice in {list(keys)}")
    return [find_tiebreak(key) for key in keys]


def counted_evenings(sessions: Sequence[SessionResult], best_n: int | None) -> tuple[int, ...]:
    """The evenings of one player's ``sessions`` that count: all, or the ``best_n`` with the most session points.

    Between evenings with equal points the later one is kept, so that under a
    decay the choice favours the player.
    """
    totals: dict[int, int] = defaultdict(int)
    for s in sessions:
        totals[s.evening] += s.points
    chosen = sorted(totals, key=lambda e: (totals[e], e), reverse=True)
    if best_n is not None:
        chosen = chosen[:best_n]
    return tuple(sorted(chosen))


def _decay_weights(evenings: Iterable[int], decay: float) -> dict[int, Fraction] | None:
    if decay == 1:
        return None  # keep int arithmetic when nothing is weighted
    exact = Fraction(str(decay))
    evenings = set(evenings)
    last = max(evenings, default=0)
    return {e: exact ** (last - e) for e in evenings}


def _split(group: Sequence[int], values: Mapping[int, MethodValue | TieBreakValue]) -> list[list[int]]:
    """Split ``group`` into runs of equal value, best first; each run by player id."""
    ordered = sorted(group, key=lambda pid: values[pid], reverse=True)
    return [sorted(run) for _, run in groupby(ordered, key=lambda pid: values[pid])]


def _explain(
    pid: int,
    method: StandingsMethod,
    value: MethodValue,
    tiebreaks: Sequence[TieBreak],
    tb_values: Mapping[int, Sequence[TieBreakValue]],
    history: Sequence[frozenset[int]],
) -> str:
    """Say how ``pid``'s row was reached, from the group level with them at each step (``history``)."""
    parts = [method.describe(value)]
    if len(history[0]) == 1:
        return parts[0]
    parts.append(f"tied on {method.name.lower()} with {_players(history[0] - {pid})}")
    for k, tiebreak in enumerate(tiebreaks):
        before, after = history[k], history[k + 1]
        if len(before) == 1:
            break
        mine = tiebreak.describe(tb_values[pid][k])
        if before == after:
            parts.append(f"level on {tiebreak.name.lower()} ({mine})")
            continue
        gone = sorted(before - after)
        if len(before) == 2:
            theirs = tiebreak.describe(tb_values[gone[0]][k])
            parts.append(f"separated by {tiebreak.name.lower()} ({mine} vs {theirs})")
        else:
            theirs = ", ".join(f"{tiebreak.describe(tb_values[other][k])} for #{other}" for other in gone)
            parts.append(f"separated from {_players(gone)} by {tiebreak.name.lower()} ({mine} vs {theirs})")
    if len(history[-1]) > 1:
        why = "level on every tie-break" if tiebreaks else "no tie-break set"
        parts.append(f"{why}, so the rank is shared with {_players(history[-1] - {pid})}")
    return "; ".join(parts)


def rank(
    players: Iterable[int],
    sessions: Iterable[SessionResult],
    penalties: Iterable[Penalty],
    method_key: str,
    tiebreak_keys: Sequence[str] = (),
    options: LeagueOptions | None = None,
    method_options: MethodOptions | None = None,
) -> list[RankedRow]:
    """Rank every player listed, seated or penalised: ranked rows first, then rows with rank 0 (too few evenings).

    Raises ``ScoringError`` (``UnknownMethod``, ``UnknownTieBreak``) for a key
    the registries do not hold or a tie-break listed twice.
    """
    method = find_method(method_key)
    tiebreaks = _find_tiebreaks(tiebreak_keys)
    league = options or LeagueOptions()
    all_sessions = list(sessions)
    own_sessions: dict[int, list[SessionResult]] = defaultdict(list)
    own_penalties: dict[int, list[Penalty]] = defaultdict(list)
    for s in all_sessions:
        own_sessions[s.player_id].append(s)
    for p in penalties:
        own_penalties[p.player_id].append(p)
    everyone = set(players) | set(own_sessions) | set(own_penalties)
    weights = _decay_weights((s.evening for s in all_sessions), league.decay)

    counted: dict[int, list[SessionResult]] = {}
    for pid in everyone:
        keep = set(counted_evenings(own_sessions[pid], league.best_n))
        counted[pid] = [s for s in own_sessions[pid] if s.evening in keep]
    values = {pid: method.value(counted[pid], own_penalties[pid], method_options, weights) for pid in everyone}
    played = {pid: len({s.evening for s in own_sessions[pid]}) for pid in everyone}
    eligible = [pid for pid in everyone if played[pid] >= league.min_evenings]

    groups = _split(eligible, values)
    history: dict[int, list[frozenset[int]]] = {pid: [frozenset(g)] for g in groups for pid in g}
    tb_values: dict[int, list[TieBreakValue]] = {pid: [] for pid in eligible}
    for tiebreak in tiebreaks:
        refined: list[list[int]] = []
        for group in groups:
            tied = frozenset(group)
            level = {pid: tiebreak.value(pid, counted[pid], own_penalties[pid], tied) for pid in group}
            for pid in group:
                tb_values[pid].append(level[pid])
            refined.extend(_split(group, level) if len(group) > 1 else [group])
        groups = refined
        for group in groups:
            for pid in group:
                history[pid].append(frozenset(group))

    rows: list[RankedRow] = []
    position = 1
    for group in groups:
        for pid in group:
            explanation = _explain(pid, method, values[pid], tiebreaks, tb_values, history[pid])
            rows.append(RankedRow(position, pid, values[pid], tuple(tb_values[pid]), len(group) > 1, explanation))
        position += len(group)

    for pid in sorted(everyone.difference(eligible), key=lambda pid: (values[pid], -pid), reverse=True):
        evenings = "evening" if played[pid] == 1 else "evenings"
        explanation = (
            f"not ranked: played {played[pid]} {evenings}, {league.min_evenings} needed; {method.describe(values[pid])}"
        )
        rows.append(RankedRow(0, pid, values[pid], (), False, explanation))
    return rows


def season_table(
    sessions: Iterable[SessionResult],
    penalties: Iterable[Penalty],
    players: Iterable[int] = (),
    options: LeagueOptions | None = None,
    method_key: str = "total_points",
    tiebreak_keys: Sequence[str] = (),
    method_options: MethodOptions | None = None,
) -> list[SeasonRow]:
    """The league table now, with each player's points per evening and their movement since the previous evening.

    The previous table is the one ``rank`` gives over the sessions up to the
    previous evening and the penalties dated up to it (undated ones count in
    both), with its own decay reference; the same ``players`` are listed in both.
    """
    all_sessions = list(sessions)
    all_penalties = list(penalties)
    listed = list(players)
    league = options or LeagueOptions()
    rows = rank(listed, all_sessions, all_penalties, method_key, tiebreak_keys, league, method_options)

    evenings = sorted({s.evening for s in all_sessions})
    previous: dict[int, int] = {}
    if len(evenings) >= 2:
        cutoff = evenings[-2]
        earlier = [s for s in all_sessions if s.evening <= cutoff]
        before = [p for p in all_penalties if p.evening is None or p.evening <= cutoff]
        seated = {s.player_id for s in earlier}
        for row in rank(listed, earlier, before, method_key, tiebreak_keys, league, method_options):
            if row.rank and row.player_id in seated:
                previous[row.player_id] = row.rank

    per_evening: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    own_sessions: dict[int, list[SessionResult]] = defaultdict(list)
    for s in sorted(all_sessions, key=lambda s: s.evening):
        per_evening[s.player_id][s.evening] += s.points
        own_sessions[s.player_id].append(s)
    penalty_points: dict[int, int] = defaultdict(int)
    for p in all_penalties:
        penalty_points[p.player_id] += p.points

    return [
        SeasonRow(
            player_id=row.player_id,
            per_evening=dict(per_evening[row.player_id]),
            total=row.value,
            rank=row.rank,
            movement=previous[row.player_id] - row.rank if row.rank and row.player_id in previous else None,
            penalty_points=penalty_points[row.player_id],
            counted_evenings=counted_evenings(own_sessions[row.player_id], league.best_n),
            explanation=row.explanation,
        )
        for row in rows
    ]
