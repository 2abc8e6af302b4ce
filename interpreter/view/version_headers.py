"""Request headers a tool's successful calls all sent with one value that select a version of the
API (the ``request-version-headers`` table): ``ReplayTable.pinned_headers``, per tool (reads and
writes). Serving refuses an HTTP call sending another value or none, which the application
answers in another version's shapes or refuses, where the capture shows only the one."""

from __future__ import annotations

from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Manifest
from capenv.interpreter.predicates.version_headers import VersionHeaderContext
from capenv.interpreter.rules_engine import RuleSet, evaluate

TABLE = "request-version-headers"


def pinned_headers(manifest: Manifest, records: dict[int, Record], ruleset: RuleSet) -> dict[str, dict[str, str]]:
    """Per tool with some, {header (lower case): the one value its calls sent}."""
    if TABLE not in ruleset.tables:
        return {}
    found: dict[str, dict[str, str]] = {}
    for tool in manifest.tools:
        succeeded = [records[o] for o in tool.record_ordinals if records[o].succeeded]
        sent: dict[str, dict[str, list[int]]] = {}
        for call in succeeded:
            for name, value in call.request_headers:
                if value.strip():
                    sent.setdefault(name.lower(), {}).setdefault(value.strip(), []).append(call.ordinal)
        for name, values in sorted(sent.items()):
            context = VersionHeaderContext(name=name, calls=len(succeeded), values=values)
            if evaluate(ruleset, TABLE, context, subject=f"{tool.name} header {name}").yields.get("pinned"):
                found.setdefault(tool.name, {})[name] = next(iter(values))
    return found
