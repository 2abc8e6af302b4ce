"""A create a refused write's recorded outcome shows wrong (seeds: "The gate", "Attribution").

A write whose call the plan does not explain brings its entity to the recorded outcome, merging
only the fields its answer showed (``copy_edits.bring_to_outcome``), and erases every earlier
write's effect there. When a read then fails because that entity lacks a field every recording of
the read's view carried, the outcome did not remove the field: the create that made the entity
made it without that field, and serving would refuse to answer with it. That create is
contradicted.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.evidence.records import Record
from capenv.interpreter.view.extract import path_key
from capenv.serving.reads.answers import list_members
from capenv.serving.state.index import StateIndex

from .findings import GateNote, GateRun, Tracking


def creates_left_lacking(record: Record, read_view: Any, entity_type: Any, copy: StateIndex, track: Tracking,
                         run: GateRun, line: Any = None, mine: dict[str, Any] | None = None) -> list[str]:
    """The creates whose entity (the item read's, held as ``mine``, or a member the list read's
    ``line`` lists) a refused write's recorded outcome since its last check left lacking a field
    every recording of the view carried, when the entity as created lacked it too. Each gets a note."""
    required = tuple(read_view.required_fields)
    if read_view.kind == "item" and mine is not None:
        entities = [(str(mine.get(entity_type.id_field, path_key(record.path))), mine)]
    elif read_view.kind == "list" and line is not None:
        members = list_members(read_view, line, entity_type, copy) or []
        entities = [(str(m[entity_type.id_field]), m) for m in members if entity_type.id_field in m]
    else:
        return []
    found: list[str] = []
    for key, value in entities:
        target = ("entity", entity_type.name, key)
        outcome = track.changed_by_unattributed.get(target, 0)
        if outcome <= track.last_check.get(target, 0):
            continue  # no refused write's recorded outcome since the entity's last check
        lacking = [name for name in required if name not in value]
        for tool, made in run.created.by_id.get(key, []):
            plan = run.plans.get(tool)
            missed = [name for name in lacking if name not in made]
            if plan is None or plan.type != entity_type.name or not missed or tool in found:
                continue
            found.append(tool)
            run.findings[tool].notes.append(GateNote(
                record.ordinal, f"record {outcome}'s recorded outcome left {entity_type.name} {key} lacking "
                f"{missed[0]!r}, a field every recording of the view carried, and the create made it without it",
                kind="contradiction", evidence={"outcome": outcome, "lacking": missed[0]},
                location="interpreter/gate/refused_outcomes.py:creates_left_lacking"))
    return found
