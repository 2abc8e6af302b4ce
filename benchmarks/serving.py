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

import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio

from benchmarks import profiling, runner
from benchmarks.scale import pick
from benchmarks.section import Section
from benchmarks.servers import post, start_capenv
from benchmarks.stats import microseconds, table, thousands, verdict
from benchmarks.timing import EDGE_CALLS, Timing, time_calls, time_calls_async

REPO = Path(__file__).resolve().parents[1]
CAPTURE = REPO / "captures" / "json-server" / "capture.har"
NEW_POST = {"title": "benchmark", "author": "bench", "views": 1, "published": True, "tags": ["b"]}
OPERATIONS = (  # (label, tool, arguments, is a write)
    ("item read", "get_posts_by_post_id", {"post_id": "1"}, False),
    ("list read", "get_posts", {}, False),
    ("create", "post_posts", {"body": NEW_POST}, True),
)
IN_PROCESS_CALLS = pick({False: 5000, True: 1000}, {False: 50, True: 20})
MCP_CALLS = pick({False: 300, True: 300}, {False: 10, True: 10})
MCP = "MCP streamable HTTP"
WARMUP_CALLS = pick(20, 2)
PROFILED_WRITES = pick(300, 20)
WRITE_TARGETS = {"default": 20_000, "memory:": 20_000, "sqlite:": 5_000}
"""In-process served writes per second: ≥ 20,000 in memory, ≥ 5,000 with SQLite."""


@dataclass
class Row:
    surface: str
    store: str
    operation: str
    timing: Timing
    write: bool


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
                call = lambda: runtime.call_tool(tool, arguments)  # noqa: E731
                for _ in range(WARMUP_CALLS):
                    _served(call())
                runtime.data_reset()
                timing = time_calls(call, IN_PROCESS_CALLS[write], _served)
                rows.append(Row("in-process", label, operation, timing, write))
                runtime.data_reset()
        finally:
            runtime.close()
        print(f"serving: in-process {label} done", file=sys.stderr)
    return rows


def profile_writes(bundle: Any, url: str | None) -> profiling.Profile:
    from capenv.serving.runtime import EnvironmentRuntime, settle_for_serving

    runtime = EnvironmentRuntime(bundle, store=url)
    settle_for_serving()
    try:
        return profiling.profile_call(
            lambda: [runtime.call_tool("post_posts", {"body": NEW_POST}) for _ in range(PROFILED_WRITES)], top=12)
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
                        call = lambda: client.call_tool(tool, arguments)  # noqa: E731
                        for _ in range(WARMUP_CALLS):
                            _served_over_mcp(await call())
                        post(server, "/_capenv/data/reset")
                        timing = await time_calls_async(call, MCP_CALLS[write], _served_over_mcp)
                        rows.append(Row(MCP, label, operation, timing, write))
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
        missed = [r for r in rows if r.surface == "in-process" and r.write
                  and max(r.timing.calls_per_second, r.timing.cpu_calls_per_second or 0) < WRITE_TARGETS[r.store]]
        profiles = {}
        for row in missed:
            url = dict(stores(directory / "profile" / row.store.rstrip(":")))[row.store]
            profiles[row.store] = profile_writes(bundle, url)
    section.lines = render(rows, profiles)
    return section


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
        cells.append([row.surface, f"`{row.store}`", row.operation, thousands(row.timing.calls),
                      thousands(row.timing.calls_per_second), thousands(cpu_rate) if cpu_rate else "-",
                      microseconds(row.timing.latency_ns(0.5)),
                      microseconds(row.timing.latency_ns(0.99)), f"{thousands(first)} → {thousands(last)}"])
    lines = [f"`captures/json-server/capture.har`'s environment; store `default` is what `capenv serve` uses "
             f"without `--store`. Operations: item read `get_posts_by_post_id` "
             f"(post 1), list read `get_posts` (the whole list), create `post_posts`. One client, calls one after "
             f"another; each run starts from the seed state after {WARMUP_CALLS} warm-up calls, so the creates grow "
             f"`/posts` from 3 entities by one per call. In-process, the runtime is settled as `capenv serve` settles "
             f"it (`settle_for_serving`: the loaded bundle leaves the cyclic collector's reach). Over MCP the server is `capenv serve BUNDLE --http` in its "
             f"own process (`run_http`), the client `mcp.Client` (streamable HTTP, one session). *first → last* is "
             f"calls/s over the first and the last {EDGE_CALLS} calls of the run: a fall means each call costs more "
             f"as the state grows. *calls per CPU s* divides the calls by the calling thread's CPU time (in "
             f"process): what the calls cost, which other work on a loaded machine does not add to as it adds to "
             f"the wall time *calls/s* is measured over.", ""]
    header = ["surface", "store", "operation", "calls", "calls/s", "calls per CPU s", "p50 µs", "p99 µs",
              "first → last calls/s"]
    lines += table(header, cells, labels=3)
    lines += ["", "Over MCP, the runtime's own work is this share of a call (in-process p50 / MCP p50, same store "
                  "and operation); the rest is the MCP client, the protocol and the transport:", ""]
    lines += _runtime_shares(rows)
    lines += ["", "Targets (reported, not asserted): in-process served writes ≥ 20,000/s in memory, ≥ 5,000/s with "
                  "SQLite, p99 ≤ 2 ms; judged on the better of the wall and the CPU rate (a loaded machine only "
                  "slows the wall one).", ""]
    for row in rows:
        if row.surface == "in-process" and row.write:
            target = WRITE_TARGETS[row.store]
            best = max(row.timing.calls_per_second, row.timing.cpu_calls_per_second or 0)
            p99_ms = row.timing.latency_ns(0.99) / 1e6
            lines.append(f"- `{row.store}` creates: {thousands(row.timing.calls_per_second)}/s wall, "
                         f"{thousands(row.timing.cpu_calls_per_second or 0)} per CPU second, against ≥ "
                         f"{target:,}/s: {verdict(best >= target)}; p99 {p99_ms:.2f} ms against ≤ 2 ms: "
                         f"{verdict(p99_ms <= 2)}.")
    for store, profile in profiles.items():
        lines += ["", *profiling.markdown(profile, f"Hot spots of {PROFILED_WRITES} in-process creates from the seed "
                                                   f"state, `{store}`")]
    return lines


if __name__ == "__main__":
    sys.exit(runner.main(["serving", *sys.argv[1:]], {"serving": run}))
