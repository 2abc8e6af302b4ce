"""A write's answer for an entity the state does not hold, taken from the type's item view.

When the write tool recorded no absence of its own, the item view's learned absence
(``ReadView.absence``, ``view-absence-answers``) answers it, rendered for the call's id as an item
read of that id would be (``absence_answer``): each value that carried the recorded read's id
carries the call's, and a text naming the recorded path's values is filled with the call's, or
refused when the capture does not prove how it reads for other values. The recording as it was
would name another entity (a 404 "Could not find credential: <the deleted one>"), another
entity's answer given for this one. An entity an initial recording shows, which the state never
took in (``InitialSightings``), is not answered missing at all: the call is refused, as its read is.

Where the capture shows a write's own absence answering otherwise than the item view's would for
the same id (Unleash's DELETE of a missing strategy says "Could not find strategy with id=x", its
read "... with id: x"; its PATCH of a missing flag "No feature flag found", its read "There's no
feature named ..."), the application's writes do not answer as its reads, and the item view's
absence answers no write of that type, nor of a type with no recorded write absence
(``view_absence_answers_writes``): such a write of a missing entity with no recorded absence of
its own is refused as missing, with capenv's own 404."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import Recording
from capenv.interpreter.bundle.paths import split_path
from capenv.serving.read_call import CallRefused
from capenv.serving.reads.absence import absence_answer, named_value, refuse_other_key_spelling
from capenv.serving.reads.skipped_numbers import refuse_skipped
from capenv.serving.state.index import StateIndex

from .calls import WriteEnv, WriteRefusal


ITEM_EFFECTS = ("update", "delete", "action")


def view_absence_answers_writes(env: WriteEnv, plans: Any, evidence_id: str,
                                missing_statuses: tuple[int, ...]) -> tuple[bool, dict[str, bool]]:
    """Whether the item view's absence answers a write of a missing entity: per type whose item
    writes recorded one of ``missing_statuses`` (the budget ``missing_statuses``: 404, 410; a 400
    more often refused what the write sent), whether every one is what its item view would answer
    for the same id (status and body); for the other types, whether every type's did (one differing
    shows the application's writes not answering a missing entity as its reads do)."""
    by_tool = {plan.tool: plan for plan in plans}
    per_type: dict[str, bool] = {}
    for tool, recording in env.tool_absences.items():
        plan, path = by_tool.get(tool), env.absence_paths.get(tool)
        if (plan is None or path is None or plan.effect not in ITEM_EFFECTS or plan.type not in env.missing_by_type
                or recording.status not in missing_statuses):
            continue
        parts = split_path(path)
        after = plan.address.segments_after_item() if plan.address is not None else 0
        if len(parts) <= after:
            continue
        item = parts[:len(parts) - after] if after else parts
        learned = env.absences_by_type.get(plan.type)
        if learned is None:
            expected = env.missing_by_type[plan.type]
            body, text = expected.body, expected.text
        else:
            try:
                answer = absence_answer(learned[0], item[-1], evidence_id=evidence_id, tool=learned[1],
                                        path="/" + "/".join(item))
            except CallRefused:
                continue
            expected, body, text = learned[0].recording, answer.body, answer.text
        alike = expected.status == recording.status and body == recording.body and text == recording.text
        per_type[plan.type] = per_type.get(plan.type, True) and alike
    return all(per_type.values()), per_type


def item_view_absence(env: WriteEnv, entity_type: Any, item_path: str, state: StateIndex, *,
                      either: bool = True) -> Recording | None:
    """The type's item view's absence answer for ``item_path`` (the write's path less any action
    segments), or its plain recorded absence when it learned none; None when it recorded neither.
    Raises ``WriteRefusal`` (a missing entity, with no recording) when the learned answer names
    the recorded path's values in a text it cannot fill for this path. None as well when the
    application's writes answer a missing entity otherwise than its reads
    (``WriteEnv.view_absence_types``, else ``view_absence_for_writes``). ``either``: the write names
    its entity as an item path taking either key does (``refuse_other_key_spelling``)."""
    if not env.view_absence_types.get(entity_type.name, env.view_absence_for_writes):
        return None
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
        refuse_other_key_spelling(entity_type.either_key if either else None, named_value(absence),
                                  split_path(item_path)[-1], type_name=entity_type.name, path=item_path)
        answer = absence_answer(absence, split_path(item_path)[-1], evidence_id=state.evidence_id, tool=tool,
                                path=item_path)
    except CallRefused as refused:  # a write's refusal names the missing entity first, as every other one does
        raise WriteRefusal(f"no {entity_type.name} entity {split_path(item_path)[-1]!r} is held; {refused.message}",
                           kind="missing") from None
    return absence.recording.model_copy(update={"body": answer.body, "text": answer.text})


def refuse_shown_missing(env: WriteEnv, entity_type: Any, collection_path: str, item_path: str, raw_id: str,
                         member: str | None) -> None:
    """Refuse (a missing entity, with no recording) a write naming an entity the state does not hold
    that a recording made before the capture's first write shows the application holding, or a
    number the ids the type held at the start skip (``view-absence-sequence-gaps``)."""
    if env.sightings is None:
        return
    field = member or entity_type.id_field
    try:
        env.sightings.refuse_shown(entity_type, collection_path, item_path, raw_id, field, item_path)
        if member is None:
            refuse_skipped(env.skipped_numbers.get(entity_type.name), raw_id, type_name=entity_type.name,
                           held_initially=env.sightings.held_initially(
                               entity_type.name, collection_path, raw_id, entity_type.id_field, entity_type.id_field,
                               anywhere=bool(entity_type.shallow_items)))
    except CallRefused as refused:
        raise WriteRefusal(refused.message, kind="missing") from None
