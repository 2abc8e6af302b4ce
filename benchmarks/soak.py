"""(d) Soak: repeated data/add of a 32 MB state and data/reset, on the memory and SQLite stores.

Each cycle installs one ~32 MB state document (the json-server capture's posts, padded with
generated posts) with data/add and puts the initial state back with data/reset, in process
(``EnvironmentRuntime``, as the transports call it). After every cycle it prints the process's
resident memory (RSS) and, for SQLite, the store file's size (the file and its write-ahead log).
Before issue 11 the memory store grew from 76 MB to 1.6 GB in eight cycles and the SQLite file by
~31 MB a cycle: both must level off after the first cycles.

    python -m benchmarks soak            # 50 cycles a store
    python -m benchmarks.soak 8          # 8 cycles, figures printed only
"""

from __future__ import annotations

import gc
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.section import Section

REPO = Path(__file__).resolve().parents[1]
CAPTURE = REPO / "captures" / "json-server" / "capture.har"
DOCUMENT_BYTES = 32_000_000
CYCLES = 50
SHOWN_ROWS = (0, 1, 2, 3, 4, 9, 19, 29, 39, 49)
MiB = 1 << 20


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


Row = tuple[int, float, float, float, float, float]  # cycle, RSS, file, add aside, add locked, reset


def soak(store: str | None, store_file: Path | None, cycles: int) -> list[Row]:
    from capenv.interpreter.pipeline import build_bundle
    from capenv.serving.runtime import EnvironmentRuntime

    runtime = EnvironmentRuntime(build_bundle(CAPTURE), store=store)
    document = big_document(runtime.data_get(), DOCUMENT_BYTES)
    rows = []
    for cycle in range(cycles):
        started = time.monotonic()
        install = runtime.prepare_add(document)  # what the transports run aside, other calls going on
        prepared = time.monotonic()
        install()  # what other calls wait for
        added = time.monotonic()
        runtime.data_reset()
        reset = time.monotonic() - added
        del install
        gc.collect()
        rows.append((cycle + 1, resident_mib(), file_mib(store_file), prepared - started, added - prepared, reset))
        print(f"  {store or 'memory'} cycle {cycle + 1}: RSS {rows[-1][1]:.0f} MiB, file {rows[-1][2]:.0f} MiB, "
              f"add {rows[-1][3]:.1f} s aside + {rows[-1][4]:.1f} s locked, reset {reset:.1f} s",
              file=sys.stderr, flush=True)
    runtime.close()
    return rows


def run(cycles: int = CYCLES) -> Section:
    section = Section("soak", f"(d) Soak: {cycles} cycles of a 32 MB data/add and data/reset",
                      "python -m benchmarks soak")
    lines = section.lines
    lines += ["One process per store; each cycle is a data/add of a ~32 MB state document (90k posts) "
              "then a data/reset. RSS is the process's resident memory after the cycle; the SQLite figure "
              "is the store file plus its write-ahead log. A data/add is timed in its two steps: aside "
              "(parse, checks, the new state's subjects: `Runtime.prepare_add`, which the transports run "
              "beside other calls) and locked (the diff and the store's commit, which other calls wait "
              "for); a data/reset is all locked.", ""]
    with tempfile.TemporaryDirectory(prefix="capenv-soak-") as folder:
        sqlite_file = Path(folder) / "soak.sqlite"
        results = {"memory": soak(None, None, cycles), "sqlite": soak(f"sqlite:{sqlite_file}", sqlite_file, cycles)}
    lines += ["| cycle | memory: RSS MiB | memory: add s (aside + locked) | memory: reset s | SQLite: RSS MiB "
              "| SQLite: file MiB | SQLite: add s (aside + locked) | SQLite: reset s |",
              "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for index in range(cycles):
        if index not in SHOWN_ROWS and index != cycles - 1:
            continue
        memory, sqlite = results["memory"][index], results["sqlite"][index]
        lines.append(f"| {memory[0]} | {memory[1]:.0f} | {memory[3]:.1f} + {memory[4]:.1f} | {memory[5]:.1f} "
                     f"| {sqlite[1]:.0f} | {sqlite[2]:.0f} | {sqlite[3]:.1f} + {sqlite[4]:.1f} | {sqlite[5]:.1f} |")
    lines.append("")
    for name, rows in results.items():
        warm = rows[min(4, len(rows) - 1)]
        last = rows[-1]
        lines.append(f"- {name}: RSS {warm[1]:.0f} MiB after cycle {warm[0]}, {last[1]:.0f} MiB after cycle "
                     f"{last[0]}" + (f"; file {warm[2]:.0f} → {last[2]:.0f} MiB" if name == "sqlite" else ""))
    return section


if __name__ == "__main__":
    print(run(int(sys.argv[1]) if len(sys.argv) > 1 else CYCLES).markdown())
