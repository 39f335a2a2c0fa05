"""The native executor: what ran is reported, and a call it cannot run falls back to the
Python executor with the reason (the results are checked either way)."""

import json
import os
import subprocess
import sys

import pytest

from conftest import run_cli


def run(*args):
    return json.loads(run_cli("run", *args, "--iters", "2", "--warmup", "0", "--json").stdout)


def test_native_is_the_default_and_says_so():
    doc = run("allreduce", "--algo", "recursive-doubling", "--np", "2", "--bytes", "64,4K")
    assert doc["executor"] == "native" and doc["verified"] is True
    assert all(r["executor"] == "native" for r in doc["results"])


def test_a_dtype_it_does_not_reduce_runs_in_python_and_says_why():
    doc = run("allreduce", "--algo", "ring", "--np", "2", "--bytes", "256", "--dtype",
              "complex128")  # fmt: skip
    assert doc["verified"] is True
    assert doc["results"][0]["executor"] == (
        "python (the native executor does not reduce complex128)"
    )


def test_movement_of_any_dtype_runs_natively():
    doc = run("allgather", "--algo", "bruck", "--np", "3", "--bytes", "48", "--dtype",
              "complex128")  # fmt: skip
    assert doc["verified"] is True and doc["results"][0]["executor"] == "native"


# Lowering and the wait policy, each in a fresh interpreter (they import mpi4py, which
# initialises MPI; the test process stays free of it).
LOWER = """
import json, sys
import numpy as np
import netcoll
from netcoll import _core
from netcoll.mpi.executor import Program
from netcoll.mpi.lower import lower
from netcoll.mpi.plan import parse
n = int(sys.argv[1])
s = _core.build_schedule("allgather", "recursive-doubling", netcoll.topology("mesh:4"), p=4,
                         root=0, nbytes=n, packets=1)
plan = parse(s.to_json())
print(json.dumps([lower(Program(plan, r, n, np.uint8)) for r in range(4)]))
"""


def lowered(n: int) -> list:
    out = subprocess.run([sys.executable, "-c", LOWER, str(n)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_a_large_multi_piece_send_is_packed_and_received_at_home():
    """Recursive doubling on 4 ranks: rank 1's second message is blocks (1, 0), in that
    order, not contiguous anywhere. From 8 KiB up it is packed into one scratch span by copy
    instructions of the send (MPICH's single-copy path needs a contiguous send buffer);
    rank 3 receives it straight into the homes of blocks 1 and 0 (a datatype receive)."""
    n = 16384
    r1, r3 = lowered(n)[1], lowered(n)[3]
    send = r1["ops"][2]
    assert send["transfers"] == [[3, 0, [[2, 0, 2 * n]]]]
    assert send["instrs"] == [{"Copy": [[2, 0, n], [0, 0, n]]},
                              {"Copy": [[2, n, n], [1, 0, n]]}]  # fmt: skip
    assert r3["ops"][3]["transfers"] == [[1, 0, [[1, n, n], [1, 0, n]]]]
    # rank 3's own block goes home at the end (no send reads it from there)
    assert r3["early"] == [] and r3["finish"] == [{"Copy": [[1, 3 * n, n], [0, 0, n]]}]


def test_a_small_multi_piece_send_stays_a_datatype_and_home_copies_stay_early():
    n = 1000
    ranks = lowered(n)
    assert ranks[1]["ops"][2] == {"kind": 0, "transfers": [[3, 0, [[0, 0, n], [1, 0, n]]]],
                                  "instrs": []}  # fmt: skip
    # rank 0 sends blocks (0, 1) from home as one span: its own block is copied home early
    assert ranks[0]["early"] == [{"Copy": [[1, 0, n], [0, 0, n]]}]
    assert ranks[0]["ops"][2]["transfers"] == [[2, 0, [[1, 0, 2 * n]]]]


POLICY = """
import json
from netcoll.mpi.native import polling
print(json.dumps([polling(False), polling(True)]))
"""


@pytest.mark.parametrize(
    "env,expected",
    [(None, [None, [16, 0, 200]]), ("block", [None, None]),
     ("4096,0,50", [[4096, 0, 50], [4096, 0, 50]])],
)  # fmt: skip
def test_wait_policy_blocks_with_a_core_per_rank_and_naps_otherwise(env, expected):
    environ = {k: v for k, v in os.environ.items() if k != "NETCOLL_POLLING"}
    if env is not None:
        environ["NETCOLL_POLLING"] = env
    out = subprocess.run([sys.executable, "-c", POLICY], capture_output=True, text=True,
                         env=environ)  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == expected


def test_a_bad_polling_setting_is_one_clear_line():
    environ = {**os.environ, "NETCOLL_POLLING": "fast"}
    out = subprocess.run([sys.executable, "-c", POLICY], capture_output=True, text=True,
                         env=environ)  # fmt: skip
    assert out.returncode != 0
    assert "NETCOLL_POLLING='fast': give 'block' or SPIN,YIELDS,MAX_NAP_US" in out.stderr
