"""``capenv history verify``: replay a store's history on the initial state (DESIGN.md §8).

Exit codes: 0 when every recorded outcome is reproduced, 1 when one is not (the first that
differs is named), 2 on bad input (a bundle or store URL that does not open, a store holding no
history for the bundle's environment).
"""

from __future__ import annotations

import argparse
import sys

from capenv.interpreter.bundle.errors import UserError

from .options import add_capture_options


def register(sub: argparse._SubParsersAction) -> None:
    history = sub.add_parser("history", help="the history of served writes a store keeps")
    verbs = history.add_subparsers(dest="verb", metavar="verify", required=True)
    verify = verbs.add_parser("verify", help="replay the history on the initial state through the same executor; "
                                             "every recorded outcome must be reproduced")
    verify.add_argument("--bundle", required=True, metavar="BUNDLE|CAPTURE", help="the environment served")
    verify.add_argument("--store", required=True, metavar="URL", help="the store it was served with "
                                                                      "(sqlite:PATH, postgresql://…)")
    verify.add_argument("--json", action="store_true", help="print the outcome as one JSON object")
    add_capture_options(verify)
    verify.set_defaults(handler=_verify)


def _verify(args: argparse.Namespace) -> int:
    from capenv.interpreter.bundle.jsonvalue import dumps
    from capenv.serving.state.history import NoHistory, verify_history
    from capenv.serving.store import StoreError, open_store

    from .commands_env import load_or_build

    bundle = load_or_build(args.bundle, args)
    _require_existing_sqlite(args.store)
    try:
        store = open_store(args.store)
    except (ValueError, StoreError) as exc:
        raise UserError(f"--store {args.store}: {exc}") from None
    try:
        verification = verify_history(bundle, store)
    except NoHistory as exc:
        raise UserError(f"--store {args.store}: {exc}") from None
    finally:
        store.close()
    if args.json:
        sys.stdout.write(dumps(verification.to_json()).decode("utf-8") + "\n")
    elif verification.difference is None:
        print(f"history verify: {verification.changes} changes replayed ({verification.writes} writes): every "
              "recorded outcome reproduced, and the replayed state is the stored state")
    else:
        print(f"history verify: differs at {verification.difference.describe()}")
    return 0 if verification.agrees else 1


def _require_existing_sqlite(url: str) -> None:
    """Verifying reads a store: a SQLite path that names no file is a typo, not an empty store to
    create."""
    from pathlib import Path
    from urllib.parse import unquote

    scheme, _, rest = url.partition(":")
    if scheme.lower() != "sqlite":
        return
    path = unquote(rest.partition("?")[0])
    path = path[2:] if path.startswith("///") else path
    if path and not Path(path).exists():
        raise UserError(f"--store {url}: no such SQLite file {path}")
