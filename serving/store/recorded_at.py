"""The recorded-at time of a commit: strict ISO-8601, a real calendar date, an explicit zone.

The store keeps the caller's string as given (it is part of the bytes a retry must repeat), so
this module only decides whether a string is acceptable; it never normalises one.
"""

from __future__ import annotations

import re
from datetime import date

# Date, 'T', time with optional fraction, then 'Z' or a numeric offset. Uppercase separators
# only: lowercase 't'/'z', a space separator or a missing zone would make two spellings of one
# instant both acceptable, and the store compares envelopes byte for byte.
_PATTERN = re.compile(
    r"(?P<year>\d{4})-(?P<month>\d{2})-(?P<day>\d{2})"
    r"T(?P<hour>\d{2}):(?P<minute>\d{2}):(?P<second>\d{2})(?:\.\d{1,9})?"
    r"(?:Z|[+-](?P<off_hour>\d{2}):(?P<off_minute>\d{2}))"
)


def recorded_at_problem(value: object) -> str | None:
    """Why ``value`` is not an acceptable recorded-at time, or None when it is."""
    if not isinstance(value, str):
        return f"recorded_at must be a string, not {type(value).__name__}"
    match = _PATTERN.fullmatch(value)
    if match is None:
        return (f"recorded_at {value!r} is not strict ISO-8601 "
                "(YYYY-MM-DDTHH:MM:SS[.fraction] then Z or +HH:MM/-HH:MM)")
    try:
        date(int(match["year"]), int(match["month"]), int(match["day"]))
    except ValueError:
        return f"recorded_at {value!r} names no calendar date"
    if int(match["hour"]) > 23 or int(match["minute"]) > 59 or int(match["second"]) > 59:
        return f"recorded_at {value!r} names no time of day"
    if match["off_hour"] is not None and (int(match["off_hour"]) > 23 or int(match["off_minute"]) > 59):
        return f"recorded_at {value!r} has an impossible zone offset"
    return None
