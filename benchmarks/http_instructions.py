"""Instructions of the server process per HTTP call, counted by valgrind: a figure the load of a
shared machine does not move, where section (c)'s calls/s move with it.

``capenv serve BUNDLE --http`` (the command a user runs, json-server's capture) runs under
``valgrind --tool=cachegrind``; this process sends it section (c)'s CRUD sequence
(``http_sequence.SEQUENCE``, one kept-alive connection) ``WARMUP`` times, then ``few`` or ``many``
more times, and stops it (SIGTERM: a graceful stop, so valgrind prints its total). The difference
of the two totals over the difference of the call counts is one call's instructions on the
server's side (uvicorn, capenv's ASGI layer and the runtime), without the start-up both runs share.
The client's own work is not counted. ``floor`` counts the transport floor of section (c) the
same way (``floor_servers``: a bare ASGI app answering a fixed JSON body through the same
``run_http``), so capenv's figure less the floor's is what capenv adds to a call. A few minutes a
server on a loaded 2-core machine. On the default store the runtime answers on the event loop's
thread; on SQLite each call hops to the runtime's thread and back, and how often the two hand the
interpreter over depends on timing, so that figure moves by several percent between runs (compare
medians of several).

    python -m benchmarks.http_instructions [--stores default,sqlite,floor] [--sequences 10,50] [--port N]
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

from benchmarks.http_sequence import SEQUENCE, HttpClient, run_sequence
from benchmarks.serving import CAPTURE
from benchmarks.servers import DATA_TOKEN, REPO, capenv_command, free_port, start_process

WARMUP = 10
STORES = ("default", "memory", "sqlite", "floor")
READY_SECONDS = 600.0
"""A start under valgrind is ~50× slower than without."""
_TOTAL = re.compile(r"I\s+refs:\s+([\d,]+)")


def served_command(bundle_dir: Path, store: str, port: int, directory: Path) -> list[str]:
    """What valgrind runs: ``capenv serve`` on ``store``, or the transport floor."""
    if store == "floor":
        return [sys.executable, "-m", "benchmarks.floor_servers", "floor", str(port)]
    stores = {"default": [], "memory": ["--store", "memory:"], "sqlite": ["--store", f"sqlite:{directory / 'state.sqlite'}"]}
    return [*capenv_command(), "serve", str(bundle_dir), "--http", f"127.0.0.1:{port}", "--data-token", DATA_TOKEN,
            "--quiet", *stores[store]]


VALGRIND = ("valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null")


def serve_sequences(bundle_dir: Path, store: str, sequences: int, port: int, wrapper: tuple[str, ...] = VALGRIND) -> str:
    """Start the server under ``wrapper``, send it ``WARMUP`` + ``sequences`` sequences (each call
    answered as json-server answers it, or the count would be of refusals), stop it; its output."""
    with tempfile.TemporaryDirectory(prefix="capenv-http-instructions-") as tmp:
        workdir = Path(tmp)
        argv = [*wrapper, *served_command(bundle_dir, store, port, workdir)]
        env = {"CAPENV_DEBUG": "", "PYTHONHASHSEED": "0", "PYTHONPATH": str(REPO)}
        server = start_process(store, argv, "/_capenv/openapi.json" if store != "floor" else "/", port, workdir, env,
                               ready_seconds=READY_SECONDS)
        try:
            client = HttpClient(server)
            # the floor answers every call 200 with one fixed body
            expected = [200 if store == "floor" else status for *_, status in SEQUENCE]
            for _ in range(WARMUP + sequences):
                statuses = run_sequence(client)
                if statuses != expected:
                    raise RuntimeError(f"the {store} server answered {statuses}, not {expected}")
            client.close()
        finally:
            server.stop()
        return server.log.read_text()


def counted(bundle_dir: Path, store: str, sequences: int, port: int) -> int:
    """The server's instructions over its whole run: start, ``WARMUP`` + ``sequences`` sequences, stop."""
    output = serve_sequences(bundle_dir, store, sequences, port)
    found = _TOTAL.search(output)
    if found is None:
        raise RuntimeError(f"valgrind did not count the {store} run: {output[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.http_instructions", description=__doc__.split("\n")[0])
    parser.add_argument("--stores", default="default,sqlite,floor", help="servers counted: default, memory, sqlite "
                        "(capenv serve on that store) or floor (the transport floor)")
    parser.add_argument("--sequences", default="10,50", help="the two counts of CRUD sequences, FEW,MANY")
    parser.add_argument("--port", type=int, default=0, help="the server's port (default: a free one)")
    args = parser.parse_args(argv)
    few, many = (int(n) for n in args.sequences.split(","))
    stores = [s for s in args.stores.split(",") if s]
    unknown = [s for s in stores if s not in STORES]
    if unknown or not 0 <= few < many:
        parser.error(f"stores are {', '.join(STORES)}; sequences are FEW,MANY with FEW < MANY")
    from capenv.interpreter.bundle.io import write_bundle
    from capenv.interpreter.pipeline import build_bundle

    calls = (many - few) * len(SEQUENCE)
    with tempfile.TemporaryDirectory(prefix="capenv-http-instructions-") as tmp:
        bundle_dir = Path(tmp) / "bundle"
        write_bundle(bundle_dir, build_bundle(CAPTURE))
        for store in stores:
            low = counted(bundle_dir, store, few, args.port or free_port())
            high = counted(bundle_dir, store, many, args.port or free_port())
            print(f"{store}: {(high - low) // calls:,} instructions per HTTP call, server side "
                  f"({low:,} with {few} CRUD sequences, {high:,} with {many}; {len(SEQUENCE)} calls a sequence)",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
