"""The README's main job, run as a user runs it (issue 29): `scripts/demo.sh` piped, `netcoll
demo` on a pseudo-terminal (rich draws progress bars and live displays only there), and
`netcoll reproduce --all --quick`; each checked by what it writes, not only its exit status.
The JSON-only runs elsewhere in the suite do not draw a progress bar and so once missed a
crash every user met (a console that was not a context manager)."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

from netcoll.reproduce import REPRODUCTIONS

ROOT = Path(__file__).resolve().parents[1]
NETCOLL = str(Path(sys.executable).with_name("netcoll"))
PNG = b"\x89PNG\r\n\x1a\n"
HEADLINE = ("Headline: network-coded all-to-all broadcast", "2,703,360", "767,616")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NETCOLL_DEBUG"}
    return {**env, "COLUMNS": "140", "TERM": "xterm-256color"}


def _assert_png(path: Path) -> None:
    data = path.read_bytes()
    assert data.startswith(PNG) and len(data) > 2000, f"{path} is not a PNG plot"


def _assert_report(index: Path) -> None:
    page = index.read_text()
    missing = [r.id for r in REPRODUCTIONS if r.id not in page]
    assert not missing, f"{index} does not name {missing}"


def _run_on_terminal(args: list[str], timeout: float = 300) -> tuple[int, str]:
    """Runs a command with its stdout and stderr on a pseudo-terminal; its exit status and
    everything it printed."""
    main, sub = pty.openpty()
    proc = subprocess.Popen(args, stdin=sub, stdout=sub, stderr=sub, env=_env(), close_fds=True)
    os.close(sub)
    out = bytearray()
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the terminal closed: the command ended
            break
        if not chunk:
            break
        out += chunk
    os.close(main)
    return proc.wait(timeout=timeout), out.decode("utf-8", "replace")


def test_demo_script_piped(tmp_path):
    """`bash scripts/demo.sh --quick -o DIR`: the README's first command, output piped."""
    proc = subprocess.run(
        ["bash", str(ROOT / "scripts" / "demo.sh"), "--quick", "-o", str(tmp_path)],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    for text in HEADLINE:
        assert text in proc.stdout, f"the headline table lacks {text!r}"
    for name in ("alltoall.png", "networks.png"):
        _assert_png(tmp_path / name)
    _assert_report(tmp_path / "report" / "index.html")
    assert str(tmp_path / "report" / "index.html") in proc.stdout.strip().splitlines()[-2]


def test_demo_on_a_terminal(tmp_path):
    """`netcoll demo --quick -o DIR` on a pseudo-terminal, where rich draws live displays."""
    status, out = _run_on_terminal([NETCOLL, "demo", "--quick", "-o", str(tmp_path)])
    assert status == 0, out[-3000:]
    assert "internal error" not in out and "Traceback" not in out
    assert "2,703,360" in out
    _assert_png(tmp_path / "alltoall.png")
    _assert_report(tmp_path / "report" / "index.html")


def test_reproduce_all_quick(tmp_path):
    """`netcoll reproduce --all --quick -o DIR`: every reproduction runs and is reported."""
    proc = subprocess.run(
        [NETCOLL, "reproduce", "--all", "--quick", "-o", str(tmp_path)],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    n = len(REPRODUCTIONS)
    assert f"{n} of {n} reproductions ran" in proc.stdout, proc.stdout[-1000:]
    _assert_report(tmp_path / "index.html")
    pngs = sorted(tmp_path.glob("*.png"))
    assert len(pngs) >= n // 2
    for png in pngs:
        _assert_png(png)
