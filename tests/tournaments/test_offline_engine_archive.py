"""The engine's zip for the browser (tournaments/offline): the package's Python source, nothing else, revalidated."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

import games
from tournaments.offline.views import SERVER_ONLY

pytestmark = pytest.mark.django_db


def test_the_archive_holds_the_engines_python_files_and_revalidates() -> None:
    response = Client().get(reverse("offline-engine"))
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    names = set(zipfile.ZipFile(io.BytesIO(response.content)).namelist())
    root = Path(games.__file__).parent
    every = {p.relative_to(root) for p in root.rglob("*.py") if "__pycache__" not in p.parts}
    expected = {f"games/{p}" for p in every if p.parts[0] not in SERVER_ONLY}
    assert expected <= names and "games/__init__.py" in names and "games/duplicate/pbn.py" in names
    assert not any(name.split("/")[1] in SERVER_ONLY for name in names)
    assert all(name.endswith((".py", ".typed")) for name in names)  # no bytecode, no data beside the code
    again = Client().get(reverse("offline-engine"), HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304 and again.content == b""


def test_the_entry_page_allows_webassembly_and_nothing_more() -> None:
    from tests.factories import seated_competition
    from tournaments.models import ScoreSheet

    competition = seated_competition(players=4)
    sheet = ScoreSheet.objects.get(table__round__competition=competition)
    client = Client()
    url = reverse("sheet-entry", args=[competition.slug, 1, 1])
    assert client.get(url, {"code": sheet.captain_code}).status_code == 302
    policy = client.get(url)["Content-Security-Policy"]
    script_src = next(d for d in policy.split(";") if d.strip().startswith("script-src")).split()
    assert "'wasm-unsafe-eval'" in script_src and "'unsafe-eval'" not in script_src
    assert "'unsafe-inline'" not in script_src
    # the other pages keep the policy without it
    assert (
        "wasm-unsafe-eval"
        not in Client().get(reverse("competition", args=[competition.slug]))["Content-Security-Policy"]
    )
