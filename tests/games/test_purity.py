"""games/ is a pure package: no Django, typed."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_importing_games_imports_no_django() -> None:
    code = (
        "import sys, games, games.cli, games.generate, games.sheet\n"
        "loaded = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(','.join(loaded))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def test_the_package_ships_py_typed() -> None:
    assert (ROOT / "games" / "py.typed").is_file()
