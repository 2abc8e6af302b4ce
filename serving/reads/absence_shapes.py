"""Which ids the learned absence answers (docs/absence.md): an id shaped like those the
application answered it for, when the capture shows it refusing ids of another shape otherwise.

Alertmanager answers ``GET /api/v2/silence/{id}`` with an empty 404 for a UUID it does not
hold and with a 422 (``silenceID in path must be of type uuid``) for any other text: the 404
learned from UUIDs says nothing of ``db2-silence``. An id's shape (``id_shape``) is ``integer``,
``uuid``, else its length and the classes of its characters; the shapes the absence covers are
those of the ids its recordings named and of the ids the tool answered with success. With no recorded refusal of
another status for an id of another shape, the absence answers any id, as it always did.

A refusal of another status for an id shaped like those the absence covers, and not set apart
from them by the frame the tool's ids share (below), shows the application telling ids apart by
more than their shape (Syncthing answers 404 for a device id it does not hold and 400 for one
whose check character is wrong): the absence then answers no id its recordings did not name,
since either answer may be the application's. A read refused for its credentials (a 401 to a
wrong password: the replay table's ``unauthenticated``) says nothing of its id and is passed over.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from capenv.interpreter.bundle.models import RecordedCall, ReadView
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import decode_once, id_shape

from .replay import Replayer


def unlike_the_absences(view: ReadView, calls: Iterable[RecordedCall], beside: Iterable[RecordedCall],
                        raw_id: str, *, unauthenticated: frozenset[int] = frozenset()) -> str | None:
    """Why the learned absence does not answer ``raw_id``, or None when it does. ``calls``: the
    item tool's recordings; ``beside``: every recorded read of a path differing from the call's
    in its last segment alone (a word the manifest took literally, ``/silence/nope``, included);
    ``unauthenticated``: the ordinals of reads refused for their credentials, left out of both."""
    return AbsenceShapes(view, calls, beside, unauthenticated).unlike(raw_id)


class AbsenceShapes:
    """``unlike_the_absences`` of one item tool's recordings and one set of sibling reads: all it
    reads of them worked out once (the recordings do not change while serving), so a call judges
    only its own id."""

    def __init__(self, view: ReadView, calls: Iterable[RecordedCall], beside: Iterable[RecordedCall],
                 unauthenticated: frozenset[int] = frozenset()) -> None:
        self.view = view
        calls = tuple(call for call in calls if call.ordinal not in unauthenticated)
        beside = tuple(call for call in beside if call.ordinal not in unauthenticated)
        absent_ordinals = set(view.absence_records) | set(view.absence.records if view.absence else ())
        self._absent = [call for call in calls if call.ordinal in absent_ordinals]
        self._statuses = {call.response.status for call in self._absent}
        self._covered = ({_shape(call) for call in self._absent}
                         | {_shape(call) for call in calls if 200 <= call.response.status < 300})
        self._frame = _Frame.of(view, calls, beside) if self._absent else None
        self._alike = _refused_alike(view, calls, beside, self._covered) if self._absent else None
        self._other = next((call for call in (*calls, *beside) if 400 <= call.response.status < 500
                            and call.response.status not in self._statuses and _shape(call) not in self._covered),
                           None)

    def unlike(self, raw_id: str) -> str | None:
        """Why the learned absence does not answer ``raw_id``, or None when it does."""
        absent = self._absent
        if not absent:
            return None
        wanted = decode_once(raw_id)
        if self._frame is not None:
            outside = self._frame.outside(wanted)
            if outside is not None:
                return outside
        alike = self._alike
        if alike is not None:
            examples = ", ".join(f'"{_id_of(call)}"' for call in absent[:2]
                                 if call.response.status != alike.response.status)
            return (f'nothing was recorded for "{wanted}": the application answered {alike.response.status} to '
                    f'"{_id_of(alike)}" (record {alike.ordinal}), an id shaped like those it answered as missing '
                    f'({examples}), so it tells ids apart by more than their shape and its answer to an id no '
                    "recording names is not known")
        if id_shape(wanted) in self._covered:
            return None
        other = self._other
        if other is None:
            return None
        examples = ", ".join(f'"{_id_of(call)}"' for call in absent[:2])
        return (f'nothing was recorded for "{wanted}": the application answered {other.response.status} to '
                f'"{_id_of(other)}" (record {other.ordinal}), an id shaped otherwise than those it answered '
                f'{"/".join(str(s) for s in sorted(self._statuses))} for as missing ({examples}), so its answer to '
                f'an id shaped like "{wanted}" is not known; ids shaped like {examples} are answered')


class AbsenceShapesCache:
    """The runtime's ``AbsenceShapes``, one per item tool and recorded parent path (the sibling
    reads ``Replayer.reads_beside`` finds; every unrecorded parent shares one, having none)."""

    def __init__(self, replayer: Replayer) -> None:
        self._replayer = replayer
        self._made: dict[tuple[str, tuple[str, ...] | None], AbsenceShapes] = {}

    def unlike(self, view: ReadView, tool: str, path: str, raw_id: str) -> str | None:
        """``unlike_the_absences`` of ``tool``'s recordings and the reads beside ``path``."""
        key = (tool, self._replayer.beside_key(path))
        made = self._made.get(key)
        if made is None or made.view is not view:
            made = self._made[key] = AbsenceShapes(view, self._replayer.calls(tool),
                                                   self._replayer.reads_beside(path),
                                                   self._replayer.unauthenticated)
        return made.unlike(raw_id)


def _refused_alike(view: ReadView, calls: tuple[RecordedCall, ...], beside: tuple[RecordedCall, ...],
                   covered: set[str]) -> RecordedCall | None:
    """A recorded answer of another 4xx than the learned absence's to an id of a shape the absence
    covers, on the same side of the tool's frame as the ids answered as missing (a frame that
    parts them explains the other answer: ``_Frame``)."""
    if view.absence is None:
        return None
    status = view.absence.recording.status
    prefix, suffix = _frame([_id_of(call) for call in calls if 200 <= call.response.status < 300])
    learned_sides = {_fits(_id_of(call), prefix, suffix) for call in calls if call.ordinal in set(view.absence.records)}
    return next((call for call in (*calls, *beside) if 400 <= call.response.status < 500
                 and call.response.status != status and _shape(call) in covered
                 and (not (prefix or suffix) or _fits(_id_of(call), prefix, suffix) in learned_sides)), None)


def _id_of(call: RecordedCall) -> str:
    parts = split_path(call.path)
    return decode_once(parts[-1]) if parts else ""


def _shape(call: RecordedCall) -> str:
    return id_shape(_id_of(call))


class _Frame:
    """Why the learned absence is not given to an id when the frame of the ids the tool answered
    with success (their common prefix up to a separator, common suffix from one) splits the
    recorded 4xx answers: every id answered with the learned status on one side, every id answered
    with another 4xx on the other, and the wanted id on that other side. Synapse answers 404 to
    ``@nobody:capenv.test`` and 400 ("Can only look up local users") to ``@someone:example.org``;
    its users are framed ``@…:capenv.test``, so ``@x:example.org`` may be refused as well."""

    def __init__(self, prefix: str, suffix: str, status: int, learned_side: bool, other: RecordedCall) -> None:
        self.prefix, self.suffix, self.status, self.learned_side, self.other = prefix, suffix, status, learned_side, other

    @classmethod
    def of(cls, view: ReadView, calls: tuple[RecordedCall, ...], beside: tuple[RecordedCall, ...]) -> _Frame | None:
        """The frame, where it splits the recorded 4xx answers so; else None."""
        if view.absence is None:
            return None
        status = view.absence.recording.status
        prefix, suffix = _frame([_id_of(call) for call in calls if 200 <= call.response.status < 300])
        if not prefix and not suffix:
            return None
        learned = [call for call in calls if call.ordinal in set(view.absence.records)]
        others = [call for call in (*calls, *beside) if 400 <= call.response.status < 500
                  and call.response.status != status]
        learned_sides = {_fits(_id_of(call), prefix, suffix) for call in learned}
        other_sides = {_fits(_id_of(call), prefix, suffix) for call in others}
        if not others or len(learned_sides) != 1 or len(other_sides) != 1 or learned_sides == other_sides:
            return None
        return cls(prefix, suffix, status, next(iter(learned_sides)), others[0])

    def outside(self, wanted: str) -> str | None:
        """Why ``wanted`` (percent-decoded) is not given the learned absence, or None."""
        side = _fits(wanted, self.prefix, self.suffix)
        if side == self.learned_side:
            return None
        frame, other = f"{self.prefix}…{self.suffix}", self.other
        where = "outside" if not side else "inside"
        return (f'nothing was recorded for "{wanted}": the ids the application answered with success are framed '
                f'"{frame}"; it answered {self.status} as missing only to ids {"inside" if side is False else "outside"} '
                f'that frame and {other.response.status} to "{_id_of(other)}" (record {other.ordinal}) {where} it, as '
                f'"{wanted}" is, so its answer to "{wanted}" is not known')


def _frame(ids: list[str]) -> tuple[str, str]:
    """The common prefix of ``ids`` cut after its last separator (not a letter or digit) and their
    common suffix cut before its first: ``@ann:example.org``, ``@bo:example.org`` -> ``@``, ``:example.org``."""
    if len(ids) < 2:
        return "", ""
    prefix = os.path.commonprefix(ids)
    suffix = os.path.commonprefix([value[::-1] for value in ids])[::-1]
    cut = max((i for i, c in enumerate(prefix) if not c.isalnum()), default=-1)
    prefix = prefix[:cut + 1]
    cut = next((i for i, c in enumerate(suffix) if not c.isalnum()), len(suffix))
    return prefix, suffix[cut:]


def _fits(value: str, prefix: str, suffix: str) -> bool:
    return value.startswith(prefix) and value.endswith(suffix) and len(value) >= len(prefix) + len(suffix)
