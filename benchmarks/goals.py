"""The goals of issue 15's table, one line each at the top of docs/benchmarks.md.

A section that measures a row hands back ``Goal`` lines with its Markdown; each is kept in its
section's part of the file as a comment (``<!-- goal: {...} -->``), so the table at the top is
rebuilt from every section's part, the ones rerun now and the ones kept from an earlier run.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from benchmarks import profiling
from benchmarks.stats import median, table, verdict

ROWS = (  # (key, the figure in the words, the goal) in the order
    ("http-json-server", "HTTP surface vs json-server 0.17.4, sequential CRUD (calls/s ratio)", "≥ 4× both stores"),
    ("http-floor", "HTTP surface vs the transport floor (bare ASGI app, same uvicorn settings, same client)",
     "≥ 0.7× the floor's calls/s"),
    ("build-floor", "`capenv build` of each `large.har.gz`, whole process, vs `orjson.loads` of the same file in "
                    "its own process (CPU time ratio)", "≤ 4× the floor"),
    ("build-growth", "build growth per doubling of records (k in CPU time ∝ records^k, worst step)",
     "k ≤ 1.1 on every capture, three runs"),
    ("creates", "in-process served creates (calls per CPU s; p99 latency)",
     "memory ≥ 20,000/s, SQLite ≥ 5,000/s, p99 ≤ 2 ms"),
    ("lists", "list read of 10,000 entities, server CPU, json-server's / capenv's", "≥ 3× faster"),
    ("mcp", "MCP tool calls vs the SDK's own low-level echo server, same client, same run (calls/s ratio)",
     "≥ 0.9×"),
    ("rss", "RSS after 10,000 create+delete pairs with a constant state (growth after warm-up)",
     "flat after warm-up (± 10 MiB)"),
    ("data-add", "`data/add` of 100 entities over a 10,000-entity state", "≤ 2× its cost on a fresh runtime, "
                                                                          "no lasting slowdown"),
)
_MARK = re.compile(r"^<!-- goal: (\{.*\}) -->$", re.M)


@dataclass
class Goal:
    row: str
    """A key of ``ROWS``."""
    label: str
    """What this line measures within the row (a store, a capture, a client count)."""
    runs: list[float]
    """The figure in each of the runs (min / median / max are shown)."""
    unit: str
    """How a figure is printed: a format such as ``{:.2f}×``."""
    goal: str
    met: bool
    measured: str = ""
    """The figures behind a ratio (medians), e.g. both servers' calls/s."""
    bound: str = ""
    """What bounds it: for a missed goal the top profile entries (``file:function`` share)."""

    def shown(self, value: float) -> str:
        return "-" if value is None or math.isnan(value) else self.unit.format(value)

    def comment(self) -> str:
        return f"<!-- goal: {json.dumps(asdict(self), ensure_ascii=False, sort_keys=True)} -->"


def spread(runs: Sequence[float]) -> tuple[float, float, float]:
    present = [r for r in runs if r is not None and not math.isnan(r)]
    if not present:
        return math.nan, math.nan, math.nan
    return min(present), median(present), max(present)


def found_in(text: str) -> list[Goal]:
    return [Goal(**json.loads(match.group(1))) for match in _MARK.finditer(text)]


LAYER_SHARE = 0.5
"""Project functions above this cumulative share are the layers every call passes through (the
entry points down to where the work splits): named in the section's profile table, not here."""


def hot_spots(profile: profiling.Profile, count: int = 3) -> str:
    """The top entries of a profile as one line: own time, then the project's functions by
    cumulative time below the layers every call passes through."""
    own = ", ".join(f"`{s.where}` {s.share:.0%}" for s in profile.own[:count])
    below = [s for s in profile.cumulative if s.share < LAYER_SHARE][:count]
    ours = ", ".join(f"`{s.where}` {s.share:.0%}" for s in below)
    return f"own time: {own}; project cumulative: {ours or '-'}"


def markdown(goals: list[Goal]) -> list[str]:
    """The table at the top of docs/benchmarks.md: one line per measured line of each row."""
    by_row: dict[str, list[Goal]] = {}
    for goal in goals:
        by_row.setdefault(goal.row, []).append(goal)
    rows = []
    for key, figure, wanted in ROWS:
        mine = by_row.get(key, [])
        if not mine:
            rows.append([figure, "not measured in this file", "-", "-", "-", "-", wanted, "-", "-"])
        for index, goal in enumerate(mine):
            low, mid, high = spread(goal.runs)
            name = figure if index == 0 else "↳"  # the row's figure once, then only what each line measures
            rows.append([f"{name}: {goal.label}" if goal.label else name, _cell(goal.measured), goal.shown(low),
                         goal.shown(mid), goal.shown(high), str(len(goal.runs)), goal.goal, verdict(goal.met),
                         _cell(goal.bound)])
    lines = table(["figure", "measured (medians)", "min", "median", "max", "runs", "goal", "verdict",
                   "what bounds it"], rows, labels=2)
    lines[1] = "| --- | --- | ---: | ---: | ---: | ---: | --- | --- | --- |"  # the words after the figures left-aligned
    return lines


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ") or "-"
