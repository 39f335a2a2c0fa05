"""`netcoll reproduce`: the listing contract, single runs and the HTML report."""

import json
import re

from conftest import cli_json, run_cli

STATUSES = {"matches", "approximates", "cannot"}


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
    assert suffixes == ["csv", "json", "md", "png", "svg"]
    note = (tmp_path / "ibt-table1-distances.md").read_text()
    assert "8.096" in note and "6.633" in note
    # Every compared number: printed, ours, relative difference, status (all match here).
    assert len(out["numbers"]) == 8
    for n in out["numbers"]:
        assert {"quantity", "printed", "ours", "relative_difference", "status"} <= set(n)
        assert n["status"] == "match"
    assert json.loads((tmp_path / "ibt-table1-distances.json").read_text()) == out


def test_all_quick_writes_an_html_report(tmp_path):
    out = json.loads(run_cli("reproduce", "--all", "--quick", "-o", str(tmp_path), "--json").stdout)
    page = (tmp_path / "index.html").read_text()
    for r in out["reproductions"]:
        assert r["id"] in page
        for f in r["files"]:
            assert (tmp_path / f.rsplit("/", 1)[-1]).exists()
    pngs = sum(f.endswith(".png") for r in out["reproductions"] for f in r["files"])
    assert pngs and page.count("<img") == pngs
    assert not out["errors"]
    # relative links only: the directory can be moved
    assert str(tmp_path) not in page.replace(f"-o {tmp_path}", "")
    for src in re.findall(r"(?:src|href)='([^'#]+)'", page):
        assert (tmp_path / src).exists(), src
    # the status summary counts every entry
    for status in ("matches", "approximates", "cannot"):
        assert f"badge {status}" in page
    assert f"of {len(out['reproductions'])} reproductions ran" in page


def test_unknown_and_unrunnable_ids_are_one_line_errors():
    for ident in ("ibt-fig99", "netcoding-fig2"):
        proc = run_cli("reproduce", ident, check=False)
        assert proc.returncode == 2
        assert proc.stderr.startswith("netcoll: error:") and proc.stderr.count("\n") == 1


def test_a_failing_runner_is_reported_not_fatal(tmp_path, monkeypatch):
    from netcoll.reproduce import registry, runner
    from netcoll.reproduce.report import write_report

    broken = registry.Reproduction("ibt-broken", "none", "metrics", "matches", "test", "math:nope")
    monkeypatch.setattr(registry, "REPRODUCTIONS", [broken])
    seen = []
    results = runner.run_all(tmp_path, True, seen.append, lambda r, o: seen.append(o.status))
    assert seen == [broken, "error"]
    ((_, outcome),) = results
    assert outcome.status == "error" and "AttributeError" in outcome.summary
    page = write_report(tmp_path, results, True).read_text()
    assert "badge error" in page and "ibt-broken" in page
