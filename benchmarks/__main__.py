"""``python -m benchmarks [build] [serving] [http] [--output FILE | --no-write]``."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from benchmarks import document, machine
from benchmarks.section import Section

DEFAULT_OUTPUT = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"


def _runners() -> dict[str, Callable[[], Section]]:
    # Imported on demand: each section pulls in what it measures.
    def build() -> Section:
        from benchmarks import build as module
        return module.run()

    def serving() -> Section:
        from benchmarks import serving as module
        return module.run()

    def http() -> Section:
        from benchmarks import mock_vs_json_server as module
        return module.run()

    return {"build": build, "serving": serving, "http": http}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("sections", nargs="*", choices=[*document.ORDER, []], metavar="SECTION",
                        help="build, serving, http (default: all)")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="default %(default)s")
    parser.add_argument("--no-write", action="store_true", help="print the figures only")
    args = parser.parse_args(argv)
    chosen = list(dict.fromkeys(args.sections)) or list(document.ORDER)
    runners = _runners()
    done = []
    for name in chosen:
        started, load = time.monotonic(), machine.load_average()
        section = runners[name]()
        section.load = (load, machine.load_average())
        print(section.markdown())
        print(f"({name}: {time.monotonic() - started:.0f} s)", file=sys.stderr)
        done.append(section)
    if not args.no_write:
        document.write(args.output, done)
        print(f"wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
