"""``capenv serve TARGET --http`` under cProfile, its serving only (not its start).

    python -m benchmarks.profiled_serve TARGET PORT OUTPUT [--store URL]

What ``capenv serve`` runs (the runtime settled for serving, ``run_http`` with a data token),
with two profilers of the CPU time of their thread: one on the event loop's thread (uvicorn, the ASGI app, MCP's session
machinery), enabled once the server is ready, and one around each runtime call on the runtime's
worker thread (a profiler follows one thread only). When the server stops (SIGTERM) both are
written to OUTPUT as one pstats file: the server's Python work per request, transport and
runtime together, without the imports and the build that a whole-process profile is made of.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import threading
import time
from typing import Any

from benchmarks.servers import DATA_TOKEN


class ProfiledRuntime:
    """The runtime with each call the transports make to it on another thread than the event
    loop's profiled there (a call answered on the loop, as the transports answer some, is in the
    loop's profile already; a second profiler there would replace the first)."""

    PROFILED = frozenset({"call_tool", "http", "data_get", "data_reset", "data_add", "prepare_add", "prepare_reset"})

    def __init__(self, runtime: Any, profiler: cProfile.Profile) -> None:
        self._runtime, self._profiler = runtime, profiler
        self.loop_thread: int | None = None

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._runtime, name)
        if name not in self.PROFILED:
            return found

        def profiled(*args: Any, **kwargs: Any) -> Any:
            if threading.get_ident() == self.loop_thread:
                return found(*args, **kwargs)
            return self._profiler.runcall(found, *args, **kwargs)
        return profiled


def main(argv: list[str] | None = None) -> None:
    from capenv.interpreter.bundle.io import is_bundle, read_bundle
    from capenv.interpreter.pipeline import build_bundle
    from capenv.serving.runtime import EnvironmentRuntime, settle_for_serving
    from capenv.serving.transport.http_app import Access, run_http

    parser = argparse.ArgumentParser(prog="python -m benchmarks.profiled_serve")
    parser.add_argument("target")
    parser.add_argument("port", type=int)
    parser.add_argument("output")
    parser.add_argument("--store")
    args = parser.parse_args(argv)
    bundle = read_bundle(args.target) if is_bundle(args.target) else build_bundle(args.target)
    runtime = EnvironmentRuntime(bundle, store=args.store)
    settle_for_serving()
    # Each thread's CPU time, not the wall clock: the event loop's waits in epoll are not work.
    loop, worker = cProfile.Profile(time.thread_time), cProfile.Profile(time.thread_time)
    profiled = ProfiledRuntime(runtime, worker)

    def ready(serving: Any) -> None:  # on the event loop's thread
        profiled.loop_thread = threading.get_ident()
        loop.enable()
    try:
        run_http(profiled, "127.0.0.1", args.port, ready=ready, print_urls=False, quiet=True,  # type: ignore[arg-type]
                 access=Access(data_token=DATA_TOKEN))
    finally:
        loop.disable()
        runtime.close()
    stats = None
    for profiler in (loop, worker):
        profiler.create_stats()
        if profiler.stats:  # pstats refuses a profiler that saw nothing (no call reached the worker's)
            stats = pstats.Stats(profiler) if stats is None else stats.add(profiler)
    if stats is not None:
        stats.dump_stats(args.output)


if __name__ == "__main__":
    main()
