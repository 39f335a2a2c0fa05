"""scripts/setup.sh refuses what it cannot work with in one line that says what is missing and
how to get it (issue 29): no cargo, an old or missing Python, no network for pip."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _setup(env_extra: dict[str, str], path: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, **env_extra}
    if path is not None:
        env["PATH"] = path
    return subprocess.run(
        [shutil.which("bash"), str(ROOT / "scripts" / "setup.sh")],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def _one_line_error(proc: subprocess.CompletedProcess, *words: str) -> None:
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("setup: error: "), proc.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])


def test_no_cargo_on_path(tmp_path):
    (tmp_path / "dirname").symlink_to(shutil.which("dirname"))
    proc = _setup({"PYTHON": sys.executable}, path=str(tmp_path))
    _one_line_error(proc, "cargo", "rustup")


def test_old_python(tmp_path):
    fake = tmp_path / "python3.9"
    fake.write_text(
        '#!/bin/sh\ncase "$*" in *version_info*) exit 1;; *sys.version*) echo 3.9.18;; esac\n'
    )
    fake.chmod(0o755)
    _one_line_error(_setup({"PYTHON": str(fake)}), ">= 3.11", "3.9.18", "PYTHON=")


def test_missing_python():
    _one_line_error(_setup({"PYTHON": "/no/such/python3"}), "no Python found", "PYTHON=")


def test_no_network_for_pip(tmp_path):
    proc = _setup(
        {
            "PYTHON": sys.executable,
            "NETCOLL_VENV": str(tmp_path / "venv"),
            "PIP_INDEX_URL": "http://127.0.0.1:9/simple",  # nothing listens on port 9 here
            "PIP_FIND_LINKS": "",
            "PIP_RETRIES": "0",
            "PIP_DEFAULT_TIMEOUT": "3",
        }
    )
    _one_line_error(proc, "could not reach the package index", "PIP_INDEX_URL")
