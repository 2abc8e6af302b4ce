"""Which ids the learned absence answers (docs/absence.md): an id shaped like those the
application answered it for, when the capture shows it refusing ids of another shape otherwise.

Alertmanager answers ``GET /api/v2/silence/{id}`` with an empty 404 for a UUID it does not
hold and with a 422 (``silenceID in path must be of type uuid``) for any other text: the 404
learned from UUIDs says nothing of ``db2-silence``. An id's shape (``id_shape``) is ``integer``,
``uuid``, else its length and the classes of its characters; the shapes the absence covers are
those of the ids its recordings named and of the ids the tool answered with success. With no recorded refusal of
another status for an id of another shape, the absence answers any id, as it always did.
"""

from __future__ import annotations

from collections.abc import Iterable

from capenv.interpreter.bundle.models import RecordedCall, ReadView
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import decode_once, id_shape


def unlike_the_absences(view: ReadView, calls: Iterable[RecordedCall], beside: Iterable[RecordedCall],
                        raw_id: str) -> str | None:
    """Why the learned absence does not answer ``raw_id``, or None when it does. ``calls``: the
    item tool's recordings; ``beside``: every recorded read of a path differing from the call's
    in its last segment alone (a word the manifest took literally, ``/silence/nope``, included)."""
    calls = tuple(calls)
    absent_ordinals = set(view.absence_records) | set(view.absence.records if view.absence else ())
    absent = [call for call in calls if call.ordinal in absent_ordinals]
    if not absent:
        return None
    statuses = {call.response.status for call in absent}
    covered = {_shape(call) for call in absent} | {_shape(call) for call in calls if 200 <= call.response.status < 300}
    wanted = decode_once(raw_id)
    if id_shape(wanted) in covered:
        return None
    other = next((call for call in (*calls, *beside) if 400 <= call.response.status < 500
                  and call.response.status not in statuses and _shape(call) not in covered), None)
    if other is None:
        return None
    examples = ", ".join(f'"{_id_of(call)}"' for call in absent[:2])
    return (f'nothing was recorded for "{wanted}": the application answered {other.response.status} to '
            f'"{_id_of(other)}" (record {other.ordinal}), an id shaped otherwise than those it answered '
            f'{"/".join(str(s) for s in sorted(statuses))} for as missing ({examples}), so its answer to an id '
            f'shaped like "{wanted}" is not known; ids shaped like {examples} are answered')


def _id_of(call: RecordedCall) -> str:
    parts = split_path(call.path)
    return decode_once(parts[-1]) if parts else ""


def _shape(call: RecordedCall) -> str:
    return id_shape(_id_of(call))
