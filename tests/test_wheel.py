"""`pip install netcoll` from the wheel (issue 29): scripts/wheel.sh builds an abi3 wheel and an
sdist; the wheel installs into a fresh venv outside the source tree with no Rust toolchain on
PATH, and the installed netcoll runs the quick demo and the Python API."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(args, cwd, env=None, timeout=900):
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env, timeout=timeout)
    assert proc.returncode == 0, f"{args}: {proc.stdout[-1500:]}{proc.stderr[-1500:]}"
    return proc


def test_wheel_installs_and_runs_without_rust(tmp_path):
    _run(["bash", str(ROOT / "scripts" / "wheel.sh")], cwd=ROOT)
    wheels = sorted((ROOT / "dist").glob("netcoll-*-abi3-*.whl"))
    assert len(wheels) == 1, wheels
    assert sorted((ROOT / "dist").glob("netcoll-*.tar.gz"))

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], cwd=tmp_path)
    # No cargo, rustc or source tree within reach: only the venv and the system's basics.
    path = os.pathsep.join([str(venv / "bin"), "/usr/bin", "/bin"])
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CARGO", "RUSTUP"))}
    env = {**env, "PATH": path, "VIRTUAL_ENV": str(venv)}
    env.pop("PYTHONPATH", None)
    for tool in ("cargo", "rustc"):
        probe = subprocess.run(["bash", "-c", f"command -v {tool}"], env=env, capture_output=True)
        assert probe.returncode != 0, f"{tool} is on the test's PATH"
    constraints = str(ROOT / "requirements" / "constraints.txt")
    _run(
        [
            str(venv / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "--quiet",
            "-c",
            constraints,
            str(wheels[0]),
        ],
        cwd=tmp_path,
        env=env,
    )

    version = _run([str(venv / "bin" / "netcoll"), "--version"], cwd=tmp_path, env=env)
    assert "0." in version.stdout
    demo = _run(
        [
            str(venv / "bin" / "netcoll"),
            "demo",
            "--quick",
            "--no-report",
            "-o",
            str(tmp_path / "demo"),
        ],
        cwd=tmp_path,
        env=env,
    )
    assert "2,703,360" in demo.stdout
    code = (
        "import netcoll, pathlib; "
        "assert 'site-packages' in pathlib.Path(netcoll.__file__).as_posix(); "
        "s = netcoll.schedule('bcast', 'binomial', 'mesh:4x4'); "
        "print(s.verify().ok)"
    )
    api = _run([str(venv / "bin" / "python"), "-c", code], cwd=tmp_path, env=env)
    assert api.stdout.strip() == "True"
