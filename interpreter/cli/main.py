"""The ``capenv`` command line (DESIGN.md §10): thin; every verb calls library code.

Exit codes: 0 success, 2 bad input (one line naming the file and what is wrong),
1 internal error. No traceback reaches a user unless CAPENV_DEBUG=1.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Callable, Sequence

from .errors import exit_code_for, message_for

Registrar = Callable[[argparse._SubParsersAction], None]


# The verbs in the order DESIGN.md §10 lists them (plus verify and history); each module has
# one ``register(subparsers)``.
VERB_MODULES = ("commands_capture", "commands_env", "commands_explain", "commands_serve", "commands_export",
                "commands_compare", "commands_rules", "commands_verify", "commands_history")


def _registrars() -> list[Registrar]:
    import importlib

    return [importlib.import_module(f"{__package__}.{name}").register for name in VERB_MODULES]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="capenv",
        description="Turn a recorded HTTP capture (HAR) into a stateful, verified environment served over MCP.")
    parser.add_argument("--version", action="version", version=f"capenv {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for register in _registrars():
        register(sub)
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("capenv")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result = args.handler(args)
    except KeyboardInterrupt:
        print("capenv: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # one line for the user; the traceback only when asked for
        if os.environ.get("CAPENV_DEBUG") == "1":
            raise
        print(f"capenv: {message_for(exc)}", file=sys.stderr)
        return exit_code_for(exc)
    return int(result or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
