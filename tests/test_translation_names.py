"""Every translated string in the code reaches the translators.

``makemessages`` finds strings by the names they are called with (``_``, ``gettext``, ``gettext_lazy``,
``pgettext`` ...). A string marked through another alias (``gettext_lazy as _lazy``) is never extracted, so it
stays English on every page, silently: two were, until this test. It reads every import of
``django.utils.translation`` in the project's code and accepts only names ``makemessages`` knows, and refuses a
string marked inside an f-string, whose expressions xgettext does not read.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("config", "tournaments", "scoring", "games")
# xgettext's keywords as Django's makemessages passes them (django/core/management/commands/makemessages.py)
KNOWN = {
    "_",
    "gettext",
    "gettext_lazy",
    "gettext_noop",
    "ngettext",
    "ngettext_lazy",
    "pgettext",
    "pgettext_lazy",
    "npgettext",
    "npgettext_lazy",
}


def test_translation_functions_are_imported_under_names_makemessages_extracts() -> None:
    checked, wrong = 0, []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.ImportFrom) and node.module == "django.utils.translation":
                    for alias in node.names:
                        if alias.name in KNOWN:
                            checked += 1
                            if (alias.asname or alias.name) not in KNOWN:
                                wrong.append(f"{path.relative_to(ROOT)}: {alias.name} as {alias.asname}")
    assert checked > 50  # the walk found the project's translated modules
    assert wrong == [], "makemessages does not extract strings marked through these names"


def test_no_string_is_marked_inside_an_f_string() -> None:
    """makemessages would drop it from the catalogues (as obsolete) the next time it runs."""
    inside = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.JoinedStr):
                    inside += [
                        f"{path.relative_to(ROOT)}:{call.lineno}"
                        for call in ast.walk(node)
                        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in KNOWN
                    ]
    assert inside == []
