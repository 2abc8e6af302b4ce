"""(a) continued: how the build grows with the records, run by run.

k in CPU time ∝ records^k between one prefix size and the next, taken from each run's CPU
seconds (``build_worker``), so a goal "k ≤ 1.1 on every capture, three runs" is judged on the
worst step of every run; where it is missed, the steps whose own k is highest name what grows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from benchmarks.goals import Goal
from benchmarks.stats import growth_exponent, thousands

Point = Any
"""``benchmarks.build.Point`` (not imported: build imports this module)."""

TARGET_EXPONENT = 1.1
"""k ≤ 1.1 in time ∝ records^k (issue 15: ×2 records → at most ×2.14 time), on every capture, every run."""


MIN_STEP = 1.5
"""A step's sizes at least this far apart: a capture's last prefix may be only a little larger than the
one before (2,000 → 2,522 records), and over so short a step a few percent of noise is a large k."""


def steps(mine: Sequence[Point]) -> list[tuple[Point, Point]]:
    """Each size against the nearest smaller one at least ``MIN_STEP`` times smaller."""
    found = []
    for i, now in enumerate(mine):
        before = [p for p in mine[:i] if now.records >= MIN_STEP * p.records]
        if before:
            found.append((before[-1], now))
    return found


def run_exponents(points: Sequence[Point], app: str) -> list[float]:
    """The worst k of ``app``'s steps, in each run (CPU seconds)."""
    mine = [p for p in points if p.app == app]
    runs = min(len(p.cpu_runs) for p in mine)
    return [max((growth_exponent((a.records, a.cpu_runs[r]), (b.records, b.cpu_runs[r])) for a, b in steps(mine)),
                default=math.nan) for r in range(runs)]


def growth_goals(points: Sequence[Point]) -> list[Goal]:
    found = []
    for app in dict.fromkeys(p.app for p in points):
        runs = run_exponents(points, app)
        met = max(runs) <= TARGET_EXPONENT
        sizes = " → ".join(thousands(p.records) for p in points if p.app == app)
        found.append(Goal("build-growth", app, runs, "k={:.2f}", f"k ≤ {TARGET_EXPONENT:g} in every run", met,
                          measured=f"{sizes} records", bound="" if met else _steepest_step(points, app)))
    return found


def _steepest_step(points: Sequence[Point], app: str) -> str:
    """The build steps that grow fastest over the app's last step (those ≥ 5% of the build)."""
    mine = [p for p in points if p.app == app]
    if not steps(mine):
        return ""
    before, now = steps(mine)[-1]
    grown = []
    for stage, seconds in now.stages.items():
        if seconds >= 0.05 * now.build_seconds and before.stages.get(stage, 0) > 0.005:
            grown.append((growth_exponent((before.records, before.stages[stage]), (now.records, seconds)), stage,
                          seconds / now.build_seconds))
    grown.sort(reverse=True)
    return "steps growing fastest (wall, best run): " + ", ".join(f"`{stage}` k={k:.2f} ({share:.0%} of the build)"
                                                                  for k, stage, share in grown[:3])
