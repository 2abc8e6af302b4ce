"""One measurement of the build in a fresh process, so its peak memory is its own.

    python -m benchmarks.build_worker parse|build|profile HAR [--no-gc]

``build`` runs ``capenv build HAR -o DIR`` in this process after the imports (the command's
own steps, the bundle written). Prints one JSON object: ``seconds`` of the work (``build``:
``cpu_seconds`` too), ``peak_rss_kib`` (the resident high-water
mark during the work), ``baseline_rss_kib`` (resident after the imports: the interpreter and
capenv before any capture), ``records``; ``build`` adds ``stages`` (seconds per pipeline
step); ``profile`` gives the hot spots of a build under cProfile instead. ``--no-gc`` turns the
cyclic garbage collector off for the work: a what-if, since its full collections grow with the
number of live objects.
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from capenv.interpreter import pipeline
from capenv.interpreter.evidence.har import load_evidence

from benchmarks import profiling

# The steps build_bundle calls by their module-level names, in order: timing each through a
# wrapper gives a breakdown without a profiler's overhead.
STAGES = ("load_rules", "load_evidence", "build_manifest", "read_only_posts", "build_view", "plan_and_gate",
          "replay_table", "report_document", "write_bundle")
"""The last is ``capenv build``'s writing of the bundle, after ``build_bundle``."""


def _status_kib(field: str) -> int | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def _start_peak() -> int:
    """Reset the high-water mark so the peak is the work's, not the imports' (Linux ≥ 4.0:
    writing 5 to clear_refs); return the resident size now. Elsewhere ru_maxrss stands in."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass
    return _status_kib("VmRSS") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _peak_kib() -> int:
    return _status_kib("VmHWM") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # both KiB on Linux


def _timed_stages() -> dict[str, float]:
    seconds: dict[str, float] = {}

    def wrap(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                seconds[name] = seconds.get(name, 0.0) + time.perf_counter() - started
        return timed

    for name in STAGES:
        if hasattr(pipeline, name):
            setattr(pipeline, name, wrap(name, getattr(pipeline, name)))
    return seconds


def _cli_build(har: str, stages: dict[str, float]) -> dict[str, Any]:
    """``capenv build HAR -o DIR --json`` as the command runs it (its garbage-collector handling,
    the bundle written), in this process after the imports; ``write_bundle`` timed as a step."""
    from capenv.interpreter.bundle import io as bundle_io
    from capenv.interpreter.cli.main import main as cli_main

    original = bundle_io.write_bundle

    def timed_write(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            stages["write_bundle"] = stages.get("write_bundle", 0.0) + time.perf_counter() - started

    bundle_io.write_bundle = timed_write
    printed = io.StringIO()
    with tempfile.TemporaryDirectory(prefix="capenv-bench-bundle-") as output, contextlib.redirect_stdout(printed):
        code = cli_main(["build", har, "-o", output, "--force", "--json"])
    if code != 0:
        raise SystemExit(f"capenv build {har} exited with {code}")
    return json.loads(printed.getvalue())


def main(mode: str, har: str) -> dict[str, Any]:
    baseline = _start_peak()
    if mode == "parse":
        started = time.perf_counter()
        evidence = load_evidence(har)
        return {"seconds": time.perf_counter() - started, "records": len(evidence.records),
                "peak_rss_kib": _peak_kib(), "baseline_rss_kib": baseline}
    if mode == "build":
        stages = _timed_stages()
        started, cpu = time.perf_counter(), time.process_time()
        summary = _cli_build(har, stages)
        return {"seconds": time.perf_counter() - started, "cpu_seconds": time.process_time() - cpu,
                "records": summary["records"], "peak_rss_kib": _peak_kib(), "baseline_rss_kib": baseline,
                "stages": stages}
    if mode == "profile":
        return profiling.as_dict(profiling.profile_call(lambda: _cli_build(har, {}), top=12))
    raise SystemExit(f"unknown mode {mode!r}: parse, build or profile")


if __name__ == "__main__":
    if "--no-gc" in sys.argv[3:]:
        gc.disable()
    print(json.dumps(main(sys.argv[1], sys.argv[2])))
