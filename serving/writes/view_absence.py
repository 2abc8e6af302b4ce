"""A write's answer for an entity the state does not hold, taken from the type's item view.

When the write tool recorded no absence of its own, the item view's learned absence
(``ReadView.absence``, ``view-absence-answers``) answers it, rendered for the call's id as an item
read of that id would be (``absence_answer``): each value that carried the recorded read's id
carries the call's, and a text naming the recorded path's values is filled with the call's, or
refused when the capture does not prove how it reads for other values. The recording as it was
would name another entity (a 404 "Could not find credential: <the deleted one>"), another
entity's answer given for this one. An entity an initial recording shows, which the state never
took in (``InitialSightings``), is not answered missing at all: the call is refused, as its read is."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import Recording
from capenv.interpreter.bundle.paths import split_path
from capenv.serving.read_call import CallRefused
from capenv.serving.reads.absence import absence_answer
from capenv.serving.state.index import StateIndex

from .calls import WriteEnv, WriteRefusal


def item_view_absence(env: WriteEnv, entity_type: Any, item_path: str, state: StateIndex) -> Recording | None:
    """The type's item view's absence answer for ``item_path`` (the write's path less any action
    segments), or its plain recorded absence when it learned none; None when it recorded neither.
    Raises ``WriteRefusal`` (a missing entity, with no recording) when the learned answer names
    the recorded path's values in a text it cannot fill for this path."""
    learned = env.absences_by_type.get(entity_type.name)
    if learned is None:
        return env.missing_by_type.get(entity_type.name)
    absence, tool = learned
    template = entity_type.item_template
    if absence.path_texts and (template is None or len(split_path(template)) != len(split_path(item_path))):
        raise WriteRefusal(f"no {entity_type.name} entity {split_path(item_path)[-1]!r} is held, and the "
                           "application's absence answer names the path it read, which this write's path is not "
                           "shaped like", kind="missing")
    try:
        answer = absence_answer(absence, split_path(item_path)[-1], evidence_id=state.evidence_id, tool=tool,
                                path=item_path)
    except CallRefused as refused:
        raise WriteRefusal(refused.message, kind="missing") from None
    return absence.recording.model_copy(update={"body": answer.body, "text": answer.text})


def refuse_shown_missing(env: WriteEnv, entity_type: Any, collection_path: str, item_path: str, raw_id: str,
                         member: str | None) -> None:
    """Refuse (a missing entity, with no recording) a write naming an entity the state does not hold
    that a recording made before the capture's first write shows the application holding."""
    if env.sightings is None:
        return
    field = member or entity_type.id_field
    try:
        env.sightings.refuse_shown(entity_type, collection_path, item_path, raw_id, field, item_path)
    except CallRefused as refused:
        raise WriteRefusal(refused.message, kind="missing") from None
