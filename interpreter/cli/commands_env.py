"""``capenv build`` and ``capenv report``: build bundles and report what they serve."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


from capenv.interpreter.bundle.errors import UserError

from .options import add_capture_options
from .progress import progress_printer


def register(sub: argparse._SubParsersAction) -> None:
    build = sub.add_parser("build", help="evidence -> manifest -> view -> plans -> gate; writes a bundle directory")
    build.add_argument("capture", help="a HAR 1.2 file (.har, .har.gz, .zhar, or a Playwright .zip; side files beside it)")
    build.add_argument("-o", "--output", required=True, help="the bundle directory to write")
    build.add_argument("--force", action="store_true",
                       help="write into a non-empty directory that is not a bundle")
    build.add_argument("--profile", action="store_true", help="print each phase's wall time (stderr)")
    add_capture_options(build)
    build.set_defaults(handler=_build)

    report = sub.add_parser("report", help="per bundle (a capture is built first): reads, writes, reasons")
    report.add_argument("targets", nargs="+", metavar="BUNDLE|CAPTURE")
    report.add_argument("--json", action="store_true", help="one object for one target, an array for several")
    add_capture_options(report)
    report.set_defaults(handler=_report)


def load_or_build(target: str, args: argparse.Namespace):
    from capenv.interpreter.bundle.io import is_bundle, read_bundle
    from capenv.interpreter.pipeline import build_bundle

    if is_bundle(target):
        return read_bundle(target)
    path = Path(target)
    if path.is_dir():
        raise UserError(f"{target}: a directory but not a bundle (no bundle.json)")
    if not path.exists():
        raise UserError(f"{target}: no such file or bundle directory")
    return build_bundle(target, origin=args.origin, overrides=args.overrides, rules=args.rules,
                        progress=progress_printer(f"reading {path.name}"))


def _build(args: argparse.Namespace) -> int:
    from capenv.interpreter.bundle.io import check_bundle_target, write_bundle
    from capenv.interpreter.pipeline import PhaseTimes, build_bundle

    check_bundle_target(args.output, force=args.force)  # before the build: a bad -o fails at once
    times = PhaseTimes()
    bundle = build_bundle(args.capture, origin=args.origin, overrides=args.overrides, rules=args.rules,
                          progress=progress_printer("reading"), phases=times)
    with times.phase("write"):
        write_bundle(args.output, bundle)
    if args.profile:
        total = sum(times.seconds.values())
        for name, seconds in times.seconds.items():
            print(f"  {name:<16} {seconds:8.3f} s  {100 * seconds / total if total else 0:5.1f}%", file=sys.stderr)
        print(f"  {'total':<16} {total:8.3f} s", file=sys.stderr)
    report = bundle.report
    served = sum(1 for w in report["writes"] if w["served"])
    backed = sum(1 for r in report["reads"] if r["state_backed"])
    print(f"wrote {args.output}: {len(report['tools'])} tools, {backed}/{len(report['reads'])} reads from state, "
          f"{served}/{len(report['writes'])} write tools served")
    return 0


def _report(args: argparse.Namespace) -> int:
    from capenv.interpreter.bundle.jsonvalue import dumps
    from capenv.interpreter.report import render_report_text

    documents = []
    for target in args.targets:
        bundle = load_or_build(target, args)
        documents.append((target, bundle.report))
    if args.json:
        payload = documents[0][1] if len(documents) == 1 else [d for _, d in documents]
        sys.stdout.write(dumps(payload, indent=True).decode() + "\n")
        return 0
    print("\n\n".join(render_report_text(report, target) for target, report in documents))
    return 0
