"""A HAR start time read as dateutil's ``isoparse`` reads it, faster for the usual spelling.

Browsers and recorders write ``2026-11-30T13:00:06.094Z`` (or an offset); the standard
library's ``fromisoformat`` reads that spelling to the same instant several times faster, and
parsing start times was a sizeable part of reading a capture. Anything else, and anything
``fromisoformat`` refuses (an hour of 24, say), goes to ``isoparse``, so what is accepted
and what is refused stay exactly as before.
"""

from __future__ import annotations

import re
from datetime import datetime

from dateutil.parser import isoparse

_USUAL = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)", re.ASCII)


def parse_har_instant(value: str) -> datetime:
    """The instant ``value`` names (raises ``ValueError`` or ``OverflowError`` as ``isoparse`` does)."""
    if _USUAL.fullmatch(value):
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            pass  # isoparse decides, and words the refusal
    return isoparse(value)
