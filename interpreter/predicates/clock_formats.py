"""Clock formats: how a recorded instant is written, learned from the value itself.

The seed keeps a clock's format ("ISO-8601 with its separator, fraction digits and zone, or
epoch seconds or milliseconds"), so a served clock is spelled as the application spelled it.
``learn_clock_format`` reads a recorded value into a ``ClockFormat`` (the serving contract);
``parse_instant`` reads a value as an aware UTC instant; ``format_instant`` writes an instant
back, so a learned format can be checked by a round trip. Creates and updates both use these.

Pure functions, no I/O. Parsing goes through python-dateutil's ``isoparse``.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime, parsedate_to_datetime
from typing import Any

from dateutil.parser import isoparse

from capenv.interpreter.bundle.js_dates import format_js_date, parse_js_date
from capenv.interpreter.bundle.jsonvalue import integral
from capenv.interpreter.bundle.op_params import ClockFormat

# A timestamp, not a date: the format must be able to say where every part goes. Minutes
# without seconds, week dates and ordinal dates are not clocks the contract can write back.
_ISO = re.compile(
    r"^(?P<date>\d{4}-\d{2}-\d{2})(?P<sep>[T ])(?P<time>\d{2}:\d{2}:\d{2})"
    r"(?:\.(?P<fraction>\d{1,9}))?(?P<zone>Z|[+-]\d{2}:\d{2}|[+-]\d{4})?$"
)
_DIGITS = re.compile(r"^[0-9]+$")

_LIMITS: dict[str, Any] = {}
"""The ``clocks`` settings (rules/clocks.yaml): epoch magnitudes and years that make a clock."""


def configure_clocks(settings: dict[str, Any]) -> None:
    """Use a rule set's ``clocks`` settings (the pipeline calls this with the build's rules)."""
    _LIMITS.clear()
    _LIMITS.update(settings)


def clock_limit(name: str) -> Any:
    if not _LIMITS:
        from capenv.interpreter.rules_engine import load_rules

        configure_clocks(load_rules().settings["clocks"])
    return _LIMITS[name]


def learn_clock_format(value: Any) -> ClockFormat | None:
    """The format ``value`` is written in, or None when it is no timestamp the contract can write.

    ISO-8601 strings with a date, a ``T`` or space separator and whole seconds (any fraction,
    any zone spelling or none); an HTTP date (IMF-fixdate, as an HTTP ``Date`` header writes
    it: the text an instant writes back to, weekday included); JavaScript's Date text (its offset
    and zone name kept); non-negative integers (or strings of digits) as epoch seconds or
    milliseconds, told apart by magnitude. A fractional epoch number is not learned.
    """
    if isinstance(value, str):
        if _http_date(value) is not None:
            return ClockFormat(style="http-date")
        js_date = parse_js_date(value)
        if js_date is not None:
            return ClockFormat(style="js-date", zone=js_date[1], zone_name=js_date[2])
        match = _ISO.match(value)
        if match:
            if _parse_iso(value) is None:
                return None
            fraction = match.group("fraction") or ""
            return ClockFormat(style="iso", separator=match.group("sep"), fraction_digits=len(fraction),
                               zone=match.group("zone") or "")
        if _DIGITS.match(value) and not (len(value) > 1 and value.startswith("0")):
            return _epoch_format(int(value), as_string=True)
        return None
    integer = _plain_integer(value)
    if integer is None:
        return None
    return _epoch_format(integer, as_string=False)


def _epoch_format(number: int, *, as_string: bool) -> ClockFormat | None:
    if number < 0 or number >= clock_limit("epoch_limit"):
        return None
    style = "epoch-milliseconds" if number >= clock_limit("epoch_milliseconds_from") else "epoch-seconds"
    return ClockFormat(style=style, as_string=as_string)


def _plain_integer(value: Any) -> int | None:
    return integral(value)


def parse_instant(value: Any, fmt: ClockFormat | None = None) -> datetime | None:
    """``value`` as an aware UTC instant in ``fmt`` (learned from the value when not given).

    A recorded timestamp without a zone is read as UTC: the capture cannot say which zone the
    server meant, and the recorder's own start times are kept in UTC.
    """
    fmt = fmt or learn_clock_format(value)
    if fmt is None:
        return None
    if fmt.style == "iso":
        return _parse_iso(value) if isinstance(value, str) else None
    if fmt.style == "http-date":
        return _http_date(value) if isinstance(value, str) else None
    if fmt.style == "js-date":
        js_date = parse_js_date(value) if isinstance(value, str) else None
        return js_date[0] if js_date is not None else None
    number = _plain_integer(value) if not isinstance(value, str) else (int(value) if _DIGITS.match(value) else None)
    if number is None:
        return None
    seconds = number / 1000 if fmt.style == "epoch-milliseconds" else number
    try:
        return datetime.fromtimestamp(seconds, tz=timezone.utc)
    except (OverflowError, OSError, ValueError):
        return None


def parse_date_or_time(value: Any) -> datetime | None:
    """A date (``2024-05-01``, read as its UTC midnight) or any ISO-8601 time, as a UTC instant.

    Wider than ``parse_instant``: the named-constant derivation compares a sent date with a
    stored time ("an end date stored as a time in another zone"), and a date is no clock.
    """
    if not isinstance(value, str) or len(value) < 10 or not value[:4].isdigit():
        return parse_instant(value)
    return _parse_iso(value)


def is_epoch(fmt: ClockFormat) -> bool:
    """An epoch format: any integer reads as some instant in it, so a count may look like one."""
    return fmt.style.startswith("epoch")


def _http_date(text: str) -> datetime | None:
    """The instant an IMF-fixdate names, or None for any other text (the obsolete RFC 850 and
    asctime forms, another zone, a weekday the date does not fall on)."""
    try:
        moment = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if moment.tzinfo is None:
        return None
    moment = moment.astimezone(timezone.utc)
    return moment if format_datetime(moment, usegmt=True) == text else None


def _parse_iso(text: str) -> datetime | None:
    try:
        moment = isoparse(text)
    except (ValueError, OverflowError):
        return None
    if moment.tzinfo is None:
        return moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)


def format_instant(moment: datetime, fmt: ClockFormat) -> str | int:
    """``moment`` written in ``fmt``: what serving writes for a clock learned as ``fmt``."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    if fmt.style == "http-date":
        return format_datetime(moment.astimezone(timezone.utc), usegmt=True)
    if fmt.style == "js-date":
        return format_js_date(moment, fmt.zone, fmt.zone_name)
    if fmt.style != "iso":
        seconds = moment.timestamp()
        number = int(seconds * 1000) if fmt.style == "epoch-milliseconds" else int(seconds)
        return str(number) if fmt.as_string else number
    local = moment.astimezone(_zone_of(fmt.zone))
    text = local.strftime(f"%Y-%m-%d{fmt.separator}%H:%M:%S")
    if fmt.fraction_digits:
        text += "." + f"{local.microsecond:06d}".ljust(fmt.fraction_digits, "0")[: fmt.fraction_digits]
    return text + fmt.zone


def _zone_of(zone: str) -> timezone:
    if zone in ("", "Z"):
        return timezone.utc
    sign = -1 if zone[0] == "-" else 1
    digits = zone[1:].replace(":", "")
    return timezone(sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:4])))


def seconds_between(value: datetime, reference: datetime) -> float:
    """``value - reference`` in seconds, both read as UTC when naive."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    if reference.tzinfo is None:
        reference = reference.replace(tzinfo=timezone.utc)
    return (value - reference).total_seconds()
