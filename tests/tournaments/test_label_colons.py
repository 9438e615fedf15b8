"""A label's colon as the reader's language writes it: French sets it off with a no-break space ("Donneur : Nord",
"règles : ..."), Dutch and English do not. The printed hand records said "Donneur: Nord"; the colon sat outside
the translated label, in the template. Every template is read, so a label added the old way fails."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template, engines
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import CompetitionFactory, PlayerFactory
from tournaments.services.competitions import register_players

BARE_COLON = re.compile(r'\{% (?:translate|trans) "[^"]+"(?: context "[^"]+")? %\}:')


def our_templates() -> list[Path]:
    """Every template the project's own folders hold (not those of installed packages)."""
    base = Path(settings.BASE_DIR)
    folders = [Path(folder) for folder in engines["django"].template_dirs]
    ours = [folder for folder in folders if folder.is_relative_to(base) and ".venv" not in folder.parts]
    files = sorted({path for folder in ours if folder.is_dir() for path in folder.rglob("*.html")})
    assert any(path.name == "hand_records.html" for path in files)
    return files


def test_no_template_puts_a_bare_colon_after_a_translated_label() -> None:
    base = Path(settings.BASE_DIR)
    found = {
        str(path.relative_to(base)): BARE_COLON.findall(path.read_text(encoding="utf-8")) for path in our_templates()
    }
    assert {name: labels for name, labels in found.items() if labels} == {}


# A colon written in the template right after a tag or a variable, e.g. "{% endblocktranslate %}: {{ text }}" or
# "{{ label }}: {{ value }}". A whole translated block counts as one tag: a colon inside it is the catalogue's.
TRANSLATED_BLOCK = re.compile(r"\{% blocktrans(?:late)?\b.*?\{% endblocktrans(?:late)? %\}", re.S)
NOT_TEXT = re.compile(r"<(style|script)\b.*?</\1>|\{#.*?#\}|\{% comment %\}.*?\{% endcomment %\}", re.S)
COLON_AFTER_TAG = re.compile(r"(?:%\}|\}\}):(?=[\s<]|$)", re.M)


def test_no_template_puts_a_bare_colon_after_a_tag_or_a_variable() -> None:
    """The sheet's history said "deal 3 v2: ..." and a board's tables "N: Jan" to French readers too; the sheet's
    seat columns read "1:" on a phone, where the name after the colon is hidden."""
    base = Path(settings.BASE_DIR)
    found: dict[str, list[str]] = {}
    for path in our_templates():
        text = NOT_TEXT.sub("", TRANSLATED_BLOCK.sub("{% translated %}", path.read_text(encoding="utf-8")))
        joins = [text[max(0, match.start() - 40) : match.end()] for match in COLON_AFTER_TAG.finditer(text)]
        if joins:
            found[str(path.relative_to(base))] = joins
    assert found == {}


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", "Dealer:"), ("nl", "Deler:"), ("fr", "Donneur\u00a0:"), ("fr-be", "Donneur\u00a0:")],
)
def test_the_colon_follows_the_readers_language(language: str, expected: str) -> None:
    label = Template('{% load i18n labels %}{% translate "Dealer" %}{% colon %}')
    with translation.override(language):
        assert label.render(Context()) == expected


@pytest.mark.django_db
def test_a_french_page_sets_its_labels_colons_off() -> None:
    competition = CompetitionFactory(slug="coupe")
    register_players(competition, PlayerFactory.create_batch(4))
    page = Client(HTTP_ACCEPT_LANGUAGE="fr").get(reverse("competition", args=["coupe"])).content.decode()
    assert "règles\u00a0:" in page
    assert not re.search(r"règles:", page)


# A label joined to its text with a bare colon in code: `${label}: ${text}` in a script, f"{label}: {text}" in Python.
SCRIPT_COLON = re.compile(r"\}: \$\{")
PYTHON_COLON = re.compile(r"\{[^{}]*label[^{}]*\}: \{")


def test_no_script_or_module_joins_a_label_with_a_bare_colon() -> None:
    """The entry page's offline script said "Plis: 8" to a French table, and a refused penalty "Motif: ..."; both
    now take the colon from the reader's language (``labels.colon``, passed to the script as ``words.colon``)."""
    base = Path(settings.BASE_DIR)
    scripts = sorted((base / "tournaments" / "static").rglob("*.js"))
    modules = sorted(path for folder in ("tournaments", "scoring", "config") for path in (base / folder).rglob("*.py"))
    assert any(path.name == "entry.js" for path in scripts) and modules
    found = {
        str(path.relative_to(base)): pattern.findall(path.read_text(encoding="utf-8"))
        for paths, pattern in ((scripts, SCRIPT_COLON), (modules, PYTHON_COLON))
        for path in paths
    }
    assert {name: joins for name, joins in found.items() if joins} == {}
