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
                "commands_compare", "commands_rules", "commands_verify", "commands_history", "commands_openapi",
                "commands_fleet")


# Which module registers each verb: a run imports only its own verb's module (a build does not pay
# for importing the server, nor `capenv data` for the build). A verb missing here still works: the
# parser then registers every module.
MODULE_OF_VERB = {"inspect": "commands_capture", "build": "commands_env", "report": "commands_env",
                  "explain": "commands_explain", "serve": "commands_serve", "data": "commands_serve",
                  "export": "commands_export", "compare": "commands_compare", "rules": "commands_rules",
                  "verify": "commands_verify", "history": "commands_history", "openapi": "commands_openapi",
                  "fleet": "commands_fleet"}


def _registrars(verb: str | None = None) -> list[Registrar]:
    import importlib

    names = [MODULE_OF_VERB[verb]] if verb in MODULE_OF_VERB else VERB_MODULES
    return [importlib.import_module(f"{__package__}.{name}").register for name in names]


def build_parser(verb: str | None = None) -> argparse.ArgumentParser:
    """The whole parser, or (``verb`` given) one holding just that verb's module."""
    parser = argparse.ArgumentParser(
        prog="capenv",
        description="Turn a recorded HTTP capture (HAR) into a stateful, verified environment served over MCP.")
    parser.add_argument("--version", action=_PrintVersion)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for register in _registrars(verb):
        register(sub)
    return parser


def _verb(argv: Sequence[str]) -> str | None:
    return argv[0] if argv and not argv[0].startswith("-") else None


class _PrintVersion(argparse.Action):
    """``--version``: the installed version, looked up only when asked for (reading the package's
    metadata imports ``importlib.metadata`` and ``email``, ~40 ms of every run otherwise)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="show program's version number and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        print(f"capenv {_version()}")
        parser.exit()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("capenv")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(_verb(argv))
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
