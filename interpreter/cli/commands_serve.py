"""``capenv serve`` and ``capenv data``: run an environment, and use its data plane (DESIGN.md §10)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from capenv.interpreter.bundle.errors import UserError

from .options import add_capture_options



def register(sub: argparse._SubParsersAction) -> None:
    serve = sub.add_parser("serve", help="serve a bundle (a capture is built first) over MCP, and with --http "
                                         "the application's own paths and the data plane")
    serve.add_argument("target", metavar="BUNDLE|CAPTURE")
    mode = serve.add_mutually_exclusive_group()
    mode.add_argument("--stdio", action="store_true", help="MCP over stdin/stdout (the default)")
    mode.add_argument("--http", metavar="HOST:PORT",
                      help="MCP over streamable HTTP and the application's paths (the agent's listener); "
                           "PORT or :PORT binds loopback")
    serve.add_argument("--store", metavar="URL", help="keep the state in a store (memory:, sqlite:PATH, postgresql://…)")
    serve.add_argument("--replay-only", action="store_true", help="answer every read by replaying the capture")
    serve.add_argument("--instances", action="store_true",
                       help="with --http: hold many isolated environments of the bundle, each at /i/ID/…, created "
                            "and deleted by the grader (POST /_capenv/instances; docs/instances.md)")
    serve.add_argument("--log", "--verbose", dest="log", action="store_true",
                       help="one line per request on stderr: method, path, status, tool, ms (MCP tool calls as "
                            "`MCP tools/call ok|error TOOL`)")
    serve.add_argument("-q", "--quiet", action="store_true",
                       help="print only the address (and a generated grader's token), no banner "
                            "(the request log, with --log, still goes to stderr)")
    from capenv.serving.transport.listen import add_access_options

    add_access_options(serve, token_from_environment=True)
    add_capture_options(serve)
    serve.set_defaults(handler=_serve)

    data = sub.add_parser("data", help="data/get, data/reset, data/add of a running server (--url) or offline "
                                       "(--bundle B --store URL)")
    # One subcommand per verb, so FILE may come before or after the options.
    verbs = data.add_subparsers(dest="verb", metavar="get|reset|add", required=True)
    for verb, file_help in (("get", "write the document here (default: stdout)"), ("reset", None),
                            ("add", "the state document to install (- reads stdin)")):
        parser = verbs.add_parser(verb, help=f"data/{verb}")
        if verb == "get":
            parser.add_argument("file", nargs="?", metavar="FILE", help=file_help)
        elif verb == "add":
            parser.add_argument("file", metavar="FILE", help=file_help)
        parser.add_argument("--url", help="the data plane's base URL, as `capenv serve --http` prints it")
        parser.add_argument("--token", help="the grader's bearer token `capenv serve` printed (or set "
                                            "CAPENV_DATA_TOKEN); not needed on a --data listener without one")
        parser.add_argument("--bundle", metavar="BUNDLE|CAPTURE", help="work offline on this environment's state")
        parser.add_argument("--store", metavar="URL", help="with --bundle: the lasting store holding the state (sqlite:FILE, postgresql://…; get alone may use memory:)")
        parser.add_argument("--json", action="store_true",
                            help="print the outcome as one JSON object (get without FILE: the document under "
                                 "\"document\")")
        add_capture_options(parser)
        parser.set_defaults(handler=_data, **({"file": None} if verb == "reset" else {}))


# --- serve ------------------------------------------------------------------------------


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT``, ``[::1]:PORT``, ``:PORT`` or ``PORT`` (the last two bind loopback)."""
    from capenv.serving.transport.listen import parse_listen as parse

    try:
        return parse(text)
    except ValueError as exc:
        raise UserError(str(exc)) from None


def store_label(url: str) -> str:
    """The store URL to print: a password in it is masked."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def _runtime(target: str, args: argparse.Namespace, store_url: str | None, replay_only: bool = False):
    from capenv.serving.runtime import EnvironmentRuntime
    from capenv.serving.store import StoreError, open_store

    from .commands_env import load_or_build

    bundle = load_or_build(target, args)
    try:
        store = open_store(store_url) if store_url else None
    except (ValueError, StoreError) as exc:  # a URL of no accepted form, or a backend out of reach
        raise UserError(f"--store {store_url}: {exc}") from None
    try:
        return EnvironmentRuntime(bundle, replay_only=replay_only, store=store)
    except StoreError as exc:
        raise UserError(f"--store {store_url}: {exc}") from None


def _serve(args: argparse.Namespace) -> int:
    from capenv.serving.transport.listen import access_from

    listen = parse_listen(args.http) if args.http else None
    if listen is None and (args.data or args.data_token or args.allow_host or args.cors):
        raise UserError("--data, --data-token, --allow-host and --cors go with --http (over stdio the data plane "
                        "is reached offline: capenv data --bundle B --store URL)")
    try:
        access = access_from(args, token_from_environment=listen is not None)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if args.instances and (listen is None or args.replay_only):
        raise UserError("--instances goes with --http (each instance is reached at /i/ID/… over HTTP) and needs the "
                        "state (not --replay-only)")
    runtime = _runtime(args.target, args, None if args.instances else args.store, args.replay_only)
    fleet = _fleet(runtime, args.store) if args.instances else None
    from capenv.serving.runtime import settle_for_serving

    settle_for_serving()
    if not args.quiet:
        _banner(runtime, args, listen is None)
    log = None
    if args.log:
        from capenv.serving.transport.request_log import RequestLog

        log = RequestLog()
    try:
        if listen is None:
            from capenv.serving.transport.mcp_server import run_stdio

            run_stdio(runtime, log)
        else:
            from capenv.serving.transport.http_app import run_http

            if runtime.reserved_mcp_path() != "/mcp" and not args.quiet:
                print(f"capenv: the application uses /mcp; MCP is at {runtime.reserved_mcp_path()}", flush=True)
            make_app = None
            if fleet is not None:
                from capenv.serving.transport.fleet_app import FleetHttpApp

                make_app = lambda policies, **options: FleetHttpApp(fleet, policies, **options)  # noqa: E731
            try:
                run_http(runtime, listen[0], listen[1], access=access, log=log, quiet=args.quiet, make_app=make_app)
            except OSError as exc:
                raise UserError(str(exc)) from None
    finally:
        runtime.close()
        if fleet is not None:
            fleet.close()
    return 0


def _fleet(runtime, store_url: str | None):
    """``--instances``: the fleet of ``runtime``'s bundle, its instances kept in ``store_url``'s store."""
    from capenv.serving.instances.fleet import InstanceFleet
    from capenv.serving.runtime_api import DataPlaneRefusal
    from capenv.serving.store import StoreError, open_store

    try:
        store = open_store(store_url) if store_url else None
    except (ValueError, StoreError) as exc:
        raise UserError(f"--store {store_url}: {exc}") from None
    try:
        return InstanceFleet(runtime, store, idle_seconds=runtime.bundle.view.budgets.instance_idle_seconds or None)
    except DataPlaneRefusal as refusal:
        raise UserError(f"--instances: {refusal.message}") from None
    except StoreError as exc:
        raise UserError(f"--store {store_url}: {exc}") from None


def _banner(runtime, args: argparse.Namespace, stdio: bool) -> None:
    """What is served, before the server starts (stdout with --http; stderr on stdio, whose stdout
    carries only MCP messages)."""
    report = runtime.catalog_report()
    out = sys.stderr if stdio else sys.stdout
    print(f"capenv: {report['tools']} tools listed ({report['from_state']} from the state) for "
          f"{runtime.bundle.info.source}, evidence {runtime.bundle.info.evidence_id}", file=out, flush=True)
    print(tool_count_note(runtime), file=out, flush=True)
    if stdio:
        print("capenv: MCP over stdio (stdin/stdout)", file=out, flush=True)
    if args.store:
        shared = "one fleet of instances" if args.instances else "one state"
        print(f"capenv: state kept in {store_label(args.store)}; every process serving it shares {shared}",
              file=out, flush=True)
    if not report["state_available"]:
        print("capenv: the state is unavailable (a budget was hit); every read replays", file=out, flush=True)
    for hit in report["hits"]:
        print(f"capenv: description of {hit['tool']} {hit['effect']} ({hit['budget']}: {hit['used']} of "
              f"{hit['wanted']} characters)", file=out, flush=True)


def tool_count_note(runtime) -> str:
    """Why ``serve`` lists fewer tools than ``build`` and ``report`` count: those count every tool of
    the manifest, serve lists the read tools and the write tools it serves."""
    manifest = [t.name for t in runtime.bundle.manifest.tools]
    unlisted = [name for name in manifest if name not in runtime.catalog.entries]
    if not unlisted:
        return f"capenv: every tool of the manifest is listed ({len(manifest)}, as `capenv report` counts)"
    writes = {p.tool for p in runtime.bundle.view.writes}
    kind = "write tool" if all(name in writes for name in unlisted) else "tool"
    shown = ", ".join(unlisted[:5]) + (", …" if len(unlisted) > 5 else "")
    many = len(unlisted) != 1
    return (f"capenv: `capenv report` counts the manifest's {len(manifest)} tools; {len(unlisted)} {kind}"
            f"{'s' if many else ''} not served ({shown}) {'are' if many else 'is'} not listed, "
            "`capenv report` says why")


# --- data -------------------------------------------------------------------------------


def _data(args: argparse.Namespace) -> int:
    if bool(args.url) == bool(args.bundle):
        raise UserError("capenv data needs --url URL (a running server) or --bundle BUNDLE [--store URL] (offline)")
    if args.store and not args.bundle:
        raise UserError("--store goes with --bundle (offline); a running server keeps its own store")
    if args.bundle and args.verb != "get" and not _lasting(args.store):
        raise UserError(f"data {args.verb} --bundle needs --store URL naming a lasting store (sqlite:FILE or "
                        "postgresql://…): without one the change would be made on a throwaway memory store")
    document = _read_document(args.file) if args.verb == "add" else None
    if args.url:
        import os

        from capenv.serving.transport.listen import DATA_TOKEN_VARIABLE

        result = _data_online(args.verb, args.url, document, args.token or os.environ.get(DATA_TOKEN_VARIABLE))
    else:
        result = _data_offline(args, document)
    named = args.file not in (None, "-")
    if args.verb == "get" and (named or not args.json):  # with --json, stdout holds only the outcome
        _write_document(args.file, result)
    if args.json:
        _print_data_outcome(args, result, document)
    elif args.verb != "get":
        print(f"data/{args.verb}: done", file=sys.stderr)
    return 0


def _print_data_outcome(args: argparse.Namespace, result: bytes, document: bytes | None) -> None:
    """``capenv data VERB --json``: what was done, to which environment, with which document."""
    from capenv.interpreter.bundle.jsonvalue import loads

    from .commands_env import print_json

    outcome: dict = {"verb": args.verb, "done": True}
    outcome |= {"url": args.url} if args.url else {"bundle": args.bundle, "store": store_label(args.store or "memory:")}
    if args.verb == "get" and args.file in (None, "-"):
        outcome["document"] = loads(result)
    elif args.file not in (None, "-"):
        outcome |= {"file": args.file, "bytes": len(result if args.verb == "get" else document or b"")}
    elif args.verb == "add":
        outcome["bytes"] = len(document or b"")
    print_json(outcome)


def _lasting(store_url: str | None) -> bool:
    return bool(store_url) and not store_url.startswith("memory:")


def _data_online(verb: str, url: str, document: bytes | None, token: str | None) -> bytes:
    from capenv.serving.transport import data_client

    try:
        if verb == "get":
            return data_client.data_get(url, token=token)
        if verb == "reset":
            data_client.data_reset(url, token=token)
        else:
            data_client.data_add(url, document or b"", token=token)
    except data_client.DataPlaneError as exc:
        raise UserError(exc.message) from None
    return b""


def _data_offline(args: argparse.Namespace, document: bytes | None) -> bytes:
    from capenv.serving.runtime_api import DataPlaneRefusal

    runtime = _runtime(args.bundle, args, args.store or "memory:")
    try:
        if args.verb == "get":
            return runtime.data_get()
        if args.verb == "reset":
            runtime.data_reset()
        else:
            runtime.data_add(document or b"")
    except DataPlaneRefusal as refusal:
        raise UserError(f"data/add refused ({refusal.kind}): {refusal.message}") from None
    finally:
        runtime.close()
    return b""


def _read_document(name: str) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(name).read_bytes()
    except OSError as exc:
        raise UserError(f"{name}: cannot read the document ({exc.strerror or exc})") from None


def _write_document(name: str | None, document: bytes) -> None:
    if not name or name == "-":
        sys.stdout.buffer.write(document + b"\n")
        sys.stdout.buffer.flush()
        return
    try:
        Path(name).write_bytes(document)
    except OSError as exc:
        raise UserError(f"{name}: cannot write the document ({exc.strerror or exc})") from None
