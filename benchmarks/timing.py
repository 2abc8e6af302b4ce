"""Timing a run of calls one by one: throughput over the whole run, and per-call latency."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from benchmarks.stats import percentile

EDGE_CALLS = 100
"""Calls/s over the first and the last this-many calls: a write whose cost grows with the state shows it."""


@dataclass
class Timing:
    samples_ns: list[int]
    wall_seconds: float
    cpu_seconds: float | None = None
    """The calling thread's CPU time over the run (in-process runs): what the calls cost, which
    other work on the machine does not add to, as it adds to the wall time."""
    cpu_samples_ns: list[int] | None = None
    """Each call's CPU time on the calling thread (in-process runs)."""

    @property
    def calls(self) -> int:
        return len(self.samples_ns)

    @property
    def calls_per_second(self) -> float:
        return self.calls / self.wall_seconds

    @property
    def cpu_calls_per_second(self) -> float | None:
        return self.calls / self.cpu_seconds if self.cpu_seconds else None

    def latency_ns(self, fraction: float) -> float:
        return percentile(self.samples_ns, fraction)

    def edge_rates(self) -> tuple[float, float]:
        first, last = self.samples_ns[:EDGE_CALLS], self.samples_ns[-EDGE_CALLS:]
        return len(first) / (sum(first) / 1e9), len(last) / (sum(last) / 1e9)


def time_calls(call: Callable[[], object], calls: int, check: Callable[[object], None]) -> Timing:
    samples, cpu_samples = [], []
    started, cpu = time.perf_counter(), time.thread_time()
    for _ in range(calls):
        before, before_cpu = time.perf_counter_ns(), time.thread_time_ns()
        answer = call()
        cpu_samples.append(time.thread_time_ns() - before_cpu)
        samples.append(time.perf_counter_ns() - before)
        check(answer)  # outside the sample: a refusal must never pass for a fast call
    return Timing(samples, time.perf_counter() - started, time.thread_time() - cpu, cpu_samples)


async def time_calls_async(call: Callable[[], Awaitable[object]], calls: int,
                           check: Callable[[object], None]) -> Timing:
    samples = []
    started = time.perf_counter()
    for _ in range(calls):
        before = time.perf_counter_ns()
        answer = await call()
        samples.append(time.perf_counter_ns() - before)
        check(answer)
    return Timing(samples, time.perf_counter() - started)
