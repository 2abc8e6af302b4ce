"""``capenv export BUNDLE|CAPTURE -o DIR``: the self-contained environment with its README
(DESIGN.md §7 "Export", §10). A capture is built first; the directory must be new, empty,
or an earlier bundle, so an export never overwrites files it did not write."""

from __future__ import annotations

import argparse
from pathlib import Path

from capenv.interpreter.bundle.errors import UserError

from .options import add_capture_options


def register(sub: argparse._SubParsersAction) -> None:
    export = sub.add_parser("export", help="write a self-contained environment directory (bundle + README) "
                                           "that `capenv serve DIR` runs with no capture at hand")
    export.add_argument("target", metavar="BUNDLE|CAPTURE")
    export.add_argument("-o", "--output", required=True, metavar="DIR", help="the directory to write")
    export.add_argument("--json", action="store_true", help="print the result as one JSON object (stdout)")
    add_capture_options(export)
    export.set_defaults(handler=_export)


def _export(args: argparse.Namespace) -> int:
    from capenv.serving.export.directory import ExportRefused, check_target, export_environment

    from .commands_env import load_or_build, print_json

    try:
        check_target(Path(args.output))  # before a capture is built: refuse early
        bundle = load_or_build(args.target, args)
        summary = export_environment(bundle, args.output)
    except ExportRefused as refused:
        raise UserError(str(refused)) from None
    except OSError as exc:
        raise UserError(f"{args.output}: cannot write the export ({exc.strerror or exc})") from None
    if args.json:
        print_json({"directory": str(summary.directory), "evidence_id": bundle.info.evidence_id,
                    "tools": summary.tools, "reads": summary.reads, "reads_from_state": summary.reads_from_state,
                    "writes_served": summary.writes_served, "writes_not_served": summary.writes_not_served,
                    "checked_with": summary.checked_with, "files": list(summary.files)})
        return 0
    print(f"exported {summary.directory}: {summary.tools} tools ({summary.reads} reads, "
          f"{summary.reads_from_state} from the state; {summary.writes_served} write tools served, "
          f"{summary.writes_not_served} not served); checked with {summary.checked_with or 'no read tool'}; "
          f"serve it with `capenv serve {summary.directory} --stdio`")
    return 0
