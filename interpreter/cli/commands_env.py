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
    build.add_argument("--json", action="store_true", help="print the result as one JSON object (stdout)")
    add_capture_options(build)
    build.set_defaults(handler=_build)

    report = sub.add_parser("report", help="per bundle (a capture is built first): reads, writes, reasons")
    report.add_argument("targets", nargs="+", metavar="BUNDLE|CAPTURE")
    report.add_argument("--json", action="store_true", help="one object for one target, an array for several")
    report.add_argument("--html", metavar="FILE", help="also write one self-contained HTML page (one target only)")
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
    summary = build_summary(args.output, bundle)
    if args.json:
        print_json(summary)
        return 0
    print(f"wrote {args.output}: {summary['tools']} tools, {summary['reads_from_state']}/{summary['reads']} reads "
          f"from state, {summary['writes_served']}/{summary['writes']} write tools served")
    return 0


def build_summary(output: str, bundle) -> dict:
    """``capenv build --json``: what was written and what it serves (counts as in the text line)."""
    report = bundle.report
    return {"bundle": output, "evidence_id": bundle.info.evidence_id, "rules_revision": bundle.info.rules_revision,
            "source": bundle.info.source, "records": report["records"], "tools": len(report["tools"]),
            "reads": len(report["reads"]), "reads_from_state": sum(1 for r in report["reads"] if r["state_backed"]),
            "writes": len(report["writes"]), "writes_served": sum(1 for w in report["writes"] if w["served"]),
            "writes_not_served": [{"tool": w["tool"], "reason": w["reason"]}
                                  for w in report["writes"] if not w["served"]]}


def print_json(document) -> None:
    from capenv.interpreter.bundle.jsonvalue import dumps

    sys.stdout.write(dumps(document, indent=True).decode() + "\n")


def _report(args: argparse.Namespace) -> int:
    from capenv.interpreter.report import render_report_text

    if args.html and len(args.targets) != 1:
        raise UserError("--html writes the page of one bundle: give one BUNDLE|CAPTURE")
    documents = []
    for target in args.targets:
        bundle = load_or_build(target, args)
        documents.append((target, bundle.report))
        if args.html:
            _write_html(args.html, bundle, target)
    if args.json:
        print_json(documents[0][1] if len(documents) == 1 else [d for _, d in documents])
        return 0
    print("\n\n".join(render_report_text(report, target) for target, report in documents))
    return 0


def _write_html(output: str, bundle, target: str) -> None:
    from capenv.interpreter.report_html import render_report_html

    try:
        Path(output).write_text(render_report_html(bundle, Path(target).name or target), encoding="utf-8")
    except OSError as exc:
        raise UserError(f"{output}: cannot write the HTML report ({exc.strerror or exc})") from None
    print(f"wrote {output}", file=sys.stderr)
