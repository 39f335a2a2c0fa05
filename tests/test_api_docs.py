"""The API reference builds from the docstrings, and the notebook-style tutorial runs."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_api_reference_builds(tmp_path):
    pytest.importorskip("pdoc")
    from netcoll.apidoc import MODULES, build

    pages = build(tmp_path)
    names = {p.relative_to(tmp_path).as_posix() for p in pages}
    for module in MODULES:
        assert module.replace(".", "/") + ".html" in names, module
    api = (tmp_path / "netcoll" / "api.html").read_text()
    for text in ('id="schedule"', 'id="simulate"', 'id="tune"', "reference machine"):
        assert text in api, text
    sched = (tmp_path / "netcoll" / "schedules.html").read_text()
    assert "messages" in sched and "VerifyResult" in sched


def test_tutorial_runs_topology_schedule_dataframe_plot(tmp_path):
    pytest.importorskip("pandas")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "tutorial.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    assert "verified: True" in proc.stdout and "cycles" in proc.stdout
    png = tmp_path / "tutorial_allreduce.png"
    assert png.stat().st_size > 1000
