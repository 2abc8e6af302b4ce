"""Instructions per served create, counted by valgrind: a figure the load of a shared machine does
not move, where the seconds of section (b) move up to 2× with it.

Each store runs the same fixed script twice under ``valgrind --tool=cachegrind`` (json-server's
``post_posts`` through ``EnvironmentRuntime.call_tool``, as section (b) calls it: 20 warm-up
creates, then ``few`` or ``many`` more); the difference of the two totals over the difference of
the counts is one create's instructions, without the start-up both runs share. About two minutes
a store on a loaded 2-core machine.

    python -m benchmarks.write_instructions [--stores default,memory,sqlite] [--calls 100,500]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.serving import CAPTURE, new_post

WARMUP = 20
STORES = ("default", "memory", "sqlite")
_TOTAL = re.compile(r"I\s+refs:\s+([\d,]+)")


def store_url(store: str, directory: Path) -> str | None:
    return {"default": None, "memory": "memory:", "sqlite": f"sqlite:{directory / 'state.sqlite'}"}[store]


def serve_creates(bundle_dir: Path, store: str, calls: int) -> None:
    """The counted script: ``WARMUP`` + ``calls`` served creates on a fresh runtime."""
    from capenv.interpreter.bundle.io import read_bundle
    from capenv.serving.runtime import EnvironmentRuntime, settle_for_serving

    with tempfile.TemporaryDirectory(prefix="capenv-instructions-") as tmp:
        runtime = EnvironmentRuntime(read_bundle(bundle_dir), store=store_url(store, Path(tmp)))
        settle_for_serving()
        try:
            for _ in range(WARMUP + calls):
                answer = runtime.call_tool("post_posts", new_post())
                if answer.is_error or answer.structured.get("status", 500) >= 400:
                    raise RuntimeError(f"the create was not served: {answer.structured}")
        finally:
            runtime.close()


def counted(bundle_dir: Path, store: str, calls: int) -> int:
    """Instructions of the whole script under cachegrind (no cache simulation)."""
    done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                           sys.executable, "-m", "benchmarks.write_instructions", "--serve", str(bundle_dir), store,
                           str(calls)], capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    found = _TOTAL.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"valgrind did not count the {store} run: {done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.write_instructions", description=__doc__.split("\n")[0])
    parser.add_argument("--stores", default=",".join(STORES))
    parser.add_argument("--calls", default="100,500", help="the two create counts, FEW,MANY")
    parser.add_argument("--serve", nargs=3, metavar=("BUNDLE", "STORE", "CALLS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:  # the counted child
        serve_creates(Path(args.serve[0]), args.serve[1], int(args.serve[2]))
        return 0
    few, many = (int(n) for n in args.calls.split(","))
    stores = [s for s in args.stores.split(",") if s]
    unknown = [s for s in stores if s not in STORES]
    if unknown or not 0 <= few < many:
        parser.error(f"stores are {', '.join(STORES)}; calls are FEW,MANY with FEW < MANY")
    from capenv.interpreter.bundle.io import write_bundle
    from capenv.interpreter.pipeline import build_bundle

    with tempfile.TemporaryDirectory(prefix="capenv-instructions-") as tmp:
        bundle_dir = Path(tmp) / "bundle"
        write_bundle(bundle_dir, build_bundle(CAPTURE))
        for store in stores:
            low, high = counted(bundle_dir, store, few), counted(bundle_dir, store, many)
            print(f"{store}: {(high - low) // (many - few):,} instructions per served create "
                  f"({low:,} with {few} creates, {high:,} with {many})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
