"""``capenv verify CAPTURE... [--check]``: build every capture and write the verification report
(``docs/verification.md``), or with ``--check`` fail when the committed report is stale."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from capenv.interpreter.bundle.errors import UserError
from capenv.interpreter.ground_truth import GroundTruthError, load_ground_truth
from capenv.interpreter.pipeline import build_bundle
from capenv.interpreter.verification import VerifiedCapture, render_verification, shown_path

from .generated import write_or_check
from .progress import progress_printer

DEFAULT_REPORT = Path("docs/verification.md")


def register(sub: argparse._SubParsersAction) -> None:
    verify = sub.add_parser("verify", help="build each capture and write the verification report (Markdown)")
    verify.add_argument("captures", nargs="+", metavar="CAPTURE", help="HAR files (.har, .har.gz, .zhar, .zip)")
    verify.add_argument("--output", default=str(DEFAULT_REPORT),
                        help="where the report goes, - for stdout (default %(default)s)")
    verify.add_argument("--check", action="store_true", help="fail when the file is stale instead of writing it")
    verify.add_argument("--rules", help="a rules directory (default: the packaged rules/)")
    verify.set_defaults(handler=_verify)


def _verify(args: argparse.Namespace) -> int:
    text = render_verification(_build_all(args.captures, args.rules))
    if args.output == "-":
        if args.check:
            raise UserError("--check compares against a file: give --output FILE, not -")
        sys.stdout.write(text)
        return 0
    return write_or_check(Path(args.output), text, check=args.check,
                          regenerate="run the same `capenv verify` without --check",
                          detail=f"{len(args.captures)} captures")


def _build_all(paths: list[str], rules: str | None) -> list[VerifiedCapture]:
    built: dict[str, VerifiedCapture] = {}
    for path in paths:
        target = Path(path)
        if target.is_dir():
            raise UserError(f"{path}: a directory, not a capture (give its capture.har)")
        if not target.exists():
            raise UserError(f"{path}: no such file")
        shown = shown_path(target)
        if shown in built:  # the same capture twice would only repeat a section
            continue
        try:
            truth = load_ground_truth(target)
        except GroundTruthError as exc:
            raise UserError(str(exc)) from None
        bundle = build_bundle(target, rules=rules, progress=progress_printer(f"reading {target.name}"))
        built[shown] = VerifiedCapture(shown, bundle, truth)
    return list(built.values())
