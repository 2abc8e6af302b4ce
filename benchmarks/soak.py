"""(d) Soak: repeated data/add of a 32 MB state and data/reset, on the memory and SQLite stores.

Each cycle installs one ~32 MB state document (the json-server capture's posts, padded with
generated posts) with data/add and puts the initial state back with data/reset, in process
(``EnvironmentRuntime``, as the transports call it). After every cycle it prints the process's
resident memory (RSS), the blocks Python's allocator holds (``sys.getallocatedblocks``: flat when
no Python object is kept from one cycle to the next) and, for SQLite, the store file's size (the
file and its write-ahead log). After each install it gives the freed heap pages back to the system
as the transports do (``serving/memory_release.py``). Before issue 11 the memory store grew from 76 MB to 1.6 GB in eight
cycles and the SQLite file by ~31 MB a cycle: both must level off after the first cycles, and
each store's line says whether they are flat from cycle 15 on (``plateau``). Each store runs in a
process of its own, the two at once.

    python -m benchmarks soak                      # 50 cycles a store, both stores
    python -m benchmarks.soak 8                    # 8 cycles, figures printed only
    python -m benchmarks.soak 8 --store sqlite     # one store, its rows as JSON (what ``run`` reads)
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from array import array
from pathlib import Path

from benchmarks.scale import pick
from benchmarks.section import Section

REPO = Path(__file__).resolve().parents[1]
CAPTURE = REPO / "captures" / "json-server" / "capture.har"
DOCUMENT_BYTES = pick(32_000_000, 200_000)
CYCLES = pick(50, 2)
SHOWN_ROWS = (0, 1, 2, 3, 4, 9, 14, 19, 24, 29, 34, 39, 44, 49)
FLAT_FROM = pick(15, 1)  # the plateau is judged from this cycle on (the warm-up before it)
FLAT_MIB = 5.0  # flat: every figure from FLAT_FROM on within this of their middle
MiB = 1 << 20
STORES = ("memory", "sqlite")


def resident_mib() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def file_mib(path: Path | None) -> float:
    if path is None:
        return 0.0
    return sum(os.path.getsize(f"{path}{suffix}") for suffix in ("", "-wal") if os.path.exists(f"{path}{suffix}")) / MiB


def big_document(initial: bytes, size: int) -> bytes:
    """The initial state with generated posts added until its text is about ``size`` bytes."""
    document = json.loads(initial)
    posts = next(c for c in document["collections"] if c["path"] == "/posts")
    template = posts["entities"][0]["value"]
    pad = "x" * 200
    added, grown, number = [], len(initial), 1_000_000
    while grown < size:
        value = {**template, "id": number, "title": f"soak {number} {pad}"}
        added.append({"id": number, "value": value})
        grown += len(json.dumps(value)) + 40
        number += 1
    posts["entities"] += added
    return json.dumps(document).encode()


# cycle, RSS MiB, file MiB, Python blocks, add: prepare s, commit aside s, locked s; reset: aside s, locked s
Row = tuple[int, float, float, int, float, float, float, float, float]


def soak(store: str | None, store_file: Path | None, cycles: int) -> list[Row]:
    from capenv.interpreter.pipeline import build_bundle
    from capenv.serving.memory_release import release_freed_memory
    from capenv.serving.runtime import EnvironmentRuntime

    runtime = EnvironmentRuntime(build_bundle(CAPTURE), store=store)
    document = big_document(runtime.data_get(), DOCUMENT_BYTES)
    # Each cycle's figures go into storage made before the first cycle: a row object made during a
    # cycle lives on among the large transient state and pins an allocator arena, inflating the curve.
    width = 9
    figures = array("d", bytes(8 * width * cycles))
    for cycle in range(cycles):
        started = time.monotonic()
        install = runtime.prepare_add(document)  # what the transports run aside, other calls going on
        prepared = time.monotonic()
        commit_aside = getattr(install, "aside", None)
        if commit_aside is not None:
            commit_aside()  # a shared store's commit: aside too, other calls reading the state before
        committed = time.monotonic()
        install()  # what other calls wait for
        added = time.monotonic()
        del install, commit_aside  # the transports drop the request's objects too
        release_freed_memory()
        resetting = time.monotonic()
        reset = runtime.prepare_reset()  # the same steps, as the transports take them
        reset_aside = getattr(reset, "aside", None)
        if reset_aside is not None:
            reset_aside()
        reset_committed = time.monotonic()
        reset()
        reset_done = time.monotonic()
        del reset, reset_aside
        gc.collect()
        release_freed_memory()  # as the transports do after each install
        figures[cycle * width:(cycle + 1) * width] = array("d", (
            cycle + 1, resident_mib(), file_mib(store_file), sys.getallocatedblocks(),
            prepared - started, committed - prepared, added - committed,
            reset_committed - resetting, reset_done - reset_committed))
        row = figures[cycle * width:(cycle + 1) * width]
        print(f"  {store or 'memory'} cycle {cycle + 1}: RSS {row[1]:.0f} MiB, file {row[2]:.0f} MiB, "
              f"{int(row[3]):,} Python blocks, add {row[4]:.1f} s prepared + {row[5]:.1f} s committed "
              f"aside + {row[6]:.3f} s locked, reset {row[7]:.2f} s aside + {row[8]:.3f} s locked",
              file=sys.stderr, flush=True)
        del row
    runtime.close()
    return [(int(r[0]), r[1], r[2], int(r[3]), *r[4:]) for r in
            (figures[i * width:(i + 1) * width].tolist() for i in range(cycles))]


def soak_in_child(name: str, folder: Path, cycles: int) -> subprocess.Popen:
    output = folder / f"{name}.json"
    return subprocess.Popen([sys.executable, "-m", "benchmarks.soak", str(cycles), "--store", name,
                             "--json", str(output), "--folder", str(folder)], cwd=REPO)


def run(cycles: int = CYCLES) -> Section:
    section = Section("soak", f"(d) Soak: {cycles} cycles of a 32 MB data/add and data/reset",
                      "python -m benchmarks soak")
    with tempfile.TemporaryDirectory(prefix="capenv-soak-") as folder:
        children = {name: soak_in_child(name, Path(folder), cycles) for name in STORES}
        for name, child in children.items():
            if child.wait() != 0:
                raise RuntimeError(f"the {name} soak failed (exit {child.returncode})")
        results = {name: [tuple(row) for row in json.loads((Path(folder) / f"{name}.json").read_text())]
                   for name in STORES}
    section.lines += describe(results, cycles)
    return section


def describe(results: dict[str, list[Row]], cycles: int) -> list[str]:
    lines = ["One process per store, the two at once; each cycle is a data/add of a ~32 MB state document "
             "(90k posts) then a data/reset. RSS is the process's resident memory after the cycle, Python "
             "blocks what Python's allocator holds (`sys.getallocatedblocks`, thousands); the SQLite figure "
             "is the store file plus its write-ahead log. A data/add is timed in its steps: prepared "
             "(parse, checks, the new state's subjects and the store's rows: `Runtime.prepare_add`), "
             "committed aside (a shared store's transaction, run beside other calls, which read the state "
             "before until it lands: `install.aside`) and locked (what other calls wait for: the memory "
             "store's swap, or taking the landed copy up); after each install the freed heap pages go back "
             "to the system (`release_freed_memory`, as the transports do); a data/reset takes the same steps "
             "(`Runtime.prepare_reset`: prepared and committed aside, then locked), its state prepared ahead "
             "when the data/add began (`StoreStateHolder.reset_ahead`, counted in the add's time).", "",
             "| cycle | memory: RSS MiB | memory: Python blocks k | memory: add s (prepared + locked) "
             "| memory: reset s (aside + locked) | SQLite: RSS MiB | SQLite: Python blocks k | SQLite: file MiB "
             "| SQLite: add s (prepared + aside + locked) | SQLite: reset s (aside + locked) |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for index in range(cycles):
        if index not in SHOWN_ROWS and index != cycles - 1:
            continue
        m, s = results["memory"][index], results["sqlite"][index]
        lines.append(f"| {m[0]} | {m[1]:.0f} | {m[3] / 1000:.0f} | {m[4]:.1f} + {m[6]:.3f} | {m[7]:.2f} + {m[8]:.3f} "
                     f"| {s[1]:.0f} | {s[3] / 1000:.0f} | {s[2]:.0f} | {s[4]:.1f} + {s[5]:.1f} + {s[6]:.3f} "
                     f"| {s[7]:.1f} + {s[8]:.3f} |")
    lines.append("")
    for name, rows in results.items():
        lines.append(f"- {name}: " + plateau(name, rows))
    return lines


def plateau(name: str, rows: list[Row]) -> str:
    """Whether resident memory (and the SQLite file) is flat after the warm-up: every figure from
    cycle ``FLAT_FROM`` on within ``FLAT_MIB`` of the middle of their range, with the slope over
    the second half of the cycles (least squares, MiB a cycle) beside it."""
    warm = [r for r in rows if r[0] >= FLAT_FROM] or rows[-1:]
    half = rows[len(rows) // 2:]
    words = []
    for label, column in (("RSS", 1), ("file", 2)) if name == "sqlite" else (("RSS", 1),):
        figures = [r[column] for r in warm]
        low, high = min(figures), max(figures)
        spread = (high - low) / 2
        slope = (statistics.linear_regression([r[0] for r in half], [r[column] for r in half]).slope
                 if len(half) >= 2 else 0.0)
        flat = spread <= FLAT_MIB
        words.append(f"{label} {rows[0][column]:.0f} MiB after cycle 1, {low:.0f}-{high:.0f} MiB over cycles "
                     f"{warm[0][0]}-{warm[-1][0]} ({(low + high) / 2:.0f} ± {spread:.1f}), slope over cycles "
                     f"{half[0][0]}-{half[-1][0]} {slope:+.2f} MiB a cycle: "
                     + ("flat" if flat else f"NOT flat (goal ± {FLAT_MIB:g} MiB)"))
    blocks = f"Python blocks {rows[0][3] / 1000:.0f}k → {rows[-1][3] / 1000:.0f}k"
    return "; ".join(words + [blocks])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.soak")
    parser.add_argument("cycles", nargs="?", type=int, default=CYCLES)
    parser.add_argument("--store", choices=STORES, help="one store in this process (default: both, in two)")
    parser.add_argument("--json", type=Path, help="with --store: write its rows here")
    parser.add_argument("--folder", type=Path, help="with --store sqlite: where its file goes")
    args = parser.parse_args(argv)
    if args.store is None:
        print(run(args.cycles).markdown())
        return 0
    folder = args.folder or Path(tempfile.mkdtemp(prefix="capenv-soak-"))
    store_file = folder / "soak.sqlite" if args.store == "sqlite" else None
    rows = soak(f"sqlite:{store_file}" if store_file else None, store_file, args.cycles)
    print(f"  {args.store}: {plateau(args.store, rows)}", file=sys.stderr, flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
