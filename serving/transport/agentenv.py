"""Serve an exported environment to the AgentEnv framework (docs/agentenv.md)::

    python -m capenv.serving.transport.agentenv BUNDLE [--http HOST:PORT] [--data HOST:PORT] [--name NAME] [--store URL]
        [--data-root DIR]

It serves what ``capenv serve BUNDLE --http`` serves (MCP at ``/mcp``, the application's own
paths), over the same runtime, plus the framework's card at ``/.well-known/agent-env.json``; the
grader's data planes (``/_capenv/data/…`` and the framework's JSON-RPC at ``/agentenv``,
``agentenv_rpc``) are served on the grader's own listener, ``--data`` (a free loopback port
unless given; the framework's data-plane client sends no token), or with ``--data-token`` on the
agent's listener for a bearer.
One server is one environment with one state: the framework deploys one per episode or puts the
initial state back with ``data/reset`` between episodes.

Defaults follow the framework's deploy contract for a server in a container: the card's name is
``ENVIRONMENT_NAME`` when set (the framework checks the card against the name it registered), else
``--name``, else the bundle directory's name; the address is ``--http``, else ``MCP_HOST`` and
``MCP_PORT`` (the framework's 18765 by default) on loopback unless ``MCP_HOST`` says otherwise.
Exit codes as ``capenv``'s: 0 done, 2 bad input (one line naming what is wrong), 1 internal error.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from capenv.interpreter.bundle.io import Bundle, BundleError, read_bundle

from capenv.serving.transport.agentenv_card import ENVIRONMENT_NAME_VARIABLE, RPC_PATH, WELL_KNOWN_PATH
from capenv.serving.transport.listen import LOOPBACK, access_from, add_access_options, parse_listen

FRAMEWORK_PORT = 18765
"""The port the framework reaches a deployed server's MCP on (``AGENT_ENV_GATEWAY_MCP_PORT``)."""


class BadInput(Exception):
    """One line for the terminal; exit code 2."""


def parse_address(text: str, label: str = "--http") -> tuple[str, int]:
    try:
        return parse_listen(text, label)
    except ValueError as exc:
        raise BadInput(str(exc)) from None


def listen_address(given: str | None) -> tuple[str, int]:
    if given:
        return parse_address(given)
    port = os.environ.get("MCP_PORT", str(FRAMEWORK_PORT))
    host, _ = parse_address(f"{os.environ.get('MCP_HOST') or LOOPBACK}:0", "MCP_HOST")
    return host, parse_address(port, "MCP_PORT")[1]


def environment_name(bundle_path: Path, given: str | None) -> str:
    name = os.environ.get(ENVIRONMENT_NAME_VARIABLE) or given or bundle_path.resolve().name
    if not name.strip():
        raise BadInput(f"the environment needs a name: set --name or {ENVIRONMENT_NAME_VARIABLE}")
    return name


def staging_directory(given: str | None) -> Path | None:
    """``--data-root``: an existing directory whose regular files data/add's ``file://`` parts may name."""
    if given is None:
        return None
    root = Path(given)
    if not root.is_dir():
        raise BadInput(f"--data-root {given}: not a directory")
    return root.resolve()


def claimed_paths_in_use(bundle: Bundle) -> list[str]:
    """The framework's two paths that a tool of the application answers (they would be shadowed)."""
    return [f"{path} ({tool.name})" for path in (WELL_KNOWN_PATH, RPC_PATH)
            for tool in bundle.manifest.tools if tool.match(path) is not None]


def serve(arguments: argparse.Namespace) -> None:
    from capenv.serving.runtime import EnvironmentRuntime, settle_for_serving
    from capenv.serving.store import StoreError, open_store
    from capenv.serving.transport.agentenv_rpc import AgentEnvRuntime
    from capenv.serving.transport.http_app import HttpServing, run_http

    host, port = listen_address(arguments.http)
    data_root = staging_directory(arguments.data_root)
    try:
        bundle = read_bundle(arguments.bundle)
    except BundleError as exc:
        raise BadInput(str(exc)) from None
    if in_use := claimed_paths_in_use(bundle):
        raise BadInput(f"the application itself answers {', '.join(in_use)}, which the AgentEnv protocol claims; "
                       "serve it with `capenv serve BUNDLE --http` instead")
    name = environment_name(Path(arguments.bundle), arguments.name)
    try:
        store = open_store(arguments.store) if arguments.store else None
        runtime = EnvironmentRuntime(bundle, store=store)
    except (ValueError, StoreError) as exc:
        raise BadInput(f"--store {arguments.store}: {exc}") from None

    settle_for_serving()

    def announce(serving: HttpServing) -> None:
        print(f"  AgentEnv card ({name}): {serving.url(WELL_KNOWN_PATH)}", flush=True)
        print(f"  AgentEnv data plane (JSON-RPC, the grader's): {serving.data_url}{RPC_PATH}", flush=True)

    if not (arguments.data or arguments.data_token):
        arguments.data = f"{LOOPBACK}:0"  # the framework's data-plane client sends no token: its own listener
    try:
        access = access_from(arguments)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    try:
        run_http(AgentEnvRuntime(runtime, name, data_root=data_root), host, port, announce, access=access)
    except OSError as exc:
        raise BadInput(str(exc)) from None
    finally:
        runtime.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m capenv.serving.transport.agentenv",
                                     description="serve an exported environment to the AgentEnv framework")
    parser.add_argument("bundle", metavar="BUNDLE", help="a bundle directory (capenv build or capenv export)")
    parser.add_argument("--http", metavar="HOST:PORT",
                        help=f"where to listen (default: MCP_HOST:MCP_PORT, else {LOOPBACK}:{FRAMEWORK_PORT})")
    parser.add_argument("--name", help=f"the card's name when {ENVIRONMENT_NAME_VARIABLE} is not set "
                                       "(default: the bundle directory's name)")
    parser.add_argument("--store", metavar="URL",
                        help="keep the state in a store (memory:, sqlite:PATH, postgresql://…)")
    parser.add_argument("--data-root", metavar="DIR",
                        help="the directory whose regular files data/add's file:// parts may name "
                             "(default: none; file:// parts are refused)")
    add_access_options(parser)
    arguments = parser.parse_args(argv)
    try:
        serve(arguments)
    except BadInput as exc:
        print(f"capenv agentenv: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a bug: one line, the traceback only when asked for
        if os.environ.get("CAPENV_DEBUG"):
            raise
        print(f"capenv agentenv: internal error: {type(exc).__name__}: {exc} (CAPENV_DEBUG=1 shows the traceback)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
