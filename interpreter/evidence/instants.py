"""When a HAR entry started and finished (``entry_started_at``, ``entry_finished_at``).

A start time is read as dateutil's ``isoparse`` reads it, faster for the usual spelling.

Browsers and recorders write ``2026-11-30T13:00:06.094Z`` (or an offset); the standard
library's ``fromisoformat`` reads that spelling to the same instant several times faster, and
parsing start times was a sizeable part of reading a capture. Anything else, and anything
``fromisoformat`` refuses (an hour of 24, say), goes to ``isoparse``, so what is accepted
and what is refused stay exactly as before.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import Any

from dateutil.parser import isoparse

from .errors import EntryProblem, show

_TIMING_PHASES = ("blocked", "dns", "connect", "send", "wait", "receive")

_USUAL = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)", re.ASCII)


def parse_har_instant(value: str) -> datetime:
    """The instant ``value`` names (raises ``ValueError`` or ``OverflowError`` as ``isoparse`` does)."""
    if _USUAL.fullmatch(value):
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            pass  # isoparse decides, and words the refusal
    return isoparse(value)


def entry_started_at(entry: dict[str, Any]) -> datetime:
    """The entry's ``startedDateTime`` in UTC; a missing, unreadable or zoneless one is an
    ``EntryProblem``."""
    value = entry.get("startedDateTime")
    if value is None:
        raise EntryProblem("has no startedDateTime")
    try:
        if not isinstance(value, str):
            raise ValueError(value)
        moment = parse_har_instant(value)
    except (ValueError, OverflowError):
        raise EntryProblem(f"startedDateTime {show(value)} is not an ISO-8601 date") from None
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise EntryProblem(f"startedDateTime {show(value)} has no time zone (a naive time is ambiguous)")
    try:
        return moment.astimezone(timezone.utc)
    except OverflowError:
        raise EntryProblem(f"startedDateTime {show(value)} is out of range in UTC") from None


def entry_finished_at(entry: dict[str, Any], started_at: datetime) -> datetime:
    """Start + ``time`` ms, or + the sum of the non-negative timing phases, or + 0."""
    milliseconds = entry.get("time")
    if not _non_negative_number(milliseconds):
        timings = entry.get("timings")
        phases = [timings.get(name) for name in _TIMING_PHASES] if isinstance(timings, dict) else []
        milliseconds = sum(value for value in phases if _non_negative_number(value))
    try:
        return started_at + timedelta(milliseconds=milliseconds)
    except OverflowError:
        raise EntryProblem(f"time {show(milliseconds)} ms ends after the last representable date") from None


def _non_negative_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0
