"""What a reproduction is and what running one gives: the papers, the statuses, the
`Reproduction` entry of the registry and the `Outcome` of its runner."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .numbers import Compared, from_comparison

PAPERS = {
    "netcoding": "Shalaby, Fujiwara, Koibuchi: network coding for collectives (seed 000)",
    "intercom": "van de Geijn et al.: InterCom (seed 001)",
    "multisend": "Buntinas, Panda et al.: NIC-assisted multidestination messages (seed 002)",
    "irregular": "Sivaram, Kesavan, Panda, Stunkel: multicast in irregular networks (seed 003)",
    "ibt": "Zhang, Deng: pipelined broadcast on interlaced bypass tori (seed 004)",
}


# The listed statuses. A reproduction that runs but disagrees with the paper is `cannot`
# (we cannot reproduce the paper's result) with a reason that starts "runs; differs".
STATUSES = ("matches", "approximates", "cannot")


def _plain_status(status: str, text: str) -> tuple[str, str]:
    """Runners may say `differs`; the listing keeps the three statuses of the contract."""
    if status == "differs":
        return "cannot", f"runs; differs from the paper: {text}"
    return status, text


@dataclass
class Outcome:
    """What a run produced: the rows behind the figure, the paper-vs-ours comparison, files."""

    status: str
    summary: str
    columns: list[str]
    rows: list[dict[str, Any]]
    comparison: list[dict[str, Any]] = field(default_factory=list)
    plot: Callable[[Path], list[Path]] | None = None
    files: list[str] = field(default_factory=list)
    # Set by run_one: wall-clock seconds of the run (runner and files).
    seconds: float | None = None
    # Per compared number: printed, ours, relative difference, status (numbers.py). Read
    # from `comparison` unless the runner gives them.
    numbers: list[Compared] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.status, self.summary = _plain_status(self.status, self.summary)
        if not self.numbers:
            self.numbers = from_comparison(self.comparison, self.summary)

    def json(self, id: str) -> dict[str, Any]:
        """What `netcoll reproduce ID --json` prints and run_one writes to ID.json."""
        return {
            "id": id,
            "status": self.status,
            "summary": self.summary,
            "numbers": [n.json() for n in self.numbers],
            "files": self.files,
            "seconds": self.seconds,
        }


@dataclass
class Reproduction:
    id: str
    figure: str
    engine: str
    status: str
    reason: str
    # "module:function" taking (quick: bool) and returning an Outcome; None when we cannot.
    runner: str | None = None

    def __post_init__(self) -> None:
        self.status, self.reason = _plain_status(self.status, self.reason)

    @property
    def paper_key(self) -> str:
        return self.id.split("-")[0]

    @property
    def paper(self) -> str:
        return PAPERS[self.paper_key]

    def command(self, quick: bool, out: str | None = None) -> str:
        """The command line that reruns this reproduction."""
        return (
            f"netcoll reproduce {self.id}"
            + (" --quick" if quick else "")
            + (f" -o {out}" if out else "")
        )

    def listing(self) -> dict[str, str]:
        return {
            "id": self.id,
            "paper": self.paper,
            "figure": self.figure,
            "engine": self.engine,
            "status": self.status,
            "reason": self.reason,
        }
