"""The organiser's round page lists its players (to swap two) as people sort names: accents aside."""

from __future__ import annotations

import pytest

from tests.factories import CompetitionFactory, PlayerFactory
from tournaments.selectors.manage import round_progress
from tournaments.services.competitions import register_players
from tournaments.services.rounds import create_round

pytestmark = pytest.mark.django_db


def test_the_players_of_a_round_are_listed_accents_aside() -> None:
    """ "Éloïse" came after "Maëlle": a list sorted by the letters' codes puts É after every plain letter."""
    competition = CompetitionFactory()
    names = [("Maëlle", "Dubois"), ("Éloïse", "Gérard"), ("Anna", "Peeters"), ("Zoë", "Claes")]
    register_players(competition, [PlayerFactory(first_name=first, last_name=last) for first, last in names])
    listed = [name for _, name, _ in round_progress(create_round(competition)).players]
    assert [name.split()[0] for name in listed] == ["Anna", "Éloïse", "Maëlle", "Zoë"]
