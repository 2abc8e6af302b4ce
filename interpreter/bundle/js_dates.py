"""JavaScript's Date text: ``Thu Dec 03 2026 16:47:23 GMT+0000 (Coordinated Universal Time)``.

What ``Date.prototype.toString()`` writes (a Node.js application storing ``new Date().toString()``,
as Express Gateway does for ``createdAt``): weekday, month, day, year, the local time in whole
seconds, the zone's offset and its name in parentheses. The build learns the format (the offset
and the name, as recorded) and serving writes the write's clock in it, so both sides use this one
reading and writing. The weekday and month names are the English abbreviations RFC 5322 dates use
(the standard library's ``email.utils`` writes them), so a text reads only when writing its instant
back gives the same text: a weekday the date does not fall on, a missing zone name or another
spelling is no clock.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime, parsedate_to_datetime

_JS_DATE = re.compile(
    r"^(?P<weekday>[A-Z][a-z]{2}) (?P<month>[A-Z][a-z]{2}) (?P<day>\d{2}) (?P<year>\d{4}) "
    r"(?P<time>\d{2}:\d{2}:\d{2}) GMT(?P<zone>[+-]\d{4}) \((?P<name>[^()]+)\)$")


def zone_of(offset: str) -> timezone:
    """The offset ``+hhmm`` or ``-hhmm`` names."""
    minutes = int(offset[1:3]) * 60 + int(offset[3:5])
    return timezone(timedelta(minutes=-minutes if offset[0] == "-" else minutes))


def format_js_date(moment: datetime, zone: str, zone_name: str) -> str:
    """``moment`` (aware) as JavaScript's Date text in the zone ``+hhmm`` named ``zone_name``."""
    local = moment.astimezone(zone_of(zone))
    rfc = format_datetime(local)  # "Thu, 03 Dec 2026 16:47:23 +0000"
    weekday, day, month, year, time = rfc[0:3], rfc[5:7], rfc[8:11], rfc[12:16], rfc[17:25]
    return f"{weekday} {month} {day} {year} {time} GMT{zone} ({zone_name})"


def parse_js_date(text: str) -> tuple[datetime, str, str] | None:
    """``(instant in UTC, zone offset, zone name)`` of a JavaScript Date text, or None for any
    other text (including one whose weekday the date does not fall on)."""
    match = _JS_DATE.match(text) if isinstance(text, str) else None
    if match is None or int(match["zone"][1:3]) > 23 or int(match["zone"][3:5]) > 59:
        return None
    rfc = (f"{match['weekday']}, {match['day']} {match['month']} {match['year']} {match['time']} "
           f"{match['zone']}")
    try:
        moment = parsedate_to_datetime(rfc)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if moment.tzinfo is None:
        return None
    if format_js_date(moment, match["zone"], match["name"]) != text:
        return None
    return moment.astimezone(timezone.utc), match["zone"], match["name"]
