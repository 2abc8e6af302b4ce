"""The Evidence id: a name for a capture that changes when, and only when, its records do.

``ev-`` + the first 32 hex digits of sha256 over ``jsonvalue.canonical`` of one dict per record
holding every ``Record`` field (bodies with every ``Body`` field but the parsed ``json_value``,
which the body text already determines; datetimes as ISO-8601 with microseconds, in UTC).

Bodies are hashed as the text that was captured, byte for byte: two captures whose JSON bodies
differ only in member order or spacing get different ids. That is deliberate (exact and
simple); the id names a capture, not an equivalence class of captures. The id is a function of
the records alone, so it can be recomputed from a loaded ``Evidence``. Consequences worth
knowing: ``primary`` is a field, so choosing another primary origin gives another id; a binary
body (``text=None``) enters only through its size and flags.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import datetime, timezone
from typing import Any

from ..bundle import jsonvalue
from .records import Body, Record

ID_PREFIX = "ev-"
ID_HEX_DIGITS = 32


def evidence_id(records: Iterable[Record]) -> str:
    canonical = jsonvalue.canonical([record_fingerprint(record) for record in records])
    return ID_PREFIX + hashlib.sha256(canonical).hexdigest()[:ID_HEX_DIGITS]


def record_fingerprint(record: Record) -> dict[str, Any]:
    """Every field of the record as plain JSON data (``Body.json_value`` is excluded by its model):
    ``record.model_dump(mode="python")``, read off the frozen models' fields without dumping them."""
    data = dict(record.__dict__)
    data["request"], data["response"] = _body_fingerprint(record.request), _body_fingerprint(record.response)
    data.pop("format_suffix", None)  # the id is over the paths as sent, before spelling is read
    data["started_at"] = iso_microseconds(record.started_at)
    data["finished_at"] = iso_microseconds(record.finished_at)
    return data


def _body_fingerprint(body: Body) -> dict[str, Any]:
    data = dict(body.__dict__)
    del data["json_value"]
    return data


def iso_microseconds(moment: datetime) -> str:
    """``2026-11-30T13:00:06.094395+00:00``: always six fraction digits, always UTC."""
    if moment.tzinfo is not timezone.utc:
        moment = moment.astimezone(timezone.utc)
    return moment.isoformat(timespec="microseconds")
