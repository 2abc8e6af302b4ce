"""(g) MCP tool calls against the MCP SDK's own low-level echo server, same client, same run.

Two servers on loopback, each in its own process: ``capenv serve BUNDLE --http`` (the
json-server capture's environment, its default store) and the SDK's low-level ``Server`` with
one ``echo`` tool behind the SDK's streamable HTTP session manager (its defaults), run on
capenv's own uvicorn settings (``benchmarks/floor_servers.py``). The same client, the SDK's
``mcp.Client`` (streamable HTTP, one session per client), calls capenv's item read
``get_posts_by_post_id`` and the echo tool with the same arguments: with 1 client, calls one
after another, and with 8 clients at once (8 sessions in one event loop, each calling one call
after another). In a round the servers are called in turn, a slice of its calls at a time, so
each ratio compares calls under the same load; each server's own CPU per call (``/proc/PID/stat``, every thread) is shown beside.
Where a call's CPU goes, client and server together, is profiled in one process without a socket
(``mcp_split``: the client's check of the answer against the tool's output schema, the SDK's
server, capenv's HTTP glue, its tool call and the runtime). Where the goal is missed, capenv's
server is also profiled while it serves (``profiled_serve``).

    python -m benchmarks mcp
"""

from __future__ import annotations

import contextlib
import pstats
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

from benchmarks import mcp_split, profiling, runner
from benchmarks.floor_servers import ECHO_TOOL, MCP_PATH
from benchmarks.goals import Goal, hot_spots, spread
from benchmarks.scale import pick
from benchmarks.section import Section
from benchmarks.servers import REPO, Server, start_capenv, start_floor
from benchmarks.stats import median, microseconds, percentile, table, thousands, verdict

CAPTURE = REPO / "captures" / "json-server" / "capture.har"
TOOL, ARGUMENTS = "get_posts_by_post_id", {"post_id": "1"}
CLIENTS = (1, 8)
CALLS_PER_CLIENT = pick({1: 300, 8: 60}, {1: 10, 8: 3})
SLICES = pick(10, 1)
"""A round's calls go to the servers in turn, this many slices each."""
WARMUP_CALLS = pick(20, 2)
ROUNDS = pick(3, 1)
PROFILED_CALLS = pick(300, 10)
SPLIT_CALLS = pick(300, 10)
"""Calls profiled in one process, client and server together (``mcp_split``)."""
TARGET_RATIO = 0.9
CAPENV = "capenv serve (no --store)"
ECHO = "MCP SDK low-level echo server"


@dataclass
class Measured:
    rates: list[float] = field(default_factory=list)
    """Calls/s in each round (all clients' calls over the round's wall time)."""
    cpu_per_call: list[float] = field(default_factory=list)
    """The server's CPU seconds per call in each round."""
    client_cpu_per_call: list[float] = field(default_factory=list)
    """The client's (this process's) CPU seconds per call in each round: with 8 sessions in one event
    loop, the client saturates its core before the server does when it spends more per call."""
    samples_ns: list[int] = field(default_factory=list)


def _checked(result: Any) -> None:
    if result.is_error or (result.structured_content or {}).get("status", 200) >= 400:
        raise RuntimeError(f"the benchmark call was not served: {result.structured_content}")


async def _calls(sessions: list[Any], tool: str, calls: int, samples: list[int]) -> None:
    """``calls`` calls from each session at once, each session's one after another."""
    async def one_client(client: Any) -> None:
        for _ in range(calls):
            before = time.perf_counter_ns()
            result = await client.call_tool(tool, ARGUMENTS)
            samples.append(time.perf_counter_ns() - before)
            _checked(result)

    async with anyio.create_task_group() as group:
        for client in sessions:
            group.start_soon(one_client, client)


async def _sessions(stack: contextlib.AsyncExitStack, server: Server, clients: int) -> list[Any]:
    from mcp import Client

    return [await stack.enter_async_context(Client(server.url + MCP_PATH)) for _ in range(clients)]


async def _round(servers: dict[str, tuple[Server, str]], clients: int, found: dict[str, Measured] | None) -> None:
    """One round: every server's sessions opened, then the servers called in turn, a slice of the
    round's calls at a time (the first server of each turn changing), so a burst of load on the
    machine falls on all alike; without ``found``, a warm-up."""
    calls = CALLS_PER_CLIENT[clients] if found is not None else WARMUP_CALLS
    slices = SLICES if found is not None else 1
    names = list(servers)
    async with contextlib.AsyncExitStack() as stack:
        sessions = {name: await _sessions(stack, server, clients) for name, (server, _) in servers.items()}
        took, spent, samples = dict.fromkeys(names, 0.0), dict.fromkeys(names, 0.0), {n: [] for n in names}
        client = dict.fromkeys(names, 0.0)
        for turn in range(slices):
            for name in names[turn % len(names):] + names[:turn % len(names)]:
                server, tool = servers[name]
                cpu, started, own = server.cpu_seconds(), time.perf_counter(), time.process_time()
                await _calls(sessions[name], tool, calls // slices, samples[name])
                took[name] += time.perf_counter() - started
                client[name] += time.process_time() - own
                spent[name] += server.cpu_seconds() - cpu
    if found is not None:
        for name, measured in found.items():
            measured.rates.append(clients * calls / took[name])
            measured.cpu_per_call.append(spent[name] / (clients * calls))
            measured.client_cpu_per_call.append(client[name] / (clients * calls))
            measured.samples_ns += samples[name]


def compare(servers: dict[str, tuple[Server, str]]) -> dict[int, dict[str, Measured]]:
    results = {clients: {name: Measured() for name in servers} for clients in CLIENTS}
    anyio.run(_round, servers, 1, None)
    for clients in CLIENTS:
        for round_number in range(ROUNDS):
            anyio.run(_round, servers, clients, results[clients])
            print(f"mcp: {clients} client(s), round {round_number + 1}/{ROUNDS} done", file=sys.stderr)
    return results


FIRST_CALL_SESSIONS = pick(5, 1)
"""Fresh sessions per server whose first call's client CPU is measured (``first_call_costs``)."""


def first_call_costs(servers: dict[str, tuple[Server, str]]) -> dict[str, float]:
    """The client's CPU seconds for a session's first call beyond a later call's (median over fresh
    sessions), per server: what a round's rate pays once per session and client."""
    async def costs() -> dict[str, float]:
        found: dict[str, list[float]] = {name: [] for name in servers}
        for _ in range(FIRST_CALL_SESSIONS):
            for name, (server, tool) in servers.items():
                async with contextlib.AsyncExitStack() as stack:
                    sessions = await _sessions(stack, server, 1)
                    own = time.process_time()
                    await _calls(sessions, tool, 1, [])
                    first = time.process_time() - own
                    own = time.process_time()
                    await _calls(sessions, tool, 5, [])
                    found[name].append(first - (time.process_time() - own) / 5)
        return {name: median(values) for name, values in found.items()}
    return anyio.run(costs)


def profile_capenv(bundle_dir: Path, directory: Path) -> profiling.Profile:
    output = directory / "mcp-server.prof"
    server = start_capenv(bundle_dir, directory, profile_to=output)
    async def calls() -> None:
        async with contextlib.AsyncExitStack() as stack:
            await _calls(await _sessions(stack, server, 1), TOOL, PROFILED_CALLS, [])
    try:
        anyio.run(calls)
    finally:
        server.stop()
    return profiling.summarise(pstats.Stats(str(output)), top=12)


def run() -> Section:
    from capenv.interpreter.bundle.io import write_bundle
    from capenv.interpreter.pipeline import build_bundle

    section = Section("mcp", "(g) MCP tool calls against the MCP SDK's own low-level echo server",
                      "python -m benchmarks mcp")
    with tempfile.TemporaryDirectory(prefix="capenv-bench-") as tmp:
        directory = Path(tmp)
        write_bundle(directory / "bundle", build_bundle(CAPTURE))
        servers = {CAPENV: (start_capenv(directory / "bundle", directory), TOOL),
                   ECHO: (start_floor("echo", directory), ECHO_TOOL)}
        try:
            results = compare(servers)
            first_calls = first_call_costs(servers)
        finally:
            for server, _ in servers.values():
                server.stop()
        ratios = {clients: [a / b for a, b in zip(found[CAPENV].rates, found[ECHO].rates)]
                  for clients, found in results.items()}
        profile = None
        if any(median(r) < TARGET_RATIO for r in ratios.values()):
            profile = profile_capenv(directory / "bundle", directory)
        splits = mcp_split.measure(directory / "bundle", TOOL, ARGUMENTS, SPLIT_CALLS)
        schema_check = mcp_split.schema_check_seconds(mcp_split.output_schema(directory / "bundle", TOOL))
    section.lines = render(results, ratios, profile, first_calls) + render_split(splits, schema_check)
    section.goals = goals(results, ratios, profile, first_calls, splits, schema_check)
    return section


def render_split(splits: dict[str, mcp_split.Split], schema_check: float) -> list[str]:
    """Where a call's CPU goes, client and server in one process (``mcp_split``)."""
    rows = [[part] + [f"{found.share(part):.1%}" for found in splits.values()]
            + [f"{splits['capenv'].parts[part] / (splits['capenv'].parts[mcp_split.CAPENV_CALL] or 1e-12):.2f}×"]
            for part, _ in mcp_split.PARTS]
    return ["", f"Where a call's CPU goes, client and server in one process (`benchmarks/mcp_split.py`: "
                f"`mcp.Client` over httpx2's ASGI transport, no socket nor uvicorn; cProfile on the CPU clock "
                f"over {SPLIT_CALLS} calls after {mcp_split.WARMUP_CALLS}; shares of each run's profiled time, "
                "each part the inclusive time of the function a call enters it by):", "",
            *table(["part", *(f"{name}: share" for name in splits), "capenv: against its tool call"], rows,
                   labels=1), "",
            "Running both ends in one process over the ASGI transport inflates the loop's part (the "
            "transport's own tasks and streams), so read capenv's parts against each other (last column) "
            "rather than against a socket's call.", "",
            f"Once per session, before its first answer is checked, `mcp.Client` checks the called tool's "
            f"output schema against the JSON Schema metaschema: {schema_check * 1e3:,.1f} ms of CPU for "
            f"`{TOOL}`'s (the echo tool publishes none)."]


def goals(results: dict[int, dict[str, Measured]], ratios: dict[int, list[float]],
          profile: profiling.Profile | None, first_calls: dict[str, float],
          splits: dict[str, mcp_split.Split] | None = None, schema_check: float = 0.0) -> list[Goal]:
    found = []
    for clients, measured in results.items():
        ours, theirs = measured[CAPENV], measured[ECHO]
        met = median(ratios[clients]) >= TARGET_RATIO
        bound = ""
        if not met:
            bound = (f"the client's CPU per call {median(ours.client_cpu_per_call) * 1e6:,.0f} µs against "
                     f"{median(theirs.client_cpu_per_call) * 1e6:,.0f} µs with the SDK's server"
                     + (f", of which a session's first call {first_calls[CAPENV] * 1e3:,.1f} ms against "
                        f"{first_calls[ECHO] * 1e3:,.1f} ms (`mcp.Client` lists the tools and compiles the called "
                        "tool's output schema, then checks every answer against it)" if first_calls else "")
                     + f"; server CPU per call {median(ours.cpu_per_call) * 1e6:,.0f} µs "
                     f"against the SDK's {median(theirs.cpu_per_call) * 1e6:,.0f} µs"
                     + (split_bound(splits["capenv"], schema_check) if splits else "")
                     + (f"; capenv's server: {hot_spots(profile)}" if profile is not None else ""))
        found.append(Goal("mcp", f"{clients} client{'s' if clients > 1 else ''}", ratios[clients], "{:.2f}×",
                          f"≥ {TARGET_RATIO:g}×", met,
                          measured=f"capenv {thousands(median(ours.rates))} calls/s, SDK echo "
                                   f"{thousands(median(theirs.rates))} calls/s", bound=bound))
    return found


def split_bound(found: mcp_split.Split, schema_check: float) -> str:
    """What the client spends on capenv's output schema against what capenv's server adds, from the
    one-process profile (parts against each other: the in-process transport inflates the rest)."""
    call = found.parts[mcp_split.CAPENV_CALL] or 1e-12
    return (f"; in one process, the client's check of each answer against the tool's output schema costs "
            f"{found.parts[mcp_split.CLIENT_CHECK] / call:.1f}× capenv's whole tool call (the runtime's read "
            f"included), capenv's HTTP glue {found.parts[mcp_split.CAPENV_GLUE] / call:.1f}× it, the SDK's "
            f"server around them {found.parts[mcp_split.SDK_SERVER] / call:.1f}×; checking the schema "
            f"itself {schema_check * 1e3:,.1f} ms per session")


def render(results: dict[int, dict[str, Measured]], ratios: dict[int, list[float]],
           profile: profiling.Profile | None, first_calls: dict[str, float]) -> list[str]:
    rows = []
    for clients, measured in results.items():
        for name, m in measured.items():
            low, mid, high = spread(m.rates)
            rows.append([name, str(clients), thousands(len(m.samples_ns)),
                         f"{thousands(low)} / {thousands(mid)} / {thousands(high)}",
                         f"{median(m.cpu_per_call) * 1e6:,.0f}", f"{median(m.client_cpu_per_call) * 1e6:,.0f}",
                         microseconds(percentile(m.samples_ns, 0.5)),
                         microseconds(percentile(m.samples_ns, 0.99))])
    lines = [f"capenv answers `{TOOL}` {ARGUMENTS} (an item read of the json-server capture's environment), the "
             f"SDK's server its `{ECHO_TOOL}` tool with the same arguments. {WARMUP_CALLS} warm-up calls each, then "
             f"{ROUNDS} rounds per client count, each sending its calls to the servers in turn in {SLICES} "
             f"slices (sessions opened first); with 1 client "
             f"{CALLS_PER_CLIENT[1]} calls a round, with 8 clients {CALLS_PER_CLIENT[8]} calls each (8 sessions of "
             "`mcp.Client` in one event loop). calls/s min / median / max over the rounds; *server CPU* is the "
             "server process's CPU time per call (median of the rounds), *client CPU* this process's (the client's "
             "one event loop: with 8 sessions the rate is bounded by whichever of the two takes more CPU per "
             "call), p50/p99 the client's latency.", ""]
    lines += table(["server", "clients", "calls", "calls/s (min / median / max)", "server CPU µs per call",
                    "client CPU µs per call", "p50 µs", "p99 µs"], rows, labels=1)
    if first_calls:
        lines += ["", "A session's first call costs the client more than the next ones (median over "
                      f"{FIRST_CALL_SESSIONS} fresh sessions, client CPU beyond a later call's): "
                  + ", ".join(f"{name} {cost * 1e3:,.1f} ms" for name, cost in first_calls.items())
                  + ". `mcp.Client` lists the tools to learn the called tool's output schema, and compiles it "
                    "(JSON Schema, Draft 2020-12) before checking the answer against it; each round's sessions pay it "
                    "once per client."]
    lines += ["", f"Target (reported, not asserted): capenv's calls/s ≥ {TARGET_RATIO:g}× the SDK echo server's, "
                  "round by round (min / median / max):", ""]
    for clients, found in ratios.items():
        low, mid, high = spread(found)
        lines.append(f"- {clients} client{'s' if clients > 1 else ''}: {low:.2f} / {mid:.2f} / {high:.2f}× "
                     f"({verdict(mid >= TARGET_RATIO)}).")
    if profile is not None:
        lines += ["", *profiling.markdown(profile, f"Hot spots of {PROFILED_CALLS} MCP calls in capenv's server while "
                                                   "it serves (the event loop's thread and the runtime's worker "
                                                   "thread, CPU time)")]
    return lines


if __name__ == "__main__":
    sys.exit(runner.main(["mcp", *sys.argv[1:]], {"mcp": run}))
