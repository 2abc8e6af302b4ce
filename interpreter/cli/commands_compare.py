"""``capenv compare BUNDLE --live URL --probes FILE [--model URL] [--json]`` (DESIGN.md §10).

A report, not a test: exit 0 whatever the differences; 2 on bad input (a probe file, a bundle,
an application that cannot be reached).
"""

from __future__ import annotations

import argparse
import sys

from capenv.interpreter.bundle.errors import UserError

from .options import add_capture_options


def register(sub: argparse._SubParsersAction) -> None:
    compare = sub.add_parser(
        "compare", help="send the same calls to the live application and to the model; differences call by call")
    compare.add_argument("target", metavar="BUNDLE|CAPTURE", help="the environment (a capture is built first)")
    compare.add_argument("--live", required=True, metavar="URL", help="the live application's base URL")
    compare.add_argument("--probes", required=True, metavar="FILE", help="the probe file (YAML)")
    compare.add_argument("--model", metavar="URL",
                         help="a model served elsewhere (`capenv serve --http`); default: this bundle, in process")
    compare.add_argument("--timeout", type=float, default=30.0, metavar="SECONDS", help="per call (default 30)")
    compare.add_argument("--insecure", action="store_true",
                         help="an https --live URL: do not check its certificate (a self-signed test instance)")
    compare.add_argument("--json", action="store_true", help="an object with `calls` and `summary`")
    add_capture_options(compare)
    compare.set_defaults(handler=_compare)


def _compare(args: argparse.Namespace) -> int:
    from capenv.serving.compare import (
        HttpSide, ProbeFileError, SideUnreachable, compare, load_probes, render_json, render_text,
    )

    from .commands_env import load_or_build

    try:
        probe_file = load_probes(args.probes)
        live = HttpSide(args.live, "live", timeout=args.timeout, verify_tls=not args.insecure)
        model = HttpSide(args.model, "model", timeout=args.timeout) if args.model else None
    except (ProbeFileError, SideUnreachable) as exc:
        raise UserError(str(exc)) from None
    bundle = _bundle(args, load_or_build)
    try:
        results = compare(bundle, probe_file, live, model)
    except SideUnreachable as exc:
        raise UserError(f"cannot reach {exc}") from None
    model_label = args.model or f"{args.target} (in process)"
    render = render_json if args.json else render_text
    sys.stdout.write(render(results, args.live, model_label) + "\n")
    return 0


def _bundle(args: argparse.Namespace, load_or_build):
    from capenv.interpreter.bundle.io import BundleError

    try:
        return load_or_build(args.target, args)
    except BundleError as exc:
        raise UserError(str(exc)) from None
