"""Every contract a line can be settled as has a name people read: a persona run found a Zwicken competition's
page counting its deals under the engine's ids ("zwicken", "void", "belli") in its list of contracts."""

from __future__ import annotations

from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from games.contracts import CONTRACTS
from games.zwicken.lines import CUTS
from scoring.services import recompute_statistics
from tests.factories import ClubFactory, PlayerFactory
from tournaments.contract_names import NAMES
from tournaments.models import ScoreSheet
from tournaments.services.competitions import create_competition, create_rule_set, register_players
from tournaments.services.entry import record_deal
from tournaments.services.rounds import create_round, publish_round

# what ``Settled.contract`` can be: Wiezen's and Solo whist's contracts, a Zwicken deal and its cuts
SETTLED_AS = sorted({*CONTRACTS, "zwicken", *CUTS})


@pytest.mark.parametrize("contract", SETTLED_AS)
def test_every_contract_a_line_is_settled_as_has_a_display_name(contract: str) -> None:
    assert contract in NAMES


@pytest.mark.django_db
def test_a_zwicken_competition_counts_its_deals_and_cuts_by_name() -> None:
    rule_set = create_rule_set(name="Zwicken", game="zwicken", preset="zwicken")
    competition = create_competition(club=ClubFactory(), name="Zwickerabend", slug="zwick", rule_set=rule_set)
    register_players(competition, PlayerFactory.create_batch(4))
    publish_round(create_round(competition))
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    record_deal(sheet, {"deal": 1, "dealer": 0, "played": [1, 2, 3], "tricks": [0, 2, 1, 0]})
    record_deal(sheet, {"deal": 2, "dealer": 1, "cut": "void"})
    record_deal(sheet, {"deal": 3, "dealer": 1, "cut": "belli"})
    recompute_statistics(competition.pk, full=True)

    # the column says how often each was played (not the entry form's "who played": "Speelt mee", "Joue")
    for language, names in (
        ("nl", ["Ongeldige afneming", "Belli bij het afnemen", ">Gespeeld<"]),
        ("fr", ["Coupe annulée", ">Joués<"]),
    ):
        page = unescape(
            Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("competition", args=["zwick"])).content.decode()
        )
        for name in names:
            assert name in page, (language, name)
        assert ">void<" not in page and ">belli<" not in page and ">zwicken<" not in page
