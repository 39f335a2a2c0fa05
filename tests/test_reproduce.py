"""`netcoll reproduce`: the listing contract, single runs and the HTML report."""

import json

from conftest import cli_json, run_cli

STATUSES = {"matches", "approximates", "differs", "cannot"}


def test_list_contract():
    items = cli_json("reproduce", "--list")
    ids = [i["id"] for i in items]
    assert len(ids) == len(set(ids))
    for i in items:
        assert {"id", "paper", "figure", "status"} <= set(i)
        assert i["status"] in STATUSES
        assert i["id"].split("-")[0] in {"netcoding", "intercom", "multisend", "irregular", "ibt"}
        if i["status"] == "cannot":
            assert i["reason"]
    assert "ibt-table1-distances" in ids


def test_table1_matches_and_writes_files(tmp_path):
    out = json.loads(
        run_cli(
            "reproduce", "ibt-table1-distances", "--quick", "-o", str(tmp_path), "--json"
        ).stdout
    )
    assert out["status"] == "matches"
    suffixes = sorted(p.rsplit(".", 1)[1] for p in out["files"])
    assert suffixes == ["csv", "md", "png", "svg"]
    note = (tmp_path / "ibt-table1-distances.md").read_text()
    assert "8.096" in note and "6.633" in note


def test_all_quick_writes_an_html_report(tmp_path):
    out = json.loads(run_cli("reproduce", "--all", "--quick", "-o", str(tmp_path), "--json").stdout)
    page = (tmp_path / "index.html").read_text()
    for r in out["reproductions"]:
        assert r["id"] in page
        for f in r["files"]:
            assert (tmp_path / f.rsplit("/", 1)[-1]).exists()
    assert page.count("<img") == sum(1 for r in out["reproductions"] if r["files"])


def test_unknown_and_unrunnable_ids_are_one_line_errors():
    for ident in ("ibt-fig99", "netcoding-fig2"):
        proc = run_cli("reproduce", ident, check=False)
        assert proc.returncode == 2
        assert proc.stderr.startswith("netcoll: error:") and proc.stderr.count("\n") == 1
