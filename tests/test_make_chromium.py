"""`make test` installs Debian's Chromium itself when it is missing (issue 15), the way .ci/run does.

The Makefile's ``chromium`` target and .ci/run share .ci/ensure-chromium. These tests run ``make chromium``
with a Chromium path in a temporary directory and stubs for ``apt-get``, ``sudo`` and ``id`` first on PATH, so
nothing is installed for real: the stubs write down how they were called, and ``apt-get install`` "installs"
Chromium by creating the file.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

APT_GET = """#!/usr/bin/env bash
echo "apt-get $*" >> "$STUB_LOG"
if [ "$1" = "install" ]; then
  if [ -e "$STUB_DIR/install-fails-once" ]; then rm "$STUB_DIR/install-fails-once"; exit 100; fi
  [ -e "$STUB_DIR/install-fails" ] && exit 100
  printf '#!/bin/sh\\n' > "$CHROMIUM_TARGET" && chmod +x "$CHROMIUM_TARGET"
fi
exit 0
"""
SUDO = """#!/usr/bin/env bash
echo "sudo $*" >> "$STUB_LOG"
[ "$1" = "-n" ] || exit 1
[ -e "$STUB_DIR/sudo-needs-password" ] && { echo "sudo: a password is required" >&2; exit 1; }
shift
exec "$@"
"""
ID = """#!/usr/bin/env bash
[ "$1" = "-u" ] && { echo "$STUB_UID"; exit 0; }
exec /usr/bin/id "$@"
"""


def run_make(
    tmp_path: Path, *, uid: int = 1000, flags: tuple[str, ...] = ()
) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    stubs = tmp_path / "bin"
    stubs.mkdir()
    for name, text in (("apt-get", APT_GET), ("sudo", SUDO), ("id", ID)):
        (stubs / name).write_text(text)
        (stubs / name).chmod(0o755)
    for flag in flags:
        (stubs / flag).touch()
    log = tmp_path / "calls.log"
    log.touch()
    chromium = tmp_path / "chromium"
    env = {
        **os.environ,
        "PATH": f"{stubs}:{os.environ['PATH']}",
        "STUB_LOG": str(log),
        "STUB_DIR": str(stubs),
        "STUB_UID": str(uid),
        "CHROMIUM_TARGET": str(chromium),
    }
    result = subprocess.run(
        ["make", "--no-print-directory", "-C", str(ROOT), "chromium", f"CHROMIUM={chromium}"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return result, log.read_text().splitlines()


def test_make_chromium_does_nothing_when_chromium_is_there(tmp_path: Path) -> None:
    (tmp_path / "chromium").write_text("#!/bin/sh\n")
    (tmp_path / "chromium").chmod(0o755)
    # run_make creates the stubs; the browser is already where the tests look
    result, calls = run_make(tmp_path)
    assert result.returncode == 0, result.stderr
    assert calls == []


def test_make_chromium_installs_it_through_sudo_when_not_root(tmp_path: Path) -> None:
    result, calls = run_make(tmp_path, uid=1000)
    assert result.returncode == 0, result.stderr
    assert calls == ["sudo -n apt-get install -y -q chromium", "apt-get install -y -q chromium"]
    assert os.access(tmp_path / "chromium", os.X_OK)


def test_make_chromium_installs_it_without_sudo_as_root(tmp_path: Path) -> None:
    result, calls = run_make(tmp_path, uid=0)
    assert result.returncode == 0, result.stderr
    assert calls == ["apt-get install -y -q chromium"]


def test_make_chromium_updates_the_package_lists_and_tries_again(tmp_path: Path) -> None:
    result, calls = run_make(tmp_path, uid=0, flags=("install-fails-once",))
    assert result.returncode == 0, result.stderr
    assert calls == ["apt-get install -y -q chromium", "apt-get update -q", "apt-get install -y -q chromium"]


@pytest.mark.parametrize("flag", ["sudo-needs-password", "install-fails"])
def test_make_chromium_says_how_to_install_it_where_it_cannot(tmp_path: Path, flag: str) -> None:
    result, _ = run_make(tmp_path, uid=1000, flags=(flag,))
    assert result.returncode != 0
    assert "could not be installed" in result.stderr
    assert "sudo apt-get install -y chromium" in result.stderr
    assert not (tmp_path / "chromium").exists()


def test_ci_run_uses_the_same_script() -> None:
    assert ".ci/ensure-chromium" in (ROOT / ".ci" / "run").read_text()
    assert ".ci/ensure-chromium" in (ROOT / "Makefile").read_text()
    assert "apt-get" not in (ROOT / ".ci" / "run").read_text()
