"""``capenv verify CAPTURE... [--check]``: build every capture and write the verification report
(``docs/verification.md``), or with ``--check`` fail when the committed report is stale, or when an endpoint
is served that its capture's Ground truth says no correct model could serve (a wrong answer waiting for its
call: CI holds that count at 0)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from capenv.interpreter.bundle.errors import UserError
from capenv.interpreter.ground_truth import GroundTruthError, load_ground_truth
from capenv.interpreter.pipeline import build_bundle
from capenv.interpreter.verification import VerifiedCapture, render_verification, shown_path, verification_summary

from .generated import write_or_check
from .progress import progress_printer
from .project import project_file, project_root

DEFAULT_REPORT = "docs/verification.md"
"""Inside the capenv checkout this code runs from (``project.py``), wherever the command is run."""


def register(sub: argparse._SubParsersAction) -> None:
    verify = sub.add_parser("verify", help="build each capture and write the verification report (Markdown)")
    verify.add_argument("captures", nargs="+", metavar="CAPTURE", help="HAR files (.har, .har.gz, .zhar, .zip)")
    verify.add_argument("--output", help=f"where the report goes, - for stdout (default: the project's "
                                         f"{DEFAULT_REPORT}, whatever the current directory)")
    verify.add_argument("--check", action="store_true",
                        help="fail when the file is stale instead of writing it, or when an endpoint the Ground "
                             "truth says is not servable is served")
    verify.add_argument("--rules", help="a rules directory (default: the packaged rules/)")
    verify.add_argument("--json", action="store_true",
                        help="print the outcome as one JSON object (the file, and each capture's figures)")
    verify.set_defaults(handler=_verify)


def _verify(args: argparse.Namespace) -> int:
    output = project_file(DEFAULT_REPORT) if args.output is None else None if args.output == "-" else Path(args.output)
    # Captures are named relative to the checkout when there is one, so where the command runs
    # changes nothing in the report.
    if output is None and args.check:
        raise UserError("--check compares against a file: give --output FILE, not -")
    if output is None and args.json:
        raise UserError("--json prints the outcome on stdout: give --output FILE (or none), not -")
    built = _build_all(args.captures, args.rules, project_root())
    text = render_verification(built)
    if output is None:
        sys.stdout.write(text)
        code = 0
    else:
        code = write_or_check(output, text, check=args.check,
                              regenerate="run the same `capenv verify` without --check",
                              detail=f"{len(args.captures)} captures",
                              as_json={"captures": verification_summary(built)} if args.json else None)
    unservable = served_not_servable(built)
    if unservable:
        message = (f"{len(unservable)} endpoint(s) served where the capture's Ground truth says no correct model "
                   f"could serve them (a wrong answer waiting for its call): {'; '.join(unservable)}")
        if args.check:
            raise UserError(message + " — refuse them, or correct the Ground truth if it is wrong")
        print(f"warning: {message}", file=sys.stderr)
    return code


def served_not_servable(built: list[VerifiedCapture]) -> list[str]:
    """Every endpoint a build serves (any of its tools) that its Ground truth says is not servable."""
    return [f"{capture.shown_path}: {verdict.endpoint.label} ({', '.join(verdict.served)})"
            for capture in sorted(built, key=lambda c: c.shown_path)
            for verdict in capture.endpoint_verdicts() if verdict.served and not verdict.endpoint.servable]


def _build_all(paths: list[str], rules: str | None, root: Path | None) -> list[VerifiedCapture]:
    built: dict[str, VerifiedCapture] = {}
    for path in paths:
        target = Path(path)
        if target.is_dir():
            raise UserError(f"{path}: a directory, not a capture (give its capture.har)")
        if not target.exists():
            raise UserError(f"{path}: no such file")
        shown = shown_path(target, root)
        if shown in built:  # the same capture twice would only repeat a section
            continue
        try:
            truth = load_ground_truth(target)
        except GroundTruthError as exc:
            raise UserError(str(exc)) from None
        bundle = build_bundle(target, rules=rules, progress=progress_printer(f"reading {target.name}"))
        built[shown] = VerifiedCapture(shown, bundle, truth)
    return list(built.values())
