"""Builders for the standings calculators' records: one call per table, so every seat's record agrees."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hypothesis import strategies as st

from scoring.records import Penalty, SessionResult


def table(
    session_id: int,
    evening: int,
    seats: Sequence[tuple[int, int]],
    deals: int | Sequence[int] = 16,
    contracts: Mapping[int, tuple[int, int]] | None = None,
) -> list[SessionResult]:
    """Every seat's record of one table session; ``seats`` is (player, points) in seat order.

    ``deals`` is one count for everyone or one per seat (a table of five sits
    one player out each deal); ``contracts`` maps a player to (bid, made).
    """
    players = tuple(pid for pid, _ in seats)
    points = tuple(pts for _, pts in seats)
    per_seat = [deals] * len(seats) if isinstance(deals, int) else list(deals)
    bids = contracts or {}
    return [
        SessionResult(pid, session_id, evening, pts, per_seat[i], points, players, *bids.get(pid, (0, 0)))
        for i, (pid, pts) in enumerate(seats)
    ]


def sessions_of(*tables: list[SessionResult]) -> list[SessionResult]:
    return [record for records in tables for record in records]


@st.composite
def competitions(draw: st.DrawFn, max_players: int = 8) -> tuple[list[int], list[SessionResult], list[Penalty]]:
    """Registered players, table sessions (1-5 seats, small scores so ties are common) and penalties."""
    pool = list(range(1, draw(st.integers(1, max_players)) + 1))
    records: list[SessionResult] = []
    for session_id in range(draw(st.integers(0, 8))):
        seated = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=5, unique=True))
        scores = draw(st.lists(st.integers(-6, 6), min_size=len(seated), max_size=len(seated)))
        deals = draw(st.lists(st.integers(0, 24), min_size=len(seated), max_size=len(seated)))
        bids = {pid: draw(st.tuples(st.integers(0, 3), st.integers(0, 3)).map(sorted)) for pid in seated}
        contracts = {pid: (bid, made) for pid, (made, bid) in bids.items()}
        records += table(session_id, draw(st.integers(1, 4)), list(zip(seated, scores, strict=True)), deals, contracts)
    penalties = draw(
        st.lists(
            st.builds(Penalty, st.sampled_from(pool), st.integers(0, 5), st.none() | st.integers(1, 4)), max_size=3
        )
    )
    registered = draw(st.lists(st.sampled_from(pool), unique=True))
    return registered, records, penalties
