"""The write's clock in the format a field recorded it in: ``clock``, ``nested-clock``, ``held-clock``.

``format_instant`` writes an instant as the capture spelled its clocks (ISO-8601 with its
separator, fraction digits and zone; epoch seconds or milliseconds, as a number or a string;
an HTTP date, IMF-fixdate in GMT, whole seconds; JavaScript's Date text, whole seconds in its zone);
``parse_instant`` reads one back. Fractions are truncated, never rounded, so a value never
names a later instant than the clock.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from decimal import Decimal, InvalidOperation
from email.utils import format_datetime, parsedate_to_datetime
from functools import lru_cache
from typing import Any

from capenv.interpreter.bundle.js_dates import format_js_date, parse_js_date
from capenv.interpreter.bundle.jsonvalue import JsonNumber
from capenv.interpreter.bundle.op_params import (
    ClockFormat, ClockParams, GroupedMembersParams, HeldClockParams, NestedClockParams,
)

from .context import OpContext, OpParamsError, OpRefusal, copy_json
from .pointers import MISSING, assign, parse_pointer, resolve
from .registry import serving_op

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_ONE_MICROSECOND = timedelta(microseconds=1)
_ZONE = re.compile(r"([+-])(\d{2})(?::?(\d{2}))?")
MAX_FRACTION_DIGITS = 9


# Not a budget: a memo of a pure function, shared by every bundle the process serves and sized at import;
# no answer depends on its size (a capture spells its zones a few ways).
@lru_cache(maxsize=64)
def zone_offset(zone: str) -> timezone:
    """The offset a recorded zone spelling names: ``Z`` and ``""`` (no zone, read as UTC) are
    UTC; ``+00:00``, ``+0000``, ``+02`` or ``-05:30`` are that offset."""
    if zone in ("Z", "z", ""):
        return timezone.utc
    match = _ZONE.fullmatch(zone)
    if not match or int(match.group(2)) > 23 or int(match.group(3) or 0) > 59:
        raise OpParamsError(f"clock zone {zone!r} is not Z, an offset such as +00:00 or +0000, or empty")
    minutes = int(match.group(2)) * 60 + int(match.group(3) or 0)
    return timezone(timedelta(minutes=-minutes if match.group(1) == "-" else minutes))


def check_clock_format(clock: ClockFormat) -> None:
    """Raise ``OpParamsError`` for a format no instant can be written in (checked at load)."""
    zone_offset(clock.zone)
    if not 0 <= clock.fraction_digits <= MAX_FRACTION_DIGITS:
        raise OpParamsError(f"clock fraction_digits must be 0..{MAX_FRACTION_DIGITS}, not {clock.fraction_digits}")
    if clock.style == "iso" and len(clock.separator) != 1:
        raise OpParamsError(f"an ISO clock separator is one character, not {clock.separator!r}")
    if clock.style == "js-date" and (len(clock.zone) != 5 or not clock.zone_name
                                     or "(" in clock.zone_name or ")" in clock.zone_name):
        raise OpParamsError(f"a JavaScript Date clock needs a +hhmm zone and a zone name, not "
                            f"{clock.zone!r} {clock.zone_name!r}")


def _fraction(microsecond: int, digits: int) -> str:
    micro = f"{microsecond:06d}"
    return micro[:digits] if digits <= 6 else micro + "0" * (digits - 6)


def format_instant(instant: datetime, clock: ClockFormat) -> str | int | JsonNumber:
    """``instant`` (aware) as ``clock`` spells it: an ISO string, or epoch seconds (a number or
    string; a fraction when the format records one) or epoch milliseconds, or an HTTP date."""
    if clock.style == "http-date":
        return format_datetime(instant.astimezone(timezone.utc), usegmt=True)
    if clock.style == "js-date":
        return format_js_date(instant, clock.zone, clock.zone_name)
    if clock.style == "iso":
        offset = zone_offset(clock.zone)
        local = instant if instant.tzinfo is offset else instant.astimezone(offset)
        text = (f"{local.year:04d}-{local.month:02d}-{local.day:02d}{clock.separator}"
                f"{local.hour:02d}:{local.minute:02d}:{local.second:02d}")
        if clock.fraction_digits:
            text += "." + _fraction(local.microsecond, clock.fraction_digits)
        return text + clock.zone
    micros = (instant - EPOCH) // _ONE_MICROSECOND
    sign, micros = ("-", -micros) if micros < 0 else ("", micros)
    if clock.style == "epoch-milliseconds":
        number: Any = int(f"{sign}{micros // 1000}")
        text = str(number)
    else:
        whole, micro = divmod(micros, 1_000_000)
        if clock.fraction_digits:
            text = f"{sign}{whole}.{_fraction(micro, clock.fraction_digits)}"
            number = JsonNumber(text)
        else:
            number = int(f"{sign}{whole}")
            text = str(number)
    return text if clock.as_string else number


def parse_instant(value: Any, clock: ClockFormat) -> datetime:
    """The instant a clock value names, as an aware UTC datetime (the inverse of
    ``format_instant``). Raises ``ValueError`` when the value is not of the format's style."""
    if clock.style == "http-date":
        return _http_date(value)
    if clock.style == "js-date":
        js_date = parse_js_date(value) if isinstance(value, str) else None
        if js_date is None:
            raise ValueError(f"not a JavaScript Date text: {value!r}")
        return js_date[0]
    if clock.style == "iso":
        if not isinstance(value, str):
            raise ValueError(f"an ISO clock is a string, not {value!r}")
        parsed = datetime.fromisoformat(value)
        if parsed.tzinfo is None:  # no zone recorded: the clock is read as UTC
            parsed = parsed.replace(tzinfo=zone_offset(clock.zone))
        return parsed.astimezone(timezone.utc)
    if isinstance(value, bool) or not isinstance(value, (int, str, JsonNumber)):
        raise ValueError(f"an epoch clock is a number or a string of digits, not {value!r}")
    try:
        number = value.value if isinstance(value, JsonNumber) else Decimal(value)
    except InvalidOperation:
        raise ValueError(f"not an epoch clock: {value!r}") from None
    if not number.is_finite():
        raise ValueError(f"not an epoch clock: {value!r}")
    micros = int(number * (1_000 if clock.style == "epoch-milliseconds" else 1_000_000))  # truncates
    try:
        return EPOCH + timedelta(microseconds=micros)
    except OverflowError:
        raise ValueError(f"epoch clock out of range: {value!r}") from None


def _http_date(value: Any) -> datetime:
    """An IMF-fixdate's instant; any other spelling raises ``ValueError``."""
    if not isinstance(value, str):
        raise ValueError(f"an HTTP date is a string, not {value!r}")
    try:
        parsed = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        raise ValueError(f"not an HTTP date: {value!r}") from None
    if parsed.tzinfo is None:
        raise ValueError(f"not an HTTP date in GMT: {value!r}")
    return parsed.astimezone(timezone.utc)


def parse_write_clock(text: str) -> datetime:
    """The plan's ``write_clock`` (ISO-8601) as an aware datetime; no zone reads as UTC."""
    parsed = datetime.fromisoformat(text)
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=timezone.utc)


@serving_op("clock")
def clock(params: ClockParams, ctx: OpContext) -> Any:
    """The write's clock, in the field's recorded format."""
    return format_instant(ctx.instant, params.format)


@serving_op("nested-clock")
def nested_clock(params: NestedClockParams, ctx: OpContext) -> Any:
    """The field's object with the members at ``clocks`` set to the write's clock, every other
    member kept: the entity's own object on an update, the exemplar's (``base``) on a create."""
    if ctx.entity_before is not None:
        base = ctx.entity_before.get(ctx.field)
    else:
        base = params.base
    pointers = ", ".join(params.clocks)
    if not isinstance(base, dict):
        raise OpRefusal(f"field {ctx.field!r} takes the write's clock at {pointers}, "
                        "so the entity must hold it as an object")
    updated = copy_json(base)
    for pointer, clock_format in params.clocks.items():
        tokens = parse_pointer(pointer)
        if not tokens or resolve(updated, tokens) is MISSING:
            raise OpRefusal(f"field {ctx.field!r} takes the write's clock at {pointers}, "
                            f"so the entity's object must hold {pointer}")
        assign(updated, tokens, format_instant(ctx.instant, clock_format))
    return updated


@serving_op("grouped-members")
def grouped_members(params: GroupedMembersParams, ctx: OpContext) -> Any:
    """An update's group object (an object member of the entity holding members the call sends,
    ZenML's ``body``): the entity's own, each sent member it holds written as sent where no other
    object member of the entity, nor the entity's top, holds that name, and the members at
    ``clocks`` set to the write's clock; every other member kept."""
    entity = ctx.entity_before
    if entity is None:  # a create: the exemplar's object and the members the plan names
        if not isinstance(params.base, dict) or params.members is None:
            raise OpParamsError(f"field {ctx.field!r}: a create's group needs the exemplar's object and its members")
        updated = copy_json(params.base)
        for name in params.members:
            if name not in ctx.body:
                raise OpRefusal(f"field {ctx.field!r} takes member {name!r}, which the call must send")
            updated[name] = copy_json(ctx.body[name])
    else:
        base = entity.get(ctx.field)
        if not isinstance(base, dict):
            raise OpRefusal(f"field {ctx.field!r} takes the members sent into it, "
                            "so the entity must hold it as an object")
        updated = copy_json(base)
        for name, value in ctx.body.items():
            holders = [k for k, v in entity.items() if isinstance(v, dict) and name in v]
            if name in base and name not in entity and holders == [ctx.field]:
                updated[name] = copy_json(value)
    for pointer, clock_format in params.clocks.items():
        tokens = parse_pointer(pointer)
        if not tokens or resolve(updated, tokens) is MISSING:
            raise OpRefusal(f"field {ctx.field!r} takes the write's clock at {pointer}, "
                            "so the entity's object must hold it")
        assign(updated, tokens, format_instant(ctx.instant, clock_format))
    return updated


@serving_op("held-clock")
def held_clock(params: HeldClockParams, ctx: OpContext) -> Any:
    """The write's clock, once the call sent ``member`` as the entity holds the field: the
    application stamps it anew on every update, and refuses a stale one (Ghost's updated_at)."""
    if ctx.entity_before is None or ctx.field not in ctx.entity_before:
        raise OpRefusal(f"member {params.member!r} must be sent as the entity holds {ctx.field!r}, "
                        "and the entity holds none")
    held = ctx.entity_before[ctx.field]
    if params.member not in ctx.body or ctx.body[params.member] != held:
        raise OpRefusal(f"member {params.member!r} must be sent as the entity holds it: {held!r}")
    return format_instant(ctx.instant, params.format)
