"""A start time's fast path reads and refuses exactly what dateutil's isoparse does."""

from __future__ import annotations

from datetime import timezone

import pytest
from dateutil.parser import isoparse

from capenv.interpreter.evidence.instants import parse_har_instant


def _read(parse, value):
    try:
        return parse(value).astimezone(timezone.utc)
    except (ValueError, OverflowError):
        return "refused"


@pytest.mark.parametrize("value", [
    "2026-11-30T13:00:06.094Z", "2026-11-30T13:00:06Z", "2026-11-30T13:00:06.5+02:00",
    "2026-11-30T13:00:06.123456-05:30", "2026-11-30T24:00:00Z",  # isoparse takes hour 24 as midnight
    "2026-11-30T13:00:06+12:76",  # fromisoformat would take minute 76 of an offset; isoparse refuses
    "2026-02-30T13:00:06Z", "2026-11-30T13:00:60Z", "2026-11-30T13:00:06.1234567Z", "2026-11-30 13:00:06Z",
    "2026-11-30T13:00:06", "٢٠٢٦-11-30T13:00:06Z",
])
def test_reads_and_refuses_as_isoparse(value):
    assert _read(parse_har_instant, value) == _read(isoparse, value)
