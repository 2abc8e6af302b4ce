"""A changed entity no write to it explains, linked by id to a modelled write (DESIGN §6, seeds:
"Not modelled": side effects on other entities).

An item read that fails while no write to its entity awaits a check shows the entity changed by
something else. Paths name some of those writes (``related_paths``, in ``read_check``);
references name the others: a modelled write since that check whose entity names the changed one
by id, or is named by it (a prediction's ``task``, a task's ``project``), as ``absences`` links a
cascade. A create is linked by the entity it made, which no read before it shows
(``Tracking.written``). Each is contradicted as side-effect: serving it would leave the other
entity answering as before, where the application changed it (Label Studio's prediction delete
lowers its task's ``total_predictions``; a task delete its project's counters).

A write no plan models may have made the change as well: one that reached the entity
(``PUT /authors/1/avatar``, leaving the author unknown until a read shows it again), a call
brought to its recorded outcome, a write of unknown reach, or one naming the entity's id in its
path (the same row through another collection). The ``gate-linked-blame`` table weighs them
(``linked_blamed``): they explain the change where every member that changed is one they sent by
name, a token or clock their tool's plan makes afresh, or a clock the read shows later (a
rename's ``name`` and ``updated_at``); otherwise they do not show the linked writes did not
change it, and those stay unproven, since serving would answer the entity from the state,
unchanged by them (a book's create raising its author's ``book_count`` beside an avatar upload:
the upload explains nothing of the count).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.update_values import instant_and_format
from capenv.interpreter.plans.timeline import Timeline
from capenv.interpreter.predicates.gate_blame import LinkedBlameContext
from capenv.interpreter.rules_engine import TraceEvent
from capenv.interpreter.rules_engine.evaluate import evaluate_table

from .absences import IdLinks, modelled_between
from .count_blame import counted_elsewhere
from .findings import GateNote, GateRun, Tracking

LOCATION = "interpreter/gate/linked_changes.py:blame_linked_changes"
TABLE = "gate-linked-blame"


def blame_linked_changes(record: Record, type_name: str, key: str, held: Any, since: int, difference: str,
                         id_fields: dict[str, str], track: Tracking, run: GateRun, timeline: Timeline,
                         records: dict[int, Record], beside: tuple[int, ...] = (),
                         differing: frozenset[str] = frozenset(), shown: Any = None) -> None:
    """Contradict, as side-effect, the modelled writes after ``since`` (the entity's last check)
    that did not touch the changed entity ``held`` (the copy's value) but are linked to it by id.
    ``beside``: the writes no plan models (or brought to their recorded outcome) that reached the
    entity in that window; with those of unknown reach in it, the ``gate-linked-blame`` table says
    whether they explain ``differing`` (the members the read, ``shown``, shows changed), and the
    linked writes go unblamed; otherwise the note says they may explain it, but do not show the
    linked write did not."""
    entity = ("entity", type_name, key)
    links: IdLinks | None = None
    linked: list[tuple[int, str, str]] = []
    for ordinal, tool, path in modelled_between(track, since, record.ordinal):
        found = run.findings.get(tool)
        if found is None or found.side_effect_by is not None:
            continue
        targets = track.modelled_targets.get(ordinal, frozenset())
        if entity in targets:
            continue
        links = links or IdLinks(held, key, type_name, id_fields, timeline, run.settings, run.sighting_texts)
        if links.to(targets, ordinal, track.written.get(ordinal, ())):
            linked.append((ordinal, tool, path))
    if not linked:
        return
    reached = beside
    # beside those that reached it: writes of unknown reach, and writes no plan models naming its id in
    # their path (the same row through another collection: PUT /data/entities/{id} of an asset)
    named = {o for o in track.creating_writes if since < o < record.ordinal and o in records
             and key in (unquote(part) for part in split_path(records[o].path))}
    beside = tuple(sorted(set(beside) | named | {o for o in track.unscoped if since < o < record.ordinal}))
    beside_text = ""
    if beside and differing:
        if not linked_blamed(record, type_name, key, held, shown, beside, differing, linked, records, run):
            return
        beside_text = _beside_text(beside, differing, records)
    elif reached:
        return  # what differs is no member the copy held (or its own writes'): the write that reached it may explain it
    elif beside:
        beside_text = _beside_text(beside, differing, records)
    for ordinal, tool, path in linked:
        found = run.findings[tool]
        if found.side_effect_by is not None:
            continue
        if counted_elsewhere(record, type_name, key, held, shown, differing, since, ordinal, tool, run, records):
            continue  # a count another type's creates and deletes moved: not this write's
        found.side_effect_by = record.ordinal
        found.notes.append(GateNote(
            record.ordinal,
            f"shows {type_name} {key!r} changed ({difference}) although no {'modelled ' if beside else ''}write to it "
            f"ran since record {since}; "
            f"record {ordinal} ({records[ordinal].method} {path}) ran between on an entity linked to it by id, and "
            "its plan does not change it: serving it would leave this entity as it was (no read between the linked "
            "writes tells which of them changed it)"
            + beside_text,
            kind="side-effect", location=LOCATION,
            evidence={"changed": {"type": type_name, "id": key}, "write": ordinal, "last_checked_by": since,
                      **({"beside_unmodelled": list(beside), "members": sorted(differing)} if beside else {})}))


def linked_blamed(record: Record, type_name: str, key: str, held: Any, shown: Any, beside: tuple[int, ...],
                  differing: frozenset[str], linked: list[tuple[int, str, str]], records: dict[int, Record],
                  run: GateRun) -> bool:
    """Whether the writes no plan models in the window (``beside``: those that reached the entity,
    and those of unknown reach) leave the linked writes to blame (the ``gate-linked-blame`` table);
    the decision joins the replay's traces."""
    sent: set[str] = set()
    planned: set[tuple[str, str]] = set()
    for ordinal in beside:
        sent |= sent_names(records.get(ordinal))
        plan = run.plans.get(run.tool_of.get(ordinal, ""))
        if plan is not None:
            planned |= {(f.field, f.op) for f in plan.fields}
    clocks = tuple(sorted(m for m in differing if isinstance(shown, dict) and isinstance(held, dict)
                          and _moved_on(held.get(m), shown.get(m))))
    context = LinkedBlameContext(beside_unmodelled=True, changed=tuple(sorted(differing)),
                                 sent_beside=tuple(sorted(sent)), planned_beside=tuple(sorted(planned)),
                                 clocks=clocks)
    subject = f"record {record.ordinal} {type_name} {key!r}"
    decision = evaluate_table(run.linked_table, context, subject=subject) if run.linked_table is not None else None
    blamed = True if decision is None else bool(decision.yields.get("blamed", True))
    explained = sorted(sent | {f"{field} ({op})" for field, op in planned} | {f"{m} (clock)" for m in clocks})
    run.traces.append(TraceEvent(
        table=TABLE, rule_id=decision.matched[0] if decision is not None and decision.matched else None,
        outcome="match" if blamed else "miss", subject=subject,
        evidence={"record": record.ordinal, "beside_unmodelled": list(beside), "changed": sorted(differing),
                  "sent_beside": sorted(sent), "planned_beside": [list(p) for p in sorted(planned)],
                  "clocks": list(clocks),
                  "linked": [o for o, _, _ in linked], "blamed": blamed},
        reason=(f"record {record.ordinal} shows {type_name} {key!r} changed at {', '.join(sorted(differing))}; "
                f"record(s) {', '.join(map(str, beside))}, no write a plan models, ran since (sent, planned or "
                f"stamped: {', '.join(explained) or 'nothing'}): "
                + ("that does not show the linked writes ("
                   + ", ".join(str(o) for o, _, _ in linked) + ") did not change it, so they stay unproven"
                   if blamed else "that explains the change, and the linked writes are not blamed")),
        location=f"{LOCATION.rsplit(':', 1)[0]}:linked_blamed"))
    return blamed


def _moved_on(before: Any, after: Any) -> bool:
    """Both values are instants and the read's is later: a clock the write stamped."""
    then, now = instant_and_format(before), instant_and_format(after)  # a small count is no epoch clock
    return then is not None and now is not None and now[0] > then[0]


def sent_names(call: Record | None) -> set[str]:
    """The member names a write sent: its JSON body's top-level members and those of an object it
    holds (each object's, for an array), and its query parameters' names."""
    if call is None:
        return set()
    names = {name for name, _ in call.query}
    body = call.request.json_value if call.request.is_json else None
    for each in body if isinstance(body, list) else [body]:
        if isinstance(each, dict):
            names.update(each)
            # an envelope's members too (``{"data": {...}}``): the entity's own names sit there
            names.update(m for inner in each.values() if isinstance(inner, dict) for m in inner)
    return names


def _beside_text(beside: tuple[int, ...], differing: frozenset[str], records: dict[int, Record]) -> str:
    calls = ", ".join(f"record {o} ({records[o].method} {records[o].path})" for o in beside if o in records)
    return (f"; {calls}, a write no built plan models (that reached it, or of unknown reach), ran since too and may "
            f"explain it, but " + (f"neither sent, nor plans, nor stamped every member that changed "
                                   f"({', '.join(sorted(differing))}), and " if differing else "")
            + "does not show this write did not: unproven (serving would answer the entity from the state)")
