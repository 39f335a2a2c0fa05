"""Build-and-verify figures for the InterCom, multi-send and k-binomial schedules.

Prints one line per case (messages, steps, wall time of build + verification, release build).
A benchmark, not a test: nothing is asserted.

    .venv/bin/python scripts/bench_families.py
"""

import time

import netcoll
from netcoll import _core

CASES = [
    ("bcast", "intercom-hybrid", "mesh:32x32", {"params": ["dims=mesh", "strategy=SMC"]}),
    ("bcast", "intercom-hybrid", "mesh:32x32", {"params": ["dims=4x8x32", "strategy=SSMCC"]}),
    ("allreduce", "intercom-hybrid", "mesh:16x16", {"params": ["dims=mesh", "strategy=SSCC"]}),
    ("allgather", "intercom-long", "mesh:16x16", {}),
    ("bcast", "kbinomial", "torus:16x16", {"packets": 16}),
    ("bcast", "postal", "torus:16x16", {"packets": 8}),
]


def main() -> None:
    for op, algo, spec, kw in CASES:
        topo = netcoll.topology(spec)
        t0 = time.perf_counter()
        s = _core.build_schedule(op, algo, topo, **kw)
        counts = s.verify()["counts"]
        ms = (time.perf_counter() - t0) * 1000
        extra = " ".join(kw.get("params", []))
        print(
            f"{op:10s} {algo:16s} {spec:12s} {extra:28s} "
            f"messages={counts['messages']:6d} steps={counts['max_step'] + 1:4d} {ms:8.1f} ms"
        )


if __name__ == "__main__":
    main()
