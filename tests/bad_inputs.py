"""The bad-input catalogue: each case is a command line that must be refused with exit status
2 and one line on stderr that contains the fragment (docs/errors.md). Cases from issue 15
first, then the hostile pass over every command. `test_bad_inputs.py` runs them."""

from __future__ import annotations

#: (arguments, fragment of the message)
# Issue 30: one rate check for every traffic kind; the multicast run once aborted in an
# allocation sized by latency_thres before the rate was checked.
MULTICAST_RATE_47 = (
    "sim",
    "topology=netcoll",
    "netcoll_topology=irregular:switches=4,ports=6,nodes=8,seed=1",
    "routing_function=updown",
    "traffic=multicast",
    "multicast_scheme=worm-tree",
    "num_vcs=1",
    "vc_buf_size=64",
    "packet_size=16",
    "flit_bytes=1",
    "t_hs=100",
    "t_ns=100",
    "t_hr=100",
    "t_nr=100",
    "injection_rate=47",
    "injection_rate_uses_flits=1",
)
MULTICAST_RATE_47_ERROR = (
    "injection_rate = 47 flits (/ packet_size 16): gives 2.9375 packets per node"
)

# Issue 30: an alltoall holds a chunk per destination, so its memory grows with NP^2.
RUN_ALLTOALL_64 = (
    "--max-memory", "1", "run", "alltoall", "--example", "pairwise-alltoall", "--np", "64",
)  # fmt: skip

CASES: list[tuple[tuple[str, ...], str]] = [
    # --- issue 15: values never validated at the boundary
    (
        ("schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--root", "-1"),
        "'--root': -1 is out of range: use 0 to 4294967295",
    ),
    (
        ("tune", "bcast", "-t", "mesh:4x4", "--alpha", "1e-6", "--beta", "1e-9", "--root", "-1"),
        "'--root': -1 is out of range",
    ),
    (
        ("simulate", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--root", "-1"),
        "'--root': -1 is out of range",
    ),
    (
        (
            "topo",
            "check",
            "--topo",
            "irregular:switches=4,ports=8,nodes=8,seed=1",
            "-r",
            "updown",
            "--root",
            "-1",
        ),
        "'--root': -1 is out of range",
    ),
    (
        (
            "topo",
            "draw",
            "--topo",
            "irregular:switches=4,ports=8,nodes=8,seed=1",
            "-o",
            "x.png",
            "--root",
            "-1",
        ),
        "'--root': -1 is out of range",
    ),
    (
        (
            "route",
            "--topo",
            "irregular:switches=4,ports=8,nodes=8,seed=1",
            "0",
            "1",
            "-r",
            "updown",
            "--root",
            "-1",
        ),
        "'--root': -1 is out of range",
    ),
    (
        ("route", "--topo", "mesh:4x4", "-1", "3"),
        "(-1 reads as an option; no value here may be negative)",
    ),
    (
        ("route", "--topo", "mesh:4x4", "--", "-1", "3"),
        "endpoint of mesh:4x4 -1 is out of range: use 0 to 15",
    ),
    (
        (
            "schedule",
            "bcast",
            "-a",
            "binomial",
            "-t",
            "mesh:4x4",
            "--bytes",
            "99999999999999999999999",
        ),
        "'--bytes': 99999999999999999999999 is out of range: use 1 to 18446744073709551615",
    ),
    (
        ("schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--placement", "random:seed=x"),
        "seed 'x' is not an integer",
    ),
    (
        ("schedule", "multicast", "-a", "kbinomial", "-t", "mesh:4x4", "--dests", "-3,4"),
        "destination rank -3 is out of range: use 0 to 4294967295",
    ),
    (("topo", "draw", "--topo", "mesh:4x4", "-o", "net.bmp"), "has '.bmp': use .png, .svg, .pdf"),
    # --- issue 15: allocations sized by the input (the memory guard; budget fixed at 1 GB)
    (
        ("--max-memory", "1", "topo", "stats", "--topo", "ibt:4096x4096:b=8,24"),
        "needs about 7.0 GB; the memory limit is 1.0 GB; --max-memory GB",
    ),
    (
        ("--max-memory", "1", "topo", "check", "--topo", "hypercube:24"),
        "hypercube:24: a network of 16777216 switches",
    ),
    (
        (
            "--max-memory",
            "1",
            "topo",
            "export",
            "--topo",
            "mesh:4096x4096",
            "-o",
            "/tmp/netcoll-never.json",
        ),
        "mesh:4096x4096: a network of 16777216 switches and 83886080 ports needs about",
    ),
    (
        ("--max-memory", "1", "topo", "stats", "--all-pairs", "--topo", "torus:4096x4096"),
        "needs about",
    ),
    (
        ("topo", "stats", "--topo", "file:tests/data/bad/huge_ports.json"),
        "more than 4294967294 ports in all",
    ),
    (
        (
            "--max-memory",
            "0.5",
            "sim",
            "topology=mesh",
            "k=4",
            "n=2",
            "injection_latency=2147483647",
        ),
        "the flit network of mesh:4x4 needs about",
    ),
    (
        (
            "--max-memory",
            "0.5",
            "sim",
            "topology=mesh",
            "k=4",
            "n=2",
            "ejection_latency=2147483647",
        ),
        "the flit network of mesh:4x4 needs about",
    ),
    (("--max-memory", "0.1", "bench", "flit-schedule", "--k", "256"), "needs about"),
    # --- issue 15: silent misreadings
    (
        ("schedule", "multicast", "-a", "kbinomial", "-t", "mesh:4x4"),
        "a multicast needs at least one destination",
    ),
    (
        ("simulate", "multicast", "-a", "kbinomial", "-t", "mesh:4x4", "--engine", "step"),
        "a multicast needs at least one destination",
    ),
    (
        ("topo", "stats", "--topo", "irregular:switches=8,ports=8,nodes=32,seed=1,seed=2"),
        "key 'seed' is given twice",
    ),
    (
        ("schedule", "bcast", "-a", "kbinomial", "-t", "mesh:4x4", "--set", "k=2", "--set", "k=3"),
        "parameter 'k' is set twice",
    ),
    (
        ("route", "--topo", "mesh:8x8", "0", "5", "--root", "3"),
        "--root picks the up*/down* tree root and does nothing with --routing shortest",
    ),
    (
        ("topo", "check", "--topo", "torus:4x4", "-r", "dor", "--vcs", "2", "--root", "1"),
        "does nothing with --routing dor",
    ),
    # --- one range convention
    (("route", "--topo", "mesh:4x4", "0", "16"), "use 0 to 15"),
    (("route", "--topo", "irregular:switches=4,ports=8,nodes=8,seed=1", "0", "8"), "use 0 to 7"),
    (
        ("schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--root", "16"),
        "root 16 is out of range: 16 ranks, 0 to 15",
    ),
    (
        ("schedule", "multicast", "-a", "kbinomial", "-t", "mesh:4x4", "--dests", "16"),
        "multicast target 16 is out of range: 16 ranks, 0 to 15",
    ),
    (("topo", "stats", "--topo", "hypercube:25"), "is out of range: use 1 to 24"),
    (
        ("topo", "stats", "--topo", "irregular:switches=8,ports=8,nodes=32,conn=1.5"),
        "must be a fraction from 0 to 1",
    ),
    (
        (
            "route",
            "--topo",
            "irregular:switches=4,ports=8,nodes=8,seed=1",
            "0",
            "1",
            "-r",
            "updown",
            "--root",
            "4",
        ),
        "up*/down* root 4 is out of range: irregular:switches=4,ports=8,nodes=8,conn=0.8,seed=1 "
        "has switches 0 to 3",
    ),
    # --- topo stats: spec strings
    (("topo", "stats", "--topo", "mesh"), "has no family"),
    (("topo", "stats", "--topo", "mesh:"), "gives no dimensions"),
    (("topo", "stats", "--topo", "mesh:1x4"), "every radix must be >= 2"),
    (("topo", "stats", "--topo", "mesh:-4x4"), "is not a non-negative integer"),
    (("topo", "stats", "--topo", "mesh:4.5x4"), "is not a non-negative integer"),
    (("topo", "stats", "--topo", "mesh:4x"), "is not a non-negative integer"),
    (("topo", "stats", "--topo", "torus:99999999999999999999x2"), "is not a non-negative integer"),
    (("topo", "stats", "--topo", "torus:100000x100000"), "switches, too many to build"),
    (("topo", "stats", "--topo", "blob:3"), "unknown topology family 'blob'"),
    (("topo", "stats", "--topo", "hypercube:0"), "use 1 to 24"),
    (("topo", "stats", "--topo", "hypercube:x"), "is not a non-negative integer"),
    (("topo", "stats", "--topo", "ibt:64x64"), "gives no bypass scheme"),
    (("topo", "stats", "--topo", "ibt:64x64:c=8"), "must be written b=L1,L2"),
    (("topo", "stats", "--topo", "ibt:64x64:b=7"), "bypass"),
    (("topo", "stats", "--topo", "ibt:64x64:b="), "bypass length"),
    (("topo", "stats", "--topo", "irregular:switches=8"), "must give switches, ports and nodes"),
    (
        ("topo", "stats", "--topo", "irregular:switches=8,ports=8,nodes=32,colour=red"),
        "unknown key 'colour'",
    ),
    (
        ("topo", "stats", "--topo", "irregular:switches=8,ports=8,nodes=32,conn=nan"),
        "must be a fraction from 0 to 1",
    ),
    (
        ("topo", "stats", "--topo", "irregular:switches=8,ports=8,nodes=32,seed=-1"),
        "is not a non-negative integer",
    ),
    (("topo", "stats", "--topo", "irregular:switches=8,ports=8,nodes=32,seed"), "is not key=value"),
    (
        ("topo", "stats", "--topo", "irregular:switches=8,switches=9,ports=8,nodes=32"),
        "key 'switches' is given twice",
    ),
    (("topo", "stats", "--topo", "irregular:switches=8,ports=3,nodes=20"), "irregular"),
    (("topo", "stats", "--topo", "file:"), "names no file"),
    (
        ("topo", "stats", "--topo", "file:/no/such.json"),
        "cannot read topology file '/no/such.json'",
    ),
    (("topo", "stats", "--topo", "file:/dev/zero"), "is not a regular file"),
    (("topo", "stats", "--topo", "file:tests"), "is not a regular file"),
    (("topo", "stats", "--topo", "file:tests/data/bad/latin1.json"), "is not UTF-8 text (byte"),
    (("topo", "stats", "--topo", "file:tests/data/bad/binary.json"), "is binary"),
    (
        ("topo", "stats", "--topo", "file:tests/data/bad/not_json.json"),
        "is not a valid netcoll-topology document",
    ),
    (
        ("topo", "stats", "--topo", "file:tests/data/bad/self_link.json"),
        "self links are not allowed",
    ),
    (("topo", "stats", "--topo", "file:tests/data/bad/port_twice.json"), "is used twice"),
    (
        ("topo", "stats", "--topo", "file:tests/data/bad/bad_port.json"),
        "has ports 0 to 2, not port 7",
    ),
    (
        ("topo", "stats", "--topo", "file:tests/data/bad/negative.json"),
        "is not a valid netcoll-topology document",
    ),
    (("topo", "stats", "--topo", "file:tests/data/bad/disconnected.json"), "is disconnected"),
    (("topo", "stats"), "Missing option '-t' / '--topo'"),
    (("topo", "frobnicate"), "No such command 'frobnicate'"),
    # --- topo check
    (
        ("topo", "check", "--topo", "torus:4x4", "--routing", "teleport"),
        "unknown routing 'teleport'",
    ),
    (
        ("topo", "check", "--topo", "ibt:16x16:b=4", "--routing", "dor"),
        "dimension-order routing is defined for mesh, torus and hypercube",
    ),
    (
        ("topo", "check", "--topo", "torus:4x4", "--vcs", "0"),
        "'--vcs': 0 is out of range: use 1 to 64",
    ),
    (("topo", "check", "--topo", "torus:4x4", "--vcs", "65"), "use 1 to 64"),
    (("topo", "check", "--topo", "torus:4x4", "--vcs", "two"), "'two' is not an integer"),
    (("topo", "check", "--topo", "torus:4x4", "--vc-rule", "sideways"), "sideways"),
    # --- route
    (("route", "--topo", "mesh:4x4", "0", "9,9"), "coordinates 9,9 do not fit the shape 4x4"),
    (("route", "--topo", "mesh:4x4", "0", "1,2,3"), "do not fit the shape 4x4"),
    (("route", "--topo", "mesh:4x4", "0", "x"), "is not an integer"),
    (("route", "--topo", "mesh:4x4", "0", "1,x"), "coordinate 'x' is not an integer"),
    (
        ("route", "--topo", "irregular:switches=4,ports=8,nodes=8,seed=1", "0", "1,1"),
        "has no coordinates",
    ),
    (("route", "--topo", "mesh:4x4", "0", "3", "-r", "warp"), "unknown routing 'warp'"),
    (
        ("route", "--topo", "ibt:16x16:b=4", "0", "3", "-r", "dor"),
        "dimension-order routing is defined for",
    ),
    (
        ("route", "--topo", "mesh:4x4", "0", "99999999999999999999999"),
        "is out of range: use 0 to 15",
    ),
    # --- topo draw, export
    (
        ("topo", "draw", "--topo", "mesh:4096x4096", "-o", "x.png"),
        "has 16777216 switches: too many to draw",
    ),
    (
        ("topo", "draw", "--topo", "torus:4x4", "-o", "x.png", "--root", "2"),
        "torus networks are drawn as grids",
    ),
    (
        ("topo", "draw", "--topo", "torus:64x64", "-o", "/tmp/netcoll-never.png"),
        "has 4096 switches: too many to draw readably (at most 1024)",
    ),
    (("topo", "draw", "--topo", "mesh:4x4", "-o", "net"), "has no extension: use .png, .svg, .pdf"),
    (
        ("topo", "draw", "--topo", "mesh:4x4", "-o", "/no/such/dir/net.png"),
        "folder /no/such/dir does not exist",
    ),
    (("topo", "draw", "--topo", "mesh:4x4", "-o", "tests"), "tests is a folder: name a file"),
    (("topo", "draw", "--topo", "mesh:4x4", "-o", "/tmp/"), "is a folder"),
    (
        ("topo", "export", "--topo", "mesh:4x4", "-o", "/no/such/dir/x.json"),
        "folder /no/such/dir does not exist",
    ),
    (
        ("topo", "export", "--topo", "mesh:4x4", "-o", "x.json", "--format", "dot"),
        "'dot' is not one of",
    ),
    # --- schedule / analyze / tune
    (("schedule", "bcast", "-a", "teleport", "-t", "mesh:4x4"), "teleport"),
    (("schedule", "frob", "-a", "binomial", "-t", "mesh:4x4"), "unknown collective 'frob'"),
    (
        ("schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--bytes", "0"),
        "'--bytes': 0 is out of range: use 1 to",
    ),
    (
        ("schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--bytes", "1.5"),
        "'1.5' is not a size",
    ),
    (
        ("schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--bytes", "1e6"),
        "'1e6' is not a size",
    ),
    (
        ("schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--packets", "0"),
        "'--packets': 0 is out of range: use 1 to 4294967295",
    ),
    (
        ("schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--packets", "4294967296"),
        "use 1 to 4294967295",
    ),
    (
        ("schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--ranks", "0"),
        "'--ranks' / '-p': 0 is out of range: use 1 to 4294967295",
    ),
    (
        (
            "schedule",
            "bcast",
            "-a",
            "binomial",
            "-t",
            "mesh:4x4",
            "--ranks",
            "17",
            "--placement",
            "reverse",
        ),
        "--ranks 17 does not fit on 16 endpoints: use 1 to 16",
    ),
    (
        ("schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--placement", "sideways"),
        "is not a placement",
    ),
    (
        (
            "schedule",
            "bcast",
            "-a",
            "binomial",
            "-t",
            "mesh:4x4",
            "--placement",
            "random:seed=1,seed=2",
        ),
        "key 'seed' is given twice",
    ),
    (
        (
            "schedule",
            "bcast",
            "-a",
            "binomial",
            "-t",
            "mesh:4x4",
            "--placement",
            "random:colour=red",
        ),
        "unknown key 'colour'",
    ),
    (
        ("schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--placement", "random:seed=-1"),
        "seed -1 is out of range",
    ),
    (
        ("schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--placement", "0,1,,2"),
        "has an empty item",
    ),
    (
        ("schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--placement", "0,1,99"),
        "--placement endpoint 99 is out of range: the network has 16 endpoints, 0 to 15",
    ),
    (
        ("schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--placement", "0,1,1"),
        "puts two ranks on one endpoint",
    ),
    (
        ("schedule", "multicast", "-a", "kbinomial", "-t", "mesh:4x4", "--dests", "random:0"),
        "destination count 0 is out of range",
    ),
    (
        ("schedule", "multicast", "-a", "kbinomial", "-t", "mesh:4x4", "--dests", "random:16"),
        "choose 1 to 15 destinations",
    ),
    (
        (
            "schedule",
            "multicast",
            "-a",
            "kbinomial",
            "-t",
            "mesh:4x4",
            "--dests",
            "random:3,seed=x",
        ),
        "seed 'x' is not an integer",
    ),
    (
        (
            "schedule",
            "multicast",
            "-a",
            "kbinomial",
            "-t",
            "mesh:4x4",
            "--dests",
            "random:3,sead=1",
        ),
        "unknown key 'sead'",
    ),
    (
        ("sweep", "--set", "injecton_rate=0.1,0.2"),
        "unknown key 'injecton_rate'; did you mean 'injection_rate'?",
    ),
    (
        ("schedule", "multicast", "-a", "kbinomial", "-t", "mesh:4x4", "--dests", "3,3"),
        "multicast target 3 is listed twice",
    ),
    (
        ("schedule", "multicast", "-a", "kbinomial", "-t", "mesh:4x4", "--dests", ""),
        "no destinations",
    ),
    (
        ("schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--dests", "3"),
        "--dests applies to multicast only",
    ),
    (
        ("schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--sources", "3"),
        "--sources applies to manytoall only",
    ),
    (
        ("schedule", "manytoall", "-a", "hnc", "-t", "mesh:4x4", "--sources", "0,99"),
        "source 99 is out of range",
    ),
    (("schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--set", "k"), "is not key=value"),
    (
        ("schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--machine", "alpha=nan"),
        "--machine alpha=nan: use a finite number >= 0",
    ),
    (
        ("schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--machine", "alpha=x"),
        "the value must be a number",
    ),
    (
        ("schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--machine", "alpha=1,alpha=2"),
        "'alpha' is given twice",
    ),
    (
        ("schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "-o", "sched.txt"),
        "has '.txt': use .json",
    ),
    (
        ("schedule", "bcast", "-a", "binomial", "-t", "mesh:4x4", "-o", "/no/such/dir/s.json"),
        "folder /no/such/dir does not exist",
    ),
    (("schedule", "bcast", "-a", "binomial", "-t", "blob:3"), "unknown topology family"),
    (
        ("analyze", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--root", "99"),
        "root 99 is out of range: 16 ranks, 0 to 15",
    ),
    (
        ("analyze", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--packets", "-2"),
        "'--packets': -2 is out of range",
    ),
    (
        ("tune", "bcast", "-t", "mesh:4x4", "--alpha", "nan", "--beta", "1e-9"),
        "'--alpha': nan must be a finite number >= 0",
    ),
    (
        ("tune", "bcast", "-t", "mesh:4x4", "--alpha", "-1", "--beta", "1e-9"),
        "must be a finite number >= 0",
    ),
    (
        ("tune", "bcast", "-t", "mesh:4x4", "--alpha", "1e-6", "--beta", "inf"),
        "'--beta': inf must be a finite number",
    ),
    (
        ("tune", "bcast", "-t", "mesh:4x4", "--alpha", "1e-6", "--beta", "1e-9", "--top", "0"),
        "'--top': 0 is out of range",
    ),
    # --- simulate
    (
        ("simulate", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--engine", "warp"),
        "unknown engine 'warp'",
    ),
    (
        ("simulate", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--packets", "0"),
        "'--packets': 0 is out of range",
    ),
    (
        ("simulate", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--bytes", "-5"),
        "'--bytes': '-5' is not a size",
    ),
    (
        (
            "simulate",
            "bcast",
            "-a",
            "binomial",
            "-t",
            "mesh:4x4",
            "--engine",
            "flit",
            "--sim",
            "num_vcs=0",
        ),
        "num_vcs",
    ),
    (
        (
            "simulate",
            "bcast",
            "-a",
            "binomial",
            "-t",
            "mesh:4x4",
            "--engine",
            "flit",
            "--sim",
            "bogus_key=1",
        ),
        "bogus_key",
    ),
    (
        ("simulate", "bcast", "-a", "global", "-t", "torus:8x8", "--bytes", "4096"),
        "--bytes does nothing for the step protocol global",
    ),
    # --- worms
    (
        (
            "worms",
            "show",
            "--topo",
            "irregular:switches=4,ports=8,nodes=8,seed=1",
            "--dests",
            "1,-2",
        ),
        "destination rank -2 is out of range",
    ),
    (
        ("worms", "show", "--topo", "irregular:switches=4,ports=8,nodes=8,seed=1", "--dests", "99"),
        "out of range",
    ),
    (
        (
            "worms",
            "show",
            "--topo",
            "irregular:switches=4,ports=8,nodes=8,seed=1",
            "--dests",
            "random:99",
        ),
        "choose 1 to 7 destinations",
    ),
    (
        (
            "worms",
            "show",
            "--topo",
            "irregular:switches=4,ports=8,nodes=8,seed=1",
            "--dests",
            "1",
            "--root",
            "-1",
        ),
        "'--root': -1 is out of range",
    ),
    (
        (
            "worms",
            "show",
            "--topo",
            "irregular:switches=4,ports=8,nodes=8,seed=1",
            "--dests",
            "1",
            "-a",
            "warp",
        ),
        "warp",
    ),
    (("worms", "trends", "--dests", "0"), "'--dests': 0 is out of range"),
    (("worms", "trends", "--phases", "eager"), "'eager' is not one of"),
    # --- hnc
    (("hnc", "compare", "-t", "irregular:switches=4,ports=8,nodes=8,seed=1"), "mesh"),
    (("hnc", "compare", "-t", "mesh:8x8", "--set", "group=3x3x3"), "group"),
    (("hnc", "groups", "-t", "mesh:8x8", "--set", "group=2x2"), "group"),
    # --- bench
    (("bench", "flit-schedule", "--k", "1"), "'--k': 1 is out of range: use 2 to 4096"),
    (("bench", "flit-schedule", "--k", "-3"), "'--k': -3 is out of range"),
    (("bench", "step", "--packets", "0"), "'--packets': 0 is out of range: use 1 to 65535"),
    (("bench", "step", "--packets", "70000"), "use 1 to 65535"),
    # --- run (checked before any rank starts)
    (("run", "bcast", "--np", "0", "--bytes", "8"), "'--np': 0 is out of range: use 1 to 4096"),
    (("run", "bcast", "--np", "2", "--bytes", "8", "--root", "-1"), "'--root': -1 is out of range"),
    (("run", "bcast", "--np", "2", "--bytes", "8", "--iters", "0"), "'--iters': 0 is out of range"),
    (
        ("run", "bcast", "--np", "2", "--bytes", "8", "--timeout", "nan"),
        "'--timeout': nan must be a finite number > 0",
    ),
    (("run", "bcast", "--np", "2", "--bytes", "8", "--plot", "t.jpg"), "has '.jpg': use .png"),
    (
        ("run", "bcast", "--np", "2", "--bytes", "8", "--placement", "0,x"),
        "--placement endpoint 'x' is not an integer",
    ),
    (("run", "bcast", "--np", "2", "--bytes", "-8"), "bad size '-8'"),
    (
        ("run", "bcast", "--np", "2", "--bytes", "8", "--schedule", "tests/data/bad/latin1.json"),
        "is not UTF-8 text",
    ),
    (
        ("run", "bcast", "--np", "2", "--bytes", "8", "--schedule", "tests/data/bad/binary.json"),
        "is binary",
    ),
    (("run", "multicast", "--np", "4", "--bytes", "8", "--dests", "0,x"), "--dests"),
    # --- found in the second hostile pass
    (
        ("--max-memory", "4", "run", "bcast", "--np", "2", "--bytes", "99999999999999999999999"),
        "on 2 ranks needs about",
    ),
    (
        (
            "schedule",
            "manytoall",
            "-a",
            "hnc",
            "-t",
            "mesh:8x8",
            "--sources",
            "random:3,seed=1,seed=2",
        ),
        "gives seed twice",
    ),
    (
        ("topo", "stats", "--topo", "file:tests/data/bad/wrap_shape.json"),
        "does not multiply to its 2 switches",
    ),
    (
        ("schedule", "bcast", "-a", "kbinomial", "-t", "mesh:4x4", "--set", "k=0"),
        "k=0 is out of range: use 1 to 64",
    ),
    (("hnc", "compare", "-t", "mesh:8x8", "--set", "base=tree"), "drop base="),
    # --- global options
    (
        ("--max-memory", "0", "topo", "stats", "--topo", "mesh:4x4"),
        "'--max-memory': 0 must be a finite number > 0 (gigabytes)",
    ),
    (("--max-memory", "lots", "topo", "stats", "--topo", "mesh:4x4"), "'lots' is not a number"),
    (("--max-memory", "-1", "topo", "stats", "--topo", "mesh:4x4"), "must be a finite number > 0"),
    (("reproduce", "no-such-figure"), "no-such-figure"),
    # --- BookSim configurations (sim --booksim FILE; files in tests/data/bad/booksim)
    (
        ("sim", "--booksim", "tests/data/bad/booksim/unknown_key.cfg"),
        "unknown_key.cfg:4:1: unsupported key 'routng_function'",
    ),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/bad_value.cfg"),
        "bad_value.cfg:2:1: k = four: expected a whole number from 0 to",
    ),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/negative.cfg"),
        "negative.cfg:2:1: k = -4: expected a whole number from 0 to",
    ),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/fractional_seed.cfg"),
        "seed = 1.5: expected a whole number from 0 to 18446744073709551615",
    ),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/huge_k.cfg"),
        "k = 99999999999999999999999: out of range: use 0 to",
    ),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/bad_routing.cfg"),
        "bad_routing.cfg:3:1: routing_function = teleport is not supported",
    ),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/unsupported_topology.cfg"),
        "topology = hyperx is not supported",
    ),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/rate_above_one.cfg"),
        "injection_rate = 1.5: gives 1.5 packets per node per cycle; use 0 to 1",
    ),
    (("sim", "--booksim", "tests/data/bad/booksim/zero_vcs.cfg"), "num_vcs = 0: use 1 to 64"),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/zero_period.cfg"),
        "sample_period and max_samples must be at least 1",
    ),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/zero_batch.cfg"),
        "batch_size = 0: a batch run needs at least one packet per node",
    ),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/nan_thres.cfg"),
        "latency_thres = nan: give a number",
    ),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/huge_period.cfg"),
        "sample_period = 100000000000 with warmup_periods = 3",
    ),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/binary.cfg"),
        "binary.cfg is binary (a NUL byte at offset 15)",
    ),
    (("sim", "--booksim", "tests/data/bad/booksim/utf16.cfg"), "utf16.cfg is binary"),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/latin1.cfg"),
        "latin1.cfg is not UTF-8 text (invalid byte at offset 21)",
    ),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/truncated.cfg"),
        "truncated.cfg:3:6: expected ';' after n = 2, found the end of the file",
    ),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/truncated_value.cfg"),
        "truncated_value.cfg:3:4: n has no value",
    ),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/open_comment.cfg"),
        "open_comment.cfg:3:1: unterminated /* comment",
    ),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/open_quote.cfg"),
        "open_quote.cfg:3:11: unterminated quote in the value of traffic",
    ),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/open_brace.cfg"),
        "open_brace.cfg:3:7: unterminated '{' in the value of foo",
    ),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/stray_brace.cfg"),
        "stray_brace.cfg:1:1: expected a key (as num_vcs), found '}'",
    ),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/no_equals.cfg"),
        "no_equals.cfg:1:10: expected '=' after topology",
    ),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/no_key.cfg"),
        "no_key.cfg:1:1: expected a key (as num_vcs), found '='",
    ),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/anynet_no_file.cfg"),
        "topology = anynet needs network_file = FILE",
    ),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/anynet_missing_file.cfg"),
        "network_file = /no/such/anynet.txt: no such file",
    ),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/netcoll_topology_alone.cfg"),
        "netcoll_topology = torus:4x4 needs topology = netcoll",
    ),
    (("sim", "--booksim", "/dev/zero"), "is not a regular file"),
    (("sim", "--booksim", "tests"), "File 'tests' is a directory"),
    (("sim", "--booksim", "/no/such.cfg"), "/no/such.cfg"),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/ok.cfg", "k=x"),
        "k = x: expected a whole number from 0 to",
    ),
    (
        ("sim", "--booksim", "tests/data/bad/booksim/ok.cfg", "colour=red"),
        "unsupported key 'colour'",
    ),
    (("sim", "--booksim", "tests/data/bad/booksim/ok.cfg", "k"), "overrides are key=value"),
    (
        ("sim", "sim_type=fixed", "sim_cycles=99999999"),
        "warmup_cycles = 1000 and sim_cycles = 99999999",
    ),
    (("sim", "k=4", "sample_period=3000000"), "more than max_cycles = 10000000"),
    # --- work limits: refused up front instead of running for minutes (docs/errors.md)
    (
        (
            "topo",
            "check",
            "--topo",
            "irregular:switches=12000,ports=8,nodes=48000,seed=1",
            "-r",
            "updown",
        ),
        "takes about 4.1e9 route steps (12000 switches, 38400 channels), more than the 1e9",
    ),
    (
        (
            "simulate",
            "bcast",
            "-a",
            "linear",
            "-t",
            "mesh:64x64",
            "--packets",
            "65535",
            "--bytes",
            "64M",
        ),
        "the step engine's replay of this schedule moves 268111935 packet copies over about 63.0",
    ),
    (
        ("sim", "sample_period=1000000000000"),
        "sample_period = 1000000000000 with warmup_periods = 3",
    ),
    (
        ("sim", "sim_type=batch", "batch_size=18446744073709551615"),
        "batch_size = 18446744073709551615 at injection_rate = 0.1",
    ),
    # --- the second hostile pass
    (
        ("simulate", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--ranks", "4294967295"),
        "--ranks 4294967295 does not fit on 16 endpoints: use 1 to 16",
    ),
    (
        (
            "--max-memory",
            "0.07",
            "bench",
            "step",
            "-t",
            "torus:100x100",
            "--packets",
            "65535",
            "--compare",
            "",
        ),
        "the broadcast of 65535 packets on 10000 nodes needs about",
    ),
    # --- issue 30: the last crashes, silent clamps and misreadings
    (
        ("verify", "tests/data/bad/schedules/nested_3000.xml"),
        "XML nesting deeper than the limit of 64 elements",
    ),
    (("sim", "n=1000000000"), "k = 8, n = 1000000000: k^n routers is beyond any machine"),
    (
        ("sim", "n=18446744073709551615"),
        "n = 18446744073709551615: k^n routers is beyond any machine",
    ),
    ((*MULTICAST_RATE_47, "latency_thres=100000"), MULTICAST_RATE_47_ERROR),
    ((*MULTICAST_RATE_47, "latency_thres=1000000"), MULTICAST_RATE_47_ERROR),
    (
        ("simulate", "bcast", "-a", "binomial", "-t", "mesh:4x4", "--packets", "100000000"),
        "--packets 100000000 exceeds --bytes 1024: a packet carries at least 1 byte",
    ),
    (
        ("schedule", "multicast", "-a", "worm-path", "-t", "mesh:4x4", "--dests", "0"),
        "--dests 0: multicast target 0 is the root, and no other destination is named",
    ),
    (
        ("worms", "show", "-t", "irregular:switches=4,ports=6,nodes=8,seed=1", "--dests", "0"),
        "--dests 0: multicast target 0 is the root, and no other destination is named",
    ),
    (
        ("worms", "trends", "--dests", "100000", "--topos", "1", "--sets", "1"),
        "--dests 100000: the trend systems have 32 to 256 nodes; use 1 to 31",
    ),
    (
        ("verify", "tests/data/bad/schedules/allgather_ring_n8_nchunksperloop0.xml"),
        'nchunksperloop="0": a loop holds at least 1 chunk',
    ),
    # issue 30: the tuner on a million-rank grid (aborted at 4 GB in the aggregate engine)
    (("tune", "bcast", "-t", "mesh:1024x1024"), "above the tuner's limit of 2e8"),
    # issue 30: run takes every collective the verifier proves; the barrier is named
    (("run", "barrier", "--np", "2", "--bytes", "8"), "run does not execute a barrier"),
    ((*RUN_ALLTOALL_64, "--bytes", "64M"), "--bytes 67108864 on 64 ranks needs about 825 GB"),
]
