"""``capenv openapi BUNDLE|CAPTURE [-o FILE]``: the OpenAPI 3.1 description of the HTTP surface
the environment serves (the same document ``GET /_capenv/openapi.json`` answers)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from capenv.interpreter.bundle.errors import UserError

from .options import add_capture_options


def register(sub: argparse._SubParsersAction) -> None:
    openapi = sub.add_parser("openapi", help="the OpenAPI 3.1 description of the served HTTP surface (JSON)")
    openapi.add_argument("target", metavar="BUNDLE|CAPTURE")
    openapi.add_argument("-o", "--output", metavar="FILE", help="write it here (default: stdout)")
    openapi.add_argument("--replay-only", action="store_true",
                         help="describe what `capenv serve --replay-only` serves (every read replayed, no write)")
    openapi.add_argument("--json", action="store_true",
                         help="the document is JSON already; with -o FILE print what was written as one JSON object")
    add_capture_options(openapi)
    openapi.set_defaults(handler=_openapi)


def _openapi(args: argparse.Namespace) -> int:
    from capenv.serving.runtime import EnvironmentRuntime

    from .commands_env import load_or_build

    bundle = load_or_build(args.target, args)
    runtime = EnvironmentRuntime(bundle, replay_only=args.replay_only)
    try:
        document = runtime.openapi()
    finally:
        runtime.close()
    if not args.output or args.output == "-":
        sys.stdout.buffer.write(document + b"\n")
        sys.stdout.buffer.flush()
        return 0
    try:
        Path(args.output).write_bytes(document + b"\n")
    except OSError as exc:
        raise UserError(f"{args.output}: cannot write the description ({exc.strerror or exc})") from None
    if args.json:
        from capenv.interpreter.bundle.jsonvalue import loads

        from .commands_env import print_json

        described = loads(document)
        print_json({"file": args.output, "openapi": described["openapi"], "paths": len(described["paths"]),
                    "operations": sum(len(item) for item in described["paths"].values()),
                    "not_served": [n["tool"] for n in described.get("x-capenv-not-served", [])]})
    else:
        print(f"wrote {args.output}", file=sys.stderr)
    return 0
