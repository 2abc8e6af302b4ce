"""Update changes computed from what the entity holds: ``increment``, ``held-version``, ``stamp``,
``derived``."""

from __future__ import annotations

from decimal import Context
from typing import Any

from capenv.interpreter.bundle.jsonvalue import JsonNumber
from capenv.interpreter.bundle.op_params import DerivedParams, HeldVersionParams, IncrementParams, StampParams
from capenv.interpreter.bundle.text import strip_markup

from .context import OpContext, OpRefusal, absent, copy_json
from .registry import serving_op

_INT64_MIN = -(2**63)
_UINT64_MAX = 2**64 - 1


def exact_number(number: int) -> int | JsonNumber:
    """An integer as the exact-JSON codec holds it: ``int`` within 64 bits, else its text."""
    return number if _INT64_MIN <= number <= _UINT64_MAX else JsonNumber(str(number))


@serving_op("increment")
def increment(params: IncrementParams, ctx: OpContext) -> int | JsonNumber:
    """The held number plus ``by``, kept exact (an increment adds only to a held value)."""
    held = ctx.entity_before.get(ctx.field) if ctx.entity_before is not None else None
    if isinstance(held, int) and not isinstance(held, bool):
        return exact_number(held + params.by)
    if isinstance(held, JsonNumber):
        if held.is_integral() and "." not in held.text and "e" not in held.text.lower():
            return exact_number(int(held.value) + params.by)
        # Enough precision for every digit, so the sum is exact and writes back as it reads.
        value = held.value
        digits = max(value.adjusted(), len(str(abs(params.by)))) - min(value.as_tuple().exponent, 0) + 2
        return JsonNumber(str(Context(prec=digits).add(value, params.by)))
    raise OpRefusal(f"field {ctx.field!r} adds {params.by} to the number the entity holds, "
                    f"and the entity holds {'none' if held is None else repr(held)}")


@serving_op("held-version")
def held_version(params: HeldVersionParams, ctx: OpContext) -> int | JsonNumber:
    """The held number plus ``by``, once the call sent ``member`` as the entity holds the field:
    the application bumps a version on every update and refuses a stale one (optimistic
    concurrency), so a call naming another version is refused, never applied."""
    held = ctx.entity_before.get(ctx.field) if ctx.entity_before is not None else None
    if not isinstance(held, int) or isinstance(held, bool):
        raise OpRefusal(f"member {params.member!r} must be sent as the entity holds {ctx.field!r}, "
                        f"and the entity holds {'none' if held is None else repr(held)}")
    sent = ctx.body.get(params.member)
    if isinstance(sent, bool) or not isinstance(sent, int) or sent != held:
        raise OpRefusal(f"member {params.member!r} must be sent as the entity holds it: {held!r} "
                        "(the application refuses a stale one)")
    return exact_number(held + params.by)


@serving_op("stamp")
def stamp(params: StampParams, ctx: OpContext) -> Any:
    """The acting user, as the entity holds it under its created…by counterpart."""
    if ctx.entity_before is None or params.from_field not in ctx.entity_before:
        raise OpRefusal(f"field {ctx.field!r} stamps the acting user the entity holds at "
                        f"{params.from_field!r}, and the entity holds none")
    return copy_json(ctx.entity_before[params.from_field])


@serving_op("derived")
def derived(params: DerivedParams, ctx: OpContext) -> Any:
    """The text of the member the call sent, markup aside (Ghost's plaintext from html)."""
    if params.member not in ctx.body:
        return absent(ctx, f"body member {params.member!r}")
    if params.requires_from:
        before = ctx.entity_before or {}
        if ctx.field not in before or before[ctx.field] != params.from_value:
            raise OpRefusal(f"member {params.member!r} is served only on an entity whose {ctx.field!r} "
                            f"holds {params.from_value!r}")
    if params.value is not None:
        return copy_json(params.value)
    text = ctx.body[params.member]
    if not isinstance(text, str):
        raise OpRefusal(f"body member {params.member!r} must be a string")
    return strip_markup(text) if params.markup == "html" else text
