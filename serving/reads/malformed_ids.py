"""Ids of a shape the application refused before looking them up (``ReadView.malformed_id_records``,
``view-malformed-ids``; docs/absence.md).

Alertmanager answers ``GET /api/v2/silence/198d9e67ef906be1`` with a 422 (``silenceID in path
must be of type uuid``): the item view still answers held UUIDs from the state, but the learned
404 is no answer to an id of that shape, nor is that recording an answer to another id. A call
the state does not hold whose id is shaped as no id the type holds, nor any its absence was
learned from, is replayed when it is that very recorded call, and refused otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from capenv.interpreter.bundle.models import ReadView, RecordedCall
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import decode_once, id_shape
from capenv.serving.read_call import CallRefused


def replays_malformed(view: ReadView, found: tuple[RecordedCall, bool] | None) -> bool:
    """Whether the call is one of the view's reads refused for the id's shape, recorded exactly."""
    return found is not None and found[1] and found[0].ordinal in view.malformed_id_records


def refuse_malformed_shape(view: ReadView, calls: Iterable[RecordedCall], held_ids: Iterable[Any],
                           raw_id: str, type_name: str) -> None:
    """Refuse an id the state does not hold, shaped as no held id nor any learned absence's id,
    when the capture shows the application refusing an id's shape."""
    if not view.malformed_id_records:
        return
    calls = tuple(calls)
    refused = [call for call in calls if call.ordinal in view.malformed_id_records]
    absent = set(view.absence_records) | set(view.absence.records if view.absence else ())
    known = [str(value) for value in held_ids if value is not None and not isinstance(value, bool)]
    known += [_id_of(call) for call in calls if call.ordinal in absent or 200 <= call.response.status < 300]
    if view.absence is not None and view.absence.id_value is not None:
        known.append(view.absence.id_value)
    wanted = decode_once(raw_id)
    if not refused or not known or id_shape(wanted) in {id_shape(value) for value in known}:
        return
    example = refused[0]
    shapes = ", ".join(sorted({_described(id_shape(value)) for value in known}))
    raise CallRefused(
        f'nothing was recorded for "{wanted}" and the state holds no {type_name} with that id: the application '
        f'refused "{_id_of(example)}" with a {example.response.status} (record {example.ordinal}), an id shaped '
        f"otherwise than the {type_name} ids it holds, before looking it up, so its answer to an id shaped like "
        f'"{wanted}" is not known; ids shaped as held ones ({shapes}) are answered, and each recorded call as '
        "it was recorded", http_status=404)


_CLASSES = {"0": "digits", "a": "lower-case letters", "A": "upper-case letters"}


def _described(shape: str) -> str:
    if shape in ("integer", "uuid"):
        return "integers" if shape == "integer" else "UUIDs"
    length, classes = shape.split(":", 1)
    named = [_CLASSES.get(c, repr(c)) for c in classes]
    return f"{length} characters: {', '.join(named)}"


def _id_of(call: RecordedCall) -> str:
    parts = split_path(call.path)
    return decode_once(parts[-1]) if parts else ""
