"""A record's response as the bundle keeps it (a ``Recording``): what every view line and learned
absence answer is based on."""

from __future__ import annotations

from capenv.interpreter.bundle.models import Recording
from capenv.interpreter.evidence.records import Record


def recording_of(record: Record) -> Recording:
    content_type = record.header("content-type") or record.response.mime_type
    if record.response.is_json:
        return Recording(ordinal=record.ordinal, status=record.status, content_type=content_type,
                         headers=record.response_headers, body=record.response.json_value)
    return Recording(ordinal=record.ordinal, status=record.status, content_type=content_type,
                     headers=record.response_headers, body=None, is_json=False, text=record.response.text,
                     retained=record.response.retained, binary=record.response.binary)
