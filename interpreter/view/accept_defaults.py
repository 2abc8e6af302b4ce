"""Read tools whose recordings never show the answer to a call sending no Accept header
(``view-accept-defaults``): every recording asked for specific media types (Node-RED's ``GET
/nodes`` recorded with ``Accept: application/json`` alone, where Node-RED answers its HTML editor
list to a call sending none). Serving answers such a tool over HTTP only for a call sending one
of the recorded Accept values, and refuses the others (406), saying which to send; an MCP call
names no representation and takes the tool's recorded one.
"""

from __future__ import annotations

from capenv.interpreter.bundle.paths import normalised_accept
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Manifest
from capenv.interpreter.predicates.accept_defaults import AcceptDefaultContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

TABLE = "view-accept-defaults"


def required_accepts(manifest: Manifest, records: dict[int, Record], ruleset: RuleSet
                     ) -> tuple[dict[str, tuple[str, ...]], tuple[TraceEvent, ...]]:
    """Per read tool whose recordings show no default representation: the normalised Accept
    values they sent, sorted; and the traces of the tools judged so."""
    if TABLE not in ruleset.tables:
        return {}, ()
    found: dict[str, tuple[str, ...]] = {}
    traces: list[TraceEvent] = []
    for tool in manifest.tools:
        if tool.changes_state or tool.method != "GET" or not tool.record_ordinals:
            continue
        sent = [_sent(records[o]) for o in tool.record_ordinals]
        decision = evaluate(ruleset, TABLE, AcceptDefaultContext(sent=sent), subject=f"{tool.name} Accept")
        if decision.yields.get("required"):
            found[tool.name] = tuple(sorted({value for value in sent if value}))
            traces.extend(decision.events)
    return found, tuple(traces)


def _sent(record: Record) -> str | None:
    value = record.header("accept", response=False)
    return normalised_accept(value) if value is not None and value.strip() else None
