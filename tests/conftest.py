import json
import os
import subprocess
import sys

import pytest


def run_cli(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """Runs `netcoll ARGS` in a fresh interpreter, as a user would."""
    env = {k: v for k, v in os.environ.items() if k != "NETCOLL_DEBUG"}
    proc = subprocess.run(
        [sys.executable, "-m", "netcoll", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"netcoll {' '.join(args)} failed: {proc.stderr}")
    return proc


def cli_json(*args: str):
    return json.loads(run_cli(*args, "--json").stdout)


@pytest.fixture
def cli():
    return run_cli
