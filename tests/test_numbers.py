"""The record of a compared number (reproduce/numbers.py): statuses and their thresholds,
the reason a differing number must carry, and reading numbers from comparison rows."""

from __future__ import annotations

import pytest

from netcoll.reproduce.numbers import APPROX, compared, from_comparison


def test_statuses_follow_the_stated_thresholds():
    assert APPROX == 0.10
    m = compared("T", 2_703_360, 2_703_360)
    assert (m.status, m.relative_difference) == ("match", 0.0)
    # Equal to the printed precision: 6.634 printed, 6.633789 computed.
    assert compared("mu", 6.634, 6.633789).status == "match"
    assert compared("2.7 million", 2.7e6, 2_703_360, resolution=5e4).status == "match"
    a = compared("saved", 0.75, 0.716)
    assert a.status == "approx" and a.relative_difference == pytest.approx(0.045333, abs=1e-6)
    assert compared("x", 100, 110).status == "approx"
    d = compared("x", 100, 111, "because")
    assert (d.status, d.reason) == ("differ", "because")
    assert set(d.json()) == {
        "quantity",
        "printed",
        "ours",
        "relative_difference",
        "status",
        "reason",
    }


def test_a_differing_number_needs_a_reason():
    with pytest.raises(ValueError, match="needs a reason"):
        compared("x", 32, 64)


def test_numbers_are_read_from_comparison_rows():
    rows = [
        {"b": "<6>", "paper diameter": 14, "netcoll diameter": 14, "match": "yes"},
        {"quantity": "hops", "paper": "2,703,360", "netcoll": "2,703,360"},
        {"b": "<8>", "N": 2304, "paper fit": "24.0", "netcoll": "22 (-8%)"},
        {"b": "<6>", "paper T_x": 23, "T_x order": 22, "T_x fifo": 30},
        {"statement": "tree best", "paper": "yes", "netcoll": "yes"},
    ]
    got = from_comparison(rows, "the summary")
    assert [(n.printed, n.ours, n.status) for n in got] == [
        (14, 14, "match"),
        (2_703_360, 2_703_360, "match"),
        (24, 22, "approx"),
        (23, 22, "approx"),
        (23, 30, "differ"),
    ]
    assert got[-1].reason == "the summary"
