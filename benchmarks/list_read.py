"""(f) A list read of 10,000 entities: the server's CPU per call against json-server's.

Both servers hold the same 10,000 posts: json-server 0.17.4 started on a ``db.json`` holding
them, ``capenv serve captures/json-server/capture.har --http`` given them by ``data/add``. One
keep-alive client reads ``GET /posts`` from each in turn, round by round; the figure is the
server process's CPU time (user + system, ``/proc/PID/stat``, every thread) over the round's
reads, so the client's own work and the load of the machine are not counted. Both answers
are checked to list the same 10,000 posts. Then the same read in process (``runtime.http``
over the same state, no socket) under cProfile: its CPU split between encoding the answer,
listing the state's members, projecting them and the rest (``split_in_process``).

    python -m benchmarks lists
"""

from __future__ import annotations

import cProfile
import http.client
import json
import pstats
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks import runner
from benchmarks.profiling import inclusive_seconds, profiled_seconds
from benchmarks.goals import Goal
from benchmarks.scale import pick
from benchmarks.section import Section
from benchmarks.servers import (
    AUTHORIZATION, JSON_SERVER_VERSION, REPO, Server, free_port, json_server_or_skipped, start_capenv,
    start_process,
)
from benchmarks.stats import median, table, verdict

CAPTURE = REPO / "captures" / "json-server" / "capture.har"
ENTITIES = pick(10_000, 200)
WARMUP_READS = pick(5, 1)
READS_PER_ROUND = pick(100, 2)
"""The server's CPU is read in clock ticks (10 ms): a round of 20 reads of ~4 ms each was 8 ticks,
so one tick more or less moved its figure by an eighth (one run's rounds spread 5.0-7.5 ms)."""
ROUNDS = pick(5, 1)
TARGET_RATIO = 3.0
"""capenv's server CPU per list read at least 3× below json-server's (issue 15)."""
SPLIT_READS = pick(20, 2)
SPLIT_PARTS = (
    ("encoding the answer (`jsonvalue.dumps`, orjson)", ("interpreter/bundle/jsonvalue.py", "dumps")),
    ("listing the state's members (`HeldCollection.members`)", ("serving/state/index.py", "members")),
    ("projecting them (`render.render_entities`)", ("serving/reads/render.py", "render_entities")),
)
"""Parts of an in-process list read, each entered by one function (file suffix, name)."""
SPLIT_REST = "the rest (routing, the call's inputs, the answer's envelope and headers)"
CAPENV = "capenv serve (no --store)"
JSON_SERVER = f"json-server {JSON_SERVER_VERSION}"


def posts(count: int) -> list[dict[str, Any]]:
    return [{"id": i, "title": f"post {i}", "author": "bench", "views": i, "published": i % 2 == 0,
             "tags": ["rest", "bench"]} for i in range(1, count + 1)]


def start_json_server(binary: Path, workdir: Path, seed: dict[str, Any]) -> Server:
    run_dir = workdir / "json-server-lists"
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "db.json").write_text(json.dumps(seed))
    port = free_port()
    return start_process("json-server-lists", [str(binary), "--host", "127.0.0.1", "--port", str(port),
                                               str(run_dir / "db.json")], "/posts/1", port, run_dir, {})


def with_posts(state: bytes, entities: list[dict[str, Any]]) -> bytes:
    """The state document data/get wrote, with ``/posts`` holding ``entities``."""
    document = json.loads(state)
    for collection in document["collections"]:
        if collection["path"] == "/posts":
            collection["entities"] = [{"id": e["id"], "value": e} for e in entities]
    return json.dumps(document).encode()


def load_capenv(server: Server, entities: list[dict[str, Any]]) -> None:
    """data/add the state data/get shows, with ``/posts`` holding ``entities``."""
    connection = http.client.HTTPConnection(server.host, server.port, timeout=120)
    connection.request("GET", "/_capenv/data/get", headers=AUTHORIZATION)
    connection.request("POST", "/_capenv/data/add", body=with_posts(connection.getresponse().read(), entities),
                       headers={"content-type": "application/json", **AUTHORIZATION})
    response = connection.getresponse()
    if response.status >= 300:
        raise RuntimeError(f"data/add answered {response.status}: {response.read()[:500]!r}")
    response.read()
    connection.close()


def read_round(server: Server, reads: int) -> tuple[float, list[Any]]:
    """The server's CPU seconds per read over ``reads`` list reads, and the last answer."""
    connection = http.client.HTTPConnection(server.host, server.port, timeout=120)
    before = server.cpu_seconds()
    body = b""
    for _ in range(reads):
        connection.request("GET", "/posts")
        response = connection.getresponse()
        body = response.read()
        if response.status != 200:
            raise RuntimeError(f"{server.name} answered {response.status} to GET /posts")
    spent = server.cpu_seconds() - before
    connection.close()
    return spent / reads, json.loads(body)


def split_in_process(bundle_dir: Path, entities: list[dict[str, Any]]) -> dict[str, float]:
    """Shares of the CPU of ``SPLIT_READS`` in-process list reads (``runtime.http``: the runtime's
    own work, without uvicorn nor the socket) over a state holding ``entities`` as ``/posts``."""
    from capenv.interpreter.bundle.io import read_bundle
    from capenv.serving.runtime import EnvironmentRuntime, settle_for_serving
    from capenv.serving.runtime_api import HttpRequest

    runtime = EnvironmentRuntime(read_bundle(bundle_dir))
    settle_for_serving()
    runtime.data_add(with_posts(runtime.data_get(), entities))
    request = HttpRequest("GET", "/posts", (), (), b"")
    answer = runtime.http(request)
    if answer.status != 200 or json.loads(answer.body) != entities:
        raise RuntimeError(f"the in-process list read did not list the {len(entities):,} posts it was given")
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    for _ in range(SPLIT_READS):
        runtime.http(request)
    profiler.disable()
    runtime.close()
    stats = pstats.Stats(profiler)
    total = profiled_seconds(stats) or 1e-12
    shares = {name: inclusive_seconds(stats, entry) / total for name, entry in SPLIT_PARTS}
    shares[SPLIT_REST] = max(1.0 - sum(shares.values()), 0.0)
    return shares


def run() -> Section:
    section = Section("lists", f"(f) A list read of {ENTITIES:,} entities: server CPU against json-server",
                      "python -m benchmarks lists")
    binary = json_server_or_skipped(section, "(f)", "python -m benchmarks lists")
    if binary is None:
        return section
    entities = posts(ENTITIES)
    from capenv.interpreter.bundle.io import write_bundle
    from capenv.interpreter.pipeline import build_bundle

    with tempfile.TemporaryDirectory(prefix="capenv-bench-") as tmp:
        directory = Path(tmp)
        write_bundle(directory / "bundle", build_bundle(CAPTURE))
        seed = json.loads((REPO / "captures" / "json-server" / "seed.json").read_text())
        servers = {CAPENV: start_capenv(directory / "bundle", directory), JSON_SERVER: start_json_server(binary, directory,
                                                                                             {**seed, "posts": entities})}
        try:
            load_capenv(servers[CAPENV], entities)
            per_read: dict[str, list[float]] = {name: [] for name in servers}
            for name, server in servers.items():
                _, answer = read_round(server, WARMUP_READS)
                if answer != entities:
                    raise RuntimeError(f"{name} did not list the {ENTITIES:,} posts it was given")
            for round_number in range(ROUNDS):
                for name, server in servers.items():
                    per_read[name].append(read_round(server, READS_PER_ROUND)[0])
                print(f"lists: round {round_number + 1}/{ROUNDS} done", file=sys.stderr)
        finally:
            for server in servers.values():
                server.stop()
        split = split_in_process(directory / "bundle", entities)
    section.lines = render(per_read) + render_split(split)
    section.goals = goals(per_read)
    return section


def goals(per_read: dict[str, list[float]]) -> list[Goal]:
    """json-server's CPU per read over capenv's, round by round (a round with no CPU tick for capenv is left out)."""
    ratios = [theirs / ours for ours, theirs in zip(per_read[CAPENV], per_read[JSON_SERVER]) if ours]
    met = bool(ratios) and median(ratios) >= TARGET_RATIO
    return [Goal("lists", "", ratios, "{:.2f}×", f"≥ {TARGET_RATIO:g}×", met,
                 measured=f"capenv {median(per_read[CAPENV]) * 1e3:.1f} ms, json-server "
                          f"{median(per_read[JSON_SERVER]) * 1e3:.1f} ms CPU per read",
                 bound="" if met else "the server's CPU per read (profile it in process: "
                                      "`runtime.call_tool('get_posts', {})` over the same state)")]


def render(per_read: dict[str, list[float]]) -> list[str]:
    rows = [[name, *[f"{seconds * 1000:.1f}" for seconds in (min(s), median(s), max(s))]]
            for name, s in per_read.items()]
    ours = median(per_read[CAPENV])
    # A CPU clock tick (10 ms) is coarse: a short run may see none for capenv's reads.
    ratio = median(per_read[JSON_SERVER]) / ours if ours else float("inf")
    lines = [f"`GET /posts` answering {ENTITIES:,} posts (json-server from a `db.json` holding them, capenv given "
             f"them by `data/add`), one keep-alive client; {WARMUP_READS} warm-up reads each, then {ROUNDS} rounds "
             f"of {READS_PER_ROUND} reads alternating between the servers. Figures are the server process's CPU "
             "time per read (user + system, every thread, `/proc/PID/stat`): min / median / max over the rounds.",
             ""]
    lines += table(["server", "CPU ms per read (min)", "median", "max"], rows)
    lines += ["", f"Target (reported, not asserted): capenv's server CPU per list read ≥ {TARGET_RATIO:.0f}× "
                  f"below json-server's. Measured: {ratio:.2f}× ({verdict(ratio >= TARGET_RATIO)})."]
    return lines


def render_split(split: dict[str, float]) -> list[str]:
    return ["", f"Where the read's CPU goes in process (`runtime.http` of `GET /posts` over the same state, no "
                f"socket; cProfile on the CPU clock over {SPLIT_READS} reads; each part the inclusive time of the "
                "function it is entered by):", "",
            *table(["part", "share"], [[name, f"{share:.0%}"] for name, share in split.items()], labels=1)]


if __name__ == "__main__":
    sys.exit(runner.main(["lists", *sys.argv[1:]], {"lists": run}))
