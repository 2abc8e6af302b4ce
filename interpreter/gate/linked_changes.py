"""A changed entity no write to it explains, linked by id to a modelled write (DESIGN §6, seeds:
"Not modelled": side effects on other entities).

An item read that fails while no write to its entity awaits a check, and nothing unattributed
or of unknown reach ran since its last check, shows the entity changed by something else. Paths
name some of those writes (``related_paths``, in ``read_check``); references name the others: a
modelled write since that check whose entity names the changed one by id, or is named by it (a
prediction's ``task``, a task's ``project``), as ``absences`` links a cascade. Each is
contradicted as side-effect: serving it would leave the other entity answering as before, where
the application changed it (Label Studio's prediction delete lowers its task's
``total_predictions``; a task delete its project's counters).
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.evidence.records import Record
from capenv.interpreter.plans.timeline import Timeline

from .absences import IdLinks, modelled_between
from .findings import GateNote, GateRun, Tracking

LOCATION = "interpreter/gate/linked_changes.py:blame_linked_changes"


def blame_linked_changes(record: Record, type_name: str, key: str, held: Any, since: int, difference: str,
                         id_fields: dict[str, str], track: Tracking, run: GateRun, timeline: Timeline,
                         records: dict[int, Record], unscoped: int | None = None) -> None:
    """Contradict, as side-effect, the modelled writes after ``since`` (the entity's last check)
    that did not touch the changed entity ``held`` (the copy's value) but are linked to it by id;
    ``unscoped``, a write of unknown reach in that window, may explain the change too, and the note
    says so, but it does not show the linked write did not."""
    entity = ("entity", type_name, key)
    links: IdLinks | None = None
    for ordinal, tool, path in modelled_between(track, since, record.ordinal):
        found = run.findings.get(tool)
        if found is None or found.side_effect_by is not None:
            continue
        targets = track.modelled_targets.get(ordinal, frozenset())
        if entity in targets:
            continue
        links = links or IdLinks(held, key, type_name, id_fields, timeline, run.settings, run.sighting_texts)
        if not links.to(targets, ordinal):
            continue
        found.side_effect_by = record.ordinal
        found.notes.append(GateNote(
            record.ordinal,
            f"shows {type_name} {key!r} changed ({difference}) although no write to it ran since record {since}; "
            f"record {ordinal} ({records[ordinal].method} {path}) ran between on an entity linked to it by id, and "
            "its plan does not change it: serving it would leave this entity as it was (no read between the linked "
            "writes tells which of them changed it)"
            + (f"; record {unscoped} ({records[unscoped].method} {records[unscoped].path}), a write of unknown reach "
               "on no state type's path, ran since too and may explain it, but does not show this write did not: "
               "unproven" if unscoped is not None and unscoped in records else ""),
            kind="side-effect", location=LOCATION,
            evidence={"changed": {"type": type_name, "id": key}, "write": ordinal, "last_checked_by": since}))
