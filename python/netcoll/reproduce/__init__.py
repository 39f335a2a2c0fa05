"""Reproductions of the seed papers' tables and figures.

Each reproduction has an id (``ibt-table1-distances``), the paper, the table or figure, the
engine it uses, and an honest status: ``matches`` (our numbers equal the printed ones),
``approximates`` (same shape, numbers close but not equal, or compared against fitted
curves), or ``cannot`` (with the reason). Running one writes CSV data, a PNG and SVG figure and
a markdown note that puts the paper's printed numbers beside ours.
"""

from .outcome import Outcome, Reproduction
from .registry import REPRODUCTIONS, find
from .runner import run_all, run_one, status_counts

__all__ = [
    "REPRODUCTIONS",
    "Outcome",
    "Reproduction",
    "find",
    "run_all",
    "run_one",
    "status_counts",
]
