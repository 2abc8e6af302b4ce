"""(e) Fleet: instances of one bundle in one server (``serve --instances``, issue 14) against
separate ``capenv serve`` processes as the baseline.

Per capture: the time to start a ``capenv serve`` process until it answers, and its resident
memory (the baseline); the time to create an instance (p50/p99 over 1,000, in process:
``InstanceFleet.create``, which registers it and opens its runtime) and the resident memory
1,000 idle instances add, per instance. For json-server, served calls per second across 100
instances against the same calls on one. With ``CAPENV_TEST_POSTGRES_URL``, creating instances
on PostgreSQL too; and, on a private PostgreSQL cluster, two ``serve --instances`` processes over
HTTP (``benchmarks/fleet_postgres.py``).

    python -m benchmarks fleet
"""

from __future__ import annotations

import gc
import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from benchmarks import fleet_postgres
from benchmarks.scale import pick
from benchmarks.section import Section
from benchmarks.serving import new_post
from benchmarks.servers import start_capenv
from benchmarks.stats import percentile

REPO = Path(__file__).resolve().parents[1]
ALL_CAPTURES = sorted(p.parent.name for p in (REPO / "captures").glob("*/capture.har"))
# The quick smoke run takes json-server (its throughput and PostgreSQL lines) and one more with
# state: every capture is a process start and 20 instances each, two minutes of CI for no more cover.
CAPTURES = pick(ALL_CAPTURES, [name for name in ALL_CAPTURES if name in ("json-server", "kinto")])
INSTANCES = pick(1000, 20)
ACTIVE = pick(100, 5)
CALLS = pick(4000, 40)


def served(answer) -> None:
    if answer.is_error or answer.structured.get("status", 500) >= 400:
        raise RuntimeError(f"a benchmark call was not served: {answer.structured}")


def process_baseline(bundle_dir: Path, workdir: Path) -> tuple[float, float]:
    """Seconds until a ``capenv serve`` process answers, and its RSS in MiB."""
    started = time.monotonic()
    server = start_capenv(bundle_dir, workdir)
    took = time.monotonic() - started
    try:
        with open(f"/proc/{server.process.pid}/status", encoding="ascii") as status:
            rss = next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmRSS:"))
    finally:
        server.stop()
    return took, rss


def creation(template, store=None, count: int = INSTANCES) -> list[float]:
    """Creation times (s) of ``count`` instances."""
    from capenv.serving.instances.fleet import InstanceFleet

    fleet = InstanceFleet(template, store)
    times = []
    for _ in range(count):
        started = time.perf_counter()
        fleet.create()
        times.append(time.perf_counter() - started)
    fleet.close()
    return times


def idle_bytes(template, count: int = INSTANCES) -> float:
    """The memory ``count`` idle instances hold, per instance, in bytes (allocations traced:
    the process's RSS does not move for a few MiB the heap already had free)."""
    from capenv.serving.instances.fleet import InstanceFleet

    fleet = InstanceFleet(template)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for _ in range(count):
        fleet.create()
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    fleet.close()
    return held / count


def throughput(template, instances: int) -> float:
    """Served calls per second (a create then an item read, in turn) across ``instances``."""
    from capenv.serving.instances.fleet import InstanceFleet

    fleet = InstanceFleet(template)
    runtimes = [fleet.runtime(fleet.create()) for _ in range(instances)]
    for runtime in runtimes:  # active: each has written once (its own copy of the state made)
        served(runtime.call_tool("post_posts", new_post()))
    answers = []
    started = time.perf_counter()
    for call in range(CALLS):
        runtime = runtimes[call % instances]
        if call % 2:
            answers.append(runtime.call_tool("get_posts_by_post_id", {"post_id": "1"}))
        else:
            answers.append(runtime.call_tool("post_posts", new_post()))
    rate = CALLS / (time.perf_counter() - started)
    for answer in answers:  # a refusal is cheaper than a write: a rate of refusals would mislead
        served(answer)
    fleet.close()
    return rate


def run() -> Section:
    from capenv.interpreter.bundle.io import write_bundle
    from capenv.interpreter.pipeline import build_bundle
    from capenv.serving.runtime import EnvironmentRuntime, settle_for_serving

    section = Section("fleet", "(e) Fleet: instances against separate processes", "python -m benchmarks fleet")
    lines = section.lines
    lines += [f"Per capture: starting `capenv serve BUNDLE --http` until it answers, and its RSS (the baseline: "
              f"one process per environment); creating {INSTANCES:,} instances in one process "
              "(`InstanceFleet.create`: registered in the store, runtime opened, memory store), p50/p99, and the "
              "memory an idle instance holds (allocations traced over 1,000). Goals: creating ≥ 50× faster than starting a process, an idle instance "
              "≤ 1% of a process's RSS.", "",
              "| capture | process start s | process RSS MiB | create p50 ms | create p99 ms | × faster (p50) "
              "| idle instance KiB | % of process RSS |", "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    json_server, lines_pg = None, []
    with tempfile.TemporaryDirectory(prefix="capenv-fleet-") as folder:
        for name in CAPTURES:
            bundle = build_bundle(REPO / "captures" / name / "capture.har")
            template = EnvironmentRuntime(bundle)
            if not template.state_available:
                lines.append(f"| {name} | | | | | | | (no state: every read replays, no instances) |")
                continue
            bundle_dir = Path(folder) / name
            write_bundle(bundle_dir, bundle)
            start, rss = process_baseline(bundle_dir, Path(folder))
            settle_for_serving()
            times = creation(template)
            p50, p99 = percentile(times, 0.5), percentile(times, 0.99)
            per = idle_bytes(template) / 1024
            lines.append(f"| {name} | {start:.2f} | {rss:.0f} | {p50 * 1e3:.3f} | {p99 * 1e3:.3f} | {start / p50:,.0f} "
                         f"| {per:.1f} | {per / (rss * 1024) * 100:.3f} |")
            print(f"  fleet {name}: start {start:.2f} s, create p50 {p50 * 1e3:.3f} ms, {per:.1f} KiB/instance",
                  file=sys.stderr, flush=True)
            if name == "json-server":
                json_server = template
                lines_pg = fleet_postgres.measure(bundle_dir, Path(folder))
                print(f"  fleet postgres: {lines_pg[0][:200]}", file=sys.stderr, flush=True)
    if json_server is not None:
        one, many = throughput(json_server, 1), throughput(json_server, ACTIVE)
        lines += ["", f"json-server, {CALLS:,} served calls in process on instances that have each written once (a create, then `get_posts_by_post_id`, in turn): "
                      f"{one:,.0f} calls/s on one instance, {many:,.0f} calls/s across {ACTIVE} instances "
                      f"({many / one:.0%} of one; goal ≥ 80%)."]
    if lines_pg:
        lines += ["", *lines_pg]
    url = os.environ.get("CAPENV_TEST_POSTGRES_URL")
    if url and json_server is not None:
        from capenv.serving.store import open_store

        store = open_store(f"{url}{'&' if '?' in url else '?'}schema=capenv_fleet_bench_{os.getpid()}")
        times = creation(json_server, store, 200)
        lines += ["", f"PostgreSQL (json-server, 200 instances, one process): create p50 "
                      f"{percentile(times, 0.5) * 1e3:.2f} ms, p99 {percentile(times, 0.99) * 1e3:.2f} ms."]
    return section


if __name__ == "__main__":
    print(run().markdown())
