"""``capenv compare BUNDLE --live URL --probes FILE [--model URL] [--json]`` (DESIGN.md §10), or
``--explore`` [``--probes FILE``]: the reads of the seed state derived from the bundle
(``serving/compare/explore``), then the file's own calls, if one is given.

A report, not a test: exit 0 whatever the differences; 2 on bad input (a probe file, a bundle,
an application that cannot be reached, neither --probes nor --explore).
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
    compare.add_argument("--probes", metavar="FILE",
                         help="the probe file (YAML); with --explore, sent after the derived reads (its headers and "
                              "minted values go with them)")
    compare.add_argument("--explore", action="store_true",
                         help="derive reads of the seed state from the bundle (recorded reads before the first write, "
                              "an item read of each initial entity, a never-held id, list queries with other values): "
                              "for a freshly started application")
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
        HttpSide, ProbeFileError, SideUnreachable, compare, compare_explored, load_probes, render_json, render_text,
    )

    from .commands_env import load_or_build

    if not args.probes and not args.explore:
        raise UserError("compare: give --probes FILE, --explore, or both")
    try:
        probe_file = load_probes(args.probes) if args.probes else None
        live = HttpSide(args.live, "live", timeout=args.timeout, verify_tls=not args.insecure)
        model = HttpSide(args.model, "model", timeout=args.timeout) if args.model else None
    except (ProbeFileError, SideUnreachable) as exc:
        raise UserError(str(exc)) from None
    bundle = _bundle(args, load_or_build)
    skipped = None
    try:
        if args.explore:
            explored = compare_explored(bundle, live, model, probe_file)
            results, skipped = explored.results, explored.skipped
        else:
            results = compare(bundle, probe_file, live, model)
    except SideUnreachable as exc:
        raise UserError(f"cannot reach {exc}") from None
    model_label = args.model or f"{args.target} (in process)"
    render = render_json if args.json else render_text
    sys.stdout.write(render(results, args.live, model_label, skipped=skipped) + "\n")
    return 0


def _bundle(args: argparse.Namespace, load_or_build):
    from capenv.interpreter.bundle.io import BundleError

    try:
        return load_or_build(args.target, args)
    except BundleError as exc:
        raise UserError(str(exc)) from None
