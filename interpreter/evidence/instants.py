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
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from dateutil.parser import isoparse

from .errors import EntryProblem, show

_TIMING_PHASES = ("blocked", "dns", "connect", "send", "wait", "receive")
"""HAR 1.2's phases that add up to ``time`` (``ssl`` lies inside ``connect``)."""


@dataclass(frozen=True)
class TimingConvention:
    """How a recorder's entry gives the moment its answer ended (the ``har-timings`` table).

    ``end="time"``: start + ``time`` ms, as HAR 1.2 says. ``end="phases"``: start + the sum of
    ``phases`` (the phases the recorder spent after the entry's start), falling back on
    ``time`` when the entry has none of them."""

    rule_id: str | None = None
    end: str = "time"
    phases: tuple[str, ...] = ()


HAR_TIME = TimingConvention()

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


def entry_finished_at(entry: dict[str, Any], started_at: datetime,
                      convention: TimingConvention = HAR_TIME) -> datetime:
    """When the entry's answer ended, read as ``convention`` says; with ``time`` missing or
    negative, start + the sum of the non-negative HAR 1.2 phases; else the start itself."""
    milliseconds = _phases_sum(entry, convention.phases) if convention.end == "phases" else None
    if milliseconds is None:
        milliseconds = entry.get("time")
    if not _non_negative_number(milliseconds):
        milliseconds = _phases_sum(entry, _TIMING_PHASES) or 0
    try:
        return started_at + timedelta(milliseconds=milliseconds)
    except OverflowError:
        raise EntryProblem(f"time {show(milliseconds)} ms ends after the last representable date") from None


def _phases_sum(entry: dict[str, Any], phases: tuple[str, ...]) -> float | None:
    """The sum of the named non-negative phases of ``timings``; None when it has none of them."""
    timings = entry.get("timings")
    if not isinstance(timings, dict):
        return None
    values = [value for value in (timings.get(name) for name in phases) if _non_negative_number(value)]
    return sum(values) if values else None


def _non_negative_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0
