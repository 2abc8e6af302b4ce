"""Running benchmark sections: the command line of ``python -m benchmarks`` and of each section
module run alone (``python -m benchmarks.build``), which pass their own runners, so no section
imports the package's ``__main__``."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from benchmarks import document, machine, scale
from benchmarks.section import Section

DEFAULT_OUTPUT = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"
USAGE = ("``python -m benchmarks [build] [serving] [http] [mcp] [soak] [fleet] [lists] [rss] [add] "
         "[--output FILE | --no-write | --quick]``; ``python -m benchmarks --notes`` rewrites the text only.")


def main(argv: Sequence[str] | None, runners: Mapping[str, Callable[[], Section]]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=USAGE)
    parser.add_argument("sections", nargs="*", choices=[*(n for n in document.ORDER if n in runners), []],
                        metavar="SECTION", help=f"{', '.join(runners)} (default: all)")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="default %(default)s")
    parser.add_argument("--no-write", action="store_true", help="print the figures only")
    parser.add_argument("--notes", action="store_true",
                        help="rewrite the file's text (notes, commands, the goals' table) from the generator, "
                             "running no section: every figure and the machine they were measured on kept")
    parser.add_argument("--quick", action="store_true",
                        help="CI's smoke run: every section end to end on small sizes (figures meaningless, "
                             "nothing written)")
    args = parser.parse_args(argv)
    if args.quick and not scale.quick():
        parser.error(f"--quick is read before the sections are imported: run `python -m benchmarks --quick` "
                     f"(or set {scale.QUICK_ENV}=1)")
    if args.notes:
        if args.sections or args.no_write or args.quick:
            parser.error("--notes runs no section and writes the file: give it alone (with --output)")
        document.write(args.output, [])
        print(f"wrote {args.output}", file=sys.stderr)
        return 0
    chosen = list(dict.fromkeys(args.sections)) or [n for n in document.ORDER if n in runners]
    done = []
    for name in chosen:
        started, load = time.monotonic(), machine.load_average()
        section = runners[name]()
        section.load = (load, machine.load_average())
        section.revision = machine.code_revision(DEFAULT_OUTPUT.parents[1])
        print(section.markdown())
        print(f"({name}: {time.monotonic() - started:.0f} s)", file=sys.stderr)
        done.append(section)
    if not args.no_write and not args.quick:
        document.write(args.output, done)
        print(f"wrote {args.output}", file=sys.stderr)
    return 0
