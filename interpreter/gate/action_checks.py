"""When the gate does not model an item action's call (seeds: "Item actions").

An action is observed in its own response, or in a later item read only while no other tool's
modelled write to the entity awaits a check: that read then checks the other write, and the
action's call is one the gate does not model. So an action call answered without its entity,
whose entity the first later item read shows, is held back

- as an unmodelled write when another tool's write to the entity already awaits a check: the
  entity is unknown until that read, which checks the waiting write on the members it sent;
- brought to the read's recorded outcome, without attribution, when another tool's modelled
  write to the entity comes between the call and that read: the read then checks that write.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.bundle.values import locate
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.plans.timeline import Timeline, own_collection
from capenv.interpreter.view.window import is_write
from capenv.serving.writes.calls import WriteEnv

from .findings import GateNote, Tracking
from .write_checks import target_entity


@dataclass(frozen=True)
class HeldBack:
    """Why the gate does not model this action call, and how the copy follows it."""

    reason: str
    unknown: bool
    """True: unmodelled (the entity unknown until the read); False: brought to the read's outcome."""
    read: int
    """The read that checks the other write instead."""


def action_note(held: HeldBack, record: Record) -> GateNote:
    return GateNote(record.ordinal, held.reason,
                    evidence={"read": held.read,
                              "copy": "unknown until the read" if held.unknown else "the read's outcome"},
                    location="interpreter/gate/action_checks.py:held_back_action")


def held_back_action(plan: WritePlan, record: Record, env: WriteEnv, timeline: Timeline, track: Tracking,
                     records: dict[int, Record], plans: dict[str, WritePlan], tool_of: dict[int, str],
                     read_only: set[str]) -> HeldBack | None:
    """How the gate holds back an action call the other write's check takes over; None to model it."""
    if plan.effect != "action" or _answers_entity(plan, record):
        return None
    target = target_entity(plan, record, env, timeline)
    if target is None:
        return None
    sighting = timeline.first_after(target[0], target[1], record.ordinal, via=("item",),
                                    collection=own_collection(record.path, env.types[target[0]]))
    if sighting is None:
        return None  # no read to observe it in: modelled as usual
    waiting = [p for p in track.pending.get(("entity", *target), []) if p.tool != plan.tool]
    if waiting:
        return HeldBack(f"another tool's write (record {waiting[-1].ordinal}) to {target[1]!r} awaits a check: read "
                        f"{sighting.ordinal} checks it, and this action call is not modelled", unknown=True,
                        read=sighting.ordinal)
    for ordinal in range(record.ordinal + 1, sighting.ordinal):
        other = records.get(ordinal)
        tool = tool_of.get(ordinal, "")
        other_plan = plans.get(tool)
        if (other is None or tool == plan.tool or other_plan is None or other_plan.build_reason is not None
                or not other.primary or not other.succeeded or not is_write(other, tool_of, read_only)):
            continue
        if other_plan.effect in ("update", "action", "delete") and target_entity(other_plan, other, env, timeline) == target:
            return HeldBack(f"another tool's write (record {ordinal}) to {target[1]!r} comes before read "
                            f"{sighting.ordinal}, which checks it: this action call takes the read's outcome, "
                            "unattributed", unknown=False, read=sighting.ordinal)
    return None


def _answers_entity(plan: WritePlan, record: Record) -> bool:
    response = plan.response
    if response is None or not response.carries_entity or not record.response.is_json:
        return False
    return isinstance(locate(record.response.json_value, response.locator), dict)


def hold_back(held: HeldBack, plan: WritePlan, record: Record, env: WriteEnv, copy: Any, timeline: Timeline,
              track: Tracking) -> None:
    """Apply the hold: the read's outcome, else (or when the entity must stay unknown) unmodelled."""
    from .copy_edits import bring_to_outcome
    from .unmodelled import unmodelled

    if held.unknown or not bring_to_outcome(plan, record, env, copy, timeline, track):
        unmodelled(record, env, copy, track)
