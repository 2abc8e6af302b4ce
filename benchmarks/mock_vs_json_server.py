"""(c) The HTTP mock surface against json-server itself and against the transport floor, on the
same CRUD call sequence.

Both run as servers on loopback, started fresh from the same seed, in one run: ``capenv serve
captures/json-server/capture.har --http`` (the model, its state in the process) and json-server
0.17.4 from ``captures/json-server/start.sh`` (the application, installed by
``bash .ci/live-apps.sh install``). One keep-alive client sends the sequence create, item read,
update, list read, delete, read of the deleted, alternating between the servers round by
round so drift hits both alike. The transport floor is a bare ASGI app answering one fixed
JSON body to every request, on the same uvicorn settings (``benchmarks/floor_servers.py`` through
``run_http``): what any app on this transport costs at least. The runtime alone
(``EnvironmentRuntime.http`` in this
process, no transport) gives the ceiling the transport takes its share from; where the target is
missed, the section profiles both the runtime and the server's event-loop thread.

    python -m benchmarks http
"""

from __future__ import annotations

import pstats
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks import profiling, runner
from benchmarks.goals import Goal, hot_spots, spread
from benchmarks.http_sequence import (
    SEQUENCE, HttpClient, InProcessClient, Measured, measure_round, run_sequence, run_sequences,
)
from benchmarks.scale import pick
from benchmarks.section import Section
from benchmarks.servers import (
    JSON_SERVER_VERSION, REPO, Server, json_server_or_skipped, start_capenv, start_floor, start_json_server,
)
from benchmarks.stats import median, microseconds, percentile, table, thousands, verdict

CAPTURE = REPO / "captures" / "json-server" / "capture.har"
WARMUP_SEQUENCES = pick(20, 2)
ROUNDS = pick(3, 1)
SEQUENCES_PER_ROUND = pick(100, 5)
SLICES = pick(10, 1)
"""A round's sequences are sent to the servers in turn, this many slices each (10 sequences a slice)."""
PROFILED_SEQUENCES = pick(100, 5)
TARGET_RATIO = 4.0
"""The HTTP surface's calls/s at least 4× json-server's, on both stores (issue 15)."""
FLOOR_TARGET = 0.7
"""The HTTP surface's calls/s at least 0.7× the transport floor's (issue 15)."""
JSON_SERVER = f"json-server {JSON_SERVER_VERSION}"
FLOOR = "transport floor (bare ASGI app, fixed JSON body)"


# --- the section ----------------------------------------------------------------------------

CAPENV = "capenv serve (no --store)"
CAPENV_SQLITE = "capenv serve (`sqlite:` store)"


def run() -> Section:
    section = Section("http", "(c) The HTTP mock surface against json-server 0.17.4", "python -m benchmarks http")
    binary = json_server_or_skipped(section, "(c)", "python -m benchmarks http")
    if binary is None:
        return section
    with tempfile.TemporaryDirectory(prefix="capenv-bench-") as tmp:
        directory = Path(tmp)
        servers = {CAPENV: start_capenv(CAPTURE, directory),
                   CAPENV_SQLITE: start_capenv(CAPTURE, directory, f"sqlite:{directory / 'state.sqlite'}"),
                   JSON_SERVER: start_json_server(binary, directory),
                   FLOOR: start_floor("floor", directory)}
        try:
            results = compare(servers)
        finally:
            for server in servers.values():
                server.stop()
        ceiling = in_process_ceiling()
        by_name = {m.name: m for m in results}
        ratios = {name: _ratios(by_name[name], by_name[JSON_SERVER]) for name in (CAPENV, CAPENV_SQLITE)}
        floor_ratios = {name: _ratios(by_name[name], by_name[FLOOR]) for name in (CAPENV, CAPENV_SQLITE)}
        profiles = {}
        if min(median(r) for r in ratios.values()) < TARGET_RATIO or median(floor_ratios[CAPENV]) < FLOOR_TARGET:
            profiles[RUNTIME_PROFILE] = profile_in_process()
            profiles[LOOP_PROFILE] = profile_server_transport(directory)
    section.lines = render(results, ceiling, ratios, floor_ratios, profiles)
    section.goals = goals(by_name, ceiling, ratios, floor_ratios, profiles)
    return section


RUNTIME_PROFILE = "the runtime alone (`EnvironmentRuntime.http`, this process)"
LOOP_PROFILE = ("the server while it serves (`capenv serve --http`: the event loop's thread, uvicorn and the ASGI "
                "app, and the runtime's calls on its worker thread)")
STORES = ((CAPENV, "default store (memory)"), (CAPENV_SQLITE, "`sqlite:` store"))


def _ratios(ours: Measured, theirs: Measured) -> list[float]:
    """Our calls/s over theirs, round by round (the rounds alternate, so each pair saw the same load)."""
    return [a / b for a, b in zip(ours.rounds, theirs.rounds)]


def goals(by_name: dict[str, Measured], ceiling: Measured, ratios: dict[str, list[float]],
          floor_ratios: dict[str, list[float]], profiles: dict[str, profiling.Profile]) -> list[Goal]:
    found = []
    bound = ""
    if profiles:
        bound = f"the server: {hot_spots(profiles[LOOP_PROFILE])}"
    theirs = median(by_name[JSON_SERVER].rounds)
    for name, store in STORES:
        ours, met = median(by_name[name].rounds), median(ratios[name]) >= TARGET_RATIO
        found.append(Goal("http-json-server", store, ratios[name], "{:.2f}×", f"≥ {TARGET_RATIO:g}×", met,
                          measured=f"capenv {thousands(ours)} calls/s, json-server {thousands(theirs)} calls/s",
                          bound="" if met else bound))
    floor = median(by_name[FLOOR].rounds)
    for name, store in STORES:
        ours, met = median(by_name[name].rounds), median(floor_ratios[name]) >= FLOOR_TARGET
        why = (f"a call takes {1e6 / ours:,.0f} µs against the floor's {1e6 / floor:,.0f} µs (server CPU "
               f"{median(by_name[name].cpu_per_call) * 1e6:,.0f} against {median(by_name[FLOOR].cpu_per_call) * 1e6:,.0f} "
               f"µs; the client's {median(by_name[name].client_cpu_per_call) * 1e6:,.0f} against "
               f"{median(by_name[FLOOR].client_cpu_per_call) * 1e6:,.0f} µs, reading the answers' headers and bodies), the runtime "
               f"alone {median(ceiling.cpu_per_call) * 1e6:,.0f} µs CPU" + (f"; {bound}" if bound else ""))
        found.append(Goal("http-floor", store, floor_ratios[name], "{:.2f}×", f"≥ {FLOOR_TARGET:g}×", met,
                          measured=f"capenv {thousands(ours)} calls/s, floor {thousands(floor)} calls/s",
                          bound="" if met else why))
    return found


def compare(servers: dict[str, Server]) -> list[Measured]:
    results = [Measured(name) for name in servers]
    for server in servers.values():  # warm-up, and a check that each answers the sequence as json-server does
        client = HttpClient(server)
        for _ in range(WARMUP_SEQUENCES):
            statuses = run_sequence(client)
        client.close()
        expected = [status for *_, status in SEQUENCE]
        if statuses != expected and server.name != "floor-server":  # the floor answers 200 to everything
            raise RuntimeError(f"{server.name} answered {statuses}, json-server's sequence is {expected}")
    pairs = list(zip(results, servers.values()))
    calls = SEQUENCES_PER_ROUND * len(SEQUENCE)
    for round_number in range(ROUNDS):
        clients = [HttpClient(server) for server in servers.values()]
        cpu = [server.cpu_seconds() for server in servers.values()]
        wall, own = [0.0] * len(pairs), [0.0] * len(pairs)
        for turn in range(SLICES):  # the servers in turn, a slice each, so a burst of load falls on all alike
            for i in [*range(turn % len(pairs), len(pairs)), *range(turn % len(pairs))]:
                before = time.process_time()
                wall[i] += run_sequences(pairs[i][0], clients[i], SEQUENCES_PER_ROUND // SLICES)
                own[i] += time.process_time() - before
        for i, (measured, server) in enumerate(pairs):
            measured.rounds.append(calls / wall[i])
            measured.cpu_per_call.append((server.cpu_seconds() - cpu[i]) / calls)
            measured.client_cpu_per_call.append(own[i] / calls)
            clients[i].close()
        print(f"http: round {round_number + 1}/{ROUNDS} done", file=sys.stderr)
    return results


def _runtime() -> Any:
    from capenv.interpreter.pipeline import build_bundle
    from capenv.serving.runtime import EnvironmentRuntime

    return EnvironmentRuntime(build_bundle(CAPTURE))


def in_process_ceiling() -> Measured:
    runtime = _runtime()
    client = InProcessClient(runtime)
    for _ in range(WARMUP_SEQUENCES):
        run_sequence(client)
    measured = Measured("capenv runtime alone, no transport (`EnvironmentRuntime.http`)")
    for _ in range(ROUNDS):
        cpu = time.thread_time()
        measure_round(measured, client, SEQUENCES_PER_ROUND)
        measured.cpu_per_call.append((time.thread_time() - cpu) / (SEQUENCES_PER_ROUND * len(SEQUENCE)))
    runtime.close()
    return measured


def profile_in_process() -> profiling.Profile:
    runtime = _runtime()
    client = InProcessClient(runtime)
    profile = profiling.profile_call(lambda: [run_sequence(client) for _ in range(PROFILED_SEQUENCES)], top=12)
    runtime.close()
    return profile


def profile_server_transport(directory: Path) -> profiling.Profile:
    """The server's serving profiled (``benchmarks/profiled_serve.py``): its event loop (uvicorn,
    the ASGI app) and each runtime call on its worker thread. Written when the server stops."""
    output = directory / "server.prof"
    server = start_capenv(CAPTURE, directory, profile_to=output)
    try:
        client = HttpClient(server)
        for _ in range(PROFILED_SEQUENCES):
            run_sequence(client)
        client.close()
    finally:
        server.stop()
    return profiling.summarise(pstats.Stats(str(output)), top=12)


def render(results: list[Measured], ceiling: Measured, ratios: dict[str, list[float]],
           floor_ratios: dict[str, list[float]], profiles: dict[str, profiling.Profile]) -> list[str]:
    rows = []
    for measured in [*results, ceiling]:
        low, mid, high = spread(measured.rounds)
        rows.append([measured.name, thousands(len(measured.samples_ns)),
                     f"{thousands(low)} / {thousands(mid)} / {thousands(high)}",
                     f"{median(measured.cpu_per_call) * 1e6:,.0f}" if measured.cpu_per_call else "-",
                     f"{median(measured.client_cpu_per_call) * 1e6:,.0f}" if measured.client_cpu_per_call else "-",
                     thousands(measured.calls_per_second / len(SEQUENCE)),
                     microseconds(percentile(measured.samples_ns, 0.5)),
                     microseconds(percentile(measured.samples_ns, 0.99)),
                     " ".join(str(s) for s in measured.statuses)])
    calls = ", ".join(f"{method} {path}" for method, path, *_ in SEQUENCE)
    lines = [f"Sequence ({len(SEQUENCE)} calls): {calls}, the last reading the comment just deleted. "
             f"{WARMUP_SEQUENCES} warm-up sequences per server, then {ROUNDS} rounds of {SEQUENCES_PER_ROUND} "
             f"sequences, sent to the servers in turn {SEQUENCES_PER_ROUND // SLICES} sequences at a time (the first server of each turn "
             "changing), one keep-alive connection (Python's http.client) per server and round; calls/s min / median / max over the rounds; *server CPU* is the server's processes' CPU time "
             "per call (user + system, `/proc/PID/stat`, median of the rounds), *client CPU* this process's "
             "(the client's: each answer's headers and body read). The statuses are those of the first measured "
             "sequence: the same on every server but the floor, which answers every call with one fixed JSON "
             "body.", ""]
    lines += table(["server", "calls", "calls/s (min / median / max)", "server CPU µs per call",
                    "client CPU µs per call", "sequences/s",
                    "p50 µs", "p99 µs", "statuses"], rows, labels=1)
    lines += ["", "p50 µs by call of the sequence:", ""]
    lines += table(["server", *[f"{method} {path}" for method, path, *_ in SEQUENCE]],
                   [[m.name, *[microseconds(percentile(m.samples_ns[step::len(SEQUENCE)], 0.5))
                               for step in range(len(SEQUENCE))]] for m in [*results, ceiling]])
    by_name = {m.name: m for m in results}
    server_cpu, floor_cpu, runtime_cpu = (median(by_name[CAPENV].cpu_per_call) * 1e6,
                                          median(by_name[FLOOR].cpu_per_call) * 1e6, median(ceiling.cpu_per_call) * 1e6)
    lines += ["", f"Targets (reported, not asserted; ratios of calls/s round by round, min / median / max): the HTTP "
                  f"surface ≥ {TARGET_RATIO:g}× json-server's and ≥ {FLOOR_TARGET:g}× the transport floor's.", ""]
    for name in ratios:
        for against, found, target in (("json-server", ratios[name], TARGET_RATIO),
                                       ("the floor", floor_ratios[name], FLOOR_TARGET)):
            low, mid, high = spread(found)
            lines.append(f"- {name} against {against}: {low:.2f} / {mid:.2f} / {high:.2f}× "
                         f"({verdict(mid >= target)}).")
    lines += ["", f"CPU per call (medians): capenv's server {server_cpu:,.0f} µs (no --store), of which the runtime "
                  f"alone takes {runtime_cpu:,.0f} µs (`EnvironmentRuntime.http` in this process); the floor's server "
                  f"{floor_cpu:,.0f} µs. What capenv's server adds around the runtime beyond the floor: "
                  f"{server_cpu - runtime_cpu - floor_cpu:,.0f} µs."]
    for title, profile in profiles.items():
        lines += ["", *profiling.markdown(profile, f"Hot spots of {PROFILED_SEQUENCES} sequences in {title}")]
    return lines


if __name__ == "__main__":
    sys.exit(runner.main(["http", *sys.argv[1:]], {"http": run}))
