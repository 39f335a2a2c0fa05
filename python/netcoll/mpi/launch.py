"""Launching ranks: ``mpiexec -n P python -m netcoll.mpi.worker`` with a time limit.

mpiexec is the one the ``mpich`` wheel installs beside the interpreter (``.venv/bin/mpiexec``),
else ``$NETCOLL_MPIEXEC``, else the first ``mpiexec`` on PATH (a cluster's own). The job runs
in its own process group, so a timeout kills mpiexec, its proxies and every rank at once.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path


class RunError(RuntimeError):
    """The job failed as a whole (a rank died, the time limit passed, no mpiexec)."""


def mpiexec() -> str:
    env = os.environ.get("NETCOLL_MPIEXEC")
    if env:
        return env
    beside = Path(sys.executable).parent / "mpiexec"
    if beside.exists():
        return str(beside)
    found = shutil.which("mpiexec")
    if not found:
        raise RunError("no mpiexec found: install the mpich wheel (pip install mpich)")
    return found


def launch(np_: int, config: dict, timeout: float, extra_args: tuple[str, ...] = ()) -> dict:
    """Runs the worker on `np_` ranks and returns rank 0's report."""
    if np_ < 1:
        raise RunError(f"--np {np_}: a run needs at least one rank")
    with tempfile.TemporaryDirectory(prefix="netcoll-run-") as tmp:
        cfg, out = Path(tmp) / "config.json", Path(tmp) / "out.json"
        cfg.write_text(json.dumps(config))
        cmd = [mpiexec(), "-n", str(np_), *extra_args, sys.executable, "-m",
               "netcoll.mpi.worker", str(cfg), str(out)]  # fmt: skip
        proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            start_new_session=True, env=_environment(np_),
        )  # fmt: skip
        try:
            _, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill(proc)
            raise RunError(
                f"the run exceeded --timeout {timeout:g} s: all {np_} ranks were stopped"
            ) from None
        except BaseException:
            _kill(proc)
            raise
        if proc.returncode != 0 or not out.exists():
            raise RunError(_diagnose(err, proc.returncode, np_))
        return json.loads(out.read_text())


def _environment(np_: int) -> dict:
    """Oversubscribed (more ranks than cores), MPICH's busy polling starves the rank that
    holds the data; heavy yield makes waiting ranks give the core up (native collectives
    and netcoll alike). A value the user set wins."""
    env = dict(os.environ)
    if np_ > (os.cpu_count() or 1):
        env.setdefault("MPIR_CVAR_ENABLE_HEAVY_YIELD", "1")
    return env


def _kill(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):  # already gone
        os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate()


def _diagnose(stderr: str, code: int, np_: int) -> str:
    for line in stderr.splitlines():
        if line.startswith("netcoll-rank "):
            return line.replace("netcoll-rank ", "rank ", 1)
    for line in stderr.splitlines():
        if "BAD TERMINATION" in line or "KILLED BY SIGNAL" in line or "EXIT CODE" in line:
            return f"a rank died (mpiexec exit status {code}): {line.strip(' =')}"
    tail = stderr.strip().splitlines()[-1:]
    if not tail:
        return (f"a rank exited abruptly (status {code}) and mpiexec ended the "
                f"{np_}-rank job")  # fmt: skip
    return f"the {np_}-rank job failed (mpiexec exit status {code}): {tail[0]}"
