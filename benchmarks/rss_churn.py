"""(h) Resident memory over 10,000 create+delete pairs with a constant state.

The json-server capture's environment, in process (``EnvironmentRuntime``, settled as ``capenv
serve`` settles it): each pair creates a comment and deletes the one the pair before made, so the state holds the same
entities after every pair; what the store keeps per write (history, idempotency records) is
what grows. Each run is a fresh process per store; it prints the process's resident memory
(RSS) every 1,000 pairs. The goal: flat after the warm-up (the first 1,000 pairs), within
± 10 MiB. Where it is missed, one more run traces allocations (``tracemalloc``) between the
end of the warm-up and the last pair and names the lines that hold the growth.

    python -m benchmarks rss
    python -m benchmarks.rss_churn --worker STORE PAIRS [--trace]   # one run, JSON on stdout
"""

from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks import runner
from benchmarks.goals import Goal, spread
from benchmarks.scale import pick, quick
from benchmarks.section import Section
from benchmarks.soak import resident_mib
from benchmarks.stats import median, table, verdict

REPO = Path(__file__).resolve().parents[1]
CAPTURE = REPO / "captures" / "json-server" / "capture.har"
PAIRS = pick(10_000, 200)
EVERY = pick(1_000, 50)
WARM_PAIRS = EVERY
RUNS = pick(3, 1)
STORES = ("default", "memory:", "sqlite:")
TARGET_MIB = 10.0
COMMENT = {"postId": 1, "body": "churn"}
_BODIES = itertools.count(1)  # two comments are held at once, and a repeated body is refused (distinct members)


def _created(runtime: Any) -> str:
    created = runtime.call_tool("post_comments", {"body": {**COMMENT, "body": f"{COMMENT['body']} {next(_BODIES)}"}})
    if created.is_error or created.structured.get("status", 500) >= 400:
        raise RuntimeError(f"the create was not served: {created.structured}")
    return str(created.structured["body"]["id"])


def churn(store: str, pairs: int, trace: bool) -> dict[str, Any]:
    import gc
    import tracemalloc

    from capenv.interpreter.pipeline import build_bundle
    from capenv.serving.runtime import EnvironmentRuntime, settle_for_serving

    with tempfile.TemporaryDirectory(prefix="capenv-rss-") as folder:
        url = None if store == "default" else store if store == "memory:" else f"sqlite:{Path(folder) / 'rss.sqlite'}"
        runtime = EnvironmentRuntime(build_bundle(CAPTURE), store=url)
        settle_for_serving()
        start = resident_mib()
        points, warm, top = [], None, []
        previous = _created(runtime)
        for pair in range(1, pairs + 1):
            # the pair deletes the comment the one before it made, never the newest: a create after the
            # newest one's delete is refused where the capture cannot say the id is not reused
            created = _created(runtime)
            deleted = runtime.call_tool("delete_comments_by_comment_id", {"comment_id": previous})
            if deleted.is_error or deleted.structured.get("status", 500) >= 400:
                raise RuntimeError(f"the delete was not served: {deleted.structured}")
            previous = created
            if pair % EVERY == 0:
                points.append((pair, resident_mib(), sys.getallocatedblocks()))
                if trace and pair == WARM_PAIRS:
                    gc.collect()
                    tracemalloc.start()
                    warm = tracemalloc.take_snapshot()
        if trace and warm is not None:
            gc.collect()
            grown = tracemalloc.take_snapshot().compare_to(warm, "lineno")
            top = [(_where(stat.traceback[0]), stat.size_diff, stat.count_diff) for stat in grown[:5]]
            tracemalloc.stop()
        runtime.close()
    return {"start_mib": start, "points": points, "top": top}


def _where(frame: Any) -> str:
    path = Path(frame.filename)
    shown = path.relative_to(REPO).as_posix() if path.is_relative_to(REPO) else \
        "/".join(path.parts[path.parts.index("site-packages") + 1:]) if "site-packages" in path.parts else path.name
    return f"{shown}:{frame.lineno}"


def run_child(store: str, trace: bool = False) -> dict[str, Any]:
    argv = [sys.executable, "-m", "benchmarks.rss_churn", "--worker", store, str(PAIRS)] + (["--trace"] if trace else [])
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        raise RuntimeError(f"the {store} churn failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def growth(result: dict[str, Any]) -> float:
    """RSS after the last pair less RSS after the warm-up, MiB."""
    points = result["points"]
    return points[-1][1] - points[0][1]


def run() -> Section:
    section = Section("rss", f"(h) Resident memory over {PAIRS:,} create+delete pairs with a constant state",
                      "python -m benchmarks rss")
    results: dict[str, list[dict[str, Any]]] = {store: [] for store in STORES}
    for run_number in range(RUNS):
        for store in STORES:
            results[store].append(run_child(store))
            print(f"rss: {store} run {run_number + 1}/{RUNS}: {growth(results[store][-1]):+.1f} MiB after the warm-up",
                  file=sys.stderr)
    # the quick smoke run traces the first store too, so the tracing path runs in CI
    traced = {store: run_child(store, trace=True)["top"] for store in STORES
              if abs(median([growth(r) for r in results[store]])) > TARGET_MIB or (quick() and store == STORES[0])}
    section.lines = render(results, traced)
    section.goals = goals(results, traced)
    return section


def _traced(top: list) -> str:
    return "allocations grown after the warm-up (tracemalloc): " + ", ".join(
        f"`{where}` {size / 2**20:+.1f} MiB ({count:+,} blocks)" for where, size, count in top[:3])


def goals(results: dict[str, list[dict[str, Any]]], traced: dict[str, list]) -> list[Goal]:
    found = []
    for store, runs in results.items():
        grown = [growth(r) for r in runs]
        met = abs(median(grown)) <= TARGET_MIB
        rss = f"RSS {median([r['points'][0][1] for r in runs]):.0f} → {median([r['points'][-1][1] for r in runs]):.0f} MiB"
        found.append(Goal("rss", f"`{store}`", grown, "{:+.1f} MiB", f"± {TARGET_MIB:g} MiB after {WARM_PAIRS:,} pairs",
                          met, measured=rss, bound="" if met or store not in traced else _traced(traced[store])))
    return found


def render(results: dict[str, list[dict[str, Any]]], traced: dict[str, list]) -> list[str]:
    marks = [p[0] for p in next(iter(results.values()))[0]["points"]]
    header = ["pairs", *[f"`{store}` RSS MiB (run {i + 1})" for store in results for i in range(len(results[store]))]]
    rows = [[f"{pair:,}", *[f"{r['points'][index][1]:.1f}" for runs in results.values() for r in runs]]
            for index, pair in enumerate(marks)]
    lines = [f"Each pair creates a comment (`post_comments`) and deletes it (`delete_comments_by_comment_id`), in "
             f"process, so the state is the same after every pair. One fresh process per store and run ({RUNS} "
             f"runs); RSS every {EVERY:,} pairs. The default is what `capenv serve` keeps without `--store`.", ""]
    lines += table(header, rows)
    lines += ["", f"Goal (reported, not asserted): RSS flat after the first {WARM_PAIRS:,} pairs, within ± "
                  f"{TARGET_MIB:g} MiB (growth from pair {WARM_PAIRS:,} to pair {PAIRS:,}, min / median / max over "
                  "the runs; Python's allocated blocks beside):", ""]
    for store, runs in results.items():
        low, mid, high = spread([growth(r) for r in runs])
        blocks = median([r["points"][-1][2] - r["points"][0][2] for r in runs])
        lines.append(f"- `{store}`: {low:+.1f} / {mid:+.1f} / {high:+.1f} MiB ({verdict(abs(mid) <= TARGET_MIB)}); "
                     f"Python blocks {blocks:+,.0f}" + (f"; {_traced(traced[store])}" if store in traced else "") + ".")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.rss_churn")
    parser.add_argument("--worker", metavar="STORE", choices=STORES)
    parser.add_argument("pairs", nargs="?", type=int, default=PAIRS)
    parser.add_argument("--trace", action="store_true")
    args, rest = parser.parse_known_args(argv)
    if args.worker is None:
        return runner.main(["rss", *rest], {"rss": run})
    print(json.dumps(churn(args.worker, args.pairs, args.trace)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
