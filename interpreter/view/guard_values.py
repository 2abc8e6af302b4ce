"""Request headers a tool's successful calls all sent with one value that the application checks
(the ``request-guard-values`` table): ``ReplayTable.guarded_headers``, per tool (reads and writes).
A call of the capture sending another value of such a header alone was refused (an Origin the
application does not trust), so serving refuses an HTTP call sending another value or none, where
it would otherwise apply or answer a call the application refuses. Headers carrying credentials are
left to ``write-credentials``, whose refusals never quote a value."""

from __future__ import annotations

from collections.abc import Set

from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Manifest
from capenv.interpreter.predicates.guard_values import GuardValueContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

TABLE = "request-guard-values"
CLIENT_ERRORS = (400, 500)
"""The statuses a refusal can have (``refused_otherwise``; the table's rules say which count)."""


def guarded_headers(manifest: Manifest, records: dict[int, Record], ruleset: RuleSet,
                    credentials: Set[str] = frozenset()
                    ) -> tuple[dict[str, dict[str, str]], tuple[TraceEvent, ...]]:
    """Per tool with some, {header (lower case): the one value its calls sent}; and the traces of
    the headers judged. ``credentials``: the headers some tool requires as credentials, never judged here."""
    if TABLE not in ruleset.tables:
        return {}, ()
    client_errors = [r for r in records.values() if CLIENT_ERRORS[0] <= r.status < CLIENT_ERRORS[1]]
    found: dict[str, dict[str, str]] = {}
    events: list[TraceEvent] = []
    for tool in manifest.tools:
        succeeded = [records[o] for o in tool.record_ordinals if o in records and records[o].succeeded]
        sent: dict[str, dict[str, list[int]]] = {}
        for call in succeeded:
            for name, value in call.request_headers:
                if value.strip():
                    sent.setdefault(name.lower(), {}).setdefault(value.strip(), []).append(call.ordinal)
        every = {name for name, values in sent.items()
                 if len({o for ordinals in values.values() for o in ordinals}) == len(succeeded)}
        methods = {records[o].method for o in tool.record_ordinals if o in records}
        for name, values in sorted(sent.items()):
            if name in credentials:
                continue
            # a refusal tells of this header only when it sent another value of this one alone
            refused = [(r.ordinal, r.status) for r in client_errors if r.method in methods
                       and (sent_value := _value(r, name)) is not None and sent_value not in values
                       and all(_value(r, other) is not None for other in every - {name})]
            if not refused:  # nothing shows the value checked: not worth a trace per header of every tool
                continue
            context = GuardValueContext(name=name, calls=len(succeeded), values=values, refused_otherwise=refused)
            decision = evaluate(ruleset, TABLE, context, subject=f"{tool.name} header {name}")
            events.extend(decision.events)
            if decision.yields.get("guarded"):
                found.setdefault(tool.name, {})[name] = next(iter(values))
    return found, tuple(events)


def _value(record: Record, name: str) -> str | None:
    value = record.header(name, response=False)
    return value.strip() if value and value.strip() else None
