"""The native executor: what ran is reported, and a call it cannot run falls back to the
Python executor with the reason (the results are checked either way)."""

import json

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
