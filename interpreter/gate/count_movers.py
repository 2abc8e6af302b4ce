"""Creates and deletes whose change a read of another entity shows, linked to it or not (the
``gate-count-movers`` table; seeds "Not modelled": side effects on counters, relations and copies
of entities in other collections).

An item read showing its entity changed, with no write to it since its last check, blames the
writes on related paths (``read_check``) and those linked to it by id (``linked_changes``). A
delete can change an entity nothing links it to: a short id under a member named after no type
(a classroom's ``coaches: [7]``) names nothing the links can tell, and a count (``learner_count``)
names nothing at all. Where the change shows what the write did (an array that lost the id the
delete removed, a count moved as far as the write's type's creates or deletes in the window could
move it), serving the write would leave the entity answering as before, where the application
changed it: the write is blamed as side-effect. ``count_blame`` excuses the other writes for such a
change; this names the ones that made it.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.count_blame import CountBlameContext, NamedType
from capenv.interpreter.predicates.readonly_words import split_words
from capenv.interpreter.rules_engine import TraceEvent
from capenv.interpreter.rules_engine.evaluate import evaluate_table

from .absences import modelled_between
from .count_blame import COUNTING_EFFECTS, SEPARATORS, count_changes, counters_between, deleted_by
from .findings import GateNote, GateRun, Tracking

TABLE = "gate-count-movers"
LOCATION = "interpreter/gate/count_movers.py:blame_count_movers"


def blame_count_movers(record: Record, type_name: str, key: str, mine: Any, shown: Any, differing: frozenset[str],
                       since: int, track: Tracking, run: GateRun, records: dict[int, Record],
                       type_names: tuple[str, ...]) -> None:
    """Contradict, as side-effect, each modelled create or delete after ``since`` (the entity's last
    check) whose doing the read (``shown``, changed from the copy's ``mine`` at ``differing``) shows,
    by the ``gate-count-movers`` table (``type_names``: the state's types); the decisions join the
    replay's traces."""
    table = getattr(run, "movers_table", None)
    if table is None or not differing or not isinstance(mine, dict) or not isinstance(shown, dict):
        return
    changed = count_changes(mine, shown, differing)
    counters = counters_between(since, record.ordinal, run, records)
    state_types = tuple(NamedType(type=t, words=split_words(t, SEPARATORS)) for t in type_names)
    for ordinal, tool, path in modelled_between(track, since, record.ordinal):
        found, plan, call = run.findings.get(tool), run.plans.get(tool), records.get(ordinal)
        if found is None or found.side_effect_by is not None or plan is None or call is None:
            continue
        effect = plan.bulk_effect if plan.effect == "bulk" else plan.effect
        if effect not in COUNTING_EFFECTS:
            continue
        context = CountBlameContext(changed=changed, counters=counters, write_type=plan.type, write_effect=effect,
                                    write_type_words=split_words(plan.type or "", SEPARATORS),
                                    write_deleted=deleted_by(call) if plan.effect == "delete" else (),
                                    state_types=state_types)
        decision = evaluate_table(table, context, subject=f"record {record.ordinal} {type_name} {key!r} and record "
                                                          f"{ordinal}")
        moved = bool(decision.yields.get("moved", False))
        shown_by = "; ".join(e.reason for e in decision.events if e.reason)
        run.traces.append(TraceEvent(
            table=TABLE, rule_id=decision.matched[0] if decision.matched else None,
            outcome="match" if moved else "miss", subject=tool,
            evidence={"record": record.ordinal, "write": ordinal, "changed": sorted(differing), "blamed": moved},
            reason=f"record {record.ordinal} shows {type_name} {key!r} changed at {', '.join(sorted(differing))}; "
                   + (f"record {ordinal} ({call.method} {path}), a {effect} unlinked to it, shows in that change: "
                      "serving it would leave the entity as it was" if moved else shown_by),
            location=LOCATION))
        if moved:
            found.side_effect_by = record.ordinal
            found.notes.append(GateNote(
                record.ordinal,
                f"shows {type_name} {key!r} changed at {', '.join(sorted(differing))} although no write to it ran "
                f"since record {since}; record {ordinal} ({call.method} {path}) ran between, and the change shows "
                f"what its {effect} did ({', '.join(decision.matched)}): serving it would leave this entity as it "
                "was, where the application changed it",
                kind="side-effect", location=LOCATION,
                evidence={"changed": {"type": type_name, "id": key}, "write": ordinal, "last_checked_by": since}))
