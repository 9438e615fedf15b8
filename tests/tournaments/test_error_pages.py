"""The pages a person sees when a page refuses: in their language, in the site's layout, and at a table a way on.

A table's phone with an old or mistyped code, or none, lands on a refusal or the login page; both offer the table
code field, so the table types its card's code and goes on (finding of an exploratory test on a phone: a bare
English "403 Forbidden").
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client, RequestFactory
from django.views.defaults import server_error

from tests.factories import seated_competition
from tournaments.models import ScoreSheet

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheet() -> ScoreSheet:
    return ScoreSheet.objects.get(table__round__competition=seated_competition(players=4, slug="spring-cup"))


def phone(language: str) -> Client:
    client = Client()
    client.cookies["django_language"] = language
    return client


def code_form_action(html: str) -> str:
    form = re.search(r'<form method="get" action="([^"]*)"[^>]*id="table-code">(.*?)</form>', html, re.S)
    assert form is not None, "no table code field on the page"
    assert 'name="code"' in form.group(2)
    return form.group(1)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("fr", "Ce code de table n’ouvre pas cette feuille de marque."),
        ("nl", "Deze tafelcode opent dit scoreblad niet."),
        ("en", "This table code does not open this score sheet."),
    ],
)
def test_a_wrong_table_code_says_why_in_the_readers_language_and_asks_for_the_code(
    sheet: ScoreSheet, language: str, said: str
) -> None:
    table = phone(language)
    refused = table.get("/c/spring-cup/r1/t1/entry/", {"code": "ABCD-EFGH-JKMN-PQRS"})
    html = refused.content.decode()
    assert refused.status_code == 403
    assert f'<html lang="{language}">' in html
    assert "403 Forbidden" not in html
    assert said in html
    action = code_form_action(html)
    assert action == "/c/spring-cup/r1/t1/entry/"
    assert table.get(action, {"code": sheet.captain_code}).status_code == 302  # the card's code opens it


def test_an_entry_page_without_a_code_offers_the_code_beside_the_login(sheet: ScoreSheet) -> None:
    table = phone("nl")
    page = table.get("/c/spring-cup/r1/t1/entry/", follow=True)
    html = page.content.decode()
    assert page.redirect_chain[0][0].startswith("/accounts/login/")
    assert "Tafelcode (op de tafelkaart)" in html
    action = code_form_action(html)
    assert table.get(action, {"code": sheet.captain_code.lower().replace("-", "")}).status_code == 302


def test_the_login_page_offers_no_code_field_elsewhere() -> None:
    html = Client().get("/accounts/login/?next=/manage/").content.decode()
    assert 'id="table-code"' not in html


@pytest.mark.parametrize(("language", "said"), [("nl", "Pagina niet gevonden"), ("fr", "Page introuvable")])
def test_a_missing_page_says_so_in_the_readers_language(language: str, said: str) -> None:
    response = phone(language).get("/c/no-such-cup/")
    html = response.content.decode()
    assert response.status_code == 404
    assert said in html and f'<html lang="{language}">' in html
    assert "Not Found" not in html and "No Competition matches" not in html  # nothing internal


def test_a_server_error_page_needs_nothing_from_the_request(settings: Any) -> None:
    response = server_error(RequestFactory().get("/"))
    html = response.content.decode()
    assert response.status_code == 500
    assert "Er liep iets mis" in html and "Une erreur s'est produite" in html and "Something went wrong" in html
