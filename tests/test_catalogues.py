"""Every string the code marks for translation has a Dutch and a French translation in the shipped catalogues.

``makemessages`` misses some marked strings: xgettext does not read the expressions inside a Python f-string, so
a ``gettext("Ranking value")`` there never reached the translators, and the standings header stayed English on
every Dutch and French page. This test finds the marked strings itself, in the Python code (f-strings included,
from the syntax tree) and in the templates (through Django's own ``templatize``), and looks each one up in the
compiled catalogues that Django loads, so a string added anywhere is checked by default.
"""

from __future__ import annotations

import ast
import gettext as gnu_gettext
import io
import re
import tokenize
from functools import cache

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.translation.template import templatize

from tests.test_translation_names import KNOWN, PACKAGES, ROOT

# the argument positions that hold text, per marking function (the others are counts)
SINGULAR = {"_", "gettext", "gettext_lazy", "gettext_noop"}
PLURAL = {"ngettext", "ngettext_lazy"}
CONTEXT = {"pgettext", "pgettext_lazy"}
CONTEXT_PLURAL = {"npgettext", "npgettext_lazy"}
TEMPLATE_CALL = re.compile(r"\b(n?p?gettext)\(")

Message = tuple[str | None, str, str | None]  # context, singular, plural


def _message(name: str, texts: list[str]) -> Message | None:
    if name in SINGULAR and len(texts) >= 1:
        return None, texts[0], None
    if name in PLURAL and len(texts) >= 2:
        return None, texts[0], texts[1]
    if name in CONTEXT and len(texts) >= 2:
        return texts[0], texts[1], None
    if name in CONTEXT_PLURAL and len(texts) >= 3:
        return texts[0], texts[1], texts[2]
    return None


@cache
def python_messages() -> dict[Message, str]:
    """Marked strings with literal text in the project's Python code, with where each was first found."""
    found: dict[Message, str] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                    continue
                texts = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                message = _message(node.func.id, texts)
                if message:
                    found.setdefault(message, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def _call_strings(source: str, start: int) -> list[str]:
    """The string literals among the arguments of the call whose parenthesis opens at ``start``."""
    texts: list[str] = []
    depth = 0
    for token in tokenize.generate_tokens(io.StringIO(source[start:]).readline):
        if token.type == tokenize.OP and token.string == "(":
            depth += 1
        elif token.type == tokenize.OP and token.string == ")":
            depth -= 1
            if depth == 0:
                break
        elif token.type == tokenize.STRING and depth == 1:
            texts.append(ast.literal_eval(token.string))
    return texts


@cache
def template_messages() -> dict[Message, str]:
    """Marked strings in the templates, as ``makemessages`` reads them (Django's templatize)."""
    found: dict[Message, str] = {}
    for path in sorted((ROOT / "templates").rglob("*.html")) + sorted(ROOT.glob("*/templates/**/*.html")):
        source = templatize(path.read_text(), str(path))
        for match in TEMPLATE_CALL.finditer(source):
            message = _message(match.group(1), _call_strings(source, match.end() - 1))
            if message:
                found.setdefault(message, str(path.relative_to(ROOT)))
    return found


def catalogue(language: str) -> gnu_gettext.GNUTranslations:
    with open(ROOT / "locale" / language / "LC_MESSAGES" / "django.mo", "rb") as compiled:
        return gnu_gettext.GNUTranslations(compiled)


def missing(messages: dict[Message, str], language: str) -> list[str]:
    texts = catalogue(language)._catalog  # type: ignore[attr-defined]
    gaps = []
    for (context, singular, plural), where in sorted(messages.items(), key=lambda item: item[1]):
        key = f"{context}\x04{singular}" if context else singular
        translated = texts.get((key, 0)) if plural else texts.get(key)
        if not translated:
            gaps.append(f"{where}: {singular!r}" + (f" (context {context!r})" if context else ""))
    return gaps


LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]


def test_every_name_makemessages_extracts_has_its_arguments_read() -> None:
    assert SINGULAR | PLURAL | CONTEXT | CONTEXT_PLURAL == KNOWN


def test_the_walks_find_the_marked_strings() -> None:
    """The two readers see what they must, or the checks below would pass on nothing."""
    in_code, in_templates = python_messages(), template_messages()
    assert len(in_code) > 300 and len(in_templates) > 300
    # one from an f-string, one from a blocktranslate with a variable, one with a context
    assert (None, "Ranking value", None) in in_code
    assert any("%(" in singular for _context, singular, _plural in in_templates)
    assert any(context for context, _singular, _plural in in_code | in_templates)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_string_marked_in_the_code_is_translated(language: str) -> None:
    assert missing(python_messages(), language) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_string_marked_in_the_templates_is_translated(language: str) -> None:
    assert missing(template_messages(), language) == []


# Words that one page or its neighbour shows as headers of different columns: a sheet's totals number the seats
# (1..5 beside each name) where the standings and the player pages give a rank. Both read "Plaats" in Dutch and
# "Place" in French once, so a sheet's seat 1 with the lowest total looked like the table's winner.
DISTINCT = [("Seat", "Rank")]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("words", DISTINCT)
def test_words_with_different_meanings_stay_apart(language: str, words: tuple[str, ...]) -> None:
    with translation.override(language):
        translated = [translation.gettext(word) for word in words]
    assert len(set(translated)) == len(words), f"{language}: {dict(zip(words, translated, strict=True))}"


# French sets : ; ? ! off from the word before with a space that must not break: a phone wrapped "Plis : 8" as
# "Plis" above ": 8". A plain space there is the translator's slip, so every French message is read for one.
BREAKING_BEFORE_PUNCTUATION = re.compile(r"\S [:;?!]")


def test_french_sets_its_punctuation_off_with_a_no_break_space() -> None:
    texts = catalogue("fr")._catalog  # type: ignore[attr-defined]
    messages = [m for m in texts.values() if isinstance(m, str)]
    assert sum("\u00a0:" in m for m in messages) > 100  # the catalogue read, with its colons
    slips = sorted(m for m in messages if BREAKING_BEFORE_PUNCTUATION.search(m))
    assert slips == []
