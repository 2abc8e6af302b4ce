"""(a) continued: ``capenv build`` of each ``captures/*/large.har.gz`` as a whole process, against
the floor any build pays, ``orjson.loads`` of the same file in a process of its own.

Both are fresh processes started the same way; their CPU time (user + system, ``os.wait4``)
is the figure, so other work on the machine does not count (their wall time is shown too).
One build runs first unmeasured (it fills the rule tables' disk cache, as any second build
finds it). This machine sets ``PYTHONDONTWRITEBYTECODE=1``; these processes run without it, so
they import cached bytecode as an installed package does instead of compiling every module.
Each run measures the floor, the whole build, and the same build in a worker after its imports
(``build_worker build``: its steps), in turn.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks import build_worker, profiling
from benchmarks.goals import Goal, hot_spots, spread
from benchmarks.scale import pick
from benchmarks.stats import median, table

REPO = Path(__file__).resolve().parents[1]
RUNS = pick(3, 1)
TARGET_RATIO = 4.0
"""The whole build at most 4× the floor's CPU time (issue 15)."""
FLOOR_CODE = ("import gzip, sys, orjson; data = open(sys.argv[1], 'rb').read(); "
              "orjson.loads(gzip.decompress(data) if data[:2] == b'\\x1f\\x8b' else data)")


@dataclass
class Floor:
    app: str
    capture: Path
    floor_cpu: list[float] = field(default_factory=list)
    build_cpu: list[float] = field(default_factory=list)
    build_wall: list[float] = field(default_factory=list)
    work_cpu: list[float] = field(default_factory=list)
    """The build's own CPU in the worker, after the imports: the rest of the process is starting it."""
    stages: list[dict[str, float]] = field(default_factory=list)

    @property
    def ratios(self) -> list[float]:
        return [b / f for b, f in zip(self.build_cpu, self.floor_cpu)]


def _environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def process_cpu(argv: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one process run to its end."""
    with tempfile.TemporaryFile() as errors:  # a file, not a pipe: nobody reads while it runs
        started = time.perf_counter()
        process = subprocess.Popen(argv, cwd=REPO, env=_environment(), stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            errors.seek(0)
            raise RuntimeError(f"{' '.join(argv[:4])} … exited with {process.returncode}:\n"
                               f"{errors.read().decode(errors='replace')[-2000:]}")
    return usage.ru_utime + usage.ru_stime, wall


def _capenv() -> list[str]:
    script = Path(sys.executable).with_name("capenv")
    return [str(script)] if script.exists() else [sys.executable, "-m", "capenv.interpreter.cli.main"]


def measure(app: str, capture: Path) -> Floor:
    found = Floor(app, capture)
    with tempfile.TemporaryDirectory(prefix="capenv-bench-floor-") as tmp:
        build = [*_capenv(), "build", str(capture), "-o", str(Path(tmp) / "bundle"), "--force"]
        process_cpu(build)  # fills the rule cache and the bytecode caches
        for _ in range(RUNS):
            found.floor_cpu.append(process_cpu([sys.executable, "-c", FLOOR_CODE, str(capture)])[0])
            cpu, wall = process_cpu(build)
            found.build_cpu.append(cpu)
            found.build_wall.append(wall)
            worker = run_worker(capture)
            found.work_cpu.append(worker["cpu_seconds"])
            found.stages.append(worker["stages"])
    print(f"build: {app} whole process {median(found.build_cpu):.2f} s CPU, floor {median(found.floor_cpu):.2f} s",
          file=sys.stderr)
    return found


def run_worker(capture: Path) -> dict:
    import json

    done = subprocess.run([sys.executable, "-m", "benchmarks.build_worker", "build", str(capture)], cwd=REPO,
                          env=_environment(), capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"build_worker build {capture} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def _steps(found: Floor, count: int = 3) -> str:
    """The build's heaviest steps (median seconds over the runs) and their share of the process."""
    process = median(found.build_cpu)
    steps = {name: median([s.get(name, 0.0) for s in found.stages]) for name in build_worker.STAGES}
    heavy = sorted(steps.items(), key=lambda item: item[1], reverse=True)[:count]
    start = process - median(found.work_cpu)
    return (f"starting the process and its imports ~{max(start, 0):.2f} s CPU of {process:.2f} s; steps (wall, "
            "loaded machine): " + ", ".join(f"`{name}` {seconds:.2f} s" for name, seconds in heavy))


def render(floors: list[Floor]) -> list[str]:
    rows = []
    for f in floors:
        low, mid, high = spread(f.ratios)
        rows.append([f.app, f.capture.relative_to(REPO).as_posix() if f.capture.is_relative_to(REPO) else f.capture.name, f"{median(f.floor_cpu):.2f}",
                     f"{median(f.build_cpu):.2f}", f"{median(f.build_wall):.2f}", f"{median(f.work_cpu):.2f}",
                     f"{low:.1f} / {mid:.1f} / {high:.1f}×"])
    lines = ["", f"The whole `capenv build` of each large capture against the floor, `orjson.loads` of the same "
                 f"file (gunzipped) in a process of its own: CPU seconds of each process (user + system, "
                 f"`os.wait4`), medians over {RUNS} runs, and the ratio run by run (min / median / max). One "
                 "build runs first unmeasured (it fills the rule tables' disk cache); these processes run "
                 "without this machine's `PYTHONDONTWRITEBYTECODE=1`, so they import cached bytecode as an "
                 "installed package does. *work* is the same build's CPU in a worker after its imports "
                 "(`build_worker`): the rest of the process is starting Python and importing capenv.", ""]
    lines += table(["app", "capture", "floor CPU s", "build CPU s", "build wall s", "work CPU s",
                    "ratio (min / median / max)"], rows)
    return lines


def goals(floors: list[Floor], profiles: dict[str, profiling.Profile]) -> list[Goal]:
    found = []
    for f in floors:
        met = median(f.ratios) <= TARGET_RATIO
        bound = "" if met else _steps(f) + (f"; profile: {hot_spots(profiles[f.app])}" if f.app in profiles else "")
        found.append(Goal("build-floor", f.app, f.ratios, "{:.1f}×", f"≤ {TARGET_RATIO:g}×", met,
                          measured=f"build {median(f.build_cpu):.2f} s CPU, floor {median(f.floor_cpu):.2f} s",
                          bound=bound))
    return found
