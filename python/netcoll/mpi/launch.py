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


#: True when this process is already one rank of a job started by an external launcher
#: (``mpiexec``/``srun ... python -m netcoll.mpi run ...``): the run happens in place.
UNDER_LAUNCHER = False


def launch(np_: int, config: dict, timeout: float, extra_args: tuple[str, ...] = ()) -> dict:
    """Runs the worker on `np_` ranks and returns rank 0's report."""
    if np_ < 1:
        raise RunError(f"--np {np_}: a run needs at least one rank")
    if UNDER_LAUNCHER:
        return run_in_place(np_, config)
    with tempfile.TemporaryDirectory(prefix="netcoll-run-") as tmp:
        cfg, out = Path(tmp) / "config.json", Path(tmp) / "out.json"
        cfg.write_text(json.dumps(config))
        cmd = [mpiexec(), "-n", str(np_), *extra_args, sys.executable, "-m",
               "netcoll.mpi.worker", str(cfg), str(out)]  # fmt: skip
        proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            start_new_session=True, env=_environment(np_),
        )  # fmt: skip
        previous = _on_sigterm_raise()
        try:
            _, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill(proc)
            raise RunError(
                f"the run exceeded --timeout {timeout:g} s: all {np_} ranks were stopped"
            ) from None
        except BaseException:  # Ctrl-C, SIGTERM (see below), anything: take the ranks along
            _kill(proc)
            raise
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)
        if proc.returncode != 0 or not out.exists():
            raise RunError(_diagnose(err, proc.returncode, np_))
        return json.loads(out.read_text())


def _on_sigterm_raise():
    """A terminated launcher must not orphan the job (it runs in its own process group):
    turn SIGTERM into an exception so the cleanup above runs. Main thread only."""

    def handler(signum, frame):
        raise SystemExit(128 + signum)

    try:
        return signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread: leave signals alone
        return None


def usable_cores() -> int:
    """The cores this process may run on: its affinity mask (taskset, a batch system's
    cpuset), not the machine's count. Two ranks pinned to one core of a 2-core machine are
    oversubscribed: waiting as if each had a core cost 10 ms per 8-byte allgather there,
    against 2.5 ms napping (docs/mpi.md)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def _environment(np_: int) -> dict:
    """Oversubscribed (more ranks than cores), MPICH's busy polling starves the rank that
    holds the data; heavy yield makes waiting ranks give the core up (native collectives
    and netcoll alike). A value the user set wins."""
    env = dict(os.environ)
    if np_ > usable_cores():
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


def run_in_place(np_: int, config: dict) -> dict:
    """The worker on the ranks of the job this process belongs to (started by the system's
    mpiexec or srun); rank 0 returns the report, every other rank ends here quietly."""
    from mpi4py import MPI

    from . import worker

    world = MPI.COMM_WORLD
    if world.Get_size() != np_:
        raise RunError(
            f"--np {np_} but the launcher started {world.Get_size()} ranks: "
            f"give --np {world.Get_size()} or launch {np_} ranks"
        )
    with tempfile.TemporaryDirectory(prefix="netcoll-run-") as tmp:
        cfg, out = Path(tmp) / "config.json", Path(tmp) / "out.json"
        cfg.write_text(json.dumps(config))
        worker.main([str(cfg), str(out)])
        if world.Get_rank() != 0:
            sys.exit(0)
        return json.loads(out.read_text())
