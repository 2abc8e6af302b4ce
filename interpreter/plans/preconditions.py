"""Whether a write tool's calls carried a precondition the application checks (the
``write-preconditions`` table: a conditional header, or a body member carrying the entity's
version, or a query parameter carrying a value the entity held, such as its revision): a tool
every successful call of which sent one gets no plan
(``precondition-header``), since serving cannot check an ETag it does not hold and would apply a
stale call the application refuses (412), or one without it that it may refuse (428); every other
plan lists the headers serving refuses a call for carrying (``WritePlan.unchecked_headers``)."""

from __future__ import annotations

from urllib.parse import unquote

from capenv.interpreter.bundle.json_patch import read_patch
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.write_preconditions import WritePreconditionContext
from capenv.interpreter.rules_engine import Decision, RuleSet, evaluate

TABLE = "write-preconditions"


def precondition_decision(tool_name: str, calls: list[Record], ruleset: RuleSet,
                          records: dict[int, Record] | None = None,
                          patch_ops: tuple[str, ...] = ()) -> Decision | None:
    """The table's decision on the headers, body members and query values the tool's successful
    calls sent (None without the table). ``records``: the whole capture, where the last read of a
    call's own path shows what the entity held when the call began; ``patch_ops``: the bodies are
    JSON Patches of these operations, whose members are the ones they set."""
    if TABLE not in ruleset.tables:
        return None
    sent: dict[str, list[int]] = {}
    members: dict[str, list[int]] = {}
    held_query: list[tuple[str, str, str, int]] = []
    succeeded = [call for call in calls if call.succeeded]
    for call in succeeded:
        for name, _ in call.request_headers:
            sent.setdefault(name.lower(), []).append(call.ordinal)
        body = call.request.json_value if call.request.is_json else None
        body = read_patch(body, patch_ops).members if patch_ops else body
        for name in body if isinstance(body, dict) else ():
            members.setdefault(name, []).append(call.ordinal)
        held_query += [(name, member, value, call.ordinal)
                       for name, member, value in held_query_values(call, records or {})]
    return evaluate(ruleset, TABLE, WritePreconditionContext(calls=len(succeeded), sent=sent, members=members,
                                                             held_query=tuple(held_query)),
                    subject=f"{tool_name} headers")


def held_query_values(call: Record, records: dict[int, Record]) -> list[tuple[str, str, str]]:
    """The call's query parameters whose value a string member of the entity at the call's own path
    held when the call began (the last successful JSON read of that path finished before it), as
    (parameter, member, value): a client sending back a value it read (a revision, ``?rev=1-c093…``).
    A value that is a segment of the path (the entity's own id) names the entity, not its state."""
    if not call.query:
        return []
    read = max((r for r in records.values() if r.method == "GET" and r.path == call.path and r.succeeded
                and r.finished_at <= call.started_at and r.response.is_json
                and isinstance(r.response.json_value, dict)), key=lambda r: r.finished_at, default=None)
    if read is None:
        return []
    held = {value: name for name, value in read.response.json_value.items() if isinstance(value, str)}
    segments = {unquote(segment) for segment in call.path.split("/")}
    return [(name, held[value], value) for name, value in call.query if value in held and value not in segments]
