"""The CLI contract: JSON keys, exit codes, one-line errors, pictures."""

import io

import pytest

from conftest import cli_json, run_cli


def test_topo_stats_json_contract():
    s = cli_json("topo", "stats", "--topo", "ibt:64x64:b=8,24")
    for key in (
        "nodes",
        "switches",
        "links",
        "diameter",
        "average_distance",
        "average_distance_distinct",
    ):
        assert key in s
    assert s["diameter"] == 10 and abs(s["average_distance"] - 6.633) < 1e-3


def test_topo_check_json_contract():
    bad = cli_json("topo", "check", "--topo", "torus:4x4", "--routing", "dor", "--vcs", "1")
    assert bad["deadlock_free"] is False and len(bad["cycle"]) >= 2
    good = cli_json("topo", "check", "--topo", "torus:4x4", "--routing", "dor", "--vcs", "2")
    assert good["deadlock_free"] is True and good["cycle"] == []


def test_route_json_and_coordinates():
    r = cli_json("route", "--topo", "mesh:4x4", "0,0", "2,3", "--routing", "dor")
    assert r["hops"] == 5 and r["dst"] == 14
    assert [h["to"] for h in r["path"]] == [1, 2, 6, 10, 14]
    text = run_cli("route", "--topo", "torus:4x4", "0", "5").stdout
    assert "2 hop(s)" in text


@pytest.mark.parametrize(
    "spec",
    [
        "mesh:6x4",
        "ibt:8x8:b=4",
        "irregular:switches=8,ports=8,nodes=32,seed=3",
        "hypercube:4",
        "torus:4x4x3",
    ],
)
def test_topo_draw_writes_a_png(tmp_path, spec):
    out = tmp_path / "net.png"
    run_cli("topo", "draw", "--topo", spec, "-o", str(out))
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_export_formats(tmp_path):
    for fmt in ("netcoll", "networkx", "graphml"):
        out = tmp_path / f"net.{fmt}"
        run_cli("topo", "export", "--topo", "torus:3x3", "-o", str(out), "--format", fmt)
        assert out.stat().st_size > 100
    s = cli_json("topo", "stats", "--topo", f"file:{tmp_path / 'net.netcoll'}")
    assert s["links"] == 18 and s["diameter"] == 2


@pytest.mark.parametrize(
    "args",
    [
        ("topo", "stats", "--topo", "mesh:0x4"),
        ("topo", "stats", "--topo", "blob:3"),
        ("topo", "stats", "--topo", "ibt:64x64:b=9"),
        ("topo", "stats", "--topo", "irregular:switches=8,ports=3,nodes=20"),
        ("topo", "stats", "--topo", "file:/no/such.json"),
        ("topo", "check", "--topo", "torus:4x4", "--routing", "teleport"),
        ("topo", "check", "--topo", "ibt:16x16:b=4", "--routing", "dor"),
        ("topo", "check", "--topo", "torus:4x4", "--vcs", "0"),
        ("route", "--topo", "mesh:4x4", "0", "99"),
        ("route", "--topo", "mesh:4x4", "0", "9,9"),
        ("topo", "draw", "--topo", "torus:64x64", "-o", "/tmp/never.png"),
        ("topo", "stats"),
        ("topo", "frobnicate"),
    ],
)
def test_bad_input_is_one_line_exit_2(args):
    proc = run_cli(*args, check=False)
    assert proc.returncode == 2, proc
    err = proc.stderr.strip()
    assert err.startswith("netcoll: error:"), err
    assert "\n" not in err and "Traceback" not in err, err


def test_help_everywhere():
    for args in ((), ("topo",), ("topo", "stats"), ("topo", "check"), ("route",), ("demo",)):
        proc = run_cli(*args, "--help")
        assert "Usage:" in proc.stdout


def test_demo_quick_writes_table_and_plot(tmp_path):
    d = cli_json("demo", "--quick", "--no-report", "-o", str(tmp_path))
    names = [r["network"] for r in d["networks"]]
    assert "iBT(64^2;<8,24>)" in names and "Torus(16^3)" in names
    ibt = next(r for r in d["networks"] if r["network"] == "iBT(64^2;<8,24>)")
    assert ibt["diameter"] == ibt["paper_diameter"] == 10
    assert (tmp_path / "networks.png").exists() and (tmp_path / "networks.svg").exists()
    hops = {r["mesh"]: r for r in d["alltoall"]}
    assert hops["32x32"]["tree"] == 2_703_360  # seed 000's tree-based baseline
    assert all(r["hnc_tree"] < r["tree"] for r in d["alltoall"])
    assert (tmp_path / "alltoall.png").exists()
    # the flit engine ran the same four verified schedules on the small meshes
    cycles = {r["mesh"]: r for r in d["alltoall_cycles"]}
    assert sorted(cycles) == ["4x4", "8x8"]
    for r in cycles.values():
        assert all(r[k] > 0 for k in ("tree", "all_at_once", "hnc_tree", "hnc_all_at_once"))
        # 1-flit packets: the tree's flit-hops are its aggregate hops
        assert r["tree_flit_hops"] == hops.get(r["mesh"], {}).get("tree", r["tree_flit_hops"])
    assert cycles["8x8"]["tree_flit_hops"] == 6912
    assert d["report"] is None


def test_demo_quick_report_is_written(tmp_path, monkeypatch):
    from rich.console import Console

    from netcoll import demo
    from netcoll.reproduce import registry

    monkeypatch.setattr(registry, "REPRODUCTIONS", [registry.find("ibt-table1-distances")])
    page = demo.quick_report(tmp_path / "report", Console(file=io.StringIO()), False)
    assert page == tmp_path / "report" / "index.html"
    assert "ibt-table1-distances.png" in page.read_text()


def test_a_rust_panic_is_one_error_line_and_prints_nothing(capfd):
    from netcoll import _core

    with pytest.raises(_core.NetcollError, match=r"internal error in netcoll-core \(deliberate"):
        _core._panic_for_tests()
    err = capfd.readouterr().err
    assert "panicked" not in err and "backtrace" not in err


def test_bad_multicast_targets_are_one_line_not_a_panic():
    r = run_cli(
        "schedule", "multicast", "-a", "intercom-mst", "-t", "mesh:8", "--dests", "9", check=False
    )
    assert r.returncode != 0
    assert "multicast target 9 is out of range" in r.stderr
    assert "panicked" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
