"""Answer a missing entity with the application's own absence answer (``ReadView.absence``,
learned by ``view-absence-answers``; docs/absence.md).

The recorded body is answered for the call's id: each value that carried the recorded read's
id carries the call's, and each text that named the read's path values (``path_texts``) names
the call's: a proven template is filled with them, an unproven one is answered only for a call
naming the recorded values, and any other call is refused (never another entity's message). A UUID that changes per response (a request id, an error instance) is
drawn anew from a SHA-256 of the state Evidence id, the tool and the path, so an answer never
repeats a recorded one as if it were proof of something; other per-response values (an
instant, a counter) keep their recorded value and are listed in the provenance.
"""

from __future__ import annotations

import copy
import hashlib
import re
from typing import Any

from capenv.interpreter.bundle import pointers
from capenv.interpreter.bundle.models import AbsenceAnswer, AbsencePathText, EitherKey
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import decode_once
from capenv.serving.read_call import CallRefused
from capenv.serving.state.edits import facts_of
from capenv.serving.state.index import StateIndex
from capenv.serving.state.key_facts import UUID as _UUID
from capenv.serving.state.key_facts import id_shape

from .answers import Answer
from .escaped_spellings import UnknownSpelling, escaped


def refuse_unshaped_id(raw_id: str, shapes: dict[str, int], *, type_name: str, field: str) -> None:
    """Refuse to answer an id the learned absence would not be given for: where every id the
    capture shows for the type (held, and the one the absence was learned from; ``shapes``
    counts them by ``id_shape``) is an integer, or every one a UUID, an id of another shape
    (``abc``, ``01``, ``1.0``) may be refused as invalid (NocoDB's 422 ERR_INVALID_PK_VALUE) or
    read as another spelling of a held one (``01`` names row 1), and the capture shows neither.
    Where every one is an integer below 2**53, an id past it is refused too (``EXACT_INTEGERS``)."""
    call_id = decode_once(raw_id)
    if not shapes:
        return
    integers = shapes.get("integer", 0) + shapes.get("inexact integer", 0)
    call_shape = id_shape(call_id)
    if integers == sum(shapes.values()):
        if call_shape == "inexact integer" and not shapes.get("inexact integer"):
            raise CallRefused(f'the state holds no {type_name} whose "{field}" is {call_id!r}, and its absence answer '
                              f"is not given: every id the capture shows is an integer a JSON number holds exactly, "
                              f"and this one is past 2**53, which the application may read as an inexact number "
                              f"(and name otherwise, 1e+23), overflow or refuse; send an id below 2**53",
                              http_status=404)
        shown, name = call_shape in ("integer", "inexact integer"), "integers written without leading zeros"
    else:
        shown, name = shapes.get("uuid", 0) < sum(shapes.values()) or call_shape == "uuid", "UUIDs"
    if not shown:
        raise CallRefused(f'the state holds no {type_name} whose "{field}" is {call_id!r}, and its absence answer '
                          f"is not given: every id the capture shows is one of the {name}, and this one is not, "
                          "so the application may refuse it as invalid or read it as another spelling of a held "
                          "id; send an id of that shape", http_status=404)


def held_shapes(state: StateIndex, type_name: str, *more: Any, address: Any = None) -> dict[str, int]:
    """The ``id_shape`` counts of every id ``state`` holds of the type, and of ``more``; where the
    identity is the entity's own address (``IdAddress``), of the segment each ends with, the value
    an item path carries."""
    counts: dict[str, int] = {}
    for collection in state.collections_of(type_name):
        if address is not None:
            for entity_id in collection.ids.values():
                shape = id_shape(address.segment_of(entity_id, collection.path)) or "other"
                counts[shape] = counts.get(shape, 0) + 1
            continue
        for shape, count in facts_of(collection).shapes.items():
            counts[shape] = counts.get(shape, 0) + count
    for value in more:
        shape = id_shape(value)
        if shape is not None:
            counts[shape] = counts.get(shape, 0) + 1
    return counts


def refuse_unshaped_absence(absence: AbsenceAnswer, raw_id: str, state: StateIndex, *, type_name: str, field: str,
                            id_field: str, address: Any = None) -> None:
    """``refuse_unshaped_id`` for an absence answer about to be given, whether the read answers
    from the state or by replay: the ids are those ``state`` holds of the type and the one the
    absence was learned from (an absence keyed by another member than the id is not checked)."""
    if absence.id_value is None or field != id_field:
        return
    refuse_unshaped_id(raw_id, held_shapes(state, type_name, absence.id_value, address=address),
                       type_name=type_name, field=field)


def refuse_reserved(absence: AbsenceAnswer, raw_id: str, path: str) -> None:
    """Refuse the absence for an id starting like the application's own routes beside the item
    path (``AbsenceAnswer.reserved_prefixes``): it may name such a route, not a missing entity."""
    call_id = decode_once(raw_id)
    prefix = next((p for p in absence.reserved_prefixes if call_id.startswith(p)), None)
    if prefix is not None:
        raise CallRefused(f"nothing was recorded for {path}: {call_id!r} starts with {prefix!r}, as the "
                          "application's own routes beside this path do and no id the capture shows does, so it may "
                          "name such a route rather than a missing entity; its answer is not known", http_status=404)


def refuse_reserved_collection(absence: AbsenceAnswer, collection_path: str, path: str) -> None:
    """Refuse the absence in a collection holding an entity whose id is empty text
    (``AbsenceAnswer.reserved_collections``): the application names that one by an id the capture
    does not show, which this one may be."""
    if collection_path in absence.reserved_collections:
        raise CallRefused(f"nothing was recorded for {path}: {collection_path} holds an entity whose id is empty "
                          "text, which the application names by an id the capture does not show, and this id may be "
                          "that one; its answer is not known", http_status=404)


def refuse_other_key_spelling(either: EitherKey | None, recorded: str | None, raw_id: str, *, type_name: str,
                              path: str) -> None:
    """Refuse a recorded absence for a call naming its entity in the other spelling of an item path
    that takes either the identity or a key member (``EitherKey``): the application words each
    absence after the key it looked up (Phoenix's "Project with ID <id> not found" against "Project
    with name <name> not found"), so a text recorded for one spelling, filled with the other's
    value, would answer what the application never says. ``recorded``: the value the recorded call
    named (percent-decoded), None when its answer does not name it (a bare "Not found" says nothing
    of either spelling)."""
    if either is None or recorded is None:
        return
    call_value = decode_once(raw_id)
    if either.names_identity(recorded) == either.names_identity(call_value):
        return
    def named(value: str) -> str:
        return "identity" if either.names_identity(value) else repr(either.member)
    raise CallRefused(f"nothing was recorded for {path}: the state holds no {type_name} named {call_value!r}, and the "
                      f"application's absence answer was recorded for a call naming its entity by its "
                      f"{named(recorded)} ({recorded!r}), where this one names it by its {named(call_value)}: the "
                      "application may answer that otherwise; a call naming a missing entity as the recorded one did "
                      "is answered", http_status=404)


def named_value(absence: AbsenceAnswer) -> str | None:
    """The recorded read's id where the absence answer names it (at ``id_pointers`` or in a text
    naming the path's values), else None."""
    return absence.id_value if absence.id_pointers or absence.path_texts else None


def absence_answer(absence: AbsenceAnswer, raw_id: str, *, evidence_id: str, tool: str, path: str) -> Answer:
    refuse_reserved(absence, raw_id, path)
    recording = absence.recording
    refuse_unknown_spelling(absence, raw_id, path)
    body = copy.deepcopy(recording.body)
    call_id = decode_once(raw_id)
    for pointer in absence.id_pointers:
        body = _replace(body, pointer, lambda value: _with_id(value, absence.id_value or "", call_id))
    segments = [decode_once(part) for part in split_path(path)]
    text = recording.text
    for path_text in absence.path_texts:
        filled = _filled(path_text, segments, absence, path)
        if not recording.is_json and path_text.pointer == "":  # a text body naming the path's values
            text = filled
        else:
            body = _replace(body, path_text.pointer, lambda _value: filled)
    for pointer in absence.per_response:
        seed = f"{evidence_id}\n{tool}\n{path}\n{pointer}"
        body = _replace(body, pointer, lambda value: _fresh_uuids(value, seed))
    if not recording.is_json and text is not None and "" in absence.id_pointers:  # a text body naming the id
        text = _with_id(text, absence.id_value or "", call_id)
    return Answer(recording.status, recording.content_type, recording.headers, body, recording.is_json,
                  text, "state")


def refuse_unknown_spelling(absence: AbsenceAnswer, raw_id: str, path: str) -> None:
    """Refuse an absence answer that would name a value the call sent percent-escaped: the recorded
    read's values (``id_value``, ``path_texts``' recorded ones) are kept decoded, so nothing shows
    whether the application writes such a value as sent or decoded (``escaped_spellings``)."""
    segments = split_path(path)
    named = []
    if absence.id_pointers and absence.id_value is not None and _names_text(absence, absence.id_value):
        named.append((raw_id, absence.id_value))
    for text in absence.path_texts:
        named += [(segments[p], dict(text.recorded).get(p, "")) for p in text.parts
                  if isinstance(p, int) and p < len(segments)]
    for sent, recorded in named:
        if escaped(sent):
            raise CallRefused(UnknownSpelling(sent, recorded).message(path), http_status=404)


def _names_text(absence: AbsenceAnswer, value: str) -> bool:
    """Whether one of the answer's ``id_pointers`` holds ``value`` in a text (a number carries no spelling)."""
    body = absence.recording.body
    for pointer in absence.id_pointers:
        if absence.recording.is_json:
            found = pointers.resolve(body, pointers.parse(pointer))
        else:
            found = absence.recording.text if pointer == "" else None
        if isinstance(found, str) and value in found:
            return True
    return False


def _filled(text: AbsencePathText, segments: list[str], absence: AbsenceAnswer, path: str) -> str:
    values = {index: segments[index] if index < len(segments) else None for index, _ in text.recorded}
    recorded = dict(text.recorded)
    if not text.proven and any(values[index] != value for index, value in recorded.items()):
        shown = "".join(f"<{value}>" if isinstance(p, int) and (value := recorded.get(p)) else str(p)
                        for p in text.parts)
        raise CallRefused(
            f"nothing was recorded for {path}: the application's absence answer (record "
            f"{absence.recording.ordinal}) names the recorded path's values at {text.pointer} ({shown!r}) and "
            "the capture shows no other absence proving how it reads for other values; only a call naming "
            f"{', '.join(repr(v) for v in recorded.values())} there is answered with it", http_status=404)
    return "".join(str(values[p]) if isinstance(p, int) else p for p in text.parts)


def provenance(absence: AbsenceAnswer) -> dict[str, Any]:
    return {"rule": absence.rule_id, "record": absence.recording.ordinal, "records": list(absence.records),
            "per_response": list(absence.per_response)}


def _with_id(value: Any, recorded: str, call_id: str) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return int(call_id) if call_id.isdigit() else call_id
    if not isinstance(value, str):
        return value
    if value == recorded:
        return call_id
    return re.sub(rf"(?<![A-Za-z0-9]){re.escape(recorded)}(?![A-Za-z0-9])", lambda _: call_id, value)


def _fresh_uuids(value: Any, seed: str) -> Any:
    if not isinstance(value, str):
        return value
    counter = iter(range(1 << 30))

    def fresh(match: re.Match) -> str:
        digest = hashlib.sha256(f"{seed}\n{next(counter)}".encode()).hexdigest()
        text = f"{digest[:8]}-{digest[8:12]}-4{digest[13:16]}-{'89ab'[int(digest[16], 16) % 4]}{digest[17:20]}-{digest[20:32]}"
        return text.upper() if match.group(0).isupper() else text

    return _UUID.sub(fresh, value)


def _replace(body: Any, pointer: str, change: Any) -> Any:
    parts = pointers.parse(pointer)
    if not parts:
        return change(body)
    holder = pointers.resolve(body, parts[:-1])
    last = parts[-1]
    if isinstance(holder, dict) and last in holder:
        holder[last] = change(holder[last])
    elif isinstance(holder, list) and pointers.step(holder, last) is not pointers.MISSING:
        holder[int(last)] = change(holder[int(last)])
    return body
