"""A count another type's creates and deletes moved, where the gate would blame a write that is
none of them (the ``gate-count-blame`` table; seeds "The gate", "Attribution").

An item read showing its entity changed, with no write to it since its last check, blames the
modelled writes on related paths (``read_check``) and those linked to it by id
(``linked_changes``): serving them would leave the entity as it was. Where each member that
changed is a count named after another type (Doccano's example ``comment_count``) and that type's
recorded creates and deletes in the same window number enough to move it as far as it moved, those
calls explain the change: a category's update under the example, or a comment's new text, does not
move it, and serving it leaves nothing stale. The creates and deletes themselves stay blamed where
linked (serving one would not move the count). A count named after no type written in the window
(Kolibri's ``learner_count``) blames as before.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.count_blame import CountBlameContext, CountChange, CounterCalls
from capenv.interpreter.predicates.readonly_words import split_words
from capenv.interpreter.rules_engine import TraceEvent
from capenv.interpreter.rules_engine.evaluate import evaluate_table

from .findings import GateNote, GateRun

TABLE = "gate-count-blame"
LOCATION = "interpreter/gate/count_blame.py:counted_elsewhere"
SEPARATORS = "_-. "
COUNTING_EFFECTS = ("create", "delete")


def counted_elsewhere(record: Record, type_name: str, key: str, mine: Any, shown: Any, differing: frozenset[str],
                      since: int, blamed: int, tool: str, run: GateRun, records: dict[int, Record]) -> bool:
    """Whether the write ``blamed`` (of ``tool``), on a related path or linked to the entity the read
    shows changed at ``differing``, is left unblamed by the ``gate-count-blame`` table; the decision
    joins the replay's traces."""
    table = getattr(run, "count_table", None)
    if table is None or not differing or not isinstance(mine, dict) or not isinstance(shown, dict):
        return False
    plan = run.plans.get(tool)
    if plan is None:
        return False
    changed = count_changes(mine, shown, differing)
    counters = counters_between(since, record.ordinal, run, records)
    context = CountBlameContext(changed=changed, counters=counters, write_type=plan.type, write_effect=plan.effect,
                                write_names_entity=_names(records.get(blamed), key),
                                write_type_words=split_words(plan.type or "", SEPARATORS),
                                deleted=_deleted(since, record.ordinal, blamed, run, records))
    subject = f"record {record.ordinal} {type_name} {key!r} and record {blamed}"
    decision = evaluate_table(table, context, subject=subject)
    kept = bool(decision.yields.get("blamed", True))
    counted = next((e.evidence.get("counts") for e in decision.events if e.outcome == "match"
                    and isinstance(e.evidence, dict) and "counts" in e.evidence), None) or {}
    by = ", ".join(sorted(set(counted.values()))) or "another type"
    run.traces.append(TraceEvent(
        table=TABLE, rule_id=decision.matched[0] if decision.matched else None,
        outcome="miss" if kept else "match", subject=tool,
        evidence={"record": record.ordinal, "write": blamed, "changed": sorted(differing),
                  "counters": [c.model_dump() for c in counters], "blamed": kept},
        reason=(f"record {record.ordinal} shows {type_name} {key!r} changed at {', '.join(sorted(differing))}; "
                + ("; ".join(e.reason for e in decision.events if e.reason) if kept else
                   f"each a count the creates and deletes of {by} in the window moved, which record {blamed} "
                   f"({tool}) is not: it is not blamed for it")),
        location=LOCATION))
    if not kept and tool in run.findings:
        run.findings[tool].notes.append(GateNote(
            record.ordinal, f"shows {type_name} {key!r} changed at {', '.join(sorted(differing))}, each a count the "
            f"creates and deletes of {by} in the window moved, which record {blamed} is not: it is not blamed for "
            "the change", kind="excuse",
            evidence={"changed": {"type": type_name, "id": key}, "write": blamed}, location=LOCATION))
    return not kept


def count_changes(mine: dict[str, Any], shown: dict[str, Any], differing: frozenset[str]) -> tuple[CountChange, ...]:
    """Each member in ``differing`` as the copy (``mine``) and the read (``shown``) hold it."""
    return tuple(CountChange(member=m, words=split_words(m, SEPARATORS), before=_integer(mine.get(m)),
                             after=_integer(shown.get(m)), **_array_change(mine.get(m), shown.get(m)))
                 for m in sorted(differing))


def _integer(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def counters_between(since: int, until: int, run: GateRun, records: dict[int, Record]) -> tuple[CounterCalls, ...]:
    """Per type, the successful recorded creates and deletes of its plans (built or not) in the window."""
    tally: dict[str, list[int]] = {}
    for ordinal in range(since + 1, until):
        record = records.get(ordinal)
        plan = run.plans.get(run.tool_of.get(ordinal, ""))
        if record is None or plan is None or plan.type is None or not 200 <= record.status < 300:
            continue
        effect = plan.bulk_effect if plan.effect == "bulk" else plan.effect
        if effect in COUNTING_EFFECTS:
            tally.setdefault(plan.type, [0, 0])[COUNTING_EFFECTS.index(effect)] += 1
    return tuple(CounterCalls(type=t, words=split_words(t, SEPARATORS), creates=c, deletes=d)
                 for t, (c, d) in sorted(tally.items()))


def _array_change(before: Any, after: Any) -> dict[str, Any]:
    """For a member that is an array on both sides: per element it lost, the texts that element
    holds (a scalar's own, an object's top-level scalars), and how many elements it gained."""
    if not isinstance(before, list) or not isinstance(after, list):
        return {}
    lost = [e for e in before if e not in after]
    return {"dropped": tuple(_texts_of(e) for e in lost), "gained": sum(1 for e in after if e not in before)}


def _texts_of(element: Any) -> tuple[str, ...]:
    values = element.values() if isinstance(element, dict) else [element]
    return tuple(str(v) for v in values if v is not None and not isinstance(v, (dict, list, bool)))


def _deleted(since: int, until: int, blamed: int, run: GateRun, records: dict[int, Record]) -> tuple[str, ...]:
    """The ids the successful recorded deletes of the window removed (the last segment of each
    call's path, percent-decoded), the blamed write's own call left out."""
    found: list[str] = []
    for ordinal in range(since + 1, until):
        record = records.get(ordinal)
        plan = run.plans.get(run.tool_of.get(ordinal, ""))
        if ordinal == blamed or record is None or plan is None or plan.effect != "delete" \
                or not 200 <= record.status < 300:
            continue
        found.extend(deleted_by(record))
    return tuple(dict.fromkeys(found))


def deleted_by(record: Record) -> tuple[str, ...]:
    """The id a delete's call removed: its path's last segment, percent-decoded."""
    segments = [s for s in record.path.split("/") if s]
    return (unquote(segments[-1]),) if segments else ()


def _names(call: Record | None, key: str) -> bool:
    """The call sent ``key`` as a value: a query value, or a scalar of its JSON body (where an update
    moves an entity to another, the reference goes; its path names the entity it writes)."""
    if call is None:
        return True  # unknown: it may have
    if any(v == key for _, v in call.query):
        return True
    body = call.request.json_value if call.request.is_json else None
    return _holds(body, key)


def _holds(value: Any, key: str) -> bool:
    if isinstance(value, dict):
        return any(_holds(v, key) for v in value.values())
    if isinstance(value, list):
        return any(_holds(v, key) for v in value)
    return value is not None and not isinstance(value, bool) and str(value) == key
