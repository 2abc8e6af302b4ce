"""``capenv fleet create|list|delete|snapshot``: a fleet of environments (``capenv serve --http …
--instances``) from the command line (``docs/instances.md``)."""

from __future__ import annotations

import argparse
import json
import os

from capenv.interpreter.bundle.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    fleet = sub.add_parser("fleet", help="create, list, snapshot and delete the instances of a server run with "
                                         "--instances")
    verbs = fleet.add_subparsers(dest="verb", metavar="create|list|delete|snapshot", required=True)
    for verb, summary in (("create", "a new instance (prints its id and MCP URL)"), ("list", "the instances"),
                          ("delete", "delete an instance and its storage"),
                          ("snapshot", "snapshot an instance's state (prints the snapshot id)")):
        parser = verbs.add_parser(verb, help=summary)
        if verb in ("delete", "snapshot"):
            parser.add_argument("instance", metavar="ID")
        if verb == "create":
            parser.add_argument("--from-snapshot", metavar="SNAPSHOT_ID", help="start from a snapshot's state")
        parser.add_argument("--url", required=True, help="the grader's base URL, as `capenv serve` prints it")
        parser.add_argument("--token", help="the grader's bearer token (or set CAPENV_DATA_TOKEN)")
        parser.add_argument("--json", action="store_true", help="print the server's answer as JSON")
        parser.set_defaults(handler=_fleet)


def _fleet(args: argparse.Namespace) -> int:
    from capenv.serving.transport.fleet_client import Fleet, FleetError
    from capenv.serving.transport.listen import DATA_TOKEN_VARIABLE

    token = args.token or os.environ.get(DATA_TOKEN_VARIABLE)
    try:
        with Fleet(args.url, token) as fleet:
            if args.verb == "create":
                made = fleet.create(args.from_snapshot)
                answer = {"id": made.id, "mcp_url": made.mcp_url, "http_base": made.http_base}
                text = f"{made.id}\t{made.mcp_url}"
            elif args.verb == "list":
                listed = fleet.list()
                answer = {"instances": listed}
                text = "\n".join(f"{i['id']}\t{i.get('mcp_url', '')}\tcreated {i.get('created_at', '')}"
                                 for i in listed) or "no instances"
            elif args.verb == "snapshot":
                answer = {"snapshot_id": fleet.snapshot(args.instance), "instance": args.instance}
                text = answer["snapshot_id"]
            else:
                fleet.delete(args.instance)
                answer, text = {"deleted": args.instance}, f"deleted {args.instance}"
    except FleetError as error:
        raise UserError(error.message) from None
    print(json.dumps(answer, indent=2) if args.json else text, flush=True)
    return 0
