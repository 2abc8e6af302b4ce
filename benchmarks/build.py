"""(a) Build time and peak memory against capture size, on prefixes of the large captures.

Each prefix (about 1k, 2k and 4k records, in file order) is written to a temporary plain
HAR and measured in fresh processes (``build_worker``): parsing alone (``load_evidence``,
the floor any build pays) and the whole ``build_bundle``, the best of a few runs each.
Peak memory is the worker's resident high-water mark, also shown above its resident size after imports.
The growth exponent k is taken run by run from the build's CPU time (``build_worker``); then each
whole large capture is built by ``capenv build`` in its own process against ``orjson.loads`` of
the same file (``build_floor``).

    python -m benchmarks build
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from benchmarks import build_floor, profiling, runner
from benchmarks.build_growth import MIN_STEP, TARGET_EXPONENT, growth_goals, run_exponents
from benchmarks.scale import pick
from benchmarks.section import Section
from benchmarks.stats import growth_exponent, median, table, thousands, verdict

REPO = Path(__file__).resolve().parents[1]
SIZES = pick((1000, 2000, 4000), (60, 120))
REPEATS = pick(3, 1)
TARGET_RECORDS_PER_SECOND = 5000
WORKER_TIMEOUT_SECONDS = 300


@dataclass
class Point:
    app: str
    records: int
    parse_seconds: float
    build_seconds: float
    peak_rss_kib: int
    baseline_rss_kib: int
    stages: dict[str, float]
    har: Path
    har_bytes: int
    cpu_runs: list[float]
    """The build's CPU seconds in each run (the growth exponents are taken run by run from these)."""

    @property
    def records_per_second(self) -> float:
        return self.records / self.build_seconds


def large_captures() -> list[Path]:
    """Every ``captures/*/large.har.gz`` (the quick smoke run: the first only)."""
    found = sorted((REPO / "captures").glob("*/large.har.gz"))
    return pick(found, found[:1])


def write_prefixes(capture: Path, directory: Path) -> list[Path]:
    document = orjson.loads(gzip.decompress(capture.read_bytes()))
    entries = document["log"]["entries"]
    sizes = sorted({min(size, len(entries)) for size in SIZES})
    paths = []
    for size in sizes:
        prefix = {**document, "log": {**document["log"], "entries": entries[:size]}}
        path = directory / f"{capture.parent.name}-{size}.har"
        path.write_bytes(orjson.dumps(prefix))
        paths.append(path)
    return paths


def run_worker(mode: str, har: Path, *options: str) -> dict[str, Any]:
    result = subprocess.run([sys.executable, "-m", "benchmarks.build_worker", mode, str(har), *options], cwd=REPO,
                            capture_output=True, text=True, timeout=WORKER_TIMEOUT_SECONDS)
    if result.returncode != 0:
        raise RuntimeError(f"build_worker {mode} {har.name} failed:\n{result.stderr[-2000:]}")
    return json.loads(result.stdout.splitlines()[-1])


def measure_app(app: str, hars: list[Path]) -> list[Point]:
    """Every size in each run, run after run, so the sizes a growth exponent compares were measured
    close together in time (the machine's load drifts)."""
    parses: dict[Path, list[dict]] = {har: [] for har in hars}
    builds: dict[Path, list[dict]] = {har: [] for har in hars}
    for run_number in range(REPEATS):
        for har in hars:
            if run_number == 0:  # parsing alone, the floor shown beside: one run (it is no goal's figure)
                parses[har].append(run_worker("parse", har))
            builds[har].append(run_worker("build", har))
            print(f"build: {app} {builds[har][-1]['records']} records, run {run_number + 1}/{REPEATS}: "
                  f"{builds[har][-1]['cpu_seconds']:.2f} s CPU", file=sys.stderr)
    return [_point(app, har, parses[har], builds[har]) for har in hars]


def _point(app: str, har: Path, parses: list[dict], builds: list[dict]) -> Point:
    # The best run: other work on the machine only ever adds time, so the fastest is the least disturbed.
    chosen = min(builds, key=lambda b: b["seconds"])
    return Point(app=app, records=builds[0]["records"],
                 parse_seconds=min(p["seconds"] for p in parses),
                 build_seconds=chosen["seconds"],
                 peak_rss_kib=max(b["peak_rss_kib"] for b in builds),
                 baseline_rss_kib=min(b["baseline_rss_kib"] for b in builds),
                 stages=chosen["stages"], har=har, har_bytes=har.stat().st_size,
                 cpu_runs=[b["cpu_seconds"] for b in builds])


def run() -> Section:
    section = Section("build", "(a) Build time and peak memory against capture size", "python -m benchmarks build")
    points: list[Point] = []
    smallest: dict[str, Path] = {}
    with tempfile.TemporaryDirectory(prefix="capenv-bench-") as tmp:
        for capture in large_captures():
            app = capture.parent.name
            prefixes = write_prefixes(capture, Path(tmp))
            points += measure_app(app, prefixes)
            smallest[app] = prefixes[0]
        without_gc = {app: gc_what_if(app, points) for app in dict.fromkeys(p.app for p in points)}
        # the quick smoke run builds its smallest prefix, not the whole large capture
        floors = [build_floor.measure(app, pick(capture, smallest[app]))
                  for capture, app in ((c, c.parent.name) for c in large_captures())]
        missing = set(_apps_missing_targets(points)) | {f.app for f in floors if median(f.ratios) > build_floor.TARGET_RATIO}
        profiles = {app: profile_largest(app, points) for app in dict.fromkeys(p.app for p in points) if app in missing}
    section.lines = render(points, without_gc, profiles) + build_floor.render(floors)
    section.goals = build_floor.goals(floors, profiles) + growth_goals(points)
    return section


def gc_what_if(app: str, points: list[Point]) -> tuple[float, float]:
    """(parse, build) seconds at the app's largest size with the cyclic garbage collector off (one run:
    a what-if, not a goal)."""
    largest = max((p for p in points if p.app == app), key=lambda p: p.records)
    return run_worker("parse", largest.har, "--no-gc")["seconds"], run_worker("build", largest.har, "--no-gc")["seconds"]


def profile_largest(app: str, points: list[Point]) -> profiling.Profile:
    largest = max((p for p in points if p.app == app), key=lambda p: p.records)
    print(f"build: profiling {app} at {largest.records} records", file=sys.stderr)
    return profiling.from_dict(run_worker("profile", largest.har))


# --- the document -----------------------------------------------------------------------

def _growth(points: list[Point]) -> dict[tuple[str, int], tuple[float, float, float]]:
    """(app, records) -> (records ratio, CPU time ratio, exponent) against the previous size of that
    app, from the median CPU time over the runs."""
    growth = {}
    for previous, current in zip(points, points[1:]):
        if previous.app == current.app:
            before, now = median(previous.cpu_runs), median(current.cpu_runs)
            growth[(current.app, current.records)] = (
                current.records / previous.records, now / before,
                growth_exponent((previous.records, before), (current.records, now)))
    return growth


def _apps_missing_targets(points: list[Point]) -> list[str]:
    growth = _growth(points)
    missing = []
    for app in dict.fromkeys(p.app for p in points):
        mine = [p for p in points if p.app == app]
        slow = min(p.records_per_second for p in mine) < TARGET_RECORDS_PER_SECOND
        steep = max(run_exponents(points, app), default=0.0) > TARGET_EXPONENT
        if slow or steep:
            missing.append(app)
    return missing


def render(points: list[Point], without_gc: dict[str, tuple[float, float]],
           profiles: dict[str, profiling.Profile]) -> list[str]:
    growth = _growth(points)
    rows = []
    for p in points:
        g = growth.get((p.app, p.records))
        rows.append([p.app, thousands(p.records), f"{p.har_bytes / 1e6:.1f}", f"{p.parse_seconds:.2f}",
                     f"{p.build_seconds:.2f}", " / ".join(f"{c:.2f}" for c in p.cpu_runs),
                     f"{p.parse_seconds / p.build_seconds:.0%}",
                     thousands(p.records_per_second), f"{p.peak_rss_kib / 1024:.0f}",
                     f"{(p.peak_rss_kib - p.baseline_rss_kib) / 1024:.0f}",
                     "-" if g is None else f"×{g[1]:.2f} for ×{g[0]:.2f} (k={g[2]:.2f})"])
    lines = [f"Prefixes of `captures/*/large.har.gz` (first N entries, written as plain HAR; their size grows "
             f"with the records); {REPEATS} runs, each a fresh process per size, all sizes in each run. *build* is "
             "`capenv build` in the worker after its imports (`build_bundle` and writing the bundle): wall "
             "seconds of the best run, and CPU seconds of each run. *parse* is `load_evidence` alone, the floor (one run); "
             "*peak RSS* is the build process's resident high-water mark (reset after the imports), *over "
             "baseline* subtracts the resident size of the interpreter with capenv imported. *growth* compares "
             "with the previous size: CPU time ratio (medians) for the records ratio, and k in time ∝ records^k.",
             ""]
    lines += table(["app", "records", "HAR MB", "parse s", "build s", "build CPU s (each run)", "parse share",
                    "records/s", "peak RSS MiB", "over baseline MiB", "growth"], rows, labels=1)
    lines += ["", "Where the build time goes at the largest size: seconds per step (timed around each call "
                  "`build_bundle` makes, so the steps add up to the build), its share, and its own k against the "
                  "size before (steps under 5 ms get none):", ""]
    lines += _stages_table(points)
    lines += ["", "What-if, at the largest size: the cyclic garbage collector off for the whole build (`gc.disable()` "
                  "in the worker; its full collections walk every live object, so their cost grows with the "
                  "capture):", ""]
    lines += _gc_table(points, without_gc)
    lines += ["", "Targets (reported, not asserted):", ""]
    lines += _targets(points, growth)
    for app, profile in profiles.items():
        lines += ["", *profiling.markdown(profile, f"Hot spots of the {app} build at its largest size")]
    return lines


def _stages_table(points: list[Point]) -> list[str]:
    """Seconds per step at each app's largest size, and the step's k against the size before it:
    the step whose k is well above 1 is the one that makes the build grow faster than linearly."""
    from benchmarks.build_worker import STAGES

    pairs = {}
    for previous, current in zip(points, points[1:]):
        if previous.app == current.app:
            pairs[current.app] = (previous, current)
    rows = []
    for stage in STAGES:
        cells = [f"`{stage}`"]
        for previous, current in pairs.values():
            now, before = current.stages.get(stage, 0.0), previous.stages.get(stage, 0.0)
            measurable = min(now, before) > 0.005
            k = growth_exponent((previous.records, before), (current.records, now)) if measurable else None
            cells.append(f"{now:.2f} ({now / current.build_seconds:.0%})" + ("" if k is None else f", k={k:.2f}"))
        rows.append(cells)
    header = [f"{current.app} at {thousands(current.records)} (k from {thousands(previous.records)})"
              for previous, current in pairs.values()]
    return table(["step", *header], rows)


def _gc_table(points: list[Point], without_gc: dict[str, tuple[float, float]]) -> list[str]:
    rows = []
    for app, (parse, build) in without_gc.items():
        largest = max((p for p in points if p.app == app), key=lambda p: p.records)
        rows.append([app, thousands(largest.records), f"{largest.parse_seconds:.2f} → {parse:.2f}",
                     f"{largest.build_seconds:.2f} → {build:.2f}", f"{1 - build / largest.build_seconds:.0%}",
                     thousands(largest.records / build)])
    return table(["app", "records", "parse s (gc on → off)", "build s (gc on → off)", "build time saved",
                  "records/s, gc off"], rows)


def _targets(points: list[Point], growth: dict) -> list[str]:
    lines = []
    for app in dict.fromkeys(p.app for p in points):
        exponents = run_exponents(points, app)
        worst = max(exponents, default=0.0)
        slowest = min(p.records_per_second for p in points if p.app == app)
        lines.append(f"- {app}: growth k ≤ {TARGET_EXPONENT:g} in every run (CPU time, sizes ≥ {MIN_STEP:g}× apart; worst "
                     "step of each run: "
                     f"{', '.join(f'{k:.2f}' for k in exponents)}): {verdict(worst <= TARGET_EXPONENT)}; "
                     f"≥ {TARGET_RECORDS_PER_SECOND:,} "
                     f"records/s: slowest {thousands(slowest)}/s, {verdict(slowest >= TARGET_RECORDS_PER_SECOND)}.")
    return lines


if __name__ == "__main__":
    sys.exit(runner.main(["build", *sys.argv[1:]], {"build": run}))
