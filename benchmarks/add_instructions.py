"""Instructions of section (i)'s data/add, counted by valgrind: the 100-post data/add over a
10,000-post state against the same data/add on a fresh runtime, in a figure the load of a shared
machine does not move.

Each runtime (*over*, *fresh*) runs under ``valgrind --tool=callgrind`` with counting off until
the measured data/add (``data_add.add``: its preparation, the commit aside, the install and the
release of the state it replaced) and off again after it: a two-line C library, compiled here
with the system's C compiler, toggles callgrind's counting from Python (``CALLGRIND_TOGGLE_COLLECT``).
Instructions are not seconds: freeing a large state is bound by memory more than by
instructions, so this ratio reads lower than section (i)'s CPU ratio; it shows what a change
cuts, run against run. A few minutes a store on a loaded 2-core machine.

    python -m benchmarks.add_instructions [--stores default,sqlite] [--large 10000]
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.data_add import CAPTURE, SMALL, add, document

STORES = ("default", "sqlite")
KINDS = ("over", "fresh")
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")
_TOGGLE_SOURCE = "#include <valgrind/callgrind.h>\nvoid toggle(void) { CALLGRIND_TOGGLE_COLLECT; }\n"


def script(bundle_dir: Path, store: str, kind: str, large: int,
           around: Callable[[Callable[[], Any]], Any] = lambda step: step()) -> Any:
    """The counted script: a runtime, the large data/add when ``kind`` is over, then the measured
    100-post data/add, run by ``around``; the runtime as it is left. A SQLite file lies beside
    the bundle (in the parent's folder)."""
    from capenv.interpreter.bundle.io import read_bundle
    from capenv.serving.runtime import EnvironmentRuntime, settle_for_serving

    url = None if store == "default" else f"sqlite:{bundle_dir.parent / f'{kind}.sqlite'}"
    runtime = EnvironmentRuntime(read_bundle(bundle_dir), store=url)
    settle_for_serving()
    small, big = document(runtime, SMALL), document(runtime, large)
    if kind == "over":
        add(runtime, big)
    around(lambda: add(runtime, small))
    return runtime


def counted_between(toggle_library: str) -> Callable[[Callable[[], Any]], Any]:
    toggle = ctypes.CDLL(toggle_library).toggle

    def around(step: Callable[[], Any]) -> Any:
        toggle()
        try:
            return step()
        finally:
            toggle()
    return around


def toggle_library(folder: Path) -> Path:
    """The C library whose ``toggle()`` switches callgrind's counting, compiled in ``folder``."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise SystemExit("benchmarks.add_instructions needs a C compiler (cc) and valgrind's headers")
    source, library = folder / "toggle.c", folder / "toggle.so"
    source.write_text(_TOGGLE_SOURCE, encoding="utf-8")
    done = subprocess.run([compiler, "-shared", "-fPIC", "-O1", "-o", str(library), str(source)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"cannot compile the callgrind toggle (valgrind's headers missing?): {done.stderr[-500:]}")
    return library


def counted(bundle_dir: Path, library: Path, store: str, kind: str, large: int) -> int:
    """Instructions of the measured data/add under callgrind."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--collect-atstart=no", "--callgrind-out-file=/dev/null",
                           sys.executable, "-m", "benchmarks.add_instructions", "--run", str(bundle_dir), str(library),
                           store, kind, str(large)],
                          capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    found = _COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"valgrind did not count the {store} {kind} run: {done.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.add_instructions", description=__doc__.split("\n")[0])
    parser.add_argument("--stores", default=",".join(STORES))
    parser.add_argument("--large", type=int, default=10_000, help="entities of the state the data/add replaces")
    parser.add_argument("--run", nargs=5, metavar=("BUNDLE", "LIBRARY", "STORE", "KIND", "LARGE"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.run:  # the counted child: leaves at once after the count, freeing nothing uncounted
        bundle, library, store, kind, large = args.run
        script(Path(bundle), store, kind, int(large), counted_between(library))
        sys.stdout.flush()
        os._exit(0)
    stores = [s for s in args.stores.split(",") if s]
    if not stores or any(s not in STORES for s in stores):
        parser.error(f"stores are {', '.join(STORES)}")
    from capenv.interpreter.bundle.io import write_bundle
    from capenv.interpreter.pipeline import build_bundle

    with tempfile.TemporaryDirectory(prefix="capenv-add-instructions-") as tmp:
        library = toggle_library(Path(tmp))
        bundle_dir = Path(tmp) / "bundle"
        write_bundle(bundle_dir, build_bundle(CAPTURE))
        for store in stores:
            cost = {kind: counted(bundle_dir, library, store, kind, args.large) for kind in KINDS}
            print(f"{store}: the {SMALL}-post data/add over {args.large:,} posts {cost['over']:,} instructions, "
                  f"on a fresh runtime {cost['fresh']:,}: {cost['over'] / cost['fresh']:.2f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
