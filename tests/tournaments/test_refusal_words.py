"""What an organiser reads when a step is refused is in their language, names players and numbers tables.

The round's refusals ("round 1 is in_play: cannot re-seat"), a closed competition's, and a seating's problems
("players [12, 15] should sit together but no table seats 6") reached the Dutch and French pages in English, with
player ids and Python lists. The tests enumerate every refusal the services raise and every kind of seating
problem, so a new one is covered by default.
"""

from __future__ import annotations

import ast
import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import translation

import tournaments
from tests.factories import PlayerFactory, seated_competition
from tests.roles import make_roles
from tournaments.models import Competition, Player, Round, ScoreSheet, SeatingWish
from tournaments.seating import Problem
from tournaments.seating_words import WORDS, problems_words
from tournaments.services.competitions import register_players
from tournaments.services.entry import record_deal
from tournaments.services.errors import ServiceError
from tournaments.services.rounds import create_round, reseat_round
from tournaments.services.seating import round_tables

ROOT = Path(tournaments.__file__).parent
REFUSALS = {"ServiceError", "CheckInRefused"}
LANGUAGES = ("en", "nl", "fr")


def _raised(name: str) -> list[tuple[str, int, ast.expr | None]]:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                func = node.exc.func
                if isinstance(func, ast.Name) and func.id == name:
                    found.append(
                        (f"{path.relative_to(ROOT)}:{node.lineno}", node.lineno, next(iter(node.exc.args), None))
                    )
    return found


def _is_words(node: ast.expr | None) -> bool:
    """Not English typed into the code: no literal, no f-string, no seating problems joined as they came."""
    if node is None or isinstance(node, (ast.JoinedStr, ast.Constant)):
        return False
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join":
        return not any(isinstance(n, ast.Attribute) and n.attr == "problems" for n in ast.walk(node))
    return True


def test_every_refusal_the_services_raise_is_said_in_the_readers_language() -> None:
    raised = [place for name in sorted(REFUSALS) for place in _raised(name)]
    assert len(raised) > 40
    typed = [place for place, _line, message in raised if not _is_words(message)]
    assert typed == [], "refused in English typed into the code (use gettext, and names for players)"


def _problem_kinds() -> dict[str, set[str]]:
    """Each kind of seating problem the seating package makes, with the keywords it names."""
    kinds: dict[str, set[str]] = {}
    for path in sorted((ROOT / "seating").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Problem":
                code = node.args[0]
                assert isinstance(code, ast.Constant), ast.unparse(node)
                kinds.setdefault(code.value, set()).update(k.arg for k in node.keywords if k.arg)
    return kinds


def test_every_kind_of_seating_problem_has_words() -> None:
    kinds = _problem_kinds()
    assert len(kinds) >= 12
    assert set(kinds) == set(WORDS)


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_each_seating_problem_names_players_and_tables_as_people_read_them(language: str) -> None:
    anna, bert, carl = (
        PlayerFactory(first_name=first, last_name=last)
        for first, last in (("Anna", "Peeters"), ("Bert", "Janssens"), ("Carl", "Maes"))
    )
    values: dict[str, Any] = {
        "player": anna.pk,
        "first": anna.pk,
        "second": bert.pk,
        "players": [anna.pk, bert.pk, carl.pk],
        "table": 3,
        "other_table": 4,
        "count": 6,
    }
    for code, keywords in sorted(_problem_kinds().items()):
        problem = Problem(code, f"{code} in English", **{k: values[k] for k in keywords})
        with translation.override(language):
            (words,) = problems_words([problem])
        english = _english(problem)
        assert not re.search(r"[\[\]{}_]|%\(|\bplayers? \d", words), (code, words)
        assert words[0].isupper() and words.endswith("."), (code, words)
        if {"player", "first", "players"} & keywords:
            assert "Anna Peeters" in words, (code, words)
        if "players" in keywords:
            assert {"en": "Bert Janssens and Carl Maes", "nl": "Bert Janssens en Carl Maes"}.get(
                language, "Bert Janssens et Carl Maes"
            ) in words
        if "table" in keywords:
            assert "3" in words, (code, words)
        if language != "en":
            assert words != english, f"{code} is not translated into {language}"
        if language == "fr":
            assert not re.search(r"\S[:;?!]", words), f"{code}: French sets off : ; ? ! with a no-break space"


def _english(problem: Problem) -> str:
    with translation.override("en"):
        (words,) = problems_words([problem])
    return words


APART = {
    "en": "{a} and {b} should be kept apart, but both sit at table 1.",
    "nl": "{a} en {b} moeten gescheiden zitten, maar zitten allebei aan tafel 1.",
    "fr": "{a} et {b} doivent être séparés, mais sont tous deux à la table 1.",
}


def _organiser(competition: Competition, language: str) -> Client:
    client = Client()
    client.force_login(make_roles(competition).club_admin)
    client.cookies["django_language"] = language
    return client


def _messages(response: Any) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_drafts_broken_wish_is_said_with_the_players_names_on_the_page_and_when_publishing(language: str) -> None:
    competition = seated_competition(players=8, rounds=0)
    round_ = create_round(competition)
    first, second = round_tables(round_)[0][:2]
    SeatingWish.objects.create(competition=competition, player_id=first, other_id=second, kind="apart")
    names = {p.pk: p.name for p in Player.objects.filter(pk__in=[first, second])}
    expected = APART[language].format(a=names[first], b=names[second])
    client = _organiser(competition, language)

    page = unescape(client.get(reverse("manage-round", args=[competition.slug, 1])).content.decode())
    refused = client.post(reverse("manage-round-publish", args=[competition.slug, 1]))

    assert expected in page
    assert _messages(refused) == [expected]
    assert Round.objects.get(pk=round_.pk).status == Round.Status.DRAFT


FINALISE = {
    "en": "Round 1 (In play): a round is finalised once every sheet is confirmed.",
    "nl": "Ronde 1 (Bezig): een ronde wordt afgesloten zodra elk scoreblad bevestigd is.",
    "fr": "Manche 1 (En cours)\u00a0: une manche est clôturée une fois chaque feuille de marque confirmée.",
}
RESEAT = {
    "en": "Round 1 (In play): a round is seated again only before its first score: its seating stays.",
    "nl": "Ronde 1 (Bezig): een ronde wordt alleen vóór haar eerste score opnieuw ingedeeld: haar tafelschikking "
    "blijft.",
    "fr": "Manche 1 (En cours)\u00a0: une manche n'est placée à nouveau qu'avant son premier score\u00a0: son "
    "placement reste.",
}


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_step_the_round_in_play_does_not_take_is_refused_in_the_organisers_language(language: str) -> None:
    """Finalising before every sheet is confirmed; seating a late arrival once the first line is in (the check-in
    desk's button, a moment too late)."""
    competition = seated_competition(players=8)
    sheet = ScoreSheet.objects.filter(table__round__competition=competition).first()
    assert sheet is not None
    record_deal(sheet, {"deal": 1, "dealer": 0, "contract": "pass"})
    late = PlayerFactory()
    register_players(competition, [late])
    client = _organiser(competition, language)

    finalise = client.post(reverse("manage-round-finalise", args=[competition.slug, 1]))
    reseat = _reseat_late(competition, late.pk, language)

    assert _messages(finalise) == [FINALISE[language]]
    assert reseat == RESEAT[language]
    assert competition.rounds.get().status == Round.Status.IN_PLAY


def _reseat_late(competition: Competition, player_id: int, language: str) -> str:
    round_ = competition.rounds.get()
    players = [p for table in round_tables(round_) for p in table] + [player_id]
    with translation.override(language), pytest.raises(ServiceError) as refused:
        reseat_round(round_, players=players, reason="late")
    return str(refused.value)
