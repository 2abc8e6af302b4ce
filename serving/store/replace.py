"""Replacing whole subject types at once: what data/reset and data/add install (issue 11).

A replace is a commit of its own kind. Its big part, every new state encoded and the request
digest taken, is prepared first (``prepare_replace``: no lock, any thread, nothing read or
written); committing it (``Store.commit_replace``) is then the small part, under the provider's
lock or in one transaction: check the expectations, then make the named types hold exactly the
prepared states, each at the one revision the caller names, with one history entry each under
the envelope's record id. Whatever those types held before is forgotten (every history entry,
every tombstone, and every record id no history entry names any more), as ``Store.compact``
would after a commit that wrote the same states. The revision must be higher than every revision
the types hold, so no subject's revisions go back, and a reader holding an older copy cannot
mistake the new state for the one it holds.

A provider that cannot replace (``Store.replaces_whole`` false) leaves its caller to commit the
difference as an ordinary batch and compact after.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from capenv.interpreter.bundle import jsonvalue
from capenv.serving.store.batch import SubjectKey, check_finite, encode_state
from capenv.serving.store.contract import Expect, RecordEnvelope, RevisionConflict, SubjectWrite, require_text

REPLACE_WRITES = "[]"
"""What the SQL providers keep as a replace's list of writes: none (its rows are every subject of
its types)."""


@dataclass(frozen=True, slots=True)
class PreparedReplace:
    """A replace ready to commit: the types it replaces, each new subject's JSON text (sorted by
    key), and the digest so far (an exact retry of its record id must repeat the whole digest;
    the few rows only known at commit, ``extra``, are added to it then, and take the place of a
    prepared row of the same subject; so is the envelope, as it is then: a replace prepared ahead
    is dated when it commits, ``state/commits.redate``)."""

    envelope: RecordEnvelope
    subject_types: frozenset[str]
    rows: dict[SubjectKey, str]
    hashed: Any  # hashlib's sha256 over the types and ``rows``

    @property
    def record_id(self) -> str:
        return self.envelope.record_id

    def finish(self, extra: Mapping[SubjectKey, dict[str, Any]]) -> tuple[dict[SubjectKey, str], bytes]:
        """``extra``'s rows encoded (one of ``rows`` they name is replaced by theirs), and the
        replace's digest (over both, and the envelope)."""
        hashed = self.hashed.copy()
        extra_rows = _encode_rows(self.subject_types, extra, None, hashed)
        hashed.update(jsonvalue.canonical({"envelope": self.envelope.to_json()}))
        return extra_rows, hashed.digest()


@dataclass(frozen=True, slots=True)
class ReplaceCommit:
    """An accepted replace: every subject of ``subject_types`` it wrote is at ``revision``."""

    envelope: RecordEnvelope
    subject_types: frozenset[str]
    revision: int

    @property
    def record_id(self) -> str:
        return self.envelope.record_id


class StaleRevision(RevisionConflict):
    """The revision a replace named is not above every revision its types hold: nothing written."""

    def __init__(self, revision: int, held: int) -> None:
        self.revision, self.held = revision, held
        Exception.__init__(self, f"a replace at revision {revision} would not move past revision {held}, "
                                 "which its types already hold; name a higher revision")


def prepare_replace(envelope: RecordEnvelope, subject_types: Iterable[str],
                    states: Mapping[SubjectKey, dict[str, Any]],
                    encoded: Mapping[SubjectKey, bytes] | None = None) -> PreparedReplace:
    """Validate and encode a replace (``encoded``: states already encoded with the exact codec,
    reused as they are). Raises ``TypeError`` or ``ValueError``."""
    if not isinstance(envelope, RecordEnvelope):
        raise TypeError(f"envelope must be a RecordEnvelope, not {type(envelope).__name__}")
    types = frozenset(require_text("subject_type", t) for t in subject_types)
    if not types:
        raise ValueError("a replace names at least one subject type")
    hashed = hashlib.sha256(jsonvalue.canonical({"replace": sorted(types)}))  # the envelope: in ``finish``
    return PreparedReplace(envelope, types, _encode_rows(types, states, encoded, hashed), hashed)


def _encode_rows(types: frozenset[str], states: Mapping[SubjectKey, dict[str, Any]],
                 encoded: Mapping[SubjectKey, bytes] | None, hashed: Any) -> dict[SubjectKey, str]:
    rows: dict[SubjectKey, str] = {}
    for key in sorted(states):
        subject_type, subject_id = key
        if subject_type not in types:
            raise ValueError(f"{subject_type}/{subject_id} is not of a type the replace names")
        write = SubjectWrite(subject_type, subject_id, Expect.absent(), states[key])  # checks the key and state
        given = encoded.get(key) if encoded is not None else None
        if given is None:
            text = encode_state(write)
        else:
            text = given.decode("utf-8")
            check_finite(write, text)
        rows[key] = text
        hashed.update(jsonvalue.canonical([subject_type, subject_id]))
        hashed.update(text.encode("utf-8"))
    return rows


def check_expectations(expect: Mapping[SubjectKey, Expect], live_revision: Any) -> None:
    """Raise ``RevisionConflict`` for the first expectation ``live_revision(key)`` does not meet."""
    for key, wanted in expect.items():
        found = live_revision(key)
        if wanted.number != found:
            raise RevisionConflict(key[0], key[1], wanted, found)
