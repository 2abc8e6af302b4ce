"""(b) Served tool calls per second and p50/p99 latency, in-process and over MCP streamable HTTP.

The json-server capture's environment: an item read, a list read and a create, each against
three ways of keeping the state (the default without ``--store``, the ``memory:`` store, the
``sqlite:`` store). In-process calls ``EnvironmentRuntime.call_tool`` directly; over MCP
the official client calls ``capenv serve --http`` (``run_http``) in another process on
loopback. Every run starts from the seed state (``data/reset``), so creates grow it from 3
posts by one per call. In-process, the runtime is settled as ``capenv serve`` settles it
(``settle_for_serving``: the loaded bundle leaves the cyclic collector's reach).

    python -m benchmarks serving
"""

from __future__ import annotations

import itertools

import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio

from benchmarks import profiling, runner
from benchmarks.goals import Goal, hot_spots, spread
from benchmarks.scale import pick
from benchmarks.section import Section
from benchmarks.servers import post, start_capenv
from benchmarks.stats import median, microseconds, percentile, table, thousands, verdict
from benchmarks.timing import EDGE_CALLS, Timing, time_calls, time_calls_async

REPO = Path(__file__).resolve().parents[1]
CAPTURE = REPO / "captures" / "json-server" / "capture.har"
NEW_POST = {"author": "bench", "views": 1, "published": True, "tags": ["b"]}
_titles = itertools.count()


def new_post() -> dict:
    """A create's arguments with a title of its own: the capture's titles are all distinct, so a
    repeated one is refused (write-distinct-values)."""
    return {"body": {**NEW_POST, "title": f"benchmark {next(_titles)}"}}


OPERATIONS = (  # (label, tool, arguments or a function making them, is a write)
    ("item read", "get_posts_by_post_id", {"post_id": "1"}, False),
    ("list read", "get_posts", {}, False),
    ("create", "post_posts", new_post, True),
)
IN_PROCESS_CALLS = pick({False: 5000, True: 1000}, {False: 50, True: 20})
MCP_CALLS = pick({False: 100, True: 100}, {False: 10, True: 10})
"""Over MCP, calls per run (``ROUNDS`` runs)."""
MCP = "MCP streamable HTTP"
WARMUP_CALLS = pick(20, 2)
PROFILED_WRITES = pick(300, 20)
WRITE_TARGETS = {"default": 20_000, "memory:": 20_000, "sqlite:": 5_000}
"""In-process served writes per second: ≥ 20,000 in memory, ≥ 5,000 with SQLite."""
P99_TARGET_MS = 2.0
ROUNDS = pick(3, 1)
"""In-process runs of each operation, each from the seed state."""


@dataclass
class Row:
    surface: str
    store: str
    operation: str
    timing: Timing
    write: bool
    runs: list[Timing] | None = None
    """In-process: each run's timing (``timing`` is them all together)."""


def stores(directory: Path) -> list[tuple[str, str | None]]:
    """(label, store URL): the default (no store given: the runtime keeps its own) and two stores."""
    directory.mkdir(parents=True, exist_ok=True)
    return [("default", None), ("memory:", "memory:"), ("sqlite:", f"sqlite:{directory / 'state.sqlite'}")]


def _served(answer: Any) -> None:
    structured = answer.structured
    if answer.is_error or structured.get("status", 500) >= 400:
        raise RuntimeError(f"the benchmark call was not served: {structured}")


def _served_over_mcp(result: Any) -> None:
    if result.is_error or (result.structured_content or {}).get("status", 500) >= 400:
        raise RuntimeError(f"the benchmark call was not served: {result.structured_content}")


# --- in-process -----------------------------------------------------------------------------

def in_process(bundle: Any, directory: Path) -> list[Row]:
    from capenv.serving.runtime import EnvironmentRuntime, settle_for_serving

    rows = []
    for label, url in stores(directory):
        runtime = EnvironmentRuntime(bundle, store=url)
        settle_for_serving()  # as `capenv serve` does once its runtime is built
        try:
            for operation, tool, arguments, write in OPERATIONS:
                call = lambda: runtime.call_tool(tool, arguments() if callable(arguments) else arguments)  # noqa: E731
                for _ in range(WARMUP_CALLS):
                    _served(call())
                runs = []
                for _ in range(ROUNDS):
                    runtime.data_reset()
                    runs.append(time_calls(call, IN_PROCESS_CALLS[write], _served))
                runtime.data_reset()
                rows.append(Row("in-process", label, operation, _together(runs), write, runs))
        finally:
            runtime.close()
        print(f"serving: in-process {label} done", file=sys.stderr)
    return rows


def _together(runs: list[Timing]) -> Timing:
    return Timing([s for t in runs for s in t.samples_ns], sum(t.wall_seconds for t in runs),
                  sum(t.cpu_seconds or 0 for t in runs) or None, [s for t in runs for s in t.cpu_samples_ns or []])


def profile_writes(bundle: Any, url: str | None) -> profiling.Profile:
    from capenv.serving.runtime import EnvironmentRuntime, settle_for_serving

    runtime = EnvironmentRuntime(bundle, store=url)
    settle_for_serving()
    try:
        return profiling.profile_call(
            lambda: [runtime.call_tool("post_posts", new_post()) for _ in range(PROFILED_WRITES)], top=12)
    finally:
        runtime.close()


# --- over MCP -------------------------------------------------------------------------------

def over_mcp(bundle_dir: Path, directory: Path) -> list[Row]:
    from mcp import Client

    rows = []
    for label, url in stores(directory / "mcp"):
        server = start_capenv(bundle_dir, directory, url)
        try:
            async def measure() -> None:
                async with Client(server.url + "/mcp") as client:
                    for operation, tool, arguments, write in OPERATIONS:
                        call = lambda: client.call_tool(tool, arguments() if callable(arguments) else arguments)  # noqa: E731
                        for _ in range(WARMUP_CALLS):
                            _served_over_mcp(await call())
                        runs = []
                        for _ in range(ROUNDS):
                            post(server, "/_capenv/data/reset")
                            runs.append(await time_calls_async(call, MCP_CALLS[write], _served_over_mcp))
                        rows.append(Row(MCP, label, operation, _together(runs), write, runs))
                        post(server, "/_capenv/data/reset")

            anyio.run(measure)
        finally:
            server.stop()
        print(f"serving: MCP {label} done", file=sys.stderr)
    return rows


# --- the section ----------------------------------------------------------------------------

def run() -> Section:
    from capenv.interpreter.bundle.io import write_bundle
    from capenv.interpreter.pipeline import build_bundle

    section = Section("serving", "(b) Served tool calls: in-process and over MCP streamable HTTP",
                      "python -m benchmarks serving")
    bundle = build_bundle(CAPTURE)
    with tempfile.TemporaryDirectory(prefix="capenv-bench-") as tmp:
        directory = Path(tmp)
        bundle_dir = directory / "bundle"
        write_bundle(bundle_dir, bundle)
        rows = in_process(bundle, directory / "in-process")
        rows += over_mcp(bundle_dir, directory)
        missed = [r for r in rows if r.surface == "in-process" and r.write and not all(_met(r))]
        profiles = {}
        for row in missed:
            url = dict(stores(directory / "profile" / row.store.rstrip(":")))[row.store]
            profiles[row.store] = profile_writes(bundle, url)
    section.lines = render(rows, profiles)
    section.goals = goals(rows, profiles)
    return section


def _cpu_rates(row: Row) -> list[float]:
    return [t.cpu_calls_per_second or 0.0 for t in row.runs or [row.timing]]


def _cpu_p99_ms(row: Row) -> list[float]:
    return [percentile(t.cpu_samples_ns or [], 0.99) / 1e6 for t in row.runs or [row.timing]]


def _met(row: Row) -> tuple[bool, bool]:
    """(rate, p99): judged on the calling thread's CPU time, which the machine's load does not add to."""
    return median(_cpu_rates(row)) >= WRITE_TARGETS[row.store], median(_cpu_p99_ms(row)) <= P99_TARGET_MS


def goals(rows: list[Row], profiles: dict[str, profiling.Profile]) -> list[Goal]:
    found = []
    for row in rows:
        if row.surface != "in-process" or not row.write:
            continue
        rate_met, p99_met = _met(row)
        bound = f"{hot_spots(profiles[row.store])}" if row.store in profiles else ""
        walls = [t.calls_per_second for t in row.runs or [row.timing]]
        found.append(Goal("creates", f"`{row.store}` calls per CPU s", _cpu_rates(row), "{:,.0f}/s",
                          f"≥ {WRITE_TARGETS[row.store]:,}/s", rate_met,
                          measured=f"p50 {microseconds(row.timing.latency_ns(0.5))} µs wall, "
                                   f"{thousands(median(walls))}/s wall", bound="" if rate_met else bound))
        found.append(Goal("creates", f"`{row.store}` p99 (CPU time of a call)", _cpu_p99_ms(row), "{:.2f} ms",
                          f"≤ {P99_TARGET_MS:g} ms", p99_met,
                          measured=f"wall p99 {row.timing.latency_ns(0.99) / 1e6:.2f} ms (loaded machine)",
                          bound="" if p99_met else bound))
    return found


def _runtime_shares(rows: list[Row]) -> list[str]:
    local = {(r.store, r.operation): r.timing.latency_ns(0.5) for r in rows if r.surface == "in-process"}
    remote = {(r.store, r.operation): r.timing.latency_ns(0.5) for r in rows if r.surface == MCP}
    operations = [operation for operation, *_ in OPERATIONS]
    stores_seen = list(dict.fromkeys(store for store, _ in remote))
    cells = [[f"`{store}`", *[f"{local[(store, op)] / remote[(store, op)]:.0%}" if (store, op) in remote else "-"
                              for op in operations]] for store in stores_seen]
    return table(["store", *operations], cells)


def render(rows: list[Row], profiles: dict[str, profiling.Profile]) -> list[str]:
    cells = []
    for row in rows:
        first, last = row.timing.edge_rates()
        cpu_rate = row.timing.cpu_calls_per_second
        rates = spread([t.calls_per_second for t in row.runs or [row.timing]])
        cells.append([row.surface, f"`{row.store}`", row.operation, thousands(row.timing.calls),
                      " / ".join(thousands(r) for r in rates), thousands(cpu_rate) if cpu_rate else "-",
                      microseconds(row.timing.latency_ns(0.5)),
                      microseconds(row.timing.latency_ns(0.99)), f"{thousands(first)} → {thousands(last)}"])
    lines = [f"`captures/json-server/capture.har`'s environment; store `default` is what `capenv serve` uses "
             f"without `--store`. Operations: item read `get_posts_by_post_id` "
             f"(post 1), list read `get_posts` (the whole list), create `post_posts`. One client, calls one after "
             f"another; {ROUNDS} runs of each, every run from the seed state, after {WARMUP_CALLS} warm-up calls, so the creates grow "
             f"`/posts` from 3 entities by one per call. In-process, the runtime is settled as `capenv serve` settles "
             f"it (`settle_for_serving`: the loaded bundle leaves the cyclic collector's reach). Over MCP the server is `capenv serve BUNDLE --http` in its "
             f"own process (`run_http`), the client `mcp.Client` (streamable HTTP, one session). *first → last* is "
             f"calls/s over the first and the last {EDGE_CALLS} calls of the run: a fall means each call costs more "
             f"as the state grows. *calls per CPU s* divides the calls by the calling thread's CPU time (in "
             f"process): what the calls cost, which other work on a loaded machine does not add to as it adds to "
             f"the wall time *calls/s* is measured over.", ""]
    header = ["surface", "store", "operation", "calls", "calls/s (runs: min / median / max)", "calls per CPU s",
              "p50 µs", "p99 µs",
              "first → last calls/s"]  # in-process: every run together (the targets below give them run by run)
    lines += table(header, cells, labels=3)
    lines += ["", "Over MCP, the runtime's own work is this share of a call (in-process p50 / MCP p50, same store "
                  "and operation); the rest is the MCP client, the protocol and the transport:", ""]
    lines += _runtime_shares(rows)
    lines += ["", f"Targets (reported, not asserted): in-process served writes ≥ 20,000/s in memory, ≥ 5,000/s with "
                  f"SQLite, p99 ≤ 2 ms; {ROUNDS} runs from the seed state, judged on the calling thread's CPU time "
                  "(calls per CPU second, and the p99 of each call's CPU time), which a loaded machine does not "
                  "add to as it adds to the wall time; min / median / max over the runs.", ""]
    for row in rows:
        if row.surface == "in-process" and row.write:
            rate_met, p99_met = _met(row)
            rates, p99s = spread(_cpu_rates(row)), spread(_cpu_p99_ms(row))
            lines.append(f"- `{row.store}` creates: {' / '.join(thousands(r) for r in rates)} per CPU second "
                         f"against ≥ {WRITE_TARGETS[row.store]:,}/s: {verdict(rate_met)}; p99 of a call's CPU time "
                         f"{' / '.join(f'{p:.2f}' for p in p99s)} ms against ≤ {P99_TARGET_MS:g} ms: "
                         f"{verdict(p99_met)} (wall: {thousands(row.timing.calls_per_second)}/s, p99 "
                         f"{row.timing.latency_ns(0.99) / 1e6:.2f} ms).")
    for store, profile in profiles.items():
        lines += ["", *profiling.markdown(profile, f"Hot spots of {PROFILED_WRITES} in-process creates from the seed "
                                                   f"state, `{store}`")]
    return lines


if __name__ == "__main__":
    sys.exit(runner.main(["serving", *sys.argv[1:]], {"serving": run}))
